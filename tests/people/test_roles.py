"""The role matrix (issue 27), property-based: every action × every role, and grants in scope."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.people.roles import (
    MATRIX,
    Action,
    Grant,
    Role,
    Scope,
    allowed,
    may,
    parse_role,
    roles_for,
)

#: What the issue says each tournament role may do, written out once, as its words.
RESULTS = {Action.ENTER_RESULT, Action.CONFIRM_RESULT}
REFEREE_WORK = RESULTS | {
    Action.CORRECT,
    Action.DISPUTE,
    Action.SANCTION,
    Action.RULING,
}
SERVER_ONLY = {Action.ADMINISTER, Action.GRANT_ORGANISER}
ORGANISATION_ONLY = {Action.CREATE_TOURNAMENT}
#: From the least to the most powerful.
LADDER = [Role.SCOREKEEPER, Role.REFEREE, Role.DIRECTOR, Role.ORGANISER, Role.ADMIN]

roles = st.sampled_from(list(Role))
actions = st.sampled_from(list(Action))
slugs = st.sampled_from(["bonn", "rome", "koeln-2026", "x"])
tournament_roles = st.sampled_from([Role.DIRECTOR, Role.REFEREE, Role.SCOREKEEPER])


@given(roles, actions)
def test_every_role_and_action_has_one_answer(role: Role, action: Action) -> None:
    """Each pair is answered, and as the issue says it: a scorekeeper enters and confirms
    results (and reads the desk) only; a referee also corrects, settles disputes, sanctions and
    rules; a director does everything in its tournament; the server's business is the admin's."""
    answer = allowed(role, action)
    assert answer is (action in MATRIX[role])
    if role is Role.SCOREKEEPER:
        assert answer is (action in RESULTS | {Action.VIEW})
    if role is Role.REFEREE:
        assert answer is (action in REFEREE_WORK | {Action.VIEW})
    if role is Role.DIRECTOR:
        assert answer is (action not in SERVER_ONLY | ORGANISATION_ONLY)
    if role is Role.ORGANISER:
        assert answer is (action not in SERVER_ONLY)
    if role is Role.ADMIN:
        assert answer


@given(st.sampled_from(LADDER), st.sampled_from(LADDER), actions)
def test_a_higher_role_may_do_all_a_lower_one_may(low: Role, high: Role, action: Action) -> None:
    if LADDER.index(low) <= LADDER.index(high) and allowed(low, action):
        assert allowed(high, action)


@given(tournament_roles, slugs, slugs, actions)
def test_a_tournament_role_holds_in_its_tournament_only(
    role: Role, mine: str, other: str, action: Action
) -> None:
    grants = [Grant(role, Scope.TOURNAMENT, mine)]
    assert may(grants, action, tournament=mine) is allowed(role, action)
    if other != mine:
        assert not may(grants, action, tournament=other)
        assert not may(grants, action, organisation=mine)
    assert not may(grants, action)  # nothing on the server


@given(slugs, slugs, slugs, actions)
def test_an_organiser_runs_its_organisations_tournaments(
    org: str, other_org: str, tournament: str, action: Action
) -> None:
    grants = [Grant(Role.ORGANISER, Scope.ORGANISATION, org)]
    assert may(grants, action, tournament=tournament, organisation=org) is (
        action not in SERVER_ONLY
    )
    if other_org != org:
        assert not may(grants, action, tournament=tournament, organisation=other_org)
    assert not may(grants, action, tournament=tournament)  # a tournament of no organisation


@given(actions, st.one_of(st.none(), slugs), st.one_of(st.none(), slugs))
def test_the_admin_may_everything_everywhere(
    action: Action, tournament: str | None, organisation: str | None
) -> None:
    grants = [Grant(Role.ADMIN, Scope.SERVER)]
    assert may(grants, action, tournament=tournament, organisation=organisation)


@given(st.lists(st.tuples(tournament_roles, slugs)), slugs)
def test_roles_for_a_tournament_are_the_grants_there(
    held: list[tuple[Role, str]], tournament: str
) -> None:
    grants = [Grant(role, Scope.TOURNAMENT, slug) for role, slug in held]
    assert roles_for(grants, tournament=tournament) == {r for r, s in held if s == tournament}


@given(st.text(max_size=20))
def test_a_role_is_parsed_only_where_it_holds(text: str) -> None:
    for scope, names in (
        (Scope.TOURNAMENT, {"director", "referee", "scorekeeper"}),
        (Scope.ORGANISATION, {"organiser"}),
    ):
        if text in names:
            assert parse_role(text, scope=scope).value == text
        else:
            with pytest.raises(InvalidInput) as caught:
                parse_role(text, scope=scope)
            assert "\n" not in str(caught.value)
