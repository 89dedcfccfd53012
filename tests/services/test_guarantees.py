"""The issue's guarantees, tested on SQLite and PostgreSQL with real (forked) processes:

- a result the service acknowledged survives ``kill -9`` at any moment (40 kills on each backend;
  after every fourth kill and the last, the journal replayed agrees with the state);
- eight processes entering results for different tables at once lose nothing;
- two processes correcting the same table: one wins, the other gets a clear Conflict;
- eight processes mixing registrations, check-ins, round start, results, sanctions, disputes and
  clock actions on one tournament lose nothing and keep the journal in commit order (issue 10);
- a slow change holds its journal position until it commits: later writers wait (issue 10, 1).
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from forked import correct_writer, enter_writer, fork, loop_writer, mixed_writer
from sqlalchemy import select, text
from sqlalchemy.orm import Session
from svc_helpers import new_tournament, split

from agon.errors import IllegalAction
from agon.services import chain, journal, players, results, rounds
from agon.services.core import HANDLERS, Change, Ctx, record
from agon.services.schemas import PlayerCreate, ResultIn
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.models import JournalEntry

#: Kills per backend (issue 10: at least 40 on each; tests/store/test_first_use.py adds kills
#: during the first use's migration).
KILLS = {"sqlite": 40, "postgresql": 40}


@pytest.mark.slow
def test_acknowledged_results_survive_kill_9(session: Session, db_url: str) -> None:
    names = new_tournament(session, "t", "bonn-2018", 12)
    rounds.start_round(session, tournament="t", actor="director", tables=split(names, (4, 4, 4)))
    session.rollback()
    rng = random.Random(99)
    acked: list[tuple[int, int]] = []
    kills = KILLS["sqlite" if db_url.startswith("sqlite") else "postgresql"]
    started = time.monotonic()
    for kill in range(1, kills + 1):
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
        # after every kill nothing acknowledged is lost; after every fourth and the last, the
        # journal's replay and the state agree (a full replay, 80 % of this test's time when it
        # ran after every kill; nothing repairs a disagreement, so a later check still sees it)
        if kill % 4 == 0 or kill == kills:
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
    print(f"{kills} kills, {len(acked)} acknowledged changes, {time.monotonic() - started:.1f} s")


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


#: The eight writers of one tournament: (role, index).
MIXED = [
    ("round", 0),
    ("checkin", 0),
    ("checkin", 1),
    ("register", 0),
    ("sanction", 0),
    ("results", 0),
    ("results", 1),
    ("floor", 0),
]


def test_eight_mixed_writers_on_one_tournament_keep_the_journal_in_commit_order(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    """Check-ins and sanctions racing the round start, results racing sanctions, disputes and the
    clock: nothing acknowledged is lost, refusals are clear one-line messages, and the journal
    replays to the live state (it did not on PostgreSQL while journal ids were given out before
    the tournament's lock was taken: issue 10, defect 1), so undo and rebuild work too."""
    names = new_tournament(session, "t", "bonn-2018", 28)
    players.import_players(
        session,
        tournament="t",
        players=[PlayerCreate(name=f"Player {n:02d}", fee_paid=True) for n in range(29, 37)],
        actor="director",
    )
    assert len(names) == 28
    session.rollback()
    go = tmp_path / "go"
    started = time.monotonic()
    children = {
        f"{role}{index}": fork(mixed_writer(db_url, role, index, go)) for role, index in MIXED
    }
    time.sleep(0.3)
    go.touch()
    codes = {actor: child.wait() for actor, child in children.items()}
    elapsed = time.monotonic() - started
    assert codes == dict.fromkeys(children, 0), codes
    acks: dict[str, int] = {}
    for actor, child in children.items():
        lines = child.out.read().splitlines()
        acks[actor] = lines.count("ack")
        for line in lines:
            assert line == "ack" or line.startswith(("err Conflict:", "err IllegalAction:")), line
    session.rollback()
    journal_by_actor = Counter(e.actor for e in journal.list_journal(session, tournament="t"))
    assert {a: journal_by_actor[a] for a in acks} == acks  # 0 acknowledged changes lost
    assert acks["round0"] == 1 and acks["register0"] == 4 and acks["sanction0"] == 20
    assert journal.verify(session, tournament="t")
    count, _, broken = chain.verify_stored(session, "t")  # positions gapless, in commit order
    assert broken == [] and count == len(journal.list_journal(session, tournament="t"))
    before = journal.snapshot(session, tournament="t")
    assert journal.rebuild(session, tournament="t") > 40
    assert journal.snapshot(session, tournament="t") == before
    for _ in range(6):  # undo the last changes one by one, checking the state each time
        journal.undo(session, tournament="t", actor="director")
        assert journal.verify(session, tournament="t")
    print(f"8 mixed writers: {sum(acks.values())} changes in {elapsed:.2f} s")


def test_journal_order_is_commit_order_when_a_change_is_slow(
    session: Session, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 10, defect 1, made deterministic: a round start that takes its time (a handler that
    waits half a second before seating) while a sanction and a check-in arrive. They must wait for
    it and come after it in the journal; when journal ids were given out before the tournament's
    lock was taken (PostgreSQL), the sanction got the later id but committed first, without the
    round, and the replay disagreed (or failed: the check-in was not late any more)."""
    real = HANDLERS["round.start"]

    def slow_start(ctx: Ctx, payload: dict[str, Any]) -> Change:
        if not replaying.is_set():
            seating.set()  # the tournament's lock and the journal position are held
            time.sleep(0.5)
        return real(ctx, payload)

    replaying, seating = threading.Event(), threading.Event()
    monkeypatch.setitem(HANDLERS, "round.start.slow", slow_start)
    names = new_tournament(session, "t", "bonn-2018", 12)
    players.register_player(
        session, tournament="t", data=PlayerCreate(name="Latecomer", fee_paid=True), actor="d"
    )
    session.rollback()
    payload = {
        "number": 1,
        "final": False,
        "tables": split(names, (4, 4, 4)),
        "wonders": [],
        "guilds": [],
        "sides": None,
        "info": {},
    }
    errors: list[BaseException] = []

    def in_thread(change: Callable[[Session], object]) -> None:
        engine = make_engine(Settings(db_url))
        try:
            with make_session_factory(engine)() as own:
                change(own)
        except BaseException as exc:  # reported by the test thread
            errors.append(exc)
        finally:
            engine.dispose()

    slow = threading.Thread(
        target=in_thread,
        args=(
            lambda s: record(
                s, tournament="t", actor="d", action="round.start.slow", payload=payload
            ),
        ),
    )
    slow.start()
    # the others start once the round start holds its journal position and is seating (a fixed
    # 0.15 s was not always enough on a loaded machine: the check-in came first and was let in)
    while not seating.wait(0.05):
        assert slow.is_alive(), errors
    others = [
        threading.Thread(
            target=in_thread,
            args=(
                lambda s: players.add_sanction(
                    s, tournament="t", player=names[0], kind="warning", reason="late", actor="d"
                ),
            ),
        ),
        threading.Thread(
            target=in_thread,
            args=(
                lambda s: players.check_in(
                    s, tournament="t", player="Latecomer", actor="d", late=False
                ),
            ),
        ),
    ]
    for thread in others:
        thread.start()
    for thread in [slow, *others]:
        thread.join()
    replaying.set()
    # the round started first, so the check-in after it is refused as not late (a clear message)
    assert len(errors) == 1 and isinstance(errors[0], IllegalAction), errors
    session.rollback()
    actions = [e.action for e in journal.list_journal(session, tournament="t")]
    assert actions[-2:] == ["round.start.slow", "player.sanction"]
    assert players.get_player(session, tournament="t", name=names[0]).sanctions[0].round == 1
    assert journal.verify(session, tournament="t")
    journal.undo(session, tournament="t", actor="d")
    assert journal.rebuild(session, tournament="t") > 0
    assert journal.verify(session, tournament="t")
