"""Moving an event to another database loses nothing (issue 26): ``agon export --journal`` here,
``agon import`` there gives the same tournament — open round, pending and unplayed tables,
versions, start time, clocks, disputes, sanctions and the undo history — on either back-end."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from svc_helpers import T0, new_tournament, random_results
from tests.cli_runner import run_agon
from tests.db_fixtures import backend_factory

from agon.services import floor, journal, moving, players, results, rounds
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.models import JournalEntry

STARTS = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def bonn_with_round_1_open(session: Session, slug: str = "bonn") -> list[str]:
    """13 players, round 1 open: table 1 entered (pending), tables 2 and 3 not played yet; a
    sanction, a running clock and a dispute of table 1's result."""
    names = new_tournament(session, slug, "bonn-2018", 13, starts_at=STARTS)
    players.add_sanction(
        session, tournament=slug, player=names[0], kind="warning", reason="late", actor="d"
    )
    rnd = rounds.start_round(session, tournament=slug, actor="director", now=T0)
    floor.start_clock(session, tournament=slug, round_number=1, minutes=50, actor="d", now=T0)
    table = rnd.tables[0]
    entered = results.enter_result(
        session,
        tournament=slug,
        round_number=1,
        table=1,
        results=random_results(table.seats, random.Random(1)),
        actor="scorer",
        now=T0,
    )
    floor.dispute(
        session,
        tournament=slug,
        round_number=1,
        table=1,
        version=entered.version,
        player=table.seats[0],
        reason="my coins",
        actor=table.seats[0],
        now=T0,
    )
    return names


def other_url(session: Session, tmp_path: Path) -> str:
    """A new database on the other back-end than the session's."""
    backend = "postgresql" if session.get_bind().dialect.name == "sqlite" else "sqlite"
    folder = tmp_path / "other"
    folder.mkdir(exist_ok=True)
    return backend_factory(backend).new_url(folder)


def journal_of(s: Session, slug: str) -> list[tuple[object, ...]]:
    return [
        (e.id, e.at, e.actor, e.action, e.payload, e.before, e.after, e.undoes)
        for e in journal.entries(s, slug)
    ]


