"""tools/system-packages, which make run and make test call first: a library that is there is
not reported missing, however long the linker's list (no apt-get run for it)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "tools" / "system-packages"
LIBS = ("libpango-1.0.so.0", "libpangoft2-1.0.so.0", "libharfbuzz-subset.so.0")


def _fake(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/bin/bash\n" + body, encoding="utf-8")
    path.chmod(0o755)


def test_a_present_library_is_not_missing_behind_a_long_list(tmp_path: Path) -> None:
    """The libraries come first in a long ``ldconfig -p`` list (a real one is a few hundred
    lines; a pipe holds 64 KiB): a check that stops reading at its match made ldconfig die of
    SIGPIPE, which ``pipefail`` took for a missing library, every time."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    asked = tmp_path / "apt-get.log"
    listed = "".join(f"\t{lib} (libc6,x86-64) => /usr/lib/{lib}\\n" for lib in LIBS)
    _fake(bin_, "ldconfig", f"printf '{listed}'\nyes '\tlibfiller.so.1 => /x' | head -n 200000\n")
    _fake(bin_, "apt-get", f'echo "$@" >> {asked}\n')
    _fake(bin_, "id", "echo 0\n")
    _fake(bin_, "gcc", "exit 0\n")
    env = {**os.environ, "PATH": f"{bin_}:/usr/bin:/bin"}
    done = subprocess.run(
        ["bash", str(SCRIPT), "run"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    installed = asked.read_text() if asked.exists() else ""
    for package in ("libpango-1.0-0", "libpangoft2-1.0-0", "libharfbuzz-subset0"):
        assert package not in installed and package not in done.stdout, done.stdout
