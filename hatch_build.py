"""Hatchling build hook: compile agon's Cython cores into the agon package.

The cores are ``agon.cores.seven_wonders._core``, ``agon.cores.one_card_wonder._core`` and
``agon.cores.standings._core``
(sources ``src/agon/cores/*/_core.pyx``).  For a wheel each core is cythonized and compiled into
``build/cores/`` and forced into the wheel; for an editable install (``make``, ``uv sync``,
``pip install -e``) it is compiled in place next to its ``.pyx`` (git-ignored), and an up-to-date
module is not rebuilt.  The cores build in parallel, one thread each (Cython and the C
compiler run as subprocesses, so the threads really run at once).

With ``AGON_CORE_CACHE`` set to a folder, a compiled module is also kept there under a hash of
everything that makes it (the ``.pyx``, this file, the compiler and its version, the flags, the
Python ABI and Cython's version), and a later build of the same input copies it instead of
compiling again (like ccache): ``make`` fills ``~/.cache/agon/core-cache`` when it installs (every
clone on the machine shares it), and the test that builds a wheel (tests/test_wheel_install.py)
reads it.

Without Cython or a working C compiler the build still succeeds: the wheel is pure Python, one
note says so on stderr, and agon plays on its Python engines (the same games, slower).  Set
``AGON_REQUIRE_CORES=1`` to make a missing core an error instead (the Makefile does).
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

CORES = ("seven_wonders", "one_card_wonder", "standings")
# -O2 as before; -ffp-contract=off keeps the 7 Wonders core's float sums identical to Python's;
# no -g (debug info triples the compile time and the module size).
CFLAGS = ["-O2", "-fwrapv", "-DNDEBUG", "-ffp-contract=off"]
# The 7 Wonders core's random play is ~15% faster at -O3 (bench/seven_wonders.py, docs/seven-
# wonders.md); -O3 changes no float result (no -ffast-math, fused multiply-adds stay off).
EXTRA_CFLAGS = {"seven_wonders": ["-O3"]}


class CoreBuildError(Exception):
    """A core could not be built (no Cython, no compiler, or the compiler failed)."""


def _compiler() -> tuple[list[str], list[str]]:
    """The C compiler command and the flags that link a Python extension module."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC")
    ldshared = sysconfig.get_config_var("LDSHARED")
    if not cc or not ldshared:
        raise CoreBuildError(
            f"this Python ({sys.executable}) names no C compiler (sysconfig CC={cc!r}, LDSHARED={ldshared!r})"
        )
    cmd = shlex.split(cc)
    if shutil.which(cmd[0]) is None:
        raise CoreBuildError(f"no C compiler {cmd[0]!r} on PATH")
    link = shlex.split(ldshared)[1:]  # the flags after the compiler's name (-shared, -bundle, …)
    ccshared = shlex.split(sysconfig.get_config_var("CCSHARED") or "")
    return cmd + ccshared, link


def _run(cmd: list[str], what: str) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise CoreBuildError(f"{what} failed: {' '.join(tail) or f'exit {done.returncode}'}")


def _warm_sysconfig() -> None:
    """Fill sysconfig's cache in this thread before the builder threads read it: on Python 3.11
    its first ``get_config_vars()`` is not thread-safe, and a thread racing it sees an empty cache
    (``EXT_SUFFIX``/``CC`` None: a module named ``_coreNone`` and "no C compiler")."""
    sysconfig.get_config_vars()


