"""People and roles (issue 27): accounts, organisations, grants, one-time links, sessions.

The rules of who may do what are :mod:`agon.people.roles`; this module keeps the people in the
database (:mod:`agon.store.people`) and answers "who is this, and what may they do here". With
no account at all the server runs as before, on the one director password (:func:`accounts_exist`).

Passwords are kept as Argon2id hashes (``argon2-cffi``, as the director's password); one-time
links and session ids only as SHA-256 hashes, so a copy of the database opens nothing.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, exists, select, update
from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, InvalidInput, NotFound
from agon.people.emails import check_email
from agon.people.roles import Grant, Role, Scope, parse_role
from agon.services.core import get_tournament_row
from agon.services.tournaments import SLUG
from agon.store.db import begin_write
from agon.store.people import (
    AccountRow,
    GrantRow,
    OrganisationRow,
    PersonLinkRow,
    PersonSessionRow,
    TournamentOrganisationRow,
)
from agon.tournament.names import check_name

_HASHER = PasswordHasher()
#: A hash to verify against when the e-mail is unknown, so both answers take as long. Made by the
#: first check (:func:`_dummy_hash`), not on import: a full-cost Argon2 hash is about 0.3 s of
#: CPU, which every process importing this module paid (each server worker, the test processes).
_DUMMY_HASH: str | None = None
#: The shortest and the longest password accepted.
PASSWORD_MIN = 8
PASSWORD_MAX = 500
#: How long a one-time link lasts unless asked otherwise (minutes), and at most.
LINK_MINUTES = 7 * 24 * 60
MAX_LINK_MINUTES = 30 * 24 * 60
#: The paths a link opens (the token follows).
INVITE_PATH = "/people/invite/"
RESET_PATH = "/people/reset/"


@dataclass(frozen=True, slots=True)
class Person:
    """A logged-in account and every role it holds."""

    id: int
    email: str
    name: str
    admin: bool
    grants: tuple[Grant, ...]


@dataclass(frozen=True, slots=True)
class LinkInfo:
    """What a one-time link offers (before it is used)."""

    kind: str
    email: str
    role: str | None
    scope: str | None
    target: str | None
    invited_by: str | None
    has_account: bool


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_password(password: object) -> str:
    """``password`` if it is long enough (and not absurdly long), else :class:`InvalidInput`."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise InvalidInput(
            f"password: {PASSWORD_MIN} to {PASSWORD_MAX} characters",
            msgid=N_("A password has %(low)d to %(high)d characters."),
            params={"low": PASSWORD_MIN, "high": PASSWORD_MAX},
        )
    return password


def _check_slug(value: str, what: str) -> str:
    slug = value.strip()
    if not SLUG.match(slug):
        raise InvalidInput(
            f"{what} {slug[:40]!r}: lower-case letters, digits and '-', at most 64",
            msgid=N_("Short names use lower-case letters, digits and “-” (at most 64)."),
        )
    return slug


# --- accounts -----------------------------------------------------------------------------------


def accounts_exist(session: Session) -> bool:
    """Is there any account? (Without one, the director password is the only login.)"""
    return bool(session.scalar(select(exists().where(AccountRow.id.is_not(None)))))


def _account(session: Session, email: str) -> AccountRow:
    address = check_email(email)
    row = session.scalar(select(AccountRow).where(AccountRow.email == address))
    if row is None:
        raise NotFound(
            f"no account {address!r} (see 'agon user list')",
            msgid=N_("There is no account %(email)s."),
            params={"email": address},
        )
    return row


def create_account(
    session: Session, *, email: str, name: str, password: str | None, admin: bool = False
) -> Person:
    """A new account (``password`` ``None``: none yet, e.g. until a reset link is used)."""
    address = check_email(email)
    shown = check_name(name, what="name")
    hashed = _HASHER.hash(check_password(password)) if password is not None else None
    begin_write(session)
    if session.scalar(select(AccountRow.id).where(AccountRow.email == address)) is not None:
        session.rollback()
        raise Conflict(
            f"account {address!r}: exists already",
            msgid=N_("There is an account %(email)s already."),
            params={"email": address},
        )
    row = AccountRow(
        email=address, name=shown, password_hash=hashed, admin=admin, created_at=int(time.time())
    )
    session.add(row)
    session.commit()
    return load_person(session, row.id)


