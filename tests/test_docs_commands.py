"""Every command shown in ``docs/*.md`` and ``README.md`` runs, and prints what the doc shows.

The convention the docs follow (this test enforces it):

* Commands live in fenced blocks marked ``sh``, ``bash``, ``shell`` or ``console``.  A command
  outside such a block (an indented code block, or a fence without language, whose line starts
  with ``agon `` or ``$ ``) fails the test: it would not be checked.
* In ``sh``/``bash``/``shell`` blocks every line is a command (``\\`` continues it, ``# …`` is a
  comment, a ``<<'EOF'`` here-document runs up to its end line).  Only the exit code is checked: 0.
* In ``console`` blocks a command starts with ``$ ``; the lines under it, up to the next ``$ ``,
  are its expected output (standard output and standard error together).  A line holding only
  ``…`` stands for any number of lines.  Output containing ``agon: error:`` means the command is
  expected to fail with exit code 2; anything else, exit code 0; a last line ``(exit code N)``
  (not part of the output) expects code N instead (a conflict: 3, a mismatch: 1).
* Each file runs top to bottom in a fresh temporary directory holding a copy of the repository's
  ``examples/``, with a fresh SQLite database (``AGON_DATABASE_URL``) and ``AGON_ACTOR`` unset:
  later commands depend on earlier ones, as a director following the guide would see.
  ``export NAME=VALUE`` lines set the environment for the commands after them.
* ``agon …`` commands run in-process (fast), also with ``NAME=value`` before them or one
  ``> FILE`` at their end (done here as a shell would); a command with a pipe, another
  redirection, ``$``, a here-document or another program runs in ``bash`` with the checkout's
  ``agon`` on ``PATH``.

Normalisation before comparing (what legitimately differs from run to run):

* a date-time (``2026-11-23 01:58``, ``2026-11-23T01:58:07+00:00``, seconds and zone optional)
  becomes ``<time>`` — start times are given relative to now (``--starts-at +2h``) and the journal
  records when a change was made;
* the temporary directory's path becomes ``.``;
* trailing spaces and trailing blank lines are dropped.

Commands that cannot run here are listed in :data:`NOT_RUN` with the reason; each is checked
another way (its ``--help``, or the Makefile target it names).

When the program's output changed on purpose, ``AGON_DOCS_UPDATE=1 pytest
tests/test_docs_commands.py`` rewrites the expected output of every failing ``console`` command in
the docs (review the diff: the rewritten text holds this run's times). Where a round is now seated
differently, it also rewrites that round's ``result``/``round auction`` commands seat by seat
(see :func:`replay`); prose that names players (who drops, who is absent from the final) is
checked by reading the diff.

Also checked here: every doc is listed in ``docs/index.md``, and no doc cites a path that only a
checkout of the source repository has (``src/…``, ``tests/…``, ``bench/…``) without saying so.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import agon
from agon.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([*ROOT.glob("docs/*.md"), ROOT / "README.md"])
SHELL_LANGS = {"sh", "bash", "shell"}
RUN_LANGS = {*SHELL_LANGS, "console"}
ANY_LINES = "…"
UPDATE = os.environ.get("AGON_DOCS_UPDATE") == "1"


def _makefile_has(target: str, *recipes: str) -> Callable[[], None]:
    """A check that ``make target`` runs the first recipe text, by way of the next ones: each but
    the last names a target of the Makefile (a ``$(MAKE)`` of it) whose recipe has the next."""

    def check() -> None:
        makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
        current = target
        for recipe in recipes:
            match = re.search(rf"^{re.escape(current)}:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
            assert match, f"Makefile has no target {current!r}"
            assert re.search(rf"(?<![\w-]){re.escape(recipe)}(?![\w-])", match.group(1)), (
                f"make {current} does not run {recipe!r}"
            )
            current = recipe

    return check


def _help_lists(args: list[str], *options: str) -> Callable[[], None]:
    def check() -> None:
        code, out = _run_in_process([*args, "--help"])
        assert code == 0, out
        for option in options:
            assert option in out, f"'agon {' '.join(args)} --help' does not list {option}"

    return check


#: command prefix -> (why it cannot run in a test, how it is checked instead).
NOT_RUN: dict[str, tuple[str, Callable[[], None]]] = {
    "make run": (
        "serves the web app until stopped",
        _makefile_has("run", "agon serve --demo"),
    ),
    "make test": (
        "runs the whole suite, this test included",
        _makefile_has("test", "checked-suite", "suite", "pytest"),
    ),
    "make i18n": (
        "rewrites the committed catalogues (tests/i18n checks they are in step)",
        _makefile_has("i18n", "pybabel"),
    ),
    "agon serve": (
        "serves the web app until stopped",
        _help_lists(
            ["serve"],
            *("--host", "--port", "--demo", "--series", "--log-level", "--log-format"),
            *("--access-log", "--root-path", "--metrics-port", "--metrics-host"),
        ),
    ),
    "agon ocw play": (
        "plays interactively in the terminal",
        _help_lists(["ocw", "play"], "--players", "--bots", "--seed", "--variant"),
    ),
    "agon ocw balance --players 4 --games 4000": (
        "the report of docs/balance.md: writes its plot into the checkout's docs/img/",
        _help_lists(
            ["ocw", "balance"], "--assign", "--content", "--plot", "--workers", "--cluster"
        ),
    ),
    "agon 7w balance --players 5 --games 4000": (
        "the report of docs/balance.md: writes its plot into the checkout's docs/img/",
        _help_lists(["7w", "balance"], "--plot", "--json", "--workers", "--cluster"),
    ),
    "agon sync watch": (
        "pushes to a hosted agon until stopped",
        _help_lists(["sync", "watch"], "--to", "--tournament", "--token-file", "--every"),
    ),
    "agon auction --players": (
        "without --script it asks for each action at the terminal",
        _help_lists(["auction"], "--players", "--seed", "--round", "--label", "--script"),
    ),
}


@dataclass
class Command:
    """One command of a doc: where it is, its text, and the output the doc shows (if any)."""

    doc: Path
    line: int  # 1-based line of the command in the doc
    text: str
    expected: list[str] | None = None  # None: only the exit code is checked
    output_lines: tuple[int, int] = (0, 0)  # 0-based [start, end) of the shown output in the doc
    command_lines: tuple[int, int] = (0, 0)  # 0-based [start, end) of the command in the doc

    @property
    def where(self) -> str:
        return f"{_rel(self.doc)}:{self.line}"


@dataclass
class Block:
    lang: str
    start: int  # 0-based index of the first content line
    lines: list[str] = field(default_factory=list)


def _rel(doc: Path) -> str:
    return str(doc.relative_to(ROOT)) if doc.is_relative_to(ROOT) else doc.name


def _blocks(lines: list[str]) -> Iterator[Block]:
    fence: str | None = None
    indent = 0
    block: Block | None = None
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if fence is None:
            match = re.match(r"(`{3,}|~{3,})\s*([\w+-]*)", stripped)
            if match:
                fence, indent = match.group(1), len(line) - len(stripped)
                block = Block(match.group(2).lower(), i + 1)
        elif stripped.startswith(fence) and not stripped[len(fence) :].strip():
            assert block is not None
            yield block
            fence, block = None, None
        else:
            assert block is not None
            block.lines.append(line[indent:] if not line[:indent].strip() else line.lstrip())


def _heredoc_end(text: str) -> str | None:
    match = re.search(r"<<-?\s*(['\"]?)(\w+)\1", text)
    return match.group(2) if match else None


def parse_doc(doc: Path) -> list[Command]:
    """The doc's commands in document order (see the module's docstring for the convention)."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    commands: list[Command] = []
    in_fence = [False] * len(lines)
    for block in _blocks(lines):
        for k in range(block.start - 1, block.start + len(block.lines) + 1):
            if 0 <= k < len(lines):
                in_fence[k] = True
        if block.lang not in RUN_LANGS:
            stray = [
                block.start + k + 1
                for k, text in enumerate(block.lines)
                if text.startswith(("agon ", "$ ")) and block.lang in ("", "text")
            ]
            assert not stray, (
                f"{_rel(doc)}:{stray[0]}: a command in a fence without language "
                "(mark it ```sh or ```console so this test runs it)"
            )
            continue
        commands.extend(_block_commands(doc, block))
    for k, text in enumerate(lines):
        if not in_fence[k] and re.match(r"( {4,}|\t)(\$ |agon |python3? )", text):
            raise AssertionError(
                f"{_rel(doc)}:{k + 1}: a command in an indented block "
                "(put it in a ```sh or ```console block so this test runs it)"
            )
    return commands


