"""A seeded random walk over the director's actions — valid and invalid ones, with undos mixed in.

Invariants after every step: a refused action changed neither the journal nor the state; after
the walk, the state rebuilt from the journal equals the live state (the projection is a function
of the journal alone)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from sqlalchemy.orm import Session
from svc_helpers import journal_length, random_results, state

from agon.errors import AgonError
from agon.services import journal, players, results, rounds, tournaments
from agon.services.schemas import PlayerCreate, TournamentCreate
from agon.tournament.ruleset import load_ruleset
from agon.tournament.tables import table_sizes

STEPS = 40


def step(session: Session, slug: str, rng: random.Random) -> Callable[[], object]:
    """One random action (it may well be refused)."""
    names = [p.name for p in players.list_players(session, tournament=slug)]
    current = rounds.list_rounds(session, tournament=slug)
    kind = rng.choice(
        [
            "register",
            "register",
            "checkin",
            "checkin",
            "start",
            "enter",
            "enter",
            "confirm",
            "close",
            "drop",
            "sanction",
            "undo",
        ]
    )
    pick = rng.choice(names) if names else "nobody"
    if kind == "register":
        return lambda: players.register_player(
            session, tournament=slug, data=PlayerCreate(f"P{rng.randrange(30)}"), actor="d"
        )
    if kind == "checkin":
        return lambda: players.check_in(
            session, tournament=slug, player=pick, actor="d", late=rng.random() < 0.5
        )
    if kind == "start":
        eligible = [
            p.name
            for p in players.list_players(session, tournament=slug)
            if p.checked_in and p.status == "active"
        ]
        rng.shuffle(eligible)
        try:
            sizes = table_sizes(len(eligible), load_ruleset("bonn-2018"))
            seated = [eligible[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))]
        except AgonError:
            seated = [eligible]
        return lambda: rounds.start_round(session, tournament=slug, actor="d", tables=seated)
    if kind == "drop":
        return lambda: players.drop_player(
            session, tournament=slug, player=pick, kind="drop", reason="", actor="d"
        )
    if kind == "sanction":
        return lambda: players.add_sanction(
            session, tournament=slug, player=pick, kind="warning", reason="late", actor="d"
        )
    if kind == "undo":
        return lambda: journal.undo(session, tournament=slug, actor="d")
    if not current:
        return lambda: rounds.close_round(session, tournament=slug, actor="d", number=1)
    rnd = current[-1]
    if kind == "close":
        return lambda: rounds.close_round(session, tournament=slug, actor="d", number=rnd.number)
    table = rng.choice(rnd.tables)
    if kind == "confirm":
        return lambda: results.confirm_result(
            session, tournament=slug, round_number=rnd.number, table=table.number, actor="d"
        )
    version = table.version if table.results and rng.random() < 0.8 else None
    return lambda: results.enter_result(
        session,
        tournament=slug,
        round_number=rnd.number,
        table=table.number,
        actor="d",
        results=random_results(table.seats, rng),
        expected_version=version,
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_random_walk_keeps_journal_and_state_in_step(session: Session, seed: int) -> None:
    slug = f"walk-{seed}"
    tournaments.create_tournament(
        session,
        data=TournamentCreate(slug=slug, name="Walk", ruleset="bonn-2018", seed="w", min_players=3),
        actor="d",
    )
    players.import_players(
        session, tournament=slug, actor="d", players=[PlayerCreate(f"P{i}") for i in range(9)]
    )
    for i in range(9):
        players.check_in(session, tournament=slug, player=f"P{i}", actor="d")
    rng = random.Random(seed)
    refused = done = 0
    for _ in range(STEPS):
        action = step(session, slug, rng)
        before, length = state(session, slug), journal_length(session)
        try:
            action()
            done += 1
        except AgonError:
            refused += 1
            assert state(session, slug) == before and journal_length(session) == length
    actions = {e.action for e in journal.list_journal(session, tournament=slug)}
    assert {"round.start", "result.enter", "result.confirm", "undo"} <= actions
    assert done > 10 and refused > 3  # the walk exercised both kinds
    assert journal.verify(session, tournament=slug)