def load_person(session: Session, account_id: int) -> Person:
    """The account ``account_id`` with its roles (:class:`NotFound` if it is gone)."""
    row = session.get(AccountRow, account_id)
    if row is None:
        raise NotFound(f"account {account_id}: gone", msgid=N_("This account no longer exists."))
    grants = [Grant(Role.ADMIN, Scope.SERVER)] if row.admin else []
    for g in session.scalars(select(GrantRow).where(GrantRow.account_id == account_id)):
        grants.append(Grant(Role(g.role), Scope(g.scope), g.target))
    return Person(row.id, row.email, row.name, row.admin, tuple(grants))


def _dummy_hash() -> str:
    """:data:`_DUMMY_HASH`, made on first use."""
    global _DUMMY_HASH
    if _DUMMY_HASH is None:
        _DUMMY_HASH = _HASHER.hash("agon: no such account")
    return _DUMMY_HASH


def authenticate(session: Session, *, email: str, password: str) -> Person | None:
    """The person whose e-mail and password these are, else ``None`` (as slow either way)."""
    dummy = _dummy_hash()  # known or unknown, the first check of a process makes it
    try:
        address = check_email(email)
    except InvalidInput:
        address = ""
    row = session.scalar(select(AccountRow).where(AccountRow.email == address))
    ok: bool
    try:
        ok = _HASHER.verify(row.password_hash if row and row.password_hash else dummy, password)
    except (VerificationError, InvalidHashError):
        ok = False
    if row is None or not row.password_hash or not ok:
        return None
    return load_person(session, row.id)


def list_accounts(session: Session) -> list[Person]:
    """Every account with its roles, by e-mail."""
    ids = session.scalars(select(AccountRow.id).order_by(AccountRow.email)).all()
    return [load_person(session, i) for i in ids]


def set_password(session: Session, *, account_id: int, password: str) -> None:
    """A new password; every open session of the account is closed."""
    hashed = _HASHER.hash(check_password(password))
    begin_write(session)
    session.execute(
        update(AccountRow).where(AccountRow.id == account_id).values(password_hash=hashed)
    )
    session.execute(delete(PersonSessionRow).where(PersonSessionRow.account_id == account_id))
    session.commit()


# --- organisations ------------------------------------------------------------------------------


def create_organisation(session: Session, *, slug: str, name: str) -> OrganisationRow:
    """A new organisation (a club, a federation)."""
    short = _check_slug(slug, "organisation")
    shown = check_name(name, what="name")
    begin_write(session)
    if session.get(OrganisationRow, short) is not None:
        session.rollback()
        raise Conflict(
            f"organisation {short!r}: exists already",
            msgid=N_("There is an organisation %(slug)s already."),
            params={"slug": short},
        )
    row = OrganisationRow(slug=short, name=shown)
    session.add(row)
    session.commit()
    return row


def list_organisations(session: Session) -> list[OrganisationRow]:
    return list(session.scalars(select(OrganisationRow).order_by(OrganisationRow.slug)))


def get_organisation(session: Session, slug: str) -> OrganisationRow:
    row = session.get(OrganisationRow, slug.strip()[:64])
    if row is None:
        known = ", ".join(o.slug for o in list_organisations(session)) or "none yet"
        raise NotFound(
            f"no organisation {slug[:64]!r} (known: {known})",
            msgid=N_("There is no organisation %(slug)s."),
            params={"slug": slug[:64]},
        )
    return row


def attach_tournament(session: Session, *, tournament: str, organisation: str) -> None:
    """The tournament belongs to the organisation from now on (its organisers run it)."""
    get_tournament_row(session, tournament)
    get_organisation(session, organisation)
    begin_write(session)
    session.execute(
        delete(TournamentOrganisationRow).where(TournamentOrganisationRow.tournament == tournament)
    )
    session.add(TournamentOrganisationRow(tournament=tournament, organisation=organisation))
    session.commit()


def organisation_of(session: Session, tournament: str) -> str | None:
    """The organisation a tournament belongs to, if any."""
    return session.scalar(
        select(TournamentOrganisationRow.organisation).where(
            TournamentOrganisationRow.tournament == tournament
        )
    )


