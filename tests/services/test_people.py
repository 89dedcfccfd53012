"""The people's service on SQLite and PostgreSQL: accounts, grants, one-time links, sessions."""

from __future__ import annotations

import subprocess
import sys

import pytest
from sqlalchemy.orm import Session

from agon.errors import Conflict, InvalidInput, NotFound
from agon.people.roles import Action, Role, Scope, may
from agon.services import people, tournaments
from agon.services.schemas import TournamentCreate

PW = "a long enough password"


@pytest.fixture
def cup(session: Session) -> str:
    tournaments.create_tournament(
        session,
        data=TournamentCreate(slug="cup", name="Cup", ruleset="bonn-2018", seed="s"),
        actor="test",
    )
    people.create_organisation(session, slug="club", name="Club")
    people.attach_tournament(session, tournament="cup", organisation="club")
    return "cup"


def test_accounts_log_in_by_email_and_password(session: Session) -> None:
    assert not people.accounts_exist(session)
    made = people.create_account(session, email=" Ana@Club.TEST ", name="Ana", password=PW)
    assert people.accounts_exist(session)
    assert made.email == "ana@club.test" and made.grants == ()
    assert people.authenticate(session, email="ANA@club.test", password=PW) == made
    assert people.authenticate(session, email="ana@club.test", password=PW + "x") is None
    assert people.authenticate(session, email="nobody@club.test", password=PW) is None
    assert people.authenticate(session, email="not an address", password=PW) is None
    with pytest.raises(Conflict):
        people.create_account(session, email="ana@club.test", name="Other", password=PW)
    with pytest.raises(InvalidInput):
        people.create_account(session, email="b@club.test", name="B", password="short")


@pytest.mark.parametrize("known", [True, False], ids=["known", "unknown"])
def test_the_first_check_of_a_process_makes_the_unknown_emails_hash(
    session: Session, monkeypatch: pytest.MonkeyPatch, known: bool
) -> None:
    people.create_account(session, email="ana@club.test", name="Ana", password=PW)
    monkeypatch.setattr(people, "_DUMMY_HASH", None)  # as a new process has it
    email = "ana@club.test" if known else "nobody@club.test"
    assert (people.authenticate(session, email=email, password=PW) is not None) is known
    made = people._DUMMY_HASH  # made by the first check, whichever the address: as slow
    assert made is not None and people._HASHER.verify(made, "agon: no such account")
    assert people.authenticate(session, email="nobody@club.test", password=PW) is None
    assert made == people._DUMMY_HASH  # once


@pytest.mark.slow
def test_importing_the_people_service_hashes_nothing() -> None:
    """A full-cost Argon2 hash on import was 0.3 s of CPU for every process that imports it (each
    server worker among them)."""
    code = "import agon.services.people as p; print(p._DUMMY_HASH)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None"


def test_grants_scope_and_replace(session: Session, cup: str) -> None:
    people.create_account(session, email="ana@club.test", name="Ana", password=PW)
    ana = people.grant(
        session, email="ana@club.test", role="referee", scope=Scope.TOURNAMENT, target=cup
    )
    assert may(ana.grants, Action.CORRECT, tournament=cup)
    ana = people.grant(
        session, email="ana@club.test", role="scorekeeper", scope=Scope.TOURNAMENT, target=cup
    )
    assert [g.role for g in ana.grants] == [Role.SCOREKEEPER]  # one role per tournament
    assert not may(ana.grants, Action.CORRECT, tournament=cup)
    with pytest.raises(NotFound):
        people.revoke(
            session, email="ana@club.test", role="referee", scope=Scope.TOURNAMENT, target=cup
        )
    ana = people.revoke(
        session, email="ana@club.test", role="scorekeeper", scope=Scope.TOURNAMENT, target=cup
    )
    assert ana.grants == ()
    assert people.organisation_of(session, cup) == "club"
    assert people.tournaments_of(session, "club") == [cup]


def test_an_invitation_works_once_and_makes_the_account(session: Session, cup: str) -> None:
    token = people.create_invite(
        session,
        email="dora@club.test",
        role="director",
        scope=Scope.TOURNAMENT,
        target=cup,
        invited_by="Olga",
    )
    info = people.link_info(session, token=token, kind="invite")
    assert (info.email, info.role, info.has_account) == ("dora@club.test", "director", False)
    with pytest.raises(InvalidInput):  # a new account needs a password
        people.accept_invite(session, token=token, name="Dora", password=None)
    dora = people.accept_invite(session, token=token, name="Dora", password=PW)
    assert may(dora.grants, Action.RUN_ROUNDS, tournament=cup)
    with pytest.raises(Conflict):
        people.accept_invite(session, token=token, name="Eve", password=PW)
    with pytest.raises(NotFound):
        people.link_info(session, token=token + "x", kind="invite")
    with pytest.raises(NotFound):  # an invitation is no reset link
        people.use_reset(session, token=token, password=PW)


def test_sessions_are_revocable(session: Session) -> None:
    ana = people.create_account(session, email="ana@club.test", name="Ana", password=PW)
    first = people.open_session(session, account_id=ana.id, max_age=60)
    second = people.open_session(session, account_id=ana.id, max_age=60)
    assert people.session_account(session, first) == ana.id
    people.close_session(session, first)
    assert people.session_account(session, first) is None
    assert people.session_account(session, second) == ana.id
    reset = people.create_reset(session, email="ana@club.test")
    people.use_reset(session, token=reset, password="another password")
    assert people.session_account(session, second) is None  # a new password closes them all
    assert people.authenticate(session, email="ana@club.test", password="another password")
    third = people.open_session(session, account_id=ana.id, max_age=60)
    assert people.close_all_sessions(session) == 1
    assert people.session_account(session, third) is None
    assert people.session_account(session, 42) is None
