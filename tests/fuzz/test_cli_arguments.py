"""Fuzzing the command line's arguments (issue 10): every command and sub-command of the click tree
(:data:`agon.cli.SUBCOMMANDS`, walked at run time, so new commands are fuzzed too) with hostile
values for each of its options and arguments, run in-process with click's CliRunner against a
SQLite database holding a tournament in progress. Every run ends in exit 0, or 2 with ONE line
(1 only where documented), never a traceback; a refused command leaves the journal unchanged."""

from __future__ import annotations

import functools
import json
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, create_engine, func, select
from sqlalchemy.pool import NullPool

from agon.cli import cli
from agon.store.models import JournalEntry
from tests.fuzz.contract import check_contract, invoke
from tests.fuzzing import examples

ROOT = Path(__file__).resolve().parents[2]
#: 300 cases in make test; AGON_FUZZ_DEPTH times as many in a deeper run (tests/fuzzing.py)
EXAMPLES = examples(300)

#: Not fuzzed, with the reason: they start a server, or play/simulate games for as long as asked
#: (the number of games or the time is the user's choice, not bad input).
EXCLUDED = {
    ("serve",): "starts a web server",
    ("7w", "play"): "interactive game in the terminal",
    ("7w", "simulate"): "simulates as many games as asked",
    ("ocw", "play"): "interactive game in the terminal",
    ("ocw", "simulate"): "simulates as many games as asked",
    ("ocw", "balance"): "simulates as many games as asked",
}

PLAYERS = [f"Player {i:02d}" for i in range(1, 13)]
TEXT = [
    "",
    " ",
    "fz",
    "nope",
    "Player 01",
    "Player 01=40,coins=3",
    "Player 02=" + "9" * 5000,
    "Player 03=-101",
    "Player 04=501,coins=600",
    "Anna\x00",
    "A\nB",
    "\u202eAnna",
    "x" * 5000,
    "bonn-2018",
    "ludolimpico-2015",
    "Player 01 opens babylon 101",
    "2018-05-12",
    "2026-03-18T09:00+01:00",
    "9" * 30,
    "-1",
    "0",
    "nan",
    "--help",
    "-",
    "key=value",
    "Player 01,Player 02,Player 03,Player 04",
    "anna@example.org",
]
#: Commands that play as many games as asked (``--games``, by default 30 to 1,000): like the
#: excluded ``simulate``/``balance`` above, how long they run is the user's choice, not bad input.
#: Their other options are fuzzed like every command's; ``--games`` gets the malformed and
#: out-of-range values and 1–3 (a valid in-range count such as 10001 would play for hours: the
#: ``ocw ladder`` default alone is ~25 s of search bots), and ``--games 1`` when the example
#: draws none. (Before, an example that ran ``ocw ladder`` with its defaults cost a minute under
#: coverage, and the fuzzer's run time swung from 25 s to 4 minutes with the examples drawn.)
PLAYS_GAMES = {("7w", "balance"), ("7w", "ladder"), ("ocw", "ladder")}
GAMES = ["0", "1", "2", "3", "-1", "2147483648", str(2**63), "9" * 5000, "1e3", "x", ""]
NUMBERS = ["0", "1", "2", "3", "-1", "10001", "2147483648", str(2**63), "9" * 5000, "1e3", "x", ""]


@dataclass
class Leaf:
    path: tuple[str, ...]
    command: click.Command


def leaves() -> list[Leaf]:
    ctx = click.Context(cli)
    out: list[Leaf] = []

    def walk(cmd: click.Command, path: tuple[str, ...]) -> None:
        if path in EXCLUDED:
            return
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                if sub is not None:
                    walk(sub, (*path, name))
        else:
            out.append(Leaf(path, cmd))

    walk(cli, ())
    return out


LEAVES = leaves()


@dataclass
class World:
    folder: Path
    db_url: str
    files: list[str]


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        db_url = f"sqlite:///{folder / 'agon.db'}"
        mp = pytest.MonkeyPatch()
        mp.setenv("AGON_DATABASE_URL", db_url)
        mp.setenv("AGON_ACTOR", "fuzz")
        mp.setenv("AGON_TOURNAMENT", "fz")
        mp.chdir(folder)
        files = _files(folder)
        setup = [
            ["tournament", "create", "fz", "--name", "Fuzz", "--ruleset", "bonn-2018", "--use"],
            ["player", "import", str(folder / "players.csv")],
            ["player", "checkin", "--late", *PLAYERS],
            ["round", "start"],
            # online registration open (issue 27): its add/list/check-in reach the service
            ["registration", "open", "fz", "--capacity", "20"],
        ]
        for args in setup:
            result = invoke(args)
            assert result.exit_code == 0, (args, result.output)
        # the files the moving commands write, for the commands that read them (import, restore)
        for args in (
            ["export", "--journal", "-o", str(folder / "journal.json")],
            ["db", "backup", str(folder / "agon.backup")],
        ):
            result = invoke(args)
            assert result.exit_code == 0, (args, result.output)
        files += [str(folder / "journal.json"), str(folder / "agon.backup")]
        try:
            yield World(folder, db_url, files)
        finally:
            mp.undo()


