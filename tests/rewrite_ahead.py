"""``make test``'s step before the suite: pytest's rewritten test modules and hypothesis's
constants of agon's modules, written once, without collecting the suite.

The workers of ``make test`` import every test module, and pytest rewrites a test module's
``assert`` statements as it imports it, unless ``__pycache__`` holds the rewritten module
already (a ``…-pytest-….pyc``, checked against the source's hash). Three workers starting
together on a fresh clone would each rewrite all of them (about 17 s of CPU per process). This
plugin writes them first, in one process, without importing them: the same rewrite and the same
files as pytest's import hook (``_pytest.assertion.rewrite``: ``_rewrite_test`` and
``_write_pyc``, as ``AssertionRewritingHook.exec_module`` does), for every file pytest's hook
rewrites in the suite (:func:`targets`: the test files by ``python_files`` and the
``conftest.py`` files under ``testpaths``; ``tests/test_collection.py`` pins that no other module
of the suite is rewritten). The pytest plugins of the venv (hypothesis's, xdist's, anyio's) are
loaded by this process as by any pytest run, and rewritten and written by the hook itself.

Hypothesis reads the constants of the local modules a test process has imported (agon's) to
draw from, and keeps them in ``.hypothesis/constants`` by a hash of each file's source; the
first process without them parses every module (about 1.7 s of CPU). They are written here too,
with hypothesis's own function, for every module of ``src/agon`` and ``hatch_build.py`` (the
local modules the tests import).

Run it as ``python -m pytest -p tests.rewrite_ahead --noconftest`` (the Makefile's
``rewrite-tests``): it answers the command line itself, so no test is collected and no
``conftest.py`` is imported (``--noconftest``), and exits 0.
"""

from __future__ import annotations

import fnmatch
import types
import warnings
from pathlib import Path

import pytest
from _pytest.assertion import assertstate_key
from _pytest.assertion.rewrite import (
    PYC_TAIL,
    _read_pyc,
    _rewrite_test,
    _write_pyc,
    get_cache_dir,
    try_makedirs,
)

ROOT = Path(__file__).resolve().parents[1]
#: pytest's default ``norecursedirs`` that can occur in a checkout's tests folder.
SKIPPED_FOLDERS = ("__pycache__", ".*", "build", "dist", "node_modules", "venv")


def targets(config: pytest.Config) -> list[Path]:
    """The modules pytest's import hook rewrites when the suite is collected: under each of
    ``testpaths``, every ``conftest.py`` and every file matching ``python_files``."""
    patterns = config.getini("python_files")
    found: list[Path] = []
    for testpath in config.getini("testpaths") or ["."]:
        base = config.rootpath / testpath
        for path in sorted(base.rglob("*.py")):
            folders = path.relative_to(base).parts[:-1]
            if any(fnmatch.fnmatch(part, skip) for part in folders for skip in SKIPPED_FOLDERS):
                continue
            if path.name == "conftest.py" or any(
                fnmatch.fnmatch(path.name, pattern) for pattern in patterns
            ):
                found.append(path)
    return found


def rewrite(config: pytest.Config, path: Path) -> bool:
    """Write ``path``'s rewritten module where pytest's hook reads it (as
    ``AssertionRewritingHook.exec_module`` does); ``True`` if it had to be rewritten."""
    cache_dir = get_cache_dir(path)
    if not try_makedirs(cache_dir):
        return False
    pyc = cache_dir / (path.name[:-3] + PYC_TAIL)
    if _read_pyc(path, pyc) is not None:
        return False
    source_hash, code = _rewrite_test(path, config)
    _write_pyc(config.stash[assertstate_key], code, source_hash, pyc)
    return True


def local_modules() -> list[Path]:
    """The repository's modules outside the tests that a test process imports."""
    return [*sorted((ROOT / "src" / "agon").rglob("*.py")), ROOT / "hatch_build.py"]


def write_constants(modules: list[Path]) -> None:
    """Hypothesis's constants of each of ``modules`` in its cache (``.hypothesis/constants``,
    by a hash of the file's source), as a test process that imported them would write them."""
    from hypothesis.errors import HypothesisSideeffectWarning
    from hypothesis.internal.constants_ast import constants_from_module

    with warnings.catch_warnings():
        # Hypothesis warns that a plugin reads its storage as pytest starts; here that is the job.
        warnings.simplefilter("ignore", HypothesisSideeffectWarning)
        for path in modules:
            module = types.ModuleType(path.stem)
            module.__file__ = str(path)
            constants_from_module(module)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> int:
    if assertstate_key not in config.stash:  # --assert=plain: pytest rewrites nothing
        return 0
    written = sum(rewrite(config, path) for path in targets(config))
    modules = local_modules()
    write_constants(modules)
    print(f"rewrote {written} test modules; the constants of {len(modules)} modules")
    return 0