def _block_commands(doc: Path, block: Block) -> Iterator[Command]:
    console = block.lang == "console"
    k = 0
    current: Command | None = None
    while k < len(block.lines):
        text = block.lines[k]
        line_no = block.start + k + 1
        if console and not text.startswith("$ "):
            assert current is not None and current.expected is not None, (
                f"{_rel(doc)}:{line_no}: output before the first '$ ' command"
            )
            current.expected.append(text)
            current.output_lines = (current.output_lines[0], block.start + k + 1)
            k += 1
            continue
        if console:
            text = text[2:]
        elif not text.strip() or text.lstrip().startswith("#"):
            k += 1
            continue
        parts = [text]
        while parts[-1].rstrip().endswith("\\") and k + 1 < len(block.lines):
            k += 1
            parts.append(block.lines[k])
        end = _heredoc_end(parts[0])
        if end is not None:
            while k + 1 < len(block.lines):
                k += 1
                parts.append(block.lines[k])
                if block.lines[k].strip() == end:
                    break
        if current is not None:
            yield current
        current = Command(doc, line_no, "\n".join(parts), [] if console else None)
        current.output_lines = (block.start + k + 1, block.start + k + 1)
        current.command_lines = (line_no - 1, block.start + k + 1)
        k += 1
    if current is not None:
        yield current


