"""Online registration's rules (issue 27), property-based: the capacity is never exceeded, the
waiting list is promoted in registration order, a registered person's withdrawal promotes
exactly one waiting person (none when a waiting person withdraws), and nobody waits while a
place is free. Checked on the pure rules and on the journaled service (SQLite)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session

from agon.services import journal, registration, tournaments
from agon.services.schemas import TournamentCreate
from agon.store.db import Settings, make_engine, make_session_factory
from agon.tournament import registration as rules
from tests.store_testing import shared_factory

#: An operation: ("register",), ("withdraw", k) — the k-th registrant (mod the count) —, or
#: ("capacity", c) — a new capacity (raised to the places taken when lower).
OPS = st.lists(
    st.one_of(
        st.just(("register", 0)),
        st.tuples(st.just("withdraw"), st.integers(0, 50)),
        st.tuples(st.just("capacity"), st.integers(1, 8)),
    ),
    max_size=40,
)


def check_invariants(entries: list[rules.Entry], capacity: int) -> None:
    taken = rules.places_taken(entries)
    waiting = [e.number for e in entries if e.status == "waiting"]
    assert taken <= capacity
    assert not waiting or taken == capacity, "somebody waits while a place is free"
    positions = [rules.waiting_position(entries, n) for n in sorted(waiting)]
    assert positions == list(range(1, len(waiting) + 1))


def apply(entries: list[rules.Entry], capacity: int, op: tuple[str, int]) -> tuple[int, list[int]]:
    """One operation on the pure model; the new capacity and who was promoted."""
    kind, value = op
    if kind == "register":
        status = rules.status_for_new(entries, capacity)
        entries.append(rules.Entry(len(entries) + 1, status))
        return capacity, []
    if kind == "capacity":
        capacity = max(value, rules.places_taken(entries), 1)
    elif entries:
        i = value % len(entries)
        if entries[i].status not in ("registered", "waiting"):
            return capacity, []
        entries[i] = rules.Entry(entries[i].number, "withdrawn")
    promoted = rules.to_promote(entries, capacity)
    for j, e in enumerate(entries):
        if e.number in promoted:
            entries[j] = rules.Entry(e.number, "registered")
    return capacity, promoted


@settings(max_examples=300)
@given(capacity=st.integers(1, 6), ops=OPS)
def test_pure_rules_keep_the_capacity_and_promote_in_order(
    capacity: int, ops: list[tuple[str, int]]
) -> None:
    entries: list[rules.Entry] = []
    for op in ops:
        before = list(entries)
        waiting_before = sorted(e.number for e in before if e.status == "waiting")
        capacity, promoted = apply(entries, capacity, op)
        check_invariants(entries, capacity)
        # promotion takes the earliest on the waiting list, in order
        assert promoted == waiting_before[: len(promoted)]
        if op[0] == "withdraw" and before:
            gone = before[op[1] % len(before)]
            if gone.status == "registered":
                assert len(promoted) == (1 if waiting_before else 0)
            else:
                assert promoted == []


def test_the_email_rule_and_initials() -> None:
    assert rules.check_email(" Anna.Rossi+7w@Example.ORG ") == "Anna.Rossi+7w@example.org"
    for bad in ("", "anna", "anna@", "@x.org", "a@b", "a b@c.de", "a@b\n.cd", "a@@b.de", 7):
        with pytest.raises(rules.InvalidInput):
            rules.check_email(bad)
    assert rules.public_name("Jean-Luc Picard", "initials") == "J. L. P."
    assert rules.public_name("Jean-Luc Picard", "full") == "Jean-Luc Picard"


T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
_SLUGS = itertools.count()


@pytest.fixture(scope="module")
def sqlite_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    factory = shared_factory("sqlite")
    assert factory is not None
    engine = make_engine(Settings(factory.new_url(tmp_path_factory.mktemp("reg"))))
    with make_session_factory(engine)() as session:
        yield session
    engine.dispose()


@pytest.mark.slow  # ~8 s: 25 journaled runs of up to 16 changes each
@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(capacity=st.integers(1, 4), ops=OPS.map(lambda ops: ops[:16]))
def test_the_journaled_service_keeps_the_same_rules(
    sqlite_session: Session, capacity: int, ops: list[tuple[str, int]]
) -> None:
    session, slug = sqlite_session, f"t{next(_SLUGS)}"
    tournaments.create_tournament(
        session,
        data=TournamentCreate(slug=slug, name="T", ruleset="bonn-2018", seed="s"),
        actor="d",
        now=T0,
    )
    registration.open_registration(
        session, tournament=slug, capacity=capacity, deadline=None, fee_note="", actor="d", now=T0
    )
    tokens: list[str] = []
    for op in ops:
        people = registration.list_registrants(session, tournament=slug)
        waiting_before = [r.number for r in people if r.status == "waiting"]
        if op[0] == "register":
            i = len(tokens)
            done = registration.register(
                session, tournament=slug, name=f"P{i}", email=f"p{i}@example.org", now=T0
            )
            tokens.append(done.token)
        elif op[0] == "capacity":
            taken = sum(r.status == "registered" for r in people)
            capacity = max(op[1], taken, 1)
            registration.open_registration(
                session,
                tournament=slug,
                capacity=capacity,
                deadline=None,
                fee_note="",
                actor="d",
                now=T0,
            )
        elif tokens:
            token = tokens[op[1] % len(tokens)]
            mine = registration.find_by_token(session, tournament=slug, token=token)
            if mine.status in ("registered", "waiting"):
                registration.withdraw(session, tournament=slug, token=token, now=T0)
                after = registration.list_registrants(session, tournament=slug)
                promoted = [
                    r.number
                    for r in after
                    if r.number in waiting_before and r.status == "registered"
                ]
                expected = 1 if mine.status == "registered" and waiting_before else 0
                assert promoted == waiting_before[:expected]
        after = registration.list_registrants(session, tournament=slug)
        check_invariants([rules.Entry(r.number, r.status) for r in after], capacity)  # type: ignore[arg-type]
    assert journal.verify(session, tournament=slug)
