"""``agon db backup`` / ``agon db restore`` (issue 26): a whole database, safe while it is written
to — the backup is one consistent moment of it — and a restore that checks its file first and
never overwrites data unasked."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy.orm import Session
from svc_helpers import new_tournament, random_results
from tests.cli_runner import run_agon
from tests.db_fixtures import backend_factory

from agon.errors import AgonError
from agon.services import journal, results, rounds
from agon.store.backup import pg_program
from agon.store.db import Settings, make_engine, make_session_factory


def _writer(
    url: str, slug: str, seats: list[list[str]], stop: threading.Event, written: list[int]
) -> None:
    """Correct the round's results again and again until ``stop``, appending each new version
    to ``written``."""
    engine = make_engine(Settings(url))
    rng = random.Random(7)
    try:
        with make_session_factory(engine)() as s:
            while not stop.is_set() or len(written) < 5:
                n = rng.randrange(len(seats))
                table = rounds.get_round(s, tournament=slug, number=1).tables[n]
                try:
                    done = results.enter_result(
                        s,
                        tournament=slug,
                        round_number=1,
                        table=n + 1,
                        results=random_results(seats[n], rng),
                        actor="phone",
                        expected_version=table.version if table.version else None,
                    )
                except AgonError:
                    continue
                written.append(done.version)
    finally:
        engine.dispose()


def _entries(url: str) -> list[tuple[object, ...]]:
    engine = make_engine(Settings(url))
    try:
        with make_session_factory(engine)() as s:
            return [(e.id, e.action, e.payload, e.undoes) for e in journal.entries(s, "live")]
    finally:
        engine.dispose()


def _fresh(session: Session, tmp_path: Path) -> str:
    folder = tmp_path / "restored"
    folder.mkdir(exist_ok=True)
    return backend_factory(session.get_bind().dialect.name).new_url(folder)


@pytest.mark.slow  # ~7 s a back-end (a writer thread, four backups, four restores)
def test_a_backup_taken_while_results_come_in_restores_to_a_consistent_moment(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    if session.get_bind().dialect.name == "postgresql" and pg_program("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    new_tournament(session, "live", "bonn-2018", 13)
    seats = [t.seats for t in rounds.start_round(session, tournament="live", actor="d").tables]
    stop = threading.Event()
    written: list[int] = []
    thread = threading.Thread(target=_writer, args=(db_url, "live", seats, stop, written))
    thread.start()
    try:
        backups = []
        for k in range(3):  # while the writer writes: after 3, 6 and 9 of its changes
            deadline = time.monotonic() + 60
            while len(written) < 3 * (k + 1) and time.monotonic() < deadline:
                time.sleep(0.01)
            path = tmp_path / f"during-{k}.backup"
            out = run_agon("db", "backup", path, env={"AGON_DATABASE_URL": db_url})
            assert out.returncode == 0, out.stderr
            assert "backed up" in out.stdout
            backups.append(path)
        deadline = time.monotonic() + 60
        while len(written) < 12 and time.monotonic() < deadline:  # and some after the last
            time.sleep(0.01)
    finally:
        stop.set()
        thread.join(timeout=120)
    assert len(written) >= 12
    final = _entries(db_url)
    lengths = []
    for path in backups:
        target = _fresh(session, tmp_path)
        out = run_agon("db", "restore", path, env={"AGON_DATABASE_URL": target})
        assert out.returncode == 0, out.stderr
        restored = _entries(target)
        # one moment of the database: a prefix of its journal, and its state is that journal's
        assert restored == final[: len(restored)] and len(restored) >= 4
        lengths.append(len(restored))
        out = run_agon("db", "verify", env={"AGON_DATABASE_URL": target})
        assert out.returncode == 0 and "live: ok" in out.stdout, out.stderr
        # a database with data is not overwritten unasked; with --force it is
        out = run_agon("db", "restore", backups[-1], env={"AGON_DATABASE_URL": target})
        assert out.returncode == 2 and "--force" in out.stderr
        assert out.stderr.count("\n") == 1
        assert _entries(target) == restored
    # the backups were taken while the results came in: each holds more, none holds all
    assert lengths == sorted(lengths) and lengths[0] < lengths[-1] < len(final), lengths
    out = run_agon("db", "backup", tmp_path / "after.backup", env={"AGON_DATABASE_URL": db_url})
    assert out.returncode == 0, out.stderr
    target = _fresh(session, tmp_path)
    assert run_agon("db", "restore", backups[0], env={"AGON_DATABASE_URL": target}).returncode == 0
    out = run_agon(
        "db", "restore", "--force", tmp_path / "after.backup", env={"AGON_DATABASE_URL": target}
    )
    assert out.returncode == 0, out.stderr
    assert _entries(target) == final
    session.rollback()
    engine = make_engine(Settings(target))
    try:
        with make_session_factory(engine)() as there:
            assert journal.snapshot(there, tournament="live") == journal.snapshot(
                session, tournament="live"
            )
    finally:
        engine.dispose()


def test_a_bad_backup_file_is_refused_and_changes_nothing(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    new_tournament(session, "live", "bonn-2018", 4)
    before = _entries(db_url)
    good = tmp_path / "good.backup"
    if session.get_bind().dialect.name == "sqlite" or pg_program("pg_dump") is not None:
        assert run_agon("db", "backup", good, env={"AGON_DATABASE_URL": db_url}).returncode == 0
    else:
        good.write_bytes(b"PGDMP" + b"\x00" * 200)
    other = tmp_path / "other.sqlite"
    import sqlite3

    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    files = {
        "junk.backup": b"hello, not a database\n" * 10,
        "empty.backup": b"",
        "truncated.backup": good.read_bytes()[: len(good.read_bytes()) // 2],
        "other.sqlite": other.read_bytes(),
    }
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        out = run_agon("db", "restore", "--force", path, env={"AGON_DATABASE_URL": db_url})
        assert out.returncode == 2, (name, out.stdout, out.stderr)
        assert out.stderr.startswith("agon: error: ") and out.stderr.count("\n") == 1, name
        assert _entries(db_url) == before, name
    out = run_agon("db", "restore", tmp_path / "missing", env={"AGON_DATABASE_URL": db_url})
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    out = run_agon("db", "backup", good, env={"AGON_DATABASE_URL": db_url})
    assert out.returncode == 2 and "exists" in out.stderr  # a backup is not overwritten unasked