# --- normalisation -------------------------------------------------------------------------

_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?UTC|Z|[+-]\d{2}:?\d{2})?"
)


def normalise(text: str, tmp: Path) -> list[str]:
    """The lines to compare: times and the temporary directory replaced, right-stripped."""
    text = text.replace(str(tmp) + os.sep, "").replace(str(tmp), ".")
    lines = [_TIME.sub("<time>", line).rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` equals ``actual``, where a line ``…`` stands for any number of lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.strip() == ANY_LINES:
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and actual[0] == head and matches(rest, actual[1:])


# --- running -------------------------------------------------------------------------------


def _run_in_process(argv: list[str], out: Path | None = None) -> tuple[int, str]:
    """``agon ARGV`` in this process: its exit code and what it printed (standard output and
    standard error together, or standard error only when ``out`` takes standard output, as
    ``> out`` does in a shell)."""
    buffer = io.StringIO()
    code = 0
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.ExitStack() as stack:
            target = stack.enter_context(out.open("w", encoding="utf-8")) if out else buffer
            stack.enter_context(contextlib.redirect_stdout(target))
            stack.enter_context(contextlib.redirect_stderr(buffer))
            try:
                main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.stdin = stdin
    return code, buffer.getvalue()


_SHELL_SYNTAX = re.compile(r"[|<>;&$`*]|\n")
#: One redirection of standard output to a file, at the end of the command (not ``>>``, ``2>``).
_TO_FILE = re.compile(r"(?<![\w>&])>\s*([\w./-]+)\s*$")
#: A variable set for this command alone: ``NAME=value agon …`` (upper case; ``_AGON_COMPLETE``,
#: click's completion switch, stays with the shell).
_ASSIGNMENT = re.compile(r"([A-Z][A-Z0-9_]*)=(.*)", re.DOTALL)


