"""The exact zero-repeat grouping (SAT) used where the annealing misses a zero-repeat schedule."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from agon.tournament.draws import WONDERS, draw_wonders
from agon.tournament.exact_grouping import (
    _round_shifts,
    cyclic_grouping,
    cyclic_start,
    wonder_seat_types,
    wonder_start_seat_orders,
    zero_repeat_grouping,
)
from agon.tournament.ruleset import load_ruleset
from agon.tournament.seating import plan_schedule, wonder_repeat_lower_bound
from agon.tournament.tables import table_sizes
from tests.tournament.seating_oracle import wonder_and_start_rules_feasible


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


def _draws(rng: random.Random, rounds: int, size: int) -> list[list[int]]:
    return [rng.sample(range(7), size) for _ in range(rounds)]


@pytest.mark.parametrize("rounds", [4, 6, 7, 9])
def test_seat_types_reach_the_counting_bound_with_the_start_rule(rounds: int) -> None:
    """Issue 13: the type model gives every type its seat numbers so that the wonder repeats are
    exactly the counting bound T * sum(max(0, k_w - 5)) and start counts stay in the band."""
    rng = random.Random(rounds)
    for _ in range(30):
        draws = _draws(rng, rounds, 5)
        types = wonder_seat_types(5, draws, "seed")
        assert types is not None
        drawn = Counter(w for d in draws for w in d)
        bound = sum(max(0, k - 5) for k in drawn.values())
        for r in range(rounds):
            assert sorted(types[r]) == list(range(5))  # each round a permutation of the seats
        total = 0
        for i in range(5):
            played = Counter(draws[r][types[r][i]] for r in range(rounds))
            total += sum(c - 1 for c in played.values())
            starts = sum(types[r][i] == 0 for r in range(rounds))
            assert rounds // 5 <= starts <= -(-rounds // 5)
        assert total == bound
        sizes = (5,) * 3
        plays = [[WONDERS[w] for w in d] for d in draws]
        assert wonder_repeat_lower_bound(sizes, plays)[0] == 3 * bound


def test_seat_orders_keep_both_rules_or_prove_none() -> None:
    """The exact check of a grouping's seat orders: where any grouping can keep the wonder and
    start rules, a returned order keeps them; where no seating can (seed 'O', 12 players, see
    test_wonder_rule_impossible_with_start_rule_is_reported), it returns None for a grouping."""
    bonn = load_ruleset("bonn-2018")
    index = {w: i for i, w in enumerate(WONDERS)}
    for seed, n in (("O", 12), ("x", 16), ("bench", 22)):
        sizes = table_sizes(n, bonn)
        draws = [draw_wonders(seed, r, max(sizes)) for r in range(1, 5)]
        wonders = [[index[w] for w in d] for d in draws]
        grouping = zero_repeat_grouping(n, sizes, 4, seed) if n != 12 else None
        tables = grouping or [[list(range(i, i + 4)) for i in range(0, 12, 4)] for _ in range(4)]
        band = (4 * len(sizes) // n, -(-4 * len(sizes) // n))
        orders = wonder_start_seat_orders(
            tables, wonders, [[0] * 7 for _ in range(n)], [0] * n, ([band[0]] * n, [band[1]] * n)
        )
        if seed == "O":
            assert not wonder_and_start_rules_feasible(sizes, draws)
            assert orders is None
            continue
        assert orders is not None  # these two groupings admit such orders (deterministic)
        starts = Counter()
        for p in range(n):
            got = [wonders[r][orders[r][p]] for r in range(4)]
            assert len(set(got)) == 4
            starts[p] = sum(orders[r][p] == 0 for r in range(4))
        assert max(starts.values()) <= band[1] and min(starts.values()) >= band[0]
        for r in range(4):
            for table in tables[r]:
                assert sorted(orders[r][p] for p in table) == list(range(len(table)))


def _meetings(schedule: list[list[list[int]]]) -> Counter[tuple[int, int]]:
    return Counter(
        pair for tables in schedule for t in tables for pair in combinations(sorted(t), 2)
    )


BONN = load_ruleset("bonn-2018")


@pytest.mark.parametrize(
    ("n", "rounds"),
    [(n, r) for r in (4, 5) for n in range(21, 41)] + [(n, 6) for n in (24, 25, *range(31, 41))],
)
def test_cyclic_grouping_has_no_repeat_at_bonn_tables(n: int, rounds: int) -> None:
    """Issue 13: the grid gives every room of 21-40 players a zero-repeat grouping for 4 and 5
    rounds, and 24, 25 and 31-40 players for 6 (the rows of a square grid as the 6th round)."""
    sizes = table_sizes(n, BONN)
    schedule = cyclic_grouping(n, sizes, rounds, "seed")
    assert schedule is not None and len(schedule) == rounds
    for tables in schedule:
        assert sorted(p for t in tables for p in t) == list(range(n))
        assert [len(t) for t in tables] == list(sizes)
    assert max(_meetings(schedule).values()) == 1
    assert cyclic_grouping(n, sizes, rounds, "seed") == schedule  # deterministic
    assert cyclic_grouping(n, sizes, rounds, "other") != schedule  # the seed deals the players


def test_cyclic_grouping_declines_where_the_grid_does_not_apply() -> None:
    """Too few tables for the rows (12-20 players), six rounds of six tables (no sixth shift
    exists), or tables differing by more than one seat."""
    for n, rounds in ((15, 4), (20, 5), (27, 6), (21, 6)):
        assert cyclic_grouping(n, table_sizes(n, BONN), rounds, "s") is None
    assert cyclic_grouping(13, (5, 5, 3), 2, "s") is None


def test_round_shifts_differ_on_every_row() -> None:
    """Any two rounds' shifts differ by a different amount on every row (so two players of
    different rows meet in at most one round); at most T rounds exist."""
    for rows, tables, rounds in ((5, 5, 5), (5, 6, 5), (5, 7, 7), (5, 8, 6), (4, 5, 5)):
        shifts = _round_shifts(rows, tables, rounds)
        assert shifts is not None and len(shifts) == rounds
        for f, g in combinations(shifts, 2):
            assert len({(a - b) % tables for a, b in zip(f, g, strict=True)}) == rows
    assert _round_shifts(5, 5, 6) is None
    assert _round_shifts(5, 6, 6) is None  # six tables have five such rounds only


@pytest.mark.parametrize("n", [21, 22, 23, 26, 30])
def test_cyclic_start_keeps_the_grid_rounds_and_seats_everybody(n: int) -> None:
    """Six rounds of 21-30 players: a start for the search whose first rounds are the grid's
    (no repeat among them) and whose every round seats each player once at the room's tables."""
    sizes = table_sizes(n, BONN)
    start = cyclic_start(n, sizes, 6, "seed")
    assert start is not None and len(start) == 6
    for tables in start:
        assert sorted(p for t in tables for p in t) == list(range(n))
        assert [len(t) for t in tables] == list(sizes)
    assert max(_meetings(start[:5]).values()) == 1
    assert sum(c - 1 for c in _meetings(start[:5]).values()) == 0


