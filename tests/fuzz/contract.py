"""The command line's contract under hostile input, checked on every generated example."""

from __future__ import annotations

from collections.abc import Sequence

from click.testing import CliRunner, Result

from agon.cli import cli

#: Commands whose exit code 1 is documented: ``agon verify`` on a MISMATCH (docs/verify.md).
EXIT_1_DOCUMENTED = {"verify"}


def invoke(args: Sequence[str], *, stdin: bytes | str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin, prog_name="agon")


def check_contract(args: Sequence[str], result: Result) -> None:
    """0 (done), 2 or 3 (refused as bad input or a conflict, with ONE line ``agon: error: …``),
    1 only where documented; never a traceback or an unexpected exception (docs/cli.md)."""
    output = result.stdout + result.stderr
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        raise AssertionError(f"agon {list(args)!r} raised {type(exc).__name__}: {exc}") from exc
    assert "Traceback" not in output, (args, output)
    allowed = {0, 2, 3} | ({1} if args and args[0] in EXIT_1_DOCUMENTED else set())
    assert result.exit_code in allowed, (args, result.exit_code, output[-500:])
    if result.exit_code in (2, 3):
        err = result.stderr
        assert err.startswith("agon: error: "), (args, err[-500:])
        assert err.count("\n") == 1, (args, err[-500:])