def _files(folder: Path) -> list[str]:
    event = {
        "name": "E",
        "ruleset": "bonn-2018",
        "players": ["A", "B", "C"],
        "rounds": [{"tables": [{"results": [{"player": p, "vp": 10} for p in ("A", "B", "C")]}]}],
    }
    contents: dict[str, bytes | str] = {
        "event.json": json.dumps(event),
        "event.yaml": "name: E\nruleset: bonn-2018\nplayers: [A, B, C]\n",
        "deep.json": "[" * 5000 + "]" * 5000,
        "key.yaml": "1: x\n",
        "bomb.yaml": "a: &a [x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"a{i}: &a{i} [{', '.join(['*a' + ('' if i == 1 else str(i - 1))] * 9)}]\n"
            for i in range(1, 10)
        )
        + "players: [*a9]\n",
        "utf8.json": b'{"name": "\xff"}',
        "players.csv": "name,tag\n" + "".join(f"{p},\n" for p in PLAYERS),
        "bad.csv": "name\nAnna\x00\n" + "x" * 1000 + "\n",
        "long.csv": "name\n" + "N" * 10_000 + "\n",
        "cities.json": "[]",
        "schedule.json": '{"rounds": [{"tables": [{"seats": ["P01", "P02", "P03"]}]}]}',
        "auction.txt": "Player 01 opens babylon 2\n",
        # a finished online game (agon verify replays it; agon play export writes such files)
        "game.json": (ROOT / "examples" / "online" / "club-round1-table1.json").read_text("utf-8"),
        "empty": "",
    }
    paths = []
    for name, content in contents.items():
        path = folder / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        paths.append(str(path))
    (folder / "dir").mkdir()
    paths += [str(folder / "dir"), str(folder / "missing.json"), str(folder / ("n" * 5000))]
    return paths


#: How many journal entries there are (built once, run twice per case).
JOURNAL_LENGTH = select(func.count(JournalEntry.id))


@functools.cache
def _engine(db_url: str) -> Engine:
    """One engine per database for the module, without a pool: every count opens the file anew,
    as the engine made and disposed of per count did before (a command that replaces the file,
    ``agon db restore``, is seen), without building and disposing of an engine twice per case
    (600 counts: 1.2-1.6 s of CPU that way, 0.5-0.7 s this way)."""
    return create_engine(db_url, poolclass=NullPool)


def journal_length(db_url: str) -> int:
    with _engine(db_url).connect() as conn:
        return int(conn.execute(JOURNAL_LENGTH).scalar() or 0)


def value_for(param: click.Parameter, files: list[str]) -> st.SearchStrategy[str]:
    kind = param.type
    if isinstance(kind, (click.Path, click.File)):
        return st.sampled_from(files)
    if isinstance(kind, click.Choice):
        return st.sampled_from([*map(str, kind.choices), *TEXT[:4]])
    if isinstance(kind, (click.types.IntParamType, click.types.FloatParamType)):
        return st.sampled_from(NUMBERS) | st.integers(-(2**70), 2**70).map(str)
    return st.sampled_from(TEXT + PLAYERS) | st.text(max_size=20)


@st.composite
def command_lines(draw: st.DrawFn, files: list[str]) -> list[str]:
    leaf = draw(st.sampled_from(LEAVES))
    args = list(leaf.path)
    for param in leaf.command.params:
        if isinstance(param, click.Option):
            if param.hidden or "--help" in param.opts or not draw(st.booleans()):
                continue
            name = draw(st.sampled_from(param.opts))
            if param.is_flag:
                args.append(name)
                continue
            for _ in range(draw(st.integers(1, 2)) if param.multiple else 1):
                args.append(name)
                if leaf.path in PLAYS_GAMES and param.name == "games":
                    args.append(draw(st.sampled_from(GAMES)))
                    continue
                args.extend(draw(value_for(param, files)) for _ in range(max(1, param.nargs)))
        else:
            count = param.nargs if param.nargs > 0 else draw(st.integers(0, 4))
            if not param.required and draw(st.integers(0, 3)) == 0:
                count = 0
            args.extend(draw(value_for(param, files)) for _ in range(count))
    if leaf.path in PLAYS_GAMES and "--games" not in args:
        args += ["--games", "1"]
    if leaf.path[0] == "print":
        args.append("--html")  # PDF rendering takes seconds; the input handling is the same
    if draw(st.integers(0, 20)) == 0:
        args.insert(draw(st.integers(0, len(args))), draw(st.sampled_from(TEXT)))
    return args


@pytest.mark.slow  # ~5–7 s CPU for 300 examples
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_every_command_keeps_the_error_contract(world: World, data: st.DataObject) -> None:
    args = data.draw(command_lines(world.files), label="args")
    before = journal_length(world.db_url)
    result = invoke(args, stdin="")
    check_contract(args, result)
    event(f"exit {result.exit_code}")
    if result.exit_code != 0:
        assert journal_length(world.db_url) == before, args


def test_the_walk_covers_every_command() -> None:
    names = {leaf.path[0] for leaf in LEAVES} | {path[0] for path in EXCLUDED}
    assert names >= {"tournament", "player", "round", "result", "import", "schedule", "7w"}
    assert {leaf.path for leaf in LEAVES} >= {
        ("registration", sub) for sub in ("open", "close", "add", "list", "check-in")
    }
    assert len(LEAVES) >= 40