def build_core(pyx: Path, out_dir: Path, reuse: bool) -> Path:
    """Cythonize and compile one core into ``out_dir``; returns the extension module's path.

    With ``reuse`` (the editable install) a module newer than its source and this file is kept.
    """
    so = out_dir / f"_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    newest_source = max(pyx.stat().st_mtime, Path(__file__).stat().st_mtime)
    if reuse and so.exists() and so.stat().st_mtime >= newest_source:
        return so
    cc, link = _compiler()
    out_dir.mkdir(parents=True, exist_ok=True)
    c_file = out_dir / "_core.c"
    try:
        import Cython
    except ImportError as e:
        raise CoreBuildError("Cython is not installed in the build environment") from e
    include = sysconfig.get_paths()["include"]
    tmp = so.with_suffix(".tmp")
    flags = [*CFLAGS, *EXTRA_CFLAGS.get(pyx.parent.name, [])]
    cached = _cached_module(pyx, cc, [*flags, f"-I{include}", *link], Cython.__version__)
    if cached is not None and cached.exists():
        shutil.copyfile(cached, tmp)
        tmp.replace(so)
        return so
    _run([sys.executable, "-m", "cython", "-3", str(pyx), "-o", str(c_file)], "cython")
    _run([*cc, *flags, f"-I{include}", str(c_file), *link, "-o", str(tmp)], "the C compiler")
    if cached is not None:  # a copy renamed into place: a reader never sees half a module
        cached.parent.mkdir(parents=True, exist_ok=True)
        part = cached.with_name(f"{cached.name}.{os.getpid()}.part")
        shutil.copyfile(tmp, part)
        part.replace(cached)
    tmp.replace(so)  # atomic: a half-written module is never imported
    return so


def _cached_module(pyx: Path, cc: list[str], flags: list[str], cython_version: str) -> Path | None:
    """Where ``AGON_CORE_CACHE`` keeps the module built from ``pyx`` by the compiler ``cc`` with
    ``flags`` (None: no cache). The name is a hash of every input of the build, the compiler's
    ``--version`` included (asked through ``cc`` itself, so that ``CC="ccache gcc"`` names gcc's)."""
    folder = os.environ.get("AGON_CORE_CACHE")
    if not folder:
        return None
    version = subprocess.run([*cc, "--version"], capture_output=True, text=True, check=False).stdout
    digest = hashlib.sha256()
    for part in (pyx.read_bytes(), Path(__file__).read_bytes()):
        digest.update(hashlib.sha256(part).digest())
    inputs = [
        cc,
        flags,
        version,
        cython_version,
        sys.version,
        sysconfig.get_config_var("EXT_SUFFIX"),
    ]
    digest.update(json.dumps(inputs).encode())
    return Path(folder) / f"{pyx.parent.name}-{digest.hexdigest()[:32]}.so"


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return  # the sdist ships the .pyx sources; nothing to compile
        root = Path(self.root)
        editable = version == "editable"
        jobs = []
        for name in CORES:
            src_dir = root / "src" / "agon" / "cores" / name
            out_dir = src_dir if editable else root / "build" / "cores" / name
            jobs.append((name, src_dir / "_core.pyx", out_dir))
        start = time.perf_counter()
        _warm_sysconfig()
        with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
            futures = [(n, pool.submit(build_core, pyx, out, editable)) for n, pyx, out in jobs]
            built: dict[str, Path] = {}
            errors: list[str] = []
            for name, fut in futures:
                try:
                    built[name] = fut.result()
                except (CoreBuildError, OSError) as e:
                    errors.append(str(e))
        if errors:
            if os.environ.get("AGON_REQUIRE_CORES") == "1":
                raise RuntimeError(f"agon: the compiled cores did not build: {errors[0]}")
            print(
                f"agon: note: the compiled cores were not built ({errors[0]}); agon will play "
                "on its Python engines (the same games, slower); rebuild with a working C "
                "compiler (Debian: gcc) for the fast cores.",
                file=sys.stderr,
            )
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if not editable:
            for name, so in built.items():
                build_data["force_include"][str(so)] = f"agon/cores/{name}/{so.name}"
        self.app.display_info(f"agon: compiled cores ready in {time.perf_counter() - start:.1f} s")


def main() -> None:
    """``python hatch_build.py``: (re)build every core in place, e.g. for a worktree run with
    ``PYTHONPATH=src`` (needs Cython and hatchling: the ``dev`` extra has them)."""
    root = Path(__file__).resolve().parent
    start = time.perf_counter()
    _warm_sysconfig()
    with ThreadPoolExecutor(max_workers=len(CORES)) as pool:
        dirs = [root / "src" / "agon" / "cores" / name for name in CORES]
        for so in pool.map(lambda d: build_core(d / "_core.pyx", d, False), dirs):
            print(so.relative_to(root))
    print(f"built in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
