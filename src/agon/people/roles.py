"""The roles, the actions and who may do what (a pure matrix; the web and the services ask it).

>>> allowed(Role.SCOREKEEPER, Action.ENTER_RESULT), allowed(Role.SCOREKEEPER, Action.RUN_ROUNDS)
(True, False)
>>> grants = [Grant(Role.DIRECTOR, Scope.TOURNAMENT, "bonn")]
>>> may(grants, Action.RUN_ROUNDS, tournament="bonn"), may(grants, Action.RUN_ROUNDS, tournament="rome")
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from agon.errors import N_, InvalidInput


class Role(StrEnum):
    """What a person is: to the server, an organisation or a tournament."""

    ADMIN = "admin"
    ORGANISER = "organiser"
    DIRECTOR = "director"
    REFEREE = "referee"
    SCOREKEEPER = "scorekeeper"


class Scope(StrEnum):
    """Where a role holds: the whole server, one organisation, one tournament."""

    SERVER = "server"
    ORGANISATION = "organisation"
    TOURNAMENT = "tournament"


class Action(StrEnum):
    """What someone asks to do (the web maps each desk page and API operation to one)."""

    #: read the desk: a tournament's overview, round pages, the journal, printouts
    VIEW = "view"
    #: enter (or re-enter before it is confirmed) a table's result, run its auction
    ENTER_RESULT = "enter-result"
    #: confirm a table's result for its players
    CONFIRM_RESULT = "confirm-result"
    #: correct what is recorded: undo, a confirmed table's new result
    CORRECT = "correct"
    #: settle a dispute
    DISPUTE = "dispute"
    #: a sanction (warning, penalty) for a player
    SANCTION = "sanction"
    #: a ruling on a player's status (drop, disqualify)
    RULING = "ruling"
    #: register, import, check in players; fees
    MANAGE_PLAYERS = "manage-players"
    #: start a round or the final, close a round, the round clock
    RUN_ROUNDS = "run-rounds"
    #: a tournament's own settings and its export (anything not named above)
    DIRECT = "direct"
    #: give or take a tournament role (director, referee, scorekeeper), invite people
    GRANT = "grant"
    #: create a tournament in an organisation, attach one to it
    CREATE_TOURNAMENT = "create-tournament"
    #: give or take the organiser role of an organisation
    GRANT_ORGANISER = "grant-organiser"
    #: create organisations, accounts, password-reset links (the server's own business)
    ADMINISTER = "administer"


#: The roles that hold per tournament (``agon user grant --tournament``).
TOURNAMENT_ROLES = (Role.DIRECTOR, Role.REFEREE, Role.SCOREKEEPER)
#: The roles that hold per organisation (``agon user grant --organisation``).
ORGANISATION_ROLES = (Role.ORGANISER,)

_SCOREKEEPER = frozenset({Action.VIEW, Action.ENTER_RESULT, Action.CONFIRM_RESULT})
_REFEREE = _SCOREKEEPER | {Action.CORRECT, Action.DISPUTE, Action.SANCTION, Action.RULING}
_DIRECTOR = _REFEREE | {Action.MANAGE_PLAYERS, Action.RUN_ROUNDS, Action.DIRECT, Action.GRANT}
_ORGANISER = _DIRECTOR | {Action.CREATE_TOURNAMENT}
_ADMIN = frozenset(Action)

#: The matrix: what each role may do (within its scope).
MATRIX: dict[Role, frozenset[Action]] = {
    Role.ADMIN: _ADMIN,
    Role.ORGANISER: _ORGANISER,
    Role.DIRECTOR: _DIRECTOR,
    Role.REFEREE: _REFEREE,
    Role.SCOREKEEPER: _SCOREKEEPER,
}


def allowed(role: Role, action: Action) -> bool:
    """May ``role`` do ``action`` (inside the scope the role holds in)?"""
    return action in MATRIX[role]


@dataclass(frozen=True, slots=True)
class Grant:
    """One role a person holds, and where: ``scope`` and the organisation's or tournament's
    slug (empty for the server)."""

    role: Role
    scope: Scope
    target: str = ""


def roles_for(
    grants: Iterable[Grant], *, tournament: str | None = None, organisation: str | None = None
) -> frozenset[Role]:
    """The roles ``grants`` give for ``tournament`` (which belongs to ``organisation``, if any),
    or, without a tournament, for ``organisation`` itself."""
    found: set[Role] = set()
    for grant in grants:
        if grant.scope is Scope.SERVER:
            found.add(grant.role)
        elif grant.scope is Scope.ORGANISATION:
            if organisation is not None and grant.target == organisation:
                found.add(grant.role)
        elif tournament is not None and grant.target == tournament:
            found.add(grant.role)
    return frozenset(found)


def may(
    grants: Iterable[Grant],
    action: Action,
    *,
    tournament: str | None = None,
    organisation: str | None = None,
) -> bool:
    """May a person with ``grants`` do ``action`` on ``tournament`` (of ``organisation``), or on
    ``organisation``, or — with neither — on the server?"""
    roles = roles_for(grants, tournament=tournament, organisation=organisation)
    return any(allowed(role, action) for role in roles)


def parse_role(value: str, *, scope: Scope) -> Role:
    """The role named ``value`` if it holds in ``scope``, else :class:`InvalidInput`.

    >>> parse_role("referee", scope=Scope.TOURNAMENT)
    <Role.REFEREE: 'referee'>
    """
    choices = TOURNAMENT_ROLES if scope is Scope.TOURNAMENT else ORGANISATION_ROLES
    for role in choices:
        if value == role.value:
            return role
    names = ", ".join(r.value for r in choices)
    raise InvalidInput(
        f"role {value[:40]!r}: not a role of a {scope.value} (one of {names})",
        msgid=N_("Choose a role from the list: %(roles)s."),
        params={"roles": names},
    )
