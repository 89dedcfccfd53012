"""Issue 10, defect 4: hostile files and arguments on the command line give ONE line on stderr and
exit code 2 — never a traceback, exit 1 or a hang — and leave the database unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, func, select

from agon.cli import cli
from agon.store.models import JournalEntry


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="agon")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def refused(*args: str) -> str:
    code, out, err = run(*args)
    assert code == 2, (code, out, err)
    assert err.startswith("agon: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in out + err
    return err


@pytest.fixture
def env(db_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)
    monkeypatch.setenv("AGON_ACTOR", "Marco")
    monkeypatch.delenv("AGON_TOURNAMENT", raising=False)
    return db_url


def journal_entries(db_url: str) -> int:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(select(func.count(JournalEntry.id))).scalar() or 0)
    finally:
        engine.dispose()


def event(**fields: object) -> dict[str, object]:
    return {"name": "E", "ruleset": "bonn-2018", "players": ["Anna", "Ben", "Cleo"], **fields}


def _bomb() -> str:
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]")
    return "\n".join(lines) + "\nname: E\nruleset: bonn-2018\nplayers: [*l9]\n"


HOSTILE_FILES: dict[str, tuple[str, str]] = {
    "deep.json": (
        '{"name": "E", "ruleset": "bonn-2018", "players": ' + "[" * 5000 + "]" * 5000 + "}",
        "nested deeper than 32 levels",
    ),
    "deep.yaml": ("players: " + "[" * 5000 + "]" * 5000 + "\n", "nested deeper than 32 levels"),
    "key.yaml": ("1: one\nname: E\nruleset: bonn-2018\n", "key 1 is not text"),
    "digits.json": (json.dumps(event())[:-1] + ', "seed": ' + "9" * 5000 + "}", "too large"),
    "digits.yaml": ("name: E\nseed: " + "9" * 5000 + "\n", "too large"),
    "surrogate.json": (
        '{"name": "E", "ruleset": "bonn-2018", "players": ["\\ud800", "Ben", "Cleo"]}',
        "lone surrogate",
    ),
    "huge-vp.json": (
        json.dumps(
            event(
                rounds=[
                    {
                        "tables": [
                            {
                                "results": [
                                    {"player": "Anna", "vp": 2**63},
                                    {"player": "Ben", "vp": 1},
                                    {"player": "Cleo", "vp": 1},
                                ]
                            }
                        ]
                    }
                ]
            )
        ),
        "too large",
    ),
    "vp-501.json": (
        json.dumps(
            event(
                rounds=[
                    {
                        "tables": [
                            {
                                "results": [
                                    {"player": "Anna", "vp": 501},
                                    {"player": "Ben", "vp": 1},
                                    {"player": "Cleo", "vp": 1},
                                ]
                            }
                        ]
                    }
                ]
            )
        ),
        "field 'vp': 501 is out of range -100…500",
    ),
    "nan.json": (json.dumps(event())[:-1] + ', "extra": NaN}', "NaN is not a number"),
    "nan.yaml": ("name: E\nruleset: bonn-2018\nplayers: [{name: A, r: .nan}]\n", "not a number"),
    "long-ruleset.json": (json.dumps(event(ruleset="r" * 5000)), "unknown ruleset"),
    "long-name.json": (json.dumps(event(players=["x" * 10_000, "B", "C"])), "at most 80"),
    "bidi.json": (json.dumps(event(players=["Anna\u202e", "B", "C"])), "direction mark"),
    "bomb.yaml": (_bomb(), "more than 1,000,000 values"),
    "binary.yaml": ("name: !!binary aGVsbG8=\n", "tag 'tag:yaml.org,2002:binary'"),
    "two-docs.yaml": ("a: 1\n---\nb: 2\n", "malformed YAML"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_event_files_are_one_line_and_exit_2(env: str, tmp_path: Path, name: str) -> None:
    content, message = HOSTILE_FILES[name]
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    run("tournament", "create", "keep", "--name", "Keep", "--ruleset", "bonn-2018")
    entries = journal_entries(env)
    err = refused("import", "--slug", "x", str(path))
    assert message in err
    assert journal_entries(env) == entries
    assert message in refused("standings", str(path))


def test_invalid_utf8_is_one_line(env: str, tmp_path: Path) -> None:
    path = tmp_path / "cities.json"
    path.write_bytes(b'[{"name": "\xff"}]')
    assert "not UTF-8" in refused("7w", "score", str(path))
    assert "not UTF-8" in refused("import", "--slug", "x", str(path))


def test_a_5000_character_ruleset_name_is_one_line(env: str) -> None:
    err = refused("tournament", "create", "t", "--name", "T", "--ruleset", "r" * 5000)
    assert "unknown ruleset" in err and len(err) < 400


def test_names_from_the_command_line_follow_the_name_rule(env: str) -> None:
    run("tournament", "create", "t", "--name", "T", "--ruleset", "bonn-2018")
    entries = journal_entries(env)
    assert "not valid UTF-8" in refused("player", "add", "-t", "t", "Anna\udcff")
    assert "at most 80" in refused("player", "add", "-t", "t", "A" * 81)
    assert "direction mark" in refused("player", "add", "-t", "t", "\u2067Anna")
    assert "at most 80" in refused(
        "tournament", "create", "u", "--name", "N" * 81, "--ruleset", "bonn-2018"
    )
    assert journal_entries(env) == entries


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "100000"), "100000 is not in the range 2<=x<=1000"),
        (("--players", "12", "--rounds", "1000000"), "1000000 is not in the range 1<=x<=50"),
        (("--players", "9" * 5000), "is not a valid integer"),
    ],
)
def test_schedule_limits(args: tuple[str, ...], message: str) -> None:
    assert message in refused("schedule", "--seed", "s", *args)


def test_usage_errors_are_one_line_with_exit_2() -> None:
    assert "No such command" in refused("no-such-command")
    assert "No such option" in refused("schedule", "--no-such-option")


# Issue 26: an endless or binary input is refused at a cap, in one line, never read to the end.


@pytest.mark.slow
def test_an_endless_players_file_stops_at_the_cap(tmp_path: Path) -> None:
    """``agon player import /dev/urandom`` read forever on main; now it stops at 4 MiB (a separate
    process under a memory cap and a timeout, so that a regression fails instead of hanging)."""
    import os
    import resource
    import subprocess
    import sys

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    env = {**os.environ, "AGON_DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"}
    done = subprocess.run(
        [sys.executable, "-m", "agon", "player", "import", "/dev/urandom"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        preexec_fn=limit_memory,
        check=False,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr == "agon: error: /dev/urandom: players file larger than 4 MiB\n"


def test_players_files_over_the_cap_or_binary_are_refused(env: str, tmp_path: Path) -> None:
    run("tournament", "create", "t", "--name", "T", "--ruleset", "bonn-2018")
    big = tmp_path / "big.csv"
    big.write_text("name\n" + "".join(f"Player {i}\n" for i in range(500_000)), encoding="utf-8")
    assert "big.csv: players file larger than 4 MiB" in refused("player", "import", str(big))
    binary = tmp_path / "zeros.csv"
    binary.write_bytes(b"name\nAnna\n" + bytes(64))
    assert "zeros.csv: holds a NUL byte (byte 11): binary data" in refused(
        "player", "import", str(binary)
    )
    assert journal_entries(env) == 1  # the tournament's creation only


def test_ruleset_files_and_auction_scripts_have_caps(env: str, tmp_path: Path) -> None:
    ruleset = tmp_path / "huge.toml"
    ruleset.write_text("# padding\n" * 200_000, encoding="utf-8")
    err = refused("tournament", "create", "t", "--name", "T", "--ruleset", str(ruleset))
    assert "huge.toml: ruleset file larger than 1 MiB" in err
    script = tmp_path / "script.txt"
    script.write_text("# padding\n" * 200_000, encoding="utf-8")
    args = ("auction", "--players", "Anna,Ben,Cleo", "--seed", "1", "--script")
    assert "script.txt: auction script larger than 1 MiB" in refused(*args, str(script))
    result = CliRunner().invoke(cli, [*args, "-"], input="# padding\n" * 200_000)
    assert result.exit_code == 2
    assert "standard input: auction script larger than 1 MiB" in result.stderr
    zeros = tmp_path / "zeros.txt"
    zeros.write_bytes(bytes(10))
    assert "holds a NUL byte" in refused(*args, str(zeros))
