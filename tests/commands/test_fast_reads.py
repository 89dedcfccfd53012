"""The director's reads without SQLAlchemy (issue 30): ``agon tournament list``, ``agon round
show`` and ``agon tournament standings`` on a SQLite database print, through
:func:`agon.commands.fast_reads.answer`, exactly what the click commands print — at every stage
of a tournament — or hand the command over (``None``) where they are not sure. Their speed is
measured by bench/cli_latency.py, not here."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.cli_runner import run_agon

from agon.commands.fast_reads import answer, parse
from agon.store.snapshot import sqlite_path

READS = [
    ["tournament", "list"],
    ["round", "show"],
    ["round", "show", "1"],
    ["round", "show", "2", "-t", "ev"],
    ["round", "show", "--tournament", "ev"],
    ["round", "show", "99"],
    ["tournament", "standings"],
    ["tournament", "standings", "-t", "ev"],
    ["tournament", "standings", "-t", "nope"],
]


def _event(ruleset: str, players: int, rounds: int, seed: int = 3) -> dict[str, object]:
    rng = random.Random(seed)
    names = [f"Player {i:02d}" for i in range(players)]
    size = 4 if ruleset == "de-championship" else 5
    played = []
    for _ in range(rounds):
        rng.shuffle(names)
        played.append(
            {
                "tables": [
                    {
                        "results": [
                            {"player": p, "vp": rng.randint(25, 70), "coins": rng.randint(0, 9)}
                            for p in names[i : i + size]
                        ]
                    }
                    for i in range(0, players, size)
                ]
            }
        )
    return {
        "name": f"Event of {ruleset}",
        "ruleset": ruleset,
        "seed": "s",
        "players": sorted(names),
        "rounds": played,
    }


@pytest.fixture
def env(db_url: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)
    monkeypatch.setenv("AGON_ACTOR", "test")
    monkeypatch.delenv("AGON_TOURNAMENT", raising=False)
    path = sqlite_path(db_url)
    assert path is not None
    os.chmod(path, 0o600)  # as agon keeps it (the fixture copies a template)
    return {"AGON_DATABASE_URL": db_url}


def _import(tmp_path: Path, doc: dict[str, object], slug: str) -> None:
    path = tmp_path / f"{slug}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert run_agon("import", str(path), "--slug", slug).returncode == 0


def _same(env: dict[str, str], args: list[str], *, fast: bool) -> None:
    """``answer`` prints what the command prints (``fast``: it does answer)."""
    got = answer(args, env)
    expected = run_agon(*args, env={"AGON_TOURNAMENT": env.get("AGON_TOURNAMENT")})
    if got is None:
        assert not fast, args
        return
    assert expected.returncode == 0, (args, expected.stderr)
    assert got == expected.stdout, args


def _check_all(env: dict[str, str]) -> None:
    for args in READS:
        fast = args[-1] not in ("99", "nope")
        _same(env, args, fast=fast)


def _latest_seats(slug: str) -> list[list[str]]:
    doc = json.loads(run_agon("round", "show", "--json", "-t", slug).stdout)
    return [list(t["seats"]) for t in doc["tables"]]


def test_every_stage_of_a_bonn_event_prints_the_same(env: dict[str, str], tmp_path: Path) -> None:
    """Imported rounds, a round just started, one table pending, one confirmed, all entered,
    the round closed (finished: winner and podium), an undo, then a second tournament."""
    assert answer(["tournament", "list"], env) == ""  # no tournament yet: nothing printed
    _import(tmp_path, _event("bonn-2018", 15, 3), "ev")
    _check_all(env)
    assert run_agon("round", "start", "-t", "ev").returncode == 0
    _check_all(env)
    for k, seats in enumerate(_latest_seats("ev")):
        entries = [f"{p}={40 + i},coins={i}" for i, p in enumerate(seats)]
        assert (
            run_agon("result", "enter", "-r", "4", "--table", str(k + 1), *entries).returncode == 0
        )
        _check_all(env)
        assert run_agon("result", "confirm", "-r", "4", "--table", str(k + 1)).returncode == 0
    _check_all(env)
    assert run_agon("round", "close", "-t", "ev").returncode == 0
    _check_all(env)
    assert "finished: winner" in (answer(["tournament", "standings"], env) or "")
    assert run_agon("tournament", "undo", "-t", "ev").returncode == 0
    _check_all(env)
    _import(tmp_path, _event("bonn-2018", 10, 1, seed=5), "other")
    # two tournaments, none remembered: the command names the problem
    assert answer(["round", "show"], env) is None
    run_agon("tournament", "use", "ev")
    _check_all(env)
    _same(env, ["round", "show", "-t", "other"], fast=True)
    _same(env, ["tournament", "standings", "-t", "other"], fast=True)
    _same({**env, "AGON_TOURNAMENT": "other"}, ["tournament", "standings"], fast=True)
    _same({**env, "AGON_TOURNAMENT": "other"}, ["tournament", "standings", "-t", "ev"], fast=True)


def test_qualifiers_and_a_round_with_a_table_that_left(env: dict[str, str], tmp_path: Path) -> None:
    """The German championship's qualifiers once finished; a result of a player who left."""
    _import(tmp_path, _event("de-championship", 12, 4), "ev")
    _check_all(env)
    _import(tmp_path, _event("de-championship", 12, 2, seed=9), "two")
    run_agon("tournament", "use", "two")
    run_agon("round", "start")
    seats = _latest_seats("two")[0]
    entries = [f"{p}={40 + i}" for i, p in enumerate(seats[:-1])] + [f"{seats[-1]}=left"]
    entered = run_agon("result", "enter", "-r", "3", "--table", "1", *entries)
    assert entered.returncode == 0, entered.stderr
    assert "left during the game" in (answer(["round", "show"], env) or "")
    _same(env, ["round", "show"], fast=True)
    _same(env, ["tournament", "standings"], fast=True)