def test_a_move_keeps_the_open_round_its_tables_and_the_undo(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    bonn_with_round_1_open(session)
    moved = tmp_path / "bonn.agon.json"
    out = run_agon(
        "export", "--journal", "-t", "bonn", "-o", moved, env={"AGON_DATABASE_URL": db_url}
    )
    assert out.returncode == 0, out.stderr
    assert "wrote" in out.stdout
    target = other_url(session, tmp_path)
    out = run_agon("import", moved, env={"AGON_DATABASE_URL": target})
    assert out.returncode == 0, out.stderr
    assert "state matches the export" in out.stdout and "journal ids kept" in out.stdout
    engine = make_engine(Settings(target))
    try:
        with make_session_factory(engine)() as there:
            # the same projection, versions included, and the same journal
            assert journal.snapshot(there, tournament="bonn") == journal.snapshot(
                session, tournament="bonn"
            )
            assert journal_of(there, "bonn") == journal_of(session, "bonn")
            rnd = rounds.get_round(there, tournament="bonn", number=1)
            assert rnd.status == "open"
            assert [t.state for t in rnd.tables] == ["pending", "open", "open"]
            assert [p.name for p in players.list_players(there, tournament="bonn")] == [
                p.name for p in players.list_players(session, tournament="bonn")
            ]
            # undo works there exactly as here
            for s in (session, there):
                journal.undo(s, tournament="bonn", actor="d")  # the dispute
                journal.undo(s, tournament="bonn", actor="d")  # table 1's result
            assert journal.snapshot(there, tournament="bonn") == journal.snapshot(
                session, tournament="bonn"
            )
            assert rounds.get_round(there, tournament="bonn", number=1).tables[0].state == "open"
            assert journal.verify(there, tournament="bonn")
    finally:
        engine.dispose()


def test_the_event_file_says_what_it_leaves_out(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    bonn_with_round_1_open(session)
    out = run_agon(
        "export", "-t", "bonn", "-o", tmp_path / "ev.json", env={"AGON_DATABASE_URL": db_url}
    )
    assert out.returncode == 0, out.stderr
    note = [line for line in out.stderr.splitlines() if line.startswith("agon: note:")]
    assert len(note) == 1
    assert "round 1 is open" in note[0] and "table(s) 2, 3 without a result" in note[0]
    assert "pending" in note[0] and "agon export --journal" in note[0]
    doc = json.loads((tmp_path / "ev.json").read_text(encoding="utf-8"))
    assert doc["notes"] == [note[0].removeprefix("agon: note: ")]
    out = run_agon("standings", tmp_path / "ev.json")  # still an event file agon reads
    assert out.returncode == 0, out.stderr


def test_a_taken_slug_is_refused_unless_imported_as_another(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    bonn_with_round_1_open(session)
    moved = tmp_path / "bonn.agon.json"
    moved.write_text(json.dumps(moving.export_journal(session, tournament="bonn")), "utf-8")
    before = journal_of(session, "bonn")
    out = run_agon("import", moved, env={"AGON_DATABASE_URL": db_url})
    assert out.returncode == 2
    assert out.stderr.startswith("agon: error: ") and out.stderr.count("\n") == 1
    assert "exists already" in out.stderr and "--as" in out.stderr
    out = run_agon("import", moved, "--as", "bonn-copy", env={"AGON_DATABASE_URL": db_url})
    assert out.returncode == 0, out.stderr
    assert "renumbered" in out.stdout  # the ids are taken here by the original
    assert journal_of(session, "bonn") == before
    session.rollback()  # a new transaction sees the import
    copy = moving.portable_snapshot(session, tournament="bonn-copy")
    assert copy == moving.portable_snapshot(session, tournament="bonn")
    # the renumbered versions work: a correction naming the copy's version, then two undos
    table = rounds.get_round(session, tournament="bonn-copy", number=1).tables[0]
    results.enter_result(
        session,
        tournament="bonn-copy",
        round_number=1,
        table=1,
        results=random_results(table.seats, random.Random(2)),
        actor="d",
        expected_version=table.version,
    )
    journal.undo(session, tournament="bonn-copy", actor="d")
    journal.undo(session, tournament="bonn-copy", actor="d")
    journal.undo(session, tournament="bonn", actor="d")
    session.rollback()
    assert moving.portable_snapshot(session, tournament="bonn-copy") == moving.portable_snapshot(
        session, tournament="bonn"
    )
    assert journal.verify(session, tournament="bonn-copy")


def test_a_journal_that_replays_to_another_state_is_refused(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    bonn_with_round_1_open(session)
    doc = moving.export_journal(session, tournament="bonn")
    count = len(session.scalars(select(JournalEntry.id)).all())
    cases = {
        "digest": {**doc, "projection_digest": "0" * 64},
        "replay": {
            **doc,
            "journal": [
                *doc["journal"][:-1],
                {**doc["journal"][-1], "payload": {**doc["journal"][-1]["payload"], "table": 9}},
            ],
        },
        "version": {**doc, "version": 99},
        "actor": {**doc, "journal": [{**doc["journal"][0], "actor": "Marco\x00"}]},
        "year": {**doc, "journal": [{**doc["journal"][0], "at": "0001-01-01T00:00:00+14:00"}]},
        "big": {
            **doc,
            "journal": [
                *doc["journal"][:-1],
                {
                    **doc["journal"][-1],
                    "payload": {**doc["journal"][-1]["payload"], "round": 2**62},
                },
            ],
        },
        "name": {
            **doc,
            "journal": [
                *doc["journal"][:-1],
                {
                    **doc["journal"][-1],
                    "payload": {**doc["journal"][-1]["payload"], "player": "A\x00" * 300},
                },
            ],
        },
        "undo": {
            **doc,
            "journal": [
                *doc["journal"],
                {**doc["journal"][-1], "id": 10**6, "action": "undo", "undoes": 10**5},
            ],
        },
    }
    target = other_url(session, tmp_path)
    for name, bad in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(bad), "utf-8")
        out = run_agon("import", path, "--as", "x", env={"AGON_DATABASE_URL": target})
        assert out.returncode == 2, (name, out.stderr)
        assert out.stderr.startswith("agon: error: ") and out.stderr.count("\n") == 1, name
    engine = make_engine(Settings(target))
    try:
        with make_session_factory(engine)() as there:
            assert there.scalars(select(JournalEntry.id)).all() == []
    finally:
        engine.dispose()
    assert len(session.scalars(select(JournalEntry.id)).all()) == count


@pytest.mark.parametrize("text", ["", "{", "[]", '{"format": "agon-journal"}', "\x00\xff"])
def test_junk_is_refused_in_one_line(text: str, db_url: str, tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_bytes(text.encode("latin-1"))
    out = run_agon("import", path, "--as", "x", env={"AGON_DATABASE_URL": db_url})
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith("agon: error: ") and out.stderr.count("\n") == 1


def test_a_huge_file_is_refused_before_it_is_read(db_url: str, tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as fh:  # 17 MiB: over the 16 MiB every document agon reads may have
        fh.write(b'{"format": "agon-journal", "version": 1, "journal": ["')
        fh.write(b"x" * (17 * 1024 * 1024))
        fh.write(b'"]}')
    for args in (("import", path), ("import", path, "--as", "x"), ("db", "restore", path)):
        out = run_agon(*args, env={"AGON_DATABASE_URL": db_url})
        assert out.returncode == 2, (args, out.stderr)
        assert out.stderr.startswith("agon: error: ") and out.stderr.count("\n") == 1, args


def test_the_journal_export_says_that_online_games_stay_behind(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    from tests.services.online_host import EngineHost

    from agon.services import online
    from agon.services.online import OnlineOptions

    new_tournament(session, "bonn", "bonn-2018", 12)
    online.start_round_online(
        session,
        tournament="bonn",
        actor="director",
        options=OnlineOptions(),
        host=EngineHost(),
        now=T0,
    )
    moved = tmp_path / "bonn.agon.json"
    out = run_agon(
        "export", "--journal", "-t", "bonn", "-o", moved, env={"AGON_DATABASE_URL": db_url}
    )
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("\n") == 1 and "online games of round(s) 1" in out.stderr
    assert "not carried" in out.stderr
    doc = json.loads(moved.read_text(encoding="utf-8"))
    assert doc["online_rounds"] == [1] and doc["online_games"].startswith("not carried")
    # the tournament itself moves (the round and its tables' game ids, as journaled)
    out = run_agon("import", moved, env={"AGON_DATABASE_URL": other_url(session, tmp_path)})
    assert out.returncode == 0, out.stderr


def test_a_state_that_differs_from_its_journal_is_not_exported(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    from sqlalchemy import update

    from agon.store.models import ResultRow

    bonn_with_round_1_open(session)
    session.execute(update(ResultRow).values(vp=99))  # behind the journal's back
    session.commit()
    out = run_agon(
        "export",
        "--journal",
        "-t",
        "bonn",
        "-o",
        tmp_path / "x.json",
        env={"AGON_DATABASE_URL": db_url},
    )
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "differs from its journal" in out.stderr and "agon db rebuild" in out.stderr
    assert not (tmp_path / "x.json").exists()
