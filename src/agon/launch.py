"""The ``agon`` command's entry point: ``agon standings FILE`` and the director's reads of a
SQLite database without click, everything else by :func:`agon.cli.main`.

Importing click and the command modules costs about as much CPU as the compiled core needs to
score a 10,000-player event (issue 30). So the plain form ``agon standings FILE`` (no option) is
tried first by :func:`agon.tournament.quick_table.table_bytes` (the common file, with the fewest
imports: no pathlib, typing or ruleset reader), then by
:func:`agon.commands._standings_text.table_of_file`, which imports neither click nor the Python
standings; where that gives no table (a file the one pass does not read, any
error, output click would treat differently), :func:`agon.cli.main` runs the command as always —
same output, same one-line errors and exit codes, just without the head start.

Likewise ``agon tournament list``, ``agon round show [NUMBER]`` and ``agon tournament
standings`` (with ``-t SLUG`` or none) are tried first by
:func:`agon.commands.fast_reads.answer`, which reads a SQLite database without SQLAlchemy (whose
import alone costs more CPU than the rest of these commands) and hands every case it is not sure
of to :func:`agon.cli.main`.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it as True)
if TYPE_CHECKING:
    from typing import Any

#: Exit code of a closed pipe (:data:`agon.errors.EXIT_BROKEN_PIPE`; not imported: that is the
#: point of this module).
_BROKEN_PIPE = 141
_INTERRUPTED = 130


def main(argv: list[str] | None = None) -> Any:
    """The console script and ``python -m agon``: the command line's standings table fast (as
    the module docstring says), else :func:`agon.cli.main` with ``argv``."""
    if argv is None and _plain_standings(sys.argv[1:]) and _print_table(sys.argv[2]):
        return None
    if argv is None and _fast_read(sys.argv[1:]):
        return None
    from agon.cli import main as cli_main

    return cli_main(argv)


def _fast_read(args: list[str]) -> bool:
    """Print what a director's read prints, from a SQLite database without SQLAlchemy or click
    (:func:`agon.commands.fast_reads.answer`; True), else print nothing (False)."""
    if not args or args[0] not in ("tournament", "round") or not _utf8():
        return False
    try:
        from agon.commands.fast_reads import answer

        text = answer(args)
    except KeyboardInterrupt:
        sys.stderr.write("agon: aborted\n")
        sys.exit(_INTERRUPTED)
    except Exception:  # every problem: the command names it its own way
        return False
    return text is not None and _write(text)


def _utf8() -> bool:
    """Whether standard output is UTF-8 (else click may re-encode: let it)."""
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return encoding == "utf8"


def _write(text: str) -> bool:
    """Write ``text`` as click.echo would, or nothing (False) where click would change it (it
    strips terminal escapes off a pipe)."""
    if "\x1b" in text:
        return False
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        sys.exit(_BROKEN_PIPE)
    return True


def _plain_standings(args: list[str]) -> bool:
    """``standings FILE`` and nothing else, FILE text that click would take as it is."""
    if len(args) != 2 or args[0] != "standings":
        return False
    path = args[1]
    return bool(path) and not path.startswith("-") and path.isprintable()


def _print_table(path: str) -> bool:
    """Print the standings table of the event file ``path`` if the one pass gives it (True);
    False, having printed nothing, where :func:`agon.cli.main` should run the command."""
    if not _utf8():
        return False  # click may re-encode: let it
    import gc

    gc.disable()  # a big file builds many objects, all kept: collecting finds nothing
    printed = False
    try:
        from agon.tournament.quick_table import table_bytes

        data = table_bytes(path)
        if data is not None:
            printed = _write_bytes(data + b"\n")
            return printed
        from pathlib import Path

        from agon.commands._standings_text import table_of_file

        text = table_of_file(Path(path))
    except KeyboardInterrupt:
        sys.stderr.write("agon: aborted\n")
        sys.exit(_INTERRUPTED)
    except Exception:  # every problem: the command line names it its own way
        return False
    finally:
        if printed:  # what is left lives to the exit, whose collection need not walk it
            gc.freeze()
        gc.enable()
    return text is not None and _write(text + "\n")


def _write_bytes(data: bytes) -> bool:
    """:func:`_write` of ``data``'s UTF-8 text, written as the bytes it is (standard output is
    UTF-8: :func:`_utf8`)."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        return _write(data.decode("utf-8"))
    if b"\x1b" in data:
        return False
    try:
        sys.stdout.flush()
        buffer.write(data)
        buffer.flush()
    except BrokenPipeError:
        sys.exit(_BROKEN_PIPE)
    return True
