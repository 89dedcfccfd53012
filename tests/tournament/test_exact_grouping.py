"""The exact zero-repeat grouping (SAT) used where the annealing misses a zero-repeat schedule."""

from __future__ import annotations

from itertools import combinations

import pytest

from agon.tournament.exact_grouping import zero_repeat_grouping
from agon.tournament.ruleset import load_ruleset
from agon.tournament.seating import plan_schedule


@pytest.mark.parametrize(("n", "sizes"), [(22, (5, 5, 4, 4, 4)), (16, (4, 4, 4, 4))])
def test_groupings_have_no_repeat_and_every_player_once(n: int, sizes: tuple[int, ...]) -> None:
    schedule = zero_repeat_grouping(n, sizes, 4, "seed")
    assert schedule is not None
    pairs: set[tuple[int, int]] = set()
    for tables in schedule:
        assert sorted(p for table in tables for p in table) == list(range(n))
        assert [len(t) for t in tables] == list(sizes)
        for table in tables:
            for pair in combinations(sorted(table), 2):
                assert pair not in pairs
                pairs.add(pair)
    assert zero_repeat_grouping(n, sizes, 4, "seed") == schedule  # deterministic


def test_impossible_rooms_return_none() -> None:
    # 8 players at two tables of 4: from round 2 on every player meets someone again.
    assert zero_repeat_grouping(8, (4, 4), 2, "seed") is None


def test_22_players_four_rounds_reach_zero_repeats() -> None:
    """Issue 3 goal: no repeats wherever a zero-repeat schedule exists (22 x 4 was the hard case)."""
    players = [f"P{i:02d}" for i in range(22)]
    schedule = plan_schedule(players, rounds=4, seed="bench", ruleset=load_ruleset("bonn-2018"))
    assert schedule.report.lower_bound == 0
    assert schedule.report.repeats == 0
    assert schedule.report.wonder_repeats == 0
