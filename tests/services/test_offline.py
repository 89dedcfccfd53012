"""Entries sent exactly once (issue 29, :mod:`agon.services.offline`), on SQLite and PostgreSQL:
the same idempotency key twice makes one journal entry and gets the same answer (also from two
threads with their own connections at once), a queued entry that finds the result changed
becomes a dispute the desk sees, with what the phone wanted."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from sqlalchemy.orm import Session
from svc_helpers import new_tournament, split

from agon.errors import Conflict, InvalidInput
from agon.services import floor, journal, offline, results, rounds
from agon.services.core import Once
from agon.services.schemas import ResultIn
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.models import JournalEntry


def seated(session: Session) -> list[str]:
    names = new_tournament(session, "t", "bonn-2018", 12)
    rounds.start_round(session, tournament="t", actor="director", tables=split(names, (4, 4, 4)))
    return names[:4]


def sheet(seats: list[str], vp: int) -> list[ResultIn]:
    return [ResultIn(n, vp - i, coins=i) for i, n in enumerate(seats)]


def actions(session: Session, action: str) -> list[JournalEntry]:
    session.rollback()
    return [e for e in journal.list_journal(session, tournament="t") if e.action == action]  # type: ignore[misc]


def test_same_key_twice_makes_one_entry_and_gets_the_same_answer(session: Session) -> None:
    seats = seated(session)
    key = str(uuid.uuid4())
    kwargs: dict[str, Any] = dict(
        key=key, tournament="t", round_number=1, table=1, actor="table 1 (phone)"
    )
    first = offline.enter_result_once(session, results=sheet(seats, 40), **kwargs)
    again = offline.enter_result_once(session, results=sheet(seats, 40), **kwargs)
    assert first.fresh and not again.fresh
    assert again.answer == first.answer and again.entry == first.entry
    assert first.answer["outcome"] == "saved"
    assert [r["vp"] for r in first.answer["table"]["results"]] == [40, 39, 38, 37]
    assert len(actions(session, "result.enter")) == 1
    # a new key is a new entry (here: a first entry again, refused: a correction names a version)
    with pytest.raises(Conflict):
        offline.enter_result_once(session, results=sheet(seats, 50), **{**kwargs, "key": "k" * 36})
    # the key survives a rebuild of the state from the journal
    journal.rebuild(session, tournament="t")
    replayed = offline.enter_result_once(session, results=sheet(seats, 40), **kwargs)
    assert replayed.answer == first.answer and not replayed.fresh


def test_a_key_is_for_one_change_only(session: Session) -> None:
    seats = seated(session)
    key = str(uuid.uuid4())
    done = offline.enter_result_once(
        session,
        key=key,
        tournament="t",
        round_number=1,
        table=1,
        actor="p",
        results=sheet(seats, 40),
    )
    with pytest.raises(Conflict, match="another change"):
        offline.confirm_once(
            session,
            key=key,
            tournament="t",
            round_number=1,
            table=1,
            player=seats[0],
            actor="p",
            expected_version=done.answer["table"]["version"],
        )
    for bad in ("short", "x" * 65, "bad key with spaces", "ünïcode-key-123"):
        with pytest.raises(InvalidInput, match="idempotency key"):
            offline.enter_result_once(
                session,
                key=bad,
                tournament="t",
                round_number=1,
                table=1,
                actor="p",
                results=sheet(seats, 40),
            )


def test_confirmation_once(session: Session) -> None:
    seats = seated(session)
    entered = results.enter_result(
        session, tournament="t", round_number=1, table=1, actor="p", results=sheet(seats, 40)
    )
    key = str(uuid.uuid4())
    answers = [
        offline.confirm_once(
            session,
            key=key,
            tournament="t",
            round_number=1,
            table=1,
            player=seats[1],
            actor="phone",
            expected_version=entered.version,
        )
        for _ in range(3)
    ]
    assert [a.fresh for a in answers] == [True, False, False]
    assert len(actions(session, "result.confirm")) == 1
    # a confirmation of a version that is gone is refused, not counted for the new one
    results.enter_result(
        session,
        tournament="t",
        round_number=1,
        table=1,
        actor="desk",
        results=sheet(seats, 30),
        expected_version=entered.version,
    )
    with pytest.raises(Conflict):
        offline.confirm_once(
            session,
            key=str(uuid.uuid4()),
            tournament="t",
            round_number=1,
            table=1,
            player=seats[2],
            actor="phone",
            expected_version=entered.version,
        )


@pytest.mark.parametrize("first_entry", [True, False])
def test_queued_entry_that_finds_the_result_changed_becomes_a_dispute(
    session: Session, first_entry: bool
) -> None:
    seats = seated(session)
    seen = None
    if not first_entry:  # the phone saw version `seen`, the desk corrected it meanwhile
        seen = results.enter_result(
            session, tournament="t", round_number=1, table=1, actor="p", results=sheet(seats, 40)
        ).version
        now = results.enter_result(
            session,
            tournament="t",
            round_number=1,
            table=1,
            actor="desk",
            results=sheet(seats, 45),
            expected_version=seen,
        )
    else:  # another phone entered the first result meanwhile
        now = results.enter_result(
            session,
            tournament="t",
            round_number=1,
            table=1,
            actor="phone 2",
            results=sheet(seats, 45),
        )
    key = str(uuid.uuid4())
    kwargs: dict[str, Any] = dict(
        key=key,
        tournament="t",
        round_number=1,
        table=1,
        actor="table 1 (phone)",
        results=sheet(seats, 60),
        expected_version=seen,
    )
    # not queued (the phone was online and sees the refusal): a conflict, nothing recorded
    with pytest.raises(Conflict):
        offline.enter_result_once(session, **{**kwargs, "key": str(uuid.uuid4())})
    sent = offline.enter_result_once(session, queued=True, **kwargs)
    assert sent.answer["outcome"] == "dispute"
    # never overwriting: the table keeps the result it had
    table = results.get_table(session, tournament="t", round_number=1, table=1)
    assert table.version == now.version and [r.vp for r in table.results] == [45, 44, 43, 42]
    # the desk sees it, with what the phone wanted
    shown = floor.disputes(session, tournament="t", round_number=1, versions={1: table.version})
    assert len(shown[1]) == 1
    assert shown[1][0].wanted is not None
    assert [w["vp"] for w in shown[1][0].wanted] == [60, 59, 58, 57]
    # sent again (the answer was lost on the way): the same answer, no second dispute
    again = offline.enter_result_once(session, queued=True, **kwargs)
    assert again.answer == sent.answer and not again.fresh
    assert len(actions(session, "dispute.open")) == 1
    # the dispute is in the journal: a rebuild keeps it
    journal.rebuild(session, tournament="t")
    shown = floor.disputes(session, tournament="t", round_number=1, versions={1: table.version})
    assert shown[1][0].wanted is not None and shown[1][0].player == ""


def test_two_requests_with_the_same_key_at_once_make_one_entry(
    session: Session, db_url: str
) -> None:
    """Two server workers (here: threads, each with its own engine and connection) get the same
    entry at once: one writes, the other answers the same, and the journal has one entry."""
    seats = seated(session)
    session.rollback()
    key = str(uuid.uuid4())
    go = threading.Barrier(4)
    got: list[Once | BaseException] = []

    def worker() -> None:
        engine = make_engine(Settings(db_url))
        try:
            with make_session_factory(engine)() as s:
                go.wait()
                got.append(
                    offline.enter_result_once(
                        s,
                        key=key,
                        tournament="t",
                        round_number=1,
                        table=1,
                        actor="table 1 (phone)",
                        results=sheet(seats, 40),
                        queued=True,
                    )
                )
        except BaseException as exc:
            got.append(exc)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert all(isinstance(g, Once) for g in got), got
    done = [g for g in got if isinstance(g, Once)]
    assert len(done) == 4
    assert sorted(g.fresh for g in done) == [False, False, False, True]
    assert len({repr(g.answer) for g in done}) == 1 and done[0].answer["outcome"] == "saved"
    assert len(actions(session, "result.enter")) == 1
    assert not actions(session, "dispute.open")
