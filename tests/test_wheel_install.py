"""Issue 13, "Done when": ``uv build``, then ``pip install`` of the wheel into a clean virtualenv
gives a working ``agon`` whose compiled cores play (``agon 7w simulate --engine native``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str | Path], **kw: object) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=1800,
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.slow
def test_the_built_wheel_installs_into_a_clean_venv_and_plays_natively(tmp_path: Path) -> None:
    uv = Path(sys.executable).parent / "uv"
    uv_cmd: list[str | Path] = [uv] if uv.exists() else [sys.executable, "-m", "uv"]
    source = tmp_path / "src"  # a copy without build products: the wheel builds its own cores
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "var", "dist", "build", "*.so", "_core.c", "__pycache__", ".*cache"
        ),
    )
    # under make, the modules it compiled for the editable install, when their inputs are the
    # same (hatch_build.py: AGON_CORE_CACHE, a hash of every input); else the wheel compiles its own
    built = _run([*uv_cmd, "build", "--out-dir", tmp_path / "dist"], cwd=source)
    assert built.returncode == 0, built.stderr[-3000:]
    wheels = list((tmp_path / "dist").glob("agon-*.whl"))
    assert len(wheels) == 1 and "py3-none-any" not in wheels[0].name  # a platform wheel: cores
    venv = tmp_path / "venv"
    made = _run([shutil.which("python3") or sys.executable, "-m", "venv", venv])
    assert made.returncode == 0, made.stderr
    installed = _run(
        [
            venv / "bin" / "python",
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            wheels[0],
        ]
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    played = _run(
        [venv / "bin" / "agon", "7w", "simulate", "--engine", "native", "--games", "50", "--json"],
        cwd=tmp_path,
    )
    assert played.returncode == 0, played.stderr[-3000:]
    doc = json.loads(played.stdout)
    assert doc["engine"] == "native" and doc["games"] == 50
    assert sum(seat["wins"] for seat in doc["seats"]) == pytest.approx(50)
    cores = _run([venv / "bin" / "python", "-c", "import agon.cores.seven_wonders._core as c, "
                  "agon.cores.one_card_wonder._core as o; print(c.__file__, o.__file__)"])  # fmt: skip
    assert cores.returncode == 0 and str(venv) in cores.stdout, cores.stderr
