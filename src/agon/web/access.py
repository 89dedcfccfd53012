"""Who may do what on the web (issue 27): a request's person, its action, the role check.

Every desk page and director operation of the API asks :func:`agon.web.deps.require_director`;
with accounts in the database it asks here: the person of the session (:func:`person_of`), the
action of the route (:func:`action_of`: from the route's path template and method, so a new route
is the director's unless it is named here) and the matrix of :mod:`agon.people.roles`. A refusal
is a 403 with one translated line, for pages and the API alike. Without any account the one
director password works as before.
"""

from __future__ import annotations

import re

from fastapi import HTTPException, Request
from sqlalchemy.orm import Session

from agon.i18n import N_
from agon.people.roles import Action, Role, allowed, roles_for
from agon.services import people
from agon.services.people import Person
from agon.web.security import new_token
from agon.web.state import WebState
from agon.web.templating import tr

#: The one line of a refusal (HTML and JSON), in the reader's language.
FORBIDDEN = N_("Your role does not allow this here.")
#: The signed cookie's key for a person's login (a director's password login uses "director").
PERSON_KEY = "person"

#: (the end of a route's path template, its action) for changes; first match wins.
_POSTS: tuple[tuple[re.Pattern[str], Action], ...] = tuple(
    (re.compile(pattern), action)
    for pattern, action in (
        (r"/tables/\{table\}/(result|auction|auction/act)$", Action.ENTER_RESULT),
        (r"/tables/\{table\}/confirm$", Action.CONFIRM_RESULT),
        (r"/undo$", Action.CORRECT),
        (r"/sanctions?$", Action.SANCTION),
        (r"/drop$", Action.RULING),
        (r"/players(/.*)?$", Action.MANAGE_PLAYERS),
        (r"/(rounds|final)$|/rounds/\{number\}/(close|clock)$", Action.RUN_ROUNDS),
    )
)
#: What a desk confirmation step (a dry run) needs: the right to do the step itself.
_STEPS = {
    "start": Action.RUN_ROUNDS,
    "final": Action.RUN_ROUNDS,
    "close": Action.RUN_ROUNDS,
    "undo": Action.CORRECT,
    "drop": Action.RULING,
}
#: Reads that are not mere views (the export holds everything, the seed too).
_DIRECT_READS = re.compile(r"/export(\.json)?$")


def action_of(method: str, path: str, params: dict[str, str] | None = None) -> Action:
    """The action of a request to the route ``path`` (its template, e.g.
    ``/desk/{slug}/rounds/{number}/tables/{table}/result``).

    >>> action_of("POST", "/api/tournaments/{slug}/rounds")
    <Action.RUN_ROUNDS: 'run-rounds'>
    >>> action_of("GET", "/desk/{slug}/journal"), action_of("POST", "/desk/{slug}/edit")
    (<Action.VIEW: 'view'>, <Action.DIRECT: 'direct'>)
    """
    if method in ("GET", "HEAD"):
        return Action.DIRECT if _DIRECT_READS.search(path) else Action.VIEW
    if "{slug}" not in path:
        return Action.ADMINISTER  # a tournament of no organisation: the admin's
    if path.endswith("/confirm/{step}"):
        return _STEPS.get((params or {}).get("step", ""), Action.DIRECT)
    for pattern, action in _POSTS:
        if pattern.search(path):
            return action
    return Action.DIRECT


def accounts_exist(state: WebState) -> bool:
    """Are there accounts (then the director password no longer opens the desk)?"""
    with state.readers() as session:
        return people.accounts_exist(session)


def person_of(request: Request, state: WebState) -> Person | None:
    """The person logged in on this request (an open session), else ``None``."""
    session_id = request.session.get(PERSON_KEY)
    if not session_id:
        return None
    with state.readers() as session:
        account = people.session_account(session, session_id)
        return None if account is None else people.load_person(session, account)


def forbidden(lang: str) -> HTTPException:
    """The refusal: 403 and the one translated line."""
    return HTTPException(403, detail=tr(lang, FORBIDDEN))


def tournament_roles(state: WebState, person: Person, slug: str | None) -> frozenset[Role]:
    """The roles ``person`` holds for the tournament ``slug`` (with its organisation's)."""
    if slug is None:
        return roles_for(person.grants)
    with state.readers() as session:
        organisation = people.organisation_of(session, slug)
    return roles_for(person.grants, tournament=slug, organisation=organisation)


def _confirmed(state: WebState, slug: str, params: dict[str, str]) -> bool:
    """Is the table of the request's path confirmed (unknown, malformed: no, the route says)?"""
    from agon.errors import AgonError
    from agon.services.results import get_table

    try:
        number, table = int(params.get("number", "")), int(params.get("table", ""))
        with state.readers() as session:
            found = get_table(session, tournament=slug, round_number=number, table=table)
    except (ValueError, OverflowError, AgonError):
        return False
    return found.state == "confirmed"


def authorise(request: Request, state: WebState, person: Person, lang: str) -> str:
    """The journal's actor (the person's name and role) if the person may do what the request
    asks, else the 403 of :func:`forbidden`."""
    route = request.scope.get("route")
    path = getattr(route, "path", request.url.path)
    params = {k: str(v) for k, v in request.path_params.items()}
    action = action_of(request.method, path, params)
    slug = params.get("slug")
    if action is Action.ENTER_RESULT and slug and _confirmed(state, slug, params):
        action = Action.CORRECT  # a new result for a confirmed table is a correction
    roles = tournament_roles(state, person, slug)
    if slug is None and action is Action.VIEW and person.grants:
        return people.actor_of(person, roles)  # the desk's home: anyone with a role
    if not any(allowed(role, action) for role in roles):
        raise forbidden(lang)
    return people.actor_of(person, roles)


def log_in_person(request: Request, state: WebState, session: Session, person: Person) -> None:
    """The browser is ``person``'s from now on (a new session, a new CSRF token)."""
    request.session.clear()
    request.session[PERSON_KEY] = people.open_session(
        session, account_id=person.id, max_age=state.director_sessions.max_age
    )
    request.session["csrf"] = new_token()