@dataclass(frozen=True)
class InProcess:
    """An ``agon …`` command that needs no shell: its arguments, the variables set for it alone,
    and the file its standard output goes to (``> FILE``), if any."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    out: str | None = None


def _in_process(text: str) -> InProcess | None:
    """How to run an ``agon …`` command in this process, or ``None`` when it needs a shell (a
    pipe, a here-document, ``$``, another program): ``NAME=value`` before it and one ``> FILE``
    at its end are what a shell would do, and are done here."""
    joined = text.replace("\\\n", " ")
    unquoted = re.sub(r"'[^']*'|\"[^\"$`]*\"", "", joined).split("#", 1)[0]
    redirect = _TO_FILE.search(unquoted)
    if redirect:
        unquoted = unquoted[: redirect.start()]
    if _SHELL_SYNTAX.search(unquoted):
        return None
    words = shlex.split(joined, comments=True)
    out = None
    if redirect:
        out = redirect.group(1)
        if words[-2:] == [">", out]:
            words = words[:-2]
        elif words[-1:] == [f">{out}"]:
            words = words[:-1]
        else:
            return None
    env: dict[str, str] = {}
    while words and (assignment := _ASSIGNMENT.fullmatch(words[0])):
        env[assignment.group(1)] = assignment.group(2)
        words = words[1:]
    if not words or words[0] != "agon":
        return None
    return InProcess(words[1:], env, out)


class Session:
    """One doc's run: a temporary directory, its database and the environment the doc exports."""

    def __init__(self, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tmp = tmp
        self.monkeypatch = monkeypatch
        shutil.copytree(ROOT / "examples", tmp / "examples")
        for name in list(os.environ):
            if name.startswith("AGON_"):
                monkeypatch.delenv(name)
        monkeypatch.setenv("AGON_DATABASE_URL", f"sqlite:///{tmp / 'agon.db'}")
        monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
        src = str(Path(agon.__file__).resolve().parents[1])
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]))
        monkeypatch.chdir(tmp)

    def run(self, text: str) -> tuple[int, str]:
        words = shlex.split(text, comments=True) if "$" not in text else []
        if len(words) == 2 and words[0] == "export" and re.match(r"\w+=", words[1]):
            name, value = words[1].split("=", 1)
            self.monkeypatch.setenv(name, value)  # for the commands after it, as in a shell
            return 0, ""
        command = _in_process(text)
        if command is not None:
            with pytest.MonkeyPatch.context() as for_this_command:
                for name, value in command.env.items():
                    for_this_command.setenv(name, value)
                out = self.tmp / command.out if command.out else None
                return _run_in_process(command.argv, out)
        proc = subprocess.run(
            ["bash", "-c", text],
            cwd=self.tmp,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=300,
            check=False,
        )
        return proc.returncode, proc.stdout


def _not_run(text: str) -> str | None:
    first = text.split("\n", 1)[0].strip()
    for prefix in NOT_RUN:
        if first == prefix or first.startswith(prefix + " "):
            if prefix == "agon auction --players" and "--script" in text:
                return None
            return prefix
    return None


def _report(command: Command, problem: str, expected: list[str], actual: list[str]) -> str:
    diff = "\n".join(
        difflib.unified_diff(expected, actual, "doc shows", "agon prints", lineterm="", n=2)
    )
    return f"{command.where}: $ {command.text}\n  {problem}\n{diff}"


_EXIT = re.compile(r"^\(exit code (\d+)\)$")
_SEATING = re.compile(r"^agon round (start|final)\b")
_SEATED = re.compile(r"^agon (result (enter|correct|confirm)|round auction)\b")
_TABLE = re.compile(r"^\s*table (\d+) \[[^\]]*\]: (.+)$")


def _tables(lines: list[str]) -> list[tuple[str, list[str]]]:
    return [
        (m.group(1), m.group(2).split(", "))
        for m in (_TABLE.match(line) for line in lines)
        if m is not None
    ]


def seat_mapping(shown: list[str], printed: list[str]) -> dict[str, str]:
    """Who now sits where the doc had someone else: shown name -> printed name, by table and seat.

    Empty unless both seatings have the same tables of the same sizes with the same players.
    """
    old, new = _tables(shown), _tables(printed)
    if [(t, len(s)) for t, s in old] != [(t, len(s)) for t, s in new]:
        return {}
    mapping = {
        a: b for (_, x), (_, y) in zip(old, new, strict=True) for a, b in zip(x, y, strict=True)
    }
    if sorted(mapping) != sorted(mapping.values()):
        return {}
    return {a: b for a, b in mapping.items() if a != b}


