"""The issue's guarantees, tested on SQLite and PostgreSQL with real (forked) processes:

- a result the service acknowledged survives ``kill -9`` at any moment (20 kills on SQLite, 10 on PostgreSQL);
- eight processes entering results for different tables at once lose nothing;
- two processes correcting the same table: one wins, the other gets a clear Conflict.
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

from forked import correct_writer, enter_writer, fork, loop_writer
from sqlalchemy import select, text
from sqlalchemy.orm import Session
from svc_helpers import new_tournament, split

from agon.services import journal, results, rounds
from agon.services.schemas import ResultIn
from agon.store.models import JournalEntry

#: Kills per backend: 20 on SQLite (the laptop whose battery dies), 10 on PostgreSQL (whose
#: durability is the server's own; fewer keeps the suite within its time budget).
KILLS = {"sqlite": 20, "postgresql": 10}


def test_acknowledged_results_survive_kill_9(session: Session, db_url: str) -> None:
    names = new_tournament(session, "t", "bonn-2018", 12)
    rounds.start_round(session, tournament="t", actor="director", tables=split(names, (4, 4, 4)))
    session.rollback()
    rng = random.Random(99)
    acked: list[tuple[int, int]] = []
    kills = KILLS["sqlite" if db_url.startswith("sqlite") else "postgresql"]
    for _ in range(kills):
        child = fork(loop_writer(db_url, 2))
        for _ in range(rng.randint(1, 4)):
            line = child.out.readline()
            assert line.startswith("ack "), f"writer died: {line!r}"
            _, version, vp = line.split()
            acked.append((int(version), int(vp)))
        time.sleep(rng.random() * 0.02)  # kill at an arbitrary moment of a later change
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait() == -signal.SIGKILL
        for line in child.out.read().splitlines(keepends=True):  # acks sent before the kill
            if line.endswith("\n"):
                _, version, vp = line.split()
                acked.append((int(version), int(vp)))
        child.out.close()
        # after every kill: the journal and the state agree, and nothing acknowledged is lost
        assert journal.verify(session, tournament="t")
        table = results.get_table(session, tournament="t", round_number=1, table=2)
        last_vp = acked[-1][1]
        assert table.results[0].vp in (last_vp, last_vp + 1)  # +1: committed, ack not yet sent
        payloads = {
            e.id: e.payload
            for e in session.scalars(select(JournalEntry).where(JournalEntry.tournament == "t"))
        }
        for version, vp in acked:
            assert payloads[version]["results"][0]["vp"] == vp
        if db_url.startswith("sqlite"):
            assert session.execute(text("PRAGMA integrity_check")).scalar() == "ok"
        session.rollback()
    assert len({v for v, _ in acked}) == len(acked) >= kills


def test_eight_writers_on_eight_tables_lose_nothing(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    names = new_tournament(session, "t", "bonn-2018", 40)
    rounds.start_round(session, tournament="t", actor="director", tables=split(names, [5] * 8))
    session.rollback()
    go = tmp_path / "go"
    children = [fork(enter_writer(db_url, t, go)) for t in range(1, 9)]
    time.sleep(0.2)
    go.touch()
    assert [c.wait() for c in children] == [0] * 8
    session.rollback()
    played = rounds.get_round(session, tournament="t", number=1)
    assert [t.state for t in played.tables] == ["confirmed"] * 8
    for t in played.tables:
        assert [r.vp for r in t.results] == [50 + t.number - 3 * i for i in range(5)]
    actions = [e.action for e in journal.list_journal(session, tournament="t")]
    assert actions.count("result.enter") == 8 and actions.count("result.confirm") == 8
    rounds.close_round(session, tournament="t", actor="director", number=1)
    assert journal.verify(session, tournament="t")


def test_two_correctors_on_one_table_one_gets_a_conflict(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    names = new_tournament(session, "t", "bonn-2018", 12)
    rounds.start_round(session, tournament="t", actor="director", tables=split(names, (4, 4, 4)))
    first = results.enter_result(
        session,
        tournament="t",
        round_number=1,
        table=1,
        actor="scorer",
        results=[ResultIn(n, 30 + i, coins=i) for i, n in enumerate(names[:4])],
    )
    session.rollback()
    go = tmp_path / "go"
    children = {vp: fork(correct_writer(db_url, go, first.version, vp)) for vp in (70, 80)}
    time.sleep(0.2)
    go.touch()
    codes = {vp: child.wait() for vp, child in children.items()}
    assert sorted(codes.values()) == [0, 3], codes
    winner = next(vp for vp, code in codes.items() if code == 0)
    loser = next(vp for vp, code in codes.items() if code == 3)
    message = children[loser].out.read()
    assert "changed meanwhile" in message and f"you saw version {first.version}" in message
    session.rollback()
    table = results.get_table(session, tournament="t", round_number=1, table=1)
    assert [r.vp for r in table.results] == [winner - 3 * i for i in range(4)]
    entered = [
        e for e in journal.list_journal(session, tournament="t") if e.action == "result.enter"
    ]
    assert len(entered) == 2  # the first entry and the one successful correction