def tournaments_of(session: Session, organisation: str) -> list[str]:
    return list(
        session.scalars(
            select(TournamentOrganisationRow.tournament)
            .where(TournamentOrganisationRow.organisation == organisation)
            .order_by(TournamentOrganisationRow.tournament)
        )
    )


# --- roles --------------------------------------------------------------------------------------


def _target(session: Session, scope: Scope, target: str) -> str:
    if scope is Scope.TOURNAMENT:
        return get_tournament_row(session, target).slug
    return get_organisation(session, target).slug


def grant(session: Session, *, email: str, role: str, scope: Scope, target: str) -> Person:
    """Give the account ``role`` in the tournament or organisation ``target`` (replacing the role
    it had there)."""
    parsed = parse_role(role, scope=scope)
    account = _account(session, email)
    place = _target(session, scope, target)
    account_id = account.id
    begin_write(session)
    session.execute(
        delete(GrantRow).where(
            GrantRow.account_id == account_id,
            GrantRow.scope == scope.value,
            GrantRow.target == place,
        )
    )
    session.add(GrantRow(account_id=account_id, scope=scope.value, target=place, role=parsed.value))
    session.commit()
    return load_person(session, account_id)


def revoke(session: Session, *, email: str, role: str, scope: Scope, target: str) -> Person:
    """Take ``role`` in ``target`` from the account (:class:`NotFound` if it does not hold it)."""
    parsed = parse_role(role, scope=scope)
    account_id = _account(session, email).id
    begin_write(session)
    done = session.execute(
        delete(GrantRow).where(
            GrantRow.account_id == account_id,
            GrantRow.scope == scope.value,
            GrantRow.target == target,
            GrantRow.role == parsed.value,
        )
    )
    session.commit()
    if not getattr(done, "rowcount", 0):
        raise NotFound(
            f"{email}: is no {parsed.value} of {scope.value} {target[:64]!r}",
            msgid=N_("%(email)s holds no such role there."),
            params={"email": email[:254]},
        )
    return load_person(session, account_id)


def actor_of(person: Person, roles: frozenset[Role] | set[Role]) -> str:
    """The journal's ``actor`` for a change ``person`` makes: the name and the role it acts in.

    >>> actor_of(Person(1, "a@b.org", "Anna Rossi", False, ()), {Role.SCOREKEEPER})
    'Anna Rossi (scorekeeper)'
    """
    order = [Role.ADMIN, Role.ORGANISER, Role.DIRECTOR, Role.REFEREE, Role.SCOREKEEPER]
    role = next((r for r in order if r in roles), None)
    return f"{person.name} ({role.value})" if role else person.name


# --- one-time links -----------------------------------------------------------------------------


def _new_link(session: Session, row: PersonLinkRow) -> str:
    token = secrets.token_urlsafe(32)
    row.token_hash = _hash(token)
    begin_write(session)
    session.execute(delete(PersonLinkRow).where(PersonLinkRow.expires_at < time.time() - 86400))
    session.add(row)
    session.commit()
    return token


def _expiry(minutes: int) -> int:
    if not 1 <= minutes <= MAX_LINK_MINUTES:
        raise InvalidInput(
            f"minutes: 1 to {MAX_LINK_MINUTES}",
            msgid=N_("A link lasts 1 to %(most)d minutes."),
            params={"most": MAX_LINK_MINUTES},
        )
    return int(time.time()) + minutes * 60


def create_invite(
    session: Session,
    *,
    email: str,
    role: str,
    scope: Scope,
    target: str,
    invited_by: str,
    minutes: int = LINK_MINUTES,
) -> str:
    """A one-time link's token that gives ``email`` the ``role`` in ``target`` (making the
    account, with the name and password the invited person chooses, if there is none)."""
    parsed = parse_role(role, scope=scope)
    address = check_email(email)
    place = _target(session, scope, target)
    return _new_link(
        session,
        PersonLinkRow(
            kind="invite",
            email=address,
            scope=scope.value,
            target=place,
            role=parsed.value,
            invited_by=invited_by[:80],
            expires_at=_expiry(minutes),
        ),
    )