def rename(text: str, mapping: dict[str, str]) -> str:
    """``text`` with every whole name of ``mapping`` replaced at once (longest names first)."""
    if not mapping:
        return text
    names = "|".join(re.escape(n) for n in sorted(mapping, key=len, reverse=True))
    return re.sub(rf"(?<!\w)({names})(?!\w)", lambda m: mapping[m.group(1)], text)


def _update_doc(command: Command, raw_output: str, tmp: Path) -> None:
    lines = command.doc.read_text(encoding="utf-8").splitlines(keepends=True)
    start, end = command.output_lines
    shown = raw_output.replace(str(tmp) + os.sep, "").rstrip("\n")
    new = [line.rstrip() + "\n" for line in shown.splitlines()] if shown else []
    lines[start:end] = new
    command.doc.write_text("".join(lines), encoding="utf-8")


def replay(doc: Path, session: Session, *, update: bool = False) -> list[str]:
    """Run the doc's commands in order; one message per failure (the first only, unless
    ``update``: then every differing output is rewritten in the doc and the replay goes on; where
    a round is seated differently from the doc, its results and auctions are rewritten seat by
    seat — who sat in the doc's table 2, seat 3 is replaced by who sits there now — so that each
    seat keeps the doc's scores and the auction its moves)."""
    failures: list[str] = []
    updates: list[tuple[Command, str]] = []
    renamed: list[tuple[Command, dict[str, str]]] = []
    seats: dict[str, str] = {}  # update mode: the round was seated differently from the doc
    for command in parse_doc(doc):
        if _not_run(command.text):
            continue
        if update and seats and _SEATED.match(command.text):
            renamed.append((command, seats))
            command.text = rename(command.text, seats)
        code, output = session.run(command.text)
        if update and _SEATING.match(command.text):
            seats = seat_mapping(command.expected or [], output.splitlines())
        actual = normalise(output, session.tmp)
        if command.expected is None:
            if code != 0:
                failures.append(_report(command, f"exit code {code}, expected 0", [], actual))
                break  # later commands depend on this one
            continue
        expected = [_TIME.sub("<time>", line.rstrip()) for line in command.expected]
        while expected and not expected[-1]:
            expected.pop()
        want_code = 2 if any("agon: error:" in line for line in expected) else 0
        stated = _EXIT.match(expected[-1]) if expected else None
        if stated:  # "(exit code 3)" under the output: that code (docs/cli.md lists them)
            want_code = int(stated.group(1))
            expected.pop()
        if not matches(expected, actual):
            failures.append(_report(command, "output differs", expected, actual))
            updates.append((command, output))
        elif code != want_code:
            failures.append(_report(command, f"exit code {code}, expected {want_code}", [], []))
        if failures and not update:
            break  # later commands depend on this one: the first difference is the one to fix
    if update:
        lines = doc.read_text(encoding="utf-8").splitlines(keepends=True)
        for command, mapping in renamed:
            start, end = command.command_lines
            lines[start:end] = [rename(line, mapping) for line in lines[start:end]]
        doc.write_text("".join(lines), encoding="utf-8")
        for command, output in reversed(updates):
            _update_doc(command, output, session.tmp)
    return failures


#: docs whose replay takes minutes: marked ``slow`` (still part of ``make test``), with the reason.
SLOW_DOCS = {
    # the ladders were 30 games each (the One Card Wonder one with full-budget search bots): 129 s
    # of CPU under coverage; with 20 and 10 games (search@4) the doc shows the same commands in
    # 18 s (2026-11-23)
    "ratings-and-series.md": "two bot ladders with search bots (about 20 s of CPU under coverage)",
}