def test_seat_orders_with_forced_wonder_repeats_play_exactly_the_forced_number() -> None:
    """Issue 13: where the draws force wonder repeats (25 players x 6 rounds: 10), the exact
    seat-order check allows each wonder the repeats its draws force and no more; the orders it
    returns keep the start band and play exactly the forced number (the counting bound)."""
    n, rounds = 25, 6
    sizes = table_sizes(n, BONN)
    tables = cyclic_grouping(n, sizes, rounds, "bench")
    assert tables is not None
    index = {w: i for i, w in enumerate(WONDERS)}
    draws = [draw_wonders("bench", r, 5) for r in range(1, rounds + 1)]
    wonders = [[index[w] for w in d] for d in draws]
    forced, _ = wonder_repeat_lower_bound(sizes, draws)
    assert forced > 0
    band = ([1] * n, [2] * n)  # 30 starts for 25 players
    orders = wonder_start_seat_orders(
        tables, wonders, [[0] * 7 for _ in range(n)], [0] * n, band, wonder_repeats=True
    )
    assert orders is not None
    played = Counter((p, wonders[r][orders[r][p]]) for r in range(rounds) for p in range(n))
    assert sum(c - 1 for c in played.values()) == forced
    starts = Counter(p for r in range(rounds) for p in range(n) if orders[r][p] == 0)
    assert all(1 <= starts[p] <= 2 for p in range(n))
    for r in range(rounds):
        for table in tables[r]:
            assert sorted(orders[r][p] for p in table) == list(range(len(table)))
    # without the allowance the same grouping has no seat order at all
    assert (
        wonder_start_seat_orders(tables, wonders, [[0] * 7 for _ in range(n)], [0] * n, band)
        is None
    )
