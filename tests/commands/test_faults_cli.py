"""Issue 26, faults: a database that cannot be reached, a driver agon does not have, and a
database that does not exist give ONE line and exit code 2 on the command line; a read never
creates a database, and the commands that may create one say where."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from tests.cli_runner import run_agon


def closed_port() -> int:
    """A local TCP port nobody listens on (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one_line_exit_2(*args: str, env: dict[str, str | None]) -> str:
    done = run_agon(*args, env=env)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.startswith("agon: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return done.stderr


READS = [
    ("tournament", "list"),
    ("tournament", "show", "-t", "x"),
    ("player", "list", "-t", "x"),
    ("tournament", "standings", "-t", "x"),
    ("db", "current"),
    ("db", "verify"),
]
WRITES = [
    ("tournament", "create", "x", "--name", "X", "--ruleset", "bonn-2018"),
    ("player", "add", "-t", "x", "Anna"),
    ("db", "upgrade"),
]


@pytest.mark.parametrize("args", READS + WRITES, ids=" ".join)
def test_an_unreachable_postgresql_is_one_line(args: tuple[str, ...]) -> None:
    url = f"postgresql+psycopg://agon:secret@127.0.0.1:{closed_port()}/agon"
    err = one_line_exit_2(*args, env={"AGON_DATABASE_URL": url, "AGON_ACTOR": "desk"})
    assert "cannot use the database postgresql+psycopg://agon:***@127.0.0.1:" in err
    assert "Connection refused" in err and "secret" not in err


@pytest.mark.parametrize("url", ["mysql://x/y", "mssql+pyodbc://x/y", "oracle://x/y"])
def test_an_unsupported_driver_names_the_supported_schemes(url: str) -> None:
    err = one_line_exit_2("tournament", "list", env={"AGON_DATABASE_URL": url})
    assert err.startswith("agon: error: AGON_DATABASE_URL: database URL ")
    assert "is not supported; agon works with sqlite" in err
    assert "and postgresql+psycopg" in err


@pytest.mark.parametrize("args", READS, ids=" ".join)
def test_a_read_never_creates_a_database(args: tuple[str, ...], tmp_path: Path) -> None:
    path = tmp_path / "typo" / "dir" / "a.db"
    err = one_line_exit_2(*args, env={"AGON_DATABASE_URL": f"sqlite:///{path}"})
    assert f"no database at {path} (AGON_DATABASE_URL)" in err
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize(
    "args",
    [
        ("tournament", "create", "x", "--name", "X", "--ruleset", "bonn-2018"),
        ("db", "upgrade"),
    ],
    ids=" ".join,
)
def test_the_commands_that_create_a_database_say_where(
    args: tuple[str, ...], tmp_path: Path
) -> None:
    path = tmp_path / "new" / "a.db"
    env: dict[str, str | None] = {"AGON_DATABASE_URL": f"sqlite:///{path}", "AGON_ACTOR": "desk"}
    done = run_agon(*args, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"agon: created database {path}\n"
    assert path.is_file()
    listed = run_agon("tournament", "list", env=env)
    assert listed.returncode == 0 and listed.stderr == ""  # it exists now: nothing to say


def test_a_database_from_a_newer_agon_is_one_line(tmp_path: Path) -> None:
    from sqlalchemy import create_engine, text

    from agon.store.migrate import package_head

    path = tmp_path / "a.db"
    env: dict[str, str | None] = {"AGON_DATABASE_URL": f"sqlite:///{path}", "AGON_ACTOR": "desk"}
    assert run_agon("db", "upgrade", env=env).returncode == 0
    newer = f"{int(package_head()) + 1:04d}"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": newer})
    engine.dispose()
    err = one_line_exit_2("tournament", "list", env=env)
    assert f"the database is at migration {newer}, newer than this agon knows" in err
