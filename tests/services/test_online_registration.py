"""Online registration (issue 27): capacity, the waiting list promoted on withdrawal, the deadline,
the private link, check-in into players through the journal (undo, rebuild), and the race for
the last place on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from svc_helpers import T0

from agon.errors import Conflict, IllegalAction, InvalidInput, NotFound
from agon.services import journal, players, registration, tournaments
from agon.services.schemas import TournamentCreate
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.registration import RegistrantRow


def _tournament(session: Session, slug: str = "q", *, capacity: int = 2, **kw: object) -> None:
    tournaments.create_tournament(
        session,
        data=TournamentCreate(slug=slug, name="Qualifier", ruleset="bonn-2018", seed="s"),
        actor="director",
        now=T0,
    )
    registration.open_registration(
        session,
        tournament=slug,
        capacity=capacity,
        deadline=kw.get("deadline"),  # type: ignore[arg-type]
        fee_note=str(kw.get("fee_note", "10 € at the door")),
        public_names=str(kw.get("public_names", "full")),
        actor="director",
        now=T0,
    )


def _register(session: Session, name: str, slug: str = "q") -> registration.Registered:
    return registration.register(
        session,
        tournament=slug,
        name=name,
        email=f"{name.lower().replace(' ', '.')}@example.org",
        now=T0,
    )


def test_the_waiting_list_is_promoted_in_order_when_someone_withdraws(session: Session) -> None:
    _tournament(session)
    anna, ben, cleo, dan = (_register(session, n) for n in ("Anna", "Ben", "Cleo", "Dan"))
    assert [r.registrant.status for r in (anna, ben, cleo, dan)] == [
        "registered",
        "registered",
        "waiting",
        "waiting",
    ]
    assert (cleo.registrant.position, dan.registrant.position) == (1, 2)
    gone = registration.withdraw(session, tournament="q", token=ben.token, now=T0)
    assert gone.status == "withdrawn"
    mine = registration.find_by_token(session, tournament="q", token=cleo.token)
    assert mine.status == "registered"  # promoted automatically, first come first served
    assert registration.find_by_token(session, tournament="q", token=dan.token).position == 1
    found = registration.get_registration(session, tournament="q", now=T0)
    assert (found.taken, found.waiting, found.capacity) == (2, 1, 2)
    # a waiting person withdrawing frees no place: nobody is promoted
    registration.withdraw(session, tournament="q", token=dan.token, now=T0)
    assert registration.get_registration(session, tournament="q", now=T0).waiting == 0
    with pytest.raises(IllegalAction, match="withdrawn already"):
        registration.withdraw(session, tournament="q", token=dan.token, now=T0)


def test_only_the_hash_of_the_private_token_is_stored(session: Session) -> None:
    _tournament(session)
    done = _register(session, "Anna")
    stored = session.scalars(select(RegistrantRow.token_hash)).all()
    assert stored == [registration.token_hash(done.token)] and done.token not in stored[0]
    assert len(done.token) >= 32
    with pytest.raises(NotFound, match="no registration with this link"):
        registration.find_by_token(session, tournament="q", token=done.token + "x")
    entries = journal.list_journal(session, tournament="q")
    assert all(done.token not in str(e.payload) for e in entries)


def test_the_deadline_and_closing_refuse_new_registrations(session: Session) -> None:
    _tournament(session, deadline=T0 + timedelta(days=1))
    registration.register(session, tournament="q", name="Anna", email="a@example.org", now=T0)
    late = T0 + timedelta(days=1, minutes=1)
    with pytest.raises(IllegalAction, match=r"deadline .* has passed"):
        registration.register(session, tournament="q", name="Ben", email="b@example.org", now=late)
    assert not registration.get_registration(session, tournament="q", now=late).accepting
    registration.close_registration(session, tournament="q", actor="director", now=T0)
    with pytest.raises(IllegalAction, match="registration is closed"):
        registration.register(session, tournament="q", name="Cleo", email="c@example.org", now=T0)


@pytest.mark.parametrize(
    ("name", "email", "error"),
    [
        ("", "a@example.org", InvalidInput),
        ("Anna\x00", "a@example.org", InvalidInput),
        ("Anna", "not-an-address", InvalidInput),
        ("Anna", "a@b", InvalidInput),
        ("Anna", "a b@example.org", InvalidInput),
        ("Anna", "x" * 300 + "@example.org", InvalidInput),
    ],
)
def test_bad_names_and_addresses_are_refused(
    session: Session, name: str, email: str, error: type[Exception]
) -> None:
    _tournament(session)
    with pytest.raises(error):
        registration.register(session, tournament="q", name=name, email=email, now=T0)
    assert registration.list_registrants(session, tournament="q") == []


def test_the_same_email_or_name_twice_is_a_conflict(session: Session) -> None:
    _tournament(session)
    _register(session, "Anna")
    with pytest.raises(Conflict, match="e-mail"):
        registration.register(
            session, tournament="q", name="Anna B", email="anna@EXAMPLE.org", now=T0
        )
    with pytest.raises(Conflict, match="registered already"):
        registration.register(session, tournament="q", name="Anna", email="x@example.org", now=T0)
    tagged = registration.register(
        session, tournament="q", name="Anna", tag="Bonn", email="x@example.org", now=T0
    )
    assert tagged.registrant.tag == "Bonn"


def test_capacity_is_checked_and_a_larger_one_promotes(session: Session) -> None:
    _tournament(session, capacity=1)
    _register(session, "Anna")
    ben = _register(session, "Ben")
    assert ben.registrant.status == "waiting"
    for bad in (0, -1, 10_001, 2**63):
        with pytest.raises(InvalidInput, match="capacity"):
            registration.open_registration(
                session,
                tournament="q",
                capacity=bad,
                deadline=None,
                fee_note="",
                actor="director",
                now=T0,
            )
    with pytest.raises(InvalidInput, match="public names"):
        registration.open_registration(
            session,
            tournament="q",
            capacity=2,
            deadline=None,
            fee_note="",
            public_names="everything",
            actor="d",
        )
    registration.open_registration(
        session, tournament="q", capacity=2, deadline=None, fee_note="", actor="director", now=T0
    )
    assert registration.find_by_token(session, tournament="q", token=ben.token).status == (
        "registered"
    )


def test_public_list_shows_names_or_initials_never_emails(session: Session) -> None:
    _tournament(session, public_names="initials")
    _register(session, "Anna Maria Rossi")
    shown = registration.public_list(session, tournament="q")
    assert [p.name for p in shown] == ["A. M. R."]
    assert "example.org" not in repr(shown)
    desk = registration.list_registrants(session, tournament="q")
    assert desk[0].email == "anna.maria.rossi@example.org"


def test_check_in_turns_registrants_into_players_and_undo_works(session: Session) -> None:
    _tournament(session, capacity=2)
    anna = _register(session, "Anna")
    ben = registration.register(
        session, tournament="q", name="Ben", tag="Köln", email="b@example.org", now=T0
    )
    cleo = _register(session, "Cleo")
    with pytest.raises(IllegalAction, match="is waiting; only the registered"):
        registration.check_in(
            session, tournament="q", numbers=[cleo.registrant.number], actor="desk", now=T0
        )
    done = registration.check_in(
        session,
        tournament="q",
        numbers=[anna.registrant.number, ben.registrant.number],
        actor="desk",
        fee_paid=True,
        now=T0,
    )
    assert [(p.name, p.checked_in, p.fee_paid) for p in done] == [
        ("Anna", True, True),
        ("Ben (Köln)", True, True),
    ]
    assert registration.find_by_token(session, tournament="q", token=anna.token).status == (
        "checked_in"
    )
    with pytest.raises(IllegalAction, match="checked in already"):
        registration.withdraw(session, tournament="q", token=anna.token)
    last = journal.list_journal(session, tournament="q")[-1]
    assert last.action == "registration.checkin"
    journal.undo(session, tournament="q", actor="director")
    assert players.list_players(session, tournament="q") == []
    again = registration.find_by_token(session, tournament="q", token=anna.token)
    assert again.status == "registered" and again.player is None
    assert journal.verify(session, tournament="q")


def test_a_withdrawal_is_undone_with_its_promotion(session: Session) -> None:
    _tournament(session, capacity=1)
    anna, ben = _register(session, "Anna"), _register(session, "Ben")
    registration.withdraw(session, tournament="q", token=anna.token, now=T0)
    assert registration.find_by_token(session, tournament="q", token=ben.token).status == (
        "registered"
    )
    journal.undo(session, tournament="q", actor="director")
    statuses = [r.status for r in registration.list_registrants(session, tournament="q")]
    assert statuses == ["registered", "waiting"]
    assert journal.verify(session, tournament="q")


def test_two_registrations_racing_for_the_last_place_never_both_get_it(
    session: Session, db_url: str
) -> None:
    _tournament(session, capacity=3)
    _register(session, "Anna")
    _register(session, "Ben")
    session.rollback()
    racers = 6
    engine = make_engine(Settings(db_url))
    factory = make_session_factory(engine)
    barrier = threading.Barrier(racers)
    got: list[str] = []
    errors: list[BaseException] = []

    def race(i: int) -> None:
        with factory() as mine:
            try:
                barrier.wait()
                done = registration.register(
                    mine, tournament="q", name=f"Racer {i}", email=f"r{i}@example.org"
                )
                got.append(done.registrant.status)
            except BaseException as exc:  # collected and asserted below
                errors.append(exc)

    threads = [threading.Thread(target=race, args=(i,)) for i in range(racers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    engine.dispose()
    assert errors == []
    assert sorted(got) == ["registered"] + ["waiting"] * (racers - 1)
    session.expire_all()
    people = registration.list_registrants(session, tournament="q")
    assert sum(r.status == "registered" for r in people) == 3
    assert sorted(r.position for r in people if r.position) == list(range(1, racers))


def test_verify_sees_online_registration_and_leaves_other_digests_alone(session: Session) -> None:
    _tournament(session, capacity=1)
    _register(session, "Anna")
    _register(session, "Ben")
    assert journal.verify(session, tournament="q")
    assert journal.snapshot(session, tournament="q")["registration"]["registrants"][1][5] == (
        "waiting"
    )
    row = session.scalar(select(RegistrantRow).where(RegistrantRow.number == 2))
    assert row is not None
    row.status = "registered"  # a change that went around the journal
    session.commit()
    assert not journal.verify(session, tournament="q")
    tournaments.create_tournament(
        session,
        data=TournamentCreate(slug="plain", name="P", ruleset="bonn-2018", seed="s"),
        actor="d",
        now=T0,
    )
    assert "registration" not in journal.snapshot(session, tournament="plain")
