"""The ``agon`` command's entry point: ``agon standings FILE`` without click, everything else by
:func:`agon.cli.main`.

Importing click and the command modules costs about as much CPU as the compiled core needs to
score a 10,000-player event (issue 30). So the plain form ``agon standings FILE`` (no option) is
tried first by :func:`agon.commands._standings_text.table_of_file`, which imports neither click
nor the Python standings; where that gives no table (a file the one pass does not read, any
error, output click would treat differently), :func:`agon.cli.main` runs the command as always —
same output, same one-line errors and exit codes, just without the head start.
"""

from __future__ import annotations

import sys
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
    from agon.cli import main as cli_main

    return cli_main(argv)


def _plain_standings(args: list[str]) -> bool:
    """``standings FILE`` and nothing else, FILE text that click would take as it is."""
    if len(args) != 2 or args[0] != "standings":
        return False
    path = args[1]
    return bool(path) and not path.startswith("-") and path.isprintable()


def _print_table(path: str) -> bool:
    """Print the standings table of the event file ``path`` if the one pass gives it (True);
    False, having printed nothing, where :func:`agon.cli.main` should run the command."""
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    if encoding != "utf8":
        return False  # click may re-encode: let it
    import gc

    gc.disable()  # a big file builds many objects, all kept: collecting finds nothing
    try:
        from pathlib import Path

        from agon.commands._standings_text import table_of_file

        text = table_of_file(Path(path))
    except KeyboardInterrupt:
        sys.stderr.write("agon: aborted\n")
        sys.exit(_INTERRUPTED)
    except Exception:  # every problem: the command line names it its own way
        return False
    finally:
        gc.enable()
    if text is None or "\x1b" in text:  # click.echo strips terminal escapes off a pipe
        return False
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        sys.exit(_BROKEN_PIPE)
    return True