def create_reset(session: Session, *, email: str, minutes: int = 24 * 60) -> str:
    """A one-time link's token that sets a new password for the account ``email``."""
    account = _account(session, email)
    return _new_link(
        session, PersonLinkRow(kind="reset", email=account.email, expires_at=_expiry(minutes))
    )


def _open_link(session: Session, token: str, kind: str) -> PersonLinkRow:
    row = session.get(PersonLinkRow, _hash(token))
    if row is None or row.kind != kind:
        raise NotFound("this link is not valid", msgid=N_("This link is not valid."))
    if row.used_at is not None:
        raise Conflict(
            "this link has been used already", msgid=N_("This link has been used already.")
        )
    if row.expires_at < time.time():
        raise Conflict("this link has expired", msgid=N_("This link has expired."))
    return row


def link_info(session: Session, *, token: str, kind: str) -> LinkInfo:
    """What the link offers (it stays unused)."""
    row = _open_link(session, token, kind)
    has = session.scalar(select(AccountRow.id).where(AccountRow.email == row.email)) is not None
    return LinkInfo(row.kind, row.email, row.role, row.scope, row.target, row.invited_by, has)


def _use(session: Session, token: str, kind: str) -> PersonLinkRow:
    """Mark the link used in the statement that checks it (two browsers cannot both use it)."""
    row = _open_link(session, token, kind)
    email, scope, target, role = row.email, row.scope, row.target, row.role
    begin_write(session)
    done = session.execute(
        update(PersonLinkRow)
        .where(PersonLinkRow.token_hash == _hash(token), PersonLinkRow.used_at.is_(None))
        .values(used_at=int(time.time()))
    )
    if not getattr(done, "rowcount", 0):
        session.rollback()
        raise Conflict(
            "this link has been used already", msgid=N_("This link has been used already.")
        )
    session.commit()
    return PersonLinkRow(kind=kind, email=email, scope=scope, target=target, role=role)


def accept_invite(
    session: Session, *, token: str, name: str | None, password: str | None
) -> Person:
    """Use an invitation: the account (made now if there is none: ``name`` and ``password``
    needed) gets the role. The link works once."""
    info = link_info(session, token=token, kind="invite")
    if not info.has_account:
        check_name(name, what="name")
        check_password(password)
    link = _use(session, token, "invite")
    if not info.has_account:
        create_account(session, email=link.email, name=name or "", password=password)
    assert link.scope is not None and link.target is not None and link.role is not None
    return grant(
        session, email=link.email, role=link.role, scope=Scope(link.scope), target=link.target
    )


def use_reset(session: Session, *, token: str, password: str) -> Person:
    """Use a reset link: the account's new password (its open sessions are closed)."""
    check_password(password)
    link = _use(session, token, "reset")
    account_id = _account(session, link.email).id
    set_password(session, account_id=account_id, password=password)
    return load_person(session, account_id)


# --- sessions -----------------------------------------------------------------------------------


def open_session(session: Session, *, account_id: int, max_age: int) -> str:
    """A new login of the account: its id (for the signed cookie); expired ones are swept."""
    session_id = secrets.token_urlsafe(32)
    now = int(time.time())
    begin_write(session)
    session.execute(delete(PersonSessionRow).where(PersonSessionRow.expires_at < now))
    session.add(
        PersonSessionRow(id_hash=_hash(session_id), account_id=account_id, expires_at=now + max_age)
    )
    session.commit()
    return session_id


def session_account(session: Session, session_id: object) -> int | None:
    """The account of an open, unexpired login, else ``None``."""
    if not isinstance(session_id, str) or not session_id:
        return None
    row = session.get(PersonSessionRow, _hash(session_id))
    if row is None or row.expires_at < time.time():
        return None
    return row.account_id


def close_session(session: Session, session_id: object) -> None:
    """Log out (unknown ids are ignored)."""
    if not isinstance(session_id, str) or not session_id:
        return
    begin_write(session)
    session.execute(delete(PersonSessionRow).where(PersonSessionRow.id_hash == _hash(session_id)))
    session.commit()


def close_all_sessions(session: Session) -> int:
    """Every login of every account closed (after the secret key changed); how many."""
    begin_write(session)
    done = session.execute(delete(PersonSessionRow))
    session.commit()
    return int(getattr(done, "rowcount", 0) or 0)