def test_an_auction_or_a_final_is_left_to_the_command(env: dict[str, str], tmp_path: Path) -> None:
    """Ludolimpico: the auction's openers (round show) are the command's own; the standings are
    read fast until the final's own ranking decides the podium."""
    _import(tmp_path, _event("ludolimpico-2015", 15, 2), "ev")
    assert answer(["round", "show"], env) is None
    _same(env, ["tournament", "standings"], fast=True)
    _same(env, ["tournament", "list"], fast=True)


def test_what_is_not_a_plain_sqlite_file_at_head_is_left_to_the_command(
    env: dict[str, str], tmp_path: Path
) -> None:
    _import(tmp_path, _event("bonn-2018", 10, 1), "ev")
    url = env["AGON_DATABASE_URL"]
    path = sqlite_path(url)
    assert path is not None and path.is_file()
    args = ["tournament", "list"]
    assert answer(args, env) is not None
    assert answer(args, {"AGON_DATABASE_URL": url + "?mode=ro"}) is None
    assert answer(args, {"AGON_DATABASE_URL": "postgresql://u@localhost/agon"}) is None
    assert answer(args, {"AGON_DATABASE_URL": f"sqlite:///{tmp_path}/missing.db"}) is None
    assert answer(["round", "show", "-t", ""], env) is None
    assert answer(["round", "show"], {**env, "AGON_TOURNAMENT": ""}) is None
    os.chmod(path, 0o644)  # the command narrows it to 0600 first
    assert answer(args, env) is None
    os.chmod(path, 0o600)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0001'")
    assert answer(args, env) is None  # to be migrated: the command migrates it


WORDS = ["tournament", "round", "list", "show", "standings", "-t", "--tournament", "ev", "1",
         "0", "03", "10001", "--json", "--csv", "-", "", "x\x00", "²"]  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(WORDS), max_size=6))
