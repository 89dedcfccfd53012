"""``agon`` in the test process: the command line's one entry point (``cli.main``, with its error
contract) through Click's runner, without starting an interpreter per command.

A new Python process costs a second or more of start-up (more under coverage); the tests that are
about the process itself — start-up, ``python -m agon``, signals, a terminal, piping — still start
one (tests/test_cli.py, tests/commands/test_fast_start.py, tests/commands/test_progress_and_
completion.py, tests/store/test_first_use.py, tests/test_extras.py, tests/test_wheel_install.py,
the unreachable Ray cluster in tests/games/test_balance.py).
Everything else about a command — its output, its exit code, its one-line errors — is the same in
process, and is checked here at a fraction of the cost.
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Mapping
from pathlib import Path

from click.testing import CliRunner

from agon.cli import cli


def run_agon(
    *args: str | Path,
    stdin: str | bytes | None = None,
    cwd: str | Path | None = None,
    env: Mapping[str, str | None] | None = None,
) -> CompletedAgon:
    """Run ``agon ARGS`` in process; the result looks like ``subprocess.run``'s (``returncode``,
    ``stdout``, ``stderr`` as text). ``env`` sets (or, with ``None``, removes) variables for the
    command only; ``cwd`` is the working directory it runs in."""
    argv = [str(a) for a in args]
    with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
        result = CliRunner().invoke(cli, argv, input=stdin, env=env, prog_name="agon")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        # a real process would print a traceback and exit 1: keep that visible to the test
        trace = "".join(traceback.format_exception(result.exception))
        return CompletedAgon(argv, 1, result.stdout, result.stderr + trace)
    return CompletedAgon(argv, result.exit_code, result.stdout, result.stderr)


class CompletedAgon:
    """What :func:`run_agon` returns: the fields of ``subprocess.CompletedProcess[str]``."""

    def __init__(self, args: list[str], returncode: int, stdout: str, stderr: str) -> None:
        self.args = args
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    def __repr__(self) -> str:
        return f"CompletedAgon(args={self.args!r}, returncode={self.returncode})"