@pytest.mark.parametrize(
    "doc",
    [pytest.param(d, marks=pytest.mark.slow) if d.name in SLOW_DOCS else d for d in DOCS],
    ids=[str(d.relative_to(ROOT)) for d in DOCS],
)
def test_every_command_in_the_doc_runs_and_prints_what_the_doc_shows(
    doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failures = replay(doc, Session(tmp_path, monkeypatch), update=UPDATE)
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("prefix", sorted(NOT_RUN))
def test_a_command_that_cannot_run_in_a_test_is_checked_another_way(prefix: str) -> None:
    _, check = NOT_RUN[prefix]
    check()


def test_every_exception_is_still_shown_in_a_doc() -> None:
    """A stale entry of :data:`NOT_RUN` would let a new doc command skip the test unseen."""
    shown = {_not_run(c.text) for doc in DOCS for c in parse_doc(doc)}
    assert set(NOT_RUN) <= shown, f"no doc shows {sorted(set(NOT_RUN) - shown)}"


# --- the harness itself ----------------------------------------------------------------------


def test_console_blocks_split_into_commands_and_their_output(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text(
        "text\n\n```console\n$ agon x \\\n    --y\nout 1\n\nout 2\n$ agon z\n```\n\n"
        "```sh\n# comment\nagon a  # note\ncat > f <<'EOF'\nname\n# kept\nEOF\n```\n",
        encoding="utf-8",
    )
    commands = parse_doc(doc)
    assert [(c.line, c.text, c.expected) for c in commands] == [
        (4, "agon x \\\n    --y", ["out 1", "", "out 2"]),
        (9, "agon z", []),
        (14, "agon a  # note", None),
        (15, "cat > f <<'EOF'\nname\n# kept\nEOF", None),
    ]


def test_a_command_outside_a_runnable_block_is_refused(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text("Run this:\n\n    agon schedule --players 13\n", encoding="utf-8")
    with pytest.raises(AssertionError, match=r"d\.md:3: a command in an indented block"):
        parse_doc(doc)


def test_times_and_the_temporary_directory_are_normalised(tmp_path: Path) -> None:
    shown = (
        f"starts 2026-11-23 01:58 UTC\nat 2026-11-23T01:58:07+00:00 wrote {tmp_path}/x.json  \n\n"
    )
    assert normalise(shown, tmp_path) == ["starts <time>", "at <time> wrote x.json"]


def test_an_ellipsis_line_stands_for_any_lines() -> None:
    assert matches(["a", "…", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "…", "d"], ["a", "d"])
    assert not matches(["a", "…", "d"], ["a", "b"])
    assert not matches(["a"], ["a", "b"])


def test_only_agon_commands_without_shell_work_run_in_process() -> None:
    assert _in_process('agon player add "Jan Müller" --tag Köln  # note') == InProcess(
        ["player", "add", "Jan Müller", "--tag", "Köln"]
    )
    assert _in_process("agon 'a|b'") == InProcess(["a|b"])
    assert _in_process("agon schedule --json > s.json") == InProcess(
        ["schedule", "--json"], out="s.json"
    )
    assert _in_process("AGON_DATABASE_URL=sqlite:///x.db agon db verify") == InProcess(
        ["db", "verify"], {"AGON_DATABASE_URL": "sqlite:///x.db"}
    )
    assert _in_process('agon verify --seed "$SEED"') is None
    assert _in_process("python3 -c 'print(1)'") is None
    assert _in_process("agon schedule --json | python3 -c 'print(1)'") is None
    assert _in_process("agon schedule --json >> s.json") is None
    assert _in_process("agon schedule --json 2> errors.txt") is None
    assert _in_process("agon schedule > a.json > b.json") is None
    assert _in_process("_AGON_COMPLETE=bash_source agon > agon-complete.bash") is None
    assert _in_process("cat > cup.json <<'EOF'\n{}\nEOF") is None


def test_a_redirected_command_with_its_own_variables_runs_in_process_as_in_a_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``NAME=value agon … > FILE``: the variable holds for that command only, standard output
    goes to the file and standard error is what the doc shows (no shell, no new interpreter)."""
    session = Session(tmp_path, monkeypatch)
    monkeypatch.setattr(subprocess, "run", None)  # a shell here would fail the test
    code, shown = session.run(
        "AGON_DATABASE_URL=sqlite:///other.db agon tournament create cup --name Cup "
        "--ruleset bonn-2018 --seed s > made.txt"
    )
    assert (code, shown) == (0, "agon: created database other.db\n")  # standard error
    assert "cup" in (tmp_path / "made.txt").read_text(encoding="utf-8")
    assert (tmp_path / "other.db").exists()
    assert os.environ["AGON_DATABASE_URL"] == f"sqlite:///{tmp_path / 'agon.db'}"
    code, shown = session.run("agon tournament show nothing-here > shown.txt")
    assert code == 2 and shown.startswith("agon: error:")  # standard error is not redirected
    assert (tmp_path / "shown.txt").read_text(encoding="utf-8") == ""


def _doc(tmp_path: Path, text: str) -> Path:
    (tmp_path / "docs").mkdir()
    doc = tmp_path / "docs" / "d.md"
    doc.write_text(text, encoding="utf-8")
    return doc


def test_a_difference_names_the_doc_line_and_shows_expected_against_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _doc(
        tmp_path,
        "```console\n$ agon validate examples/bonn-2018-sample.json\nall fine\n$ agon --version\n```\n",
    )
    failures = replay(doc, Session(tmp_path / "run", monkeypatch))
    assert len(failures) == 1  # the replay stops at the first difference
    assert failures[0].startswith("d.md:2: $ agon validate examples/bonn-2018-sample.json\n")
    assert "output differs" in failures[0]
    assert "-all fine" in failures[0]
    assert "+examples/bonn-2018-sample.json: ok — 13 players" in failures[0]


def test_a_failing_command_fails_and_an_expected_error_must_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _doc(tmp_path, "```sh\nagon standings missing.json\n```\n")
    (failure,) = replay(doc, Session(tmp_path / "run", monkeypatch))
    assert "d.md:2" in failure and "exit code 2, expected 0" in failure
    assert "+agon: error: missing.json: no such file" in failure


def test_export_sets_the_environment_of_the_commands_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session(tmp_path, monkeypatch)
    assert session.run("export AGON_ACTOR='Marco Polo'   # who you are") == (0, "")
    assert session.run('echo "$AGON_ACTOR" | tr a-z A-Z') == (0, "MARCO POLO\n")


def test_the_update_mode_rewrites_the_shown_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _doc(tmp_path, "Text.\n\n```console\n$ agon --version\nagon 0.0\nold\n```\n\nMore.\n")
    assert replay(doc, Session(tmp_path / "run", monkeypatch), update=True)
    assert doc.read_text(encoding="utf-8") == (
        f"Text.\n\n```console\n$ agon --version\nagon, version {agon.__version__}\n```\n\nMore.\n"
    )
    assert not replay(doc, Session(tmp_path / "again", monkeypatch))


def test_a_reseated_round_maps_the_docs_names_seat_by_seat() -> None:
    shown = [
        "round 3 (open)",
        "  table 1 [open, version 0]: Ann, Ben",
        "  table 2 [x]: Cy, Dee Dee",
    ]
    printed = [
        "round 3 (open)",
        "  table 1 [open, version 0]: Cy, Ann",
        "  table 2 [x]: Ben, Dee Dee",
    ]
    mapping = seat_mapping(shown, printed)
    assert mapping == {"Ann": "Cy", "Ben": "Ann", "Cy": "Ben"}
    assert rename('agon result enter "Ann=5" "Ben=4" "Benno=3" "Cy opens gizah 0"', mapping) == (
        'agon result enter "Cy=5" "Ann=4" "Benno=3" "Ben opens gizah 0"'
    )
    assert seat_mapping(shown, ["  table 1 [x]: Ann, Ben, Cy", "  table 2 [x]: Dee Dee"]) == {}


def test_the_update_mode_reseats_the_results_of_a_round_seated_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [
        "Anna",
        "Ben",
        "Carla",
        "David",
        "Eva",
        "Felix",
        "Greta",
        "Hannes",
        "Ida",
        "Jonas",
        "Kai",
        "Lea",
    ]
    wrong = [names[6:9] + names[3:4], names[0:3] + names[9:10], names[4:6] + names[10:12]]
    seated = "\n".join(
        f"  table {t} [open, version 0]: {', '.join(s)}" for t, s in enumerate(wrong, 1)
    )
    results = "\n".join(
        f"agon result enter -r 1 --table {t} "
        + " ".join(f'"{n}={40 + k},coins={k}"' for k, n in enumerate(s))
        + f"\nagon result confirm -r 1 --table {t}"
        for t, s in enumerate(wrong, 1)
    )
    doc = _doc(
        tmp_path,
        "```sh\nagon tournament create t --name T --ruleset bonn-2018 --seed s --starts-at +2h\n"
        + "".join(f"agon player add {n}\n" for n in names)
        + f"agon player checkin {' '.join(names)}\n```\n\n"
        + f"```console\n$ agon round start\nround 1 (open)\n{seated}\n```\n\n"
        + f"```sh\n{results}\nagon round close\n```\n",
    )
    assert replay(doc, Session(tmp_path / "run", monkeypatch), update=True)  # the seating differs
    text = doc.read_text(encoding="utf-8")
    assert not replay(doc, Session(tmp_path / "again", monkeypatch))
    tables = _tables(text.split("$ agon round start", 1)[1].splitlines())
    for t, seats in tables:
        entered = re.search(rf"agon result enter -r 1 --table {t} (.*)", text)
        assert entered is not None
        assert re.findall(r'"([^"=]+)=', entered.group(1)) == seats  # each seat keeps its score
        assert [f"{40 + k}" for k in range(len(seats))] == re.findall(r"=(\d+),", entered.group(1))


# --- paths a user does not have ------------------------------------------------------------

_MACHINE_PATH = re.compile(r"/work/|shared/reference")
_SOURCE_PATH = re.compile(r"`[^`]*(?<![\w./-])(?:src|tests|bench|native|\.ci|\.venv)/[^`]*`")
_FOR_DEVELOPERS = re.compile(r"source repository|for developers", re.IGNORECASE)


def paths_users_lack(doc: Path) -> list[str]:
    """Paragraphs citing a path only a checkout of the source has, without saying so.

    Saying so: the paragraph, or its section's heading or first paragraph, has "for developers"
    or "source repository" (a section for developers, e.g. on benchmarks, says it once).
    """
    found = []
    line = 1
    for section in re.split(r"\n(?=#{1,3} )", doc.read_text(encoding="utf-8")):
        paragraphs = re.split(r"\n\s*\n", section)
        marked = bool(_FOR_DEVELOPERS.search("\n".join(paragraphs[:2])))
        for paragraph in paragraphs:
            cited = _SOURCE_PATH.search(paragraph)
            if _MACHINE_PATH.search(paragraph):
                found.append(f"{_rel(doc)}:{line}: a path of the development machine")
            elif cited and not marked and not _FOR_DEVELOPERS.search(paragraph):
                found.append(
                    f"{_rel(doc)}:{line}: {cited.group(0)} is in the source repository only: say "
                    'so ("for developers", "in the source repository") or show the command'
                )
            line += paragraph.count("\n") + 2
        line -= 1
    return found


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_a_doc_cites_no_path_a_user_lacks_unless_it_says_so(doc: Path) -> None:
    found = paths_users_lack(doc)
    assert not found, "\n".join(found)


def test_a_source_path_needs_a_word_for_developers(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "Title\n\nSee `src/agon/x.py`.\n\nFor developers: `tests/a.py`.\n")
    assert paths_users_lack(doc) == [
        "d.md:3: `src/agon/x.py` is in the source repository only: say so "
        '("for developers", "in the source repository") or show the command'
    ]


def test_the_index_lists_every_guide() -> None:
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"\]\(([\w.-]+\.md)\)", index))
    guides = {d.name for d in ROOT.glob("docs/*.md")} - {"index.md"}
    assert guides <= listed, f"docs/index.md does not list {sorted(guides - listed)}"
    assert listed <= guides | {"index.md"}, f"docs/index.md lists missing {sorted(listed - guides)}"
