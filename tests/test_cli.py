"""The command-line face: help, version and the error contract (one line, exit code 2)."""

from __future__ import annotations

import subprocess
import sys


def run_agon(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agon", *args], capture_output=True, text=True, check=False
    )


def test_help_lists_and_exits_zero() -> None:
    proc = run_agon("--help")
    assert proc.returncode == 0
    assert "Usage" in proc.stdout


def test_unknown_command_is_usage_error_exit_2() -> None:
    proc = run_agon("no-such-command")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
