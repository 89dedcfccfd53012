"""The build hook's cache of compiled cores (hatch_build.py, ``AGON_CORE_CACHE``): a module built
once is copied for the same inputs, and any changed input compiles anew; the profile-guided
rebuild (``pgo_core``): trained once, cached, and a failure keeps the plain module."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import hatch_build
import pytest

from agon.cores import build_of

PYX = "def answer():\n    return {value}\n"


def _load(so: Path) -> object:
    spec = importlib.util.spec_from_file_location("_core", so)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.answer()  # type: ignore[attr-defined]


def test_the_same_inputs_are_copied_and_a_changed_source_compiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("AGON_CORE_CACHE", str(cache))
    source = tmp_path / "tiny" / "_core.pyx"
    source.parent.mkdir()
    source.write_text(PYX.format(value=41), encoding="utf-8")
    runs: list[str] = []
    real_run = hatch_build._run

    def counting_run(cmd: list[str], what: str) -> None:
        runs.append(what)
        real_run(cmd, what)

    monkeypatch.setattr(hatch_build, "_run", counting_run)
    first = hatch_build.build_core(source, tmp_path / "a", reuse=False)
    assert runs == ["cython", "the C compiler"] and len(list(cache.iterdir())) == 1
    assert _load(first) == 41

    second = hatch_build.build_core(source, tmp_path / "b", reuse=False)
    assert runs == ["cython", "the C compiler"]  # copied from the cache: nothing compiled
    assert second.read_bytes() == first.read_bytes()

    source.write_text(PYX.format(value=42), encoding="utf-8")
    third = hatch_build.build_core(source, tmp_path / "c", reuse=False)
    assert runs.count("cython") == 2 and len(list(cache.iterdir())) == 2
    assert third.read_bytes() != first.read_bytes()


def test_without_the_variable_there_is_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGON_CORE_CACHE", raising=False)
    assert hatch_build._cached_module(Path(hatch_build.__file__), ["cc"], ["-O2"], "3.3") is None


# ------------------------------------------------------------------ the profile-guided build
PGO_PYX = """
def answer(int n):
    cdef long total = 0
    cdef int i
    for i in range(n):
        total += i % 7 if i % 3 else i // 5
    return total
"""

TRAINER = """
import importlib.util, sys

def load(path):
    spec = importlib.util.spec_from_file_location("_core", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

if sys.argv[1] == "--compare":
    sys.exit(0 if load(sys.argv[2]).answer(1000) == load(sys.argv[3]).answer(1000) {cheat} else 1)
sys.exit({status} if load(sys.argv[1]).answer(100_000) else 3)
"""


def _pgo_setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, status: int = 0, cheat: str = ""
) -> tuple[Path, Path, Path, list[str]]:
    """A tiny core built plain in ``tmp_path/a``, a trainer, a data folder, and the list of
    the build steps run (hatch_build._run counted)."""
    monkeypatch.setenv("AGON_CORE_CACHE", str(tmp_path / "cache"))
    # -O0: the same steps, a third of the compile time (Cython's boilerplate dominates the C)
    monkeypatch.setattr(hatch_build, "CFLAGS", ["-O0", "-DNDEBUG"])
    source = tmp_path / "tiny" / "_core.pyx"
    source.parent.mkdir()
    source.write_text(PGO_PYX, encoding="utf-8")
    trainer = tmp_path / "train.py"
    trainer.write_text(TRAINER.format(status=status, cheat=cheat), encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    (data / "table.toml").write_text("x = 1\n", encoding="utf-8")
    runs: list[str] = []
    real_run = hatch_build._run

    def counting_run(
        cmd: list[str], what: str, env: dict[str, str] | None = None, timeout: float | None = None
    ) -> None:
        runs.append(what)
        real_run(cmd, what, env, timeout)

    monkeypatch.setattr(hatch_build, "_run", counting_run)
    return source, trainer, data, runs


def _answer(so: Path) -> object:
    spec = importlib.util.spec_from_file_location("_core", so)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.answer(1000)  # type: ignore[attr-defined]


def test_a_profile_guided_build_replaces_the_plain_one_and_is_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, trainer, data, runs = _pgo_setup(tmp_path, monkeypatch)
    plain = hatch_build.build_core(source, tmp_path / "a", reuse=False)
    plain_bytes = plain.read_bytes()
    expected = _answer(plain)
    assert build_of(plain) == "plain"
    runs.clear()

    assert hatch_build.pgo_core(source, plain, trainer, data) == "profile-guided"
    assert runs == [
        "cython",
        "the instrumented build",
        "the training run",
        "the profile-guided build",
        "the check against the plain module",
    ]
    assert plain.read_bytes() != plain_bytes and _answer(plain) == expected
    assert build_of(plain) == "profile-guided"
    assert len(list((tmp_path / "cache").glob("tiny-pgo-*.so"))) == 1

    # a second clone: the plain build and the profile-guided one copied, nothing trained
    runs.clear()
    second = hatch_build.build_core(source, tmp_path / "b", reuse=False)
    assert build_of(second) == "plain"
    assert hatch_build.pgo_core(source, second, trainer, data) == "profile-guided"
    assert runs == [] and second.read_bytes() == plain.read_bytes()
    assert build_of(second) == "profile-guided"

    # a changed data file (or trainer) trains again; the plain module rebuilt in place forgets
    (data / "table.toml").write_text("x = 2\n", encoding="utf-8")
    runs.clear()
    assert hatch_build.pgo_core(source, second, trainer, data) == "profile-guided"
    assert "the training run" in runs
    assert len(list((tmp_path / "cache").glob("tiny-pgo-*.so"))) == 2
    again = hatch_build.build_core(source, tmp_path / "b", reuse=True)
    assert again.read_bytes() == plain_bytes and build_of(again) == "plain"


@pytest.mark.parametrize(
    ("status", "cheat", "failed"),
    [(1, "", "the training run"), (0, "and False", "the check against the plain module")],
)
def test_a_failed_training_or_check_keeps_the_plain_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, status: int, cheat: str, failed: str
) -> None:
    source, trainer, data, _ = _pgo_setup(tmp_path, monkeypatch, status, cheat)
    plain = hatch_build.build_core(source, tmp_path / "a", reuse=False)
    plain_bytes = plain.read_bytes()
    build = hatch_build.pgo_core(source, plain, trainer, data)
    assert build.startswith(f"plain ({failed} failed")
    assert plain.read_bytes() == plain_bytes
    assert build_of(plain).startswith(f"plain (the profile-guided build failed: {failed} failed")
    assert list((tmp_path / "cache").glob("tiny-pgo-*.so")) == []


def test_the_installed_seven_wonders_core_is_profile_guided_when_make_built_it() -> None:
    """make's installs (AGON_CORE_PGO=1) leave a note beside the module; when there is one, the
    module must be the profile-guided build it names (not a plain fall-back, not a stale note)."""
    core = pytest.importorskip("agon.cores.seven_wonders._core")
    so = Path(core.__file__)
    if not (so.parent / hatch_build.BUILD_NOTE).exists():
        pytest.skip("not built by make (no profile-guided build was tried)")
    assert build_of(so) == "profile-guided"