def test_any_arguments_are_either_taken_as_click_takes_them_or_left(args: list[str]) -> None:
    """A parsed read is one click would run with the same tournament and round: the words it
    takes are the plain forms, everything else (options it does not know, numbers out of range,
    repeated options, odd text) is left to click."""
    read = parse(list(args))
    if read is None:
        return
    assert args[:2] in (["tournament", "list"], ["round", "show"], ["tournament", "standings"])
    rest = args[2:]
    if read.tournament is not None:
        assert read.tournament.isprintable() and not read.tournament.startswith("-")
        assert rest.count(read.tournament) >= 1
    if read.number is not None:
        assert args[0] == "round" and 1 <= read.number <= 10_000 and str(read.number) in rest[0:3]
    assert not {"--json", "--csv", "-", ""} & set(rest)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    head=st.sampled_from(
        [[], ["tournament", "list"], ["round", "show"], ["tournament", "standings"]]
    ),
    option=st.sampled_from([[], ["-t", "ev"], ["--tournament", "other"], ["-t", "nope"], ["-t"]]),
    number=st.sampled_from([[], ["1"], ["2"], ["3"], ["0"]]),
    junk=st.lists(st.sampled_from(WORDS), max_size=1),
    order=st.booleans(),
)
def test_whatever_is_answered_is_what_the_command_prints(
    filled: dict[str, str],
    head: list[str],
    option: list[str],
    number: list[str],
    junk: list[str],
    order: bool,
) -> None:
    """On a database with two tournaments (one remembered), any arguments: an answer is the
    command's own output, and a command that fails is never answered."""
    args = head + (option + number if order else number + option) + junk
    got = answer(list(args), filled)
    event("answered" if got is not None else "left to the command")
    if got is None:
        return
    expected = run_agon(*args, env={"AGON_TOURNAMENT": None})
    assert expected.returncode == 0 and got == expected.stdout, args


@pytest.fixture
def filled(env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    _import(tmp_path, _event("bonn-2018", 15, 2), "ev")
    _import(tmp_path, _event("de-championship", 12, 1), "other")
    run_agon("tournament", "use", "ev")
    run_agon("round", "start", "-t", "other")
    return env


def test_the_console_script_reads_without_sqlalchemy_or_click(
    env: dict[str, str], tmp_path: Path
) -> None:
    """Run as ``agon``, the three reads import neither SQLAlchemy nor click, and print what the
    command prints; a form they do not take (``--json``) runs the command. Nor do they import
    ``importlib.resources`` (the shipped data is read beside the modules) nor ``statistics`` (a
    table's median is computed in place), the list and the standings no ``random`` (only the
    draws need it) nor the event file's one pass, and the round none of the event file's reader
    and the standings' modules:
    a few hundredths of a second of CPU together."""
    _import(tmp_path, _event("bonn-2018", 10, 2), "ev")
    for args in (["tournament", "list"], ["round", "show"], ["tournament", "standings"]):
        code = (
            f"import sys\nsys.argv = ['agon', *{args!r}]\nfrom agon.launch import main\n"
            "try:\n    main()\nfinally:\n    print('\\n'.join(sys.modules), file=sys.stderr)\n"
        )
        proc = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, **env},
        )
        loaded = set(proc.stderr.split())
        assert proc.returncode == 0
        assert not {m for m in loaded if m.split(".")[0] in ("sqlalchemy", "click")}, args
        assert "importlib.resources" not in loaded, args
        assert "statistics" not in loaded, args
        if args[0] == "tournament":
            assert "random" not in loaded, args
            assert "agon.tournament.bulk" not in loaded, args  # the event file's one pass
        else:
            standings = {"event", "standings", "scoring", "bulk"}
            assert not {m for m in loaded if m.rsplit(".", 1)[-1] in standings}, loaded
            assert "agon.commands._standings_text" not in loaded
        assert proc.stdout == run_agon(*args).stdout
