"""Incremental standings equal the full recomputation (issue 13, web speed goal)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from agon.tournament.event import Event, Player, Result, Round, Table
from agon.tournament.incremental import IncrementalStandings
from agon.tournament.ruleset import Ruleset, load_ruleset
from agon.tournament.standings import compute_standings

RULESETS = [load_ruleset(name) for name in ("bonn-2018", "ludolimpico-2015", "de-championship")]
NAMES = [f"Player {i:02d}" for i in range(14)]

#: (round, table number) -> (final round?, results)
State = dict[tuple[int, int], tuple[bool, tuple[Result, ...]]]


def event_of(state: State, players: list[str], ratings: dict[str, float] | None = None) -> Event:
    """The event a server would build: rounds and tables with results, in number order."""
    rounds = []
    for number in sorted({r for r, _ in state}):
        keys = sorted(k for k in state if k[0] == number)
        rounds.append(
            Round(
                tables=tuple(Table(state[k][1]) for k in keys),
                final=state[keys[0]][0],
            )
        )
    return Event(
        name="Incremental",
        ruleset_ref="x",
        seed="inc-seed",
        players=tuple(Player(p) for p in players),
        rounds=tuple(rounds),
        seed_ratings=ratings or {},
    )


def random_results(rng: random.Random, ruleset: Ruleset, seats: list[str]) -> tuple[Result, ...]:
    out = []
    for p in seats:
        if rng.random() < 0.08:  # left during the game (Ludolimpico 2.5)
            out.append(Result(p, 0, 0, rng.randint(0, 3) if ruleset.auction else 0, left=True))
        else:
            # a narrow VP range, so that ties (and the tie-break chain) are common
            out.append(
                Result(
                    p,
                    rng.randint(40, 46),
                    rng.randint(0, 3),
                    rng.randint(0, 2) if ruleset.auction else 0,
                )
            )
    return tuple(out)


@settings(max_examples=60, deadline=None)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 2**32),
    ops=st.lists(st.sampled_from(["enter", "enter", "correct", "undo"]), min_size=1, max_size=25),
    rated=st.booleans(),
)
def test_incremental_standings_equal_the_full_recomputation(
    ruleset: Ruleset, seed: int, ops: list[str], rated: bool
) -> None:
    """After every result entered, corrected or undone (random sequences, finals and games left
    included; with and without seeding ratings, which decide before the lot), the incremental
    standings equal ``compute_standings`` of the same event."""
    rng = random.Random(seed)
    # few distinct ratings, so that equal ratings (and the lot after them) occur too
    ratings = {p: float(rng.choice([0, 10, 20])) for p in NAMES[:10]} if rated else None
    inc = IncrementalStandings(ruleset)
    state: State = {}
    for op in ops:
        if op == "enter":
            number = rng.randint(1, 4)
            seated = {r.player for (n, _), (_, res) in state.items() if n == number for r in res}
            free = [p for p in NAMES if p not in seated]
            size = rng.choice(ruleset.table_sizes)
            if len(free) < size:
                continue
            final = number == 4
            table = 1 + max((t for n, t in state if n == number), default=0)
            state[(number, table)] = (final, random_results(rng, ruleset, rng.sample(free, size)))
        elif state:
            key = rng.choice(sorted(state))
            if op == "correct":
                final, res = state[key]
                state[key] = (final, random_results(rng, ruleset, [r.player for r in res]))
            else:
                del state[key]
        event = event_of(state, NAMES, ratings)
        assert inc.sync(event) == compute_standings(event, ruleset)


def test_a_correction_scores_only_the_changed_table() -> None:
    """A corrected result rescores its own table (subtract the old, add the new), not the others;
    an unchanged event scores nothing and gives the same standings object."""
    ruleset = load_ruleset("bonn-2018")
    rng = random.Random(7)
    state: State = {}
    names = NAMES[:10]
    for number in (1, 2, 3):
        order = rng.sample(names, 10)
        for t in (1, 2):
            state[(number, t)] = (False, random_results(rng, ruleset, order[5 * t - 5 : 5 * t]))
    inc = IncrementalStandings(ruleset)
    first = inc.sync(event_of(state, names))
    assert inc.tables_scored == 6
    assert inc.sync(event_of(state, names)) is first
    assert inc.tables_scored == 6
    final, res = state[(2, 1)]
    state[(2, 1)] = (final, (Result(res[0].player, res[0].vp + 30), *res[1:]))
    event = event_of(state, names)
    assert inc.sync(event) == compute_standings(event, ruleset)
    assert inc.tables_scored == 8
    del state[(3, 2)]  # an undo subtracts the table without scoring anything else
    event = event_of(state, names)
    assert inc.sync(event) == compute_standings(event, ruleset)
    assert inc.tables_scored == 9
