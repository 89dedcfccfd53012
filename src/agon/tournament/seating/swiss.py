"""Swiss rounds (Ludolimpico 2015, 1.): round 1 at random, later rounds by standings, best five
at table 1, neighbouring standings swapped to avoid rematches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations

from agon.errors import InvalidInput
from agon.tournament.draws import (
    draw_guilds,
    draw_sides,
    draw_wonders,
    rng,
)
from agon.tournament.ruleset import Ruleset
from agon.tournament.seating.model import WEIGHTS, RoundPlan, SeatedTable, Weights
from agon.tournament.seating.schedule import _check_players, _wonder_count
from agon.tournament.tables import table_sizes

# --------------------------------------------------------------------------------------------
# Swiss rounds


@dataclass(slots=True)
class _History:
    """What earlier rounds did to each player: starts, wonders, neighbours, seats, opponents."""

    starts: dict[str, int] = field(default_factory=dict)
    wonders: dict[str, set[str]] = field(default_factory=dict)
    neighbours: dict[frozenset[str], int] = field(default_factory=dict)
    met: dict[frozenset[str], int] = field(default_factory=dict)
    seats: dict[tuple[str, int], int] = field(default_factory=dict)

    @classmethod
    def of(cls, rounds: Sequence[RoundPlan], *, wonders_by_seat: bool) -> _History:
        h = cls()
        for plan in rounds:
            for table in plan.tables:
                seats = table.seats
                s = len(seats)
                if s:
                    h.starts[seats[0]] = h.starts.get(seats[0], 0) + 1
                for k, p in enumerate(seats):
                    h.seats[(p, k)] = h.seats.get((p, k), 0) + 1
                    if wonders_by_seat and k < len(plan.wonders):
                        h.wonders.setdefault(p, set()).add(plan.wonders[k])
                for a, b in combinations(seats, 2):
                    key = frozenset((a, b))
                    h.met[key] = h.met.get(key, 0) + 1
                for k in range(s if s > 2 else s - 1):
                    key = frozenset((seats[k], seats[(k + 1) % s]))
                    h.neighbours[key] = h.neighbours.get(key, 0) + 1
        return h


def arrange_table(
    players: Sequence[str],
    wonders: Sequence[str] | None,
    history: _History,
    tie_break: Sequence[str],
    weights: Weights = WEIGHTS,
) -> tuple[str, ...]:
    """The seat order of one table: the permutation with the least weighted cost.

    Costs: a wonder already played (``wonders`` None when seats do not map to wonders), the start
    player's earlier starts (fewest first), repeated neighbours, repeated seat numbers. Equal costs
    go to the earliest permutation of ``tie_break`` order (a seeded shuffle).
    """
    order = sorted(players, key=tie_break.index)
    best: tuple[int, tuple[str, ...]] | None = None
    min_starts = min(history.starts.get(p, 0) for p in order)
    for perm in permutations(order):
        cost = weights.start * (history.starts.get(perm[0], 0) - min_starts)
        s = len(perm)
        for k, p in enumerate(perm):
            if wonders is not None and wonders[k] in history.wonders.get(p, ()):
                cost += weights.wonder
            cost += weights.seat * history.seats.get((p, k), 0)
        for k in range(s if s > 2 else s - 1):
            if history.neighbours.get(frozenset((perm[k], perm[(k + 1) % s])), 0):
                cost += weights.neighbour
        if best is None or cost < best[0]:
            best = (cost, perm)
    assert best is not None
    return best[1]


#: Swiss rematch avoidance swaps players of adjacent tables at most this many standings apart.
SWISS_SWAP_DISTANCE = 3


def seat_swiss_round(
    ranked_players: Sequence[str],
    *,
    round_number: int,
    seed: str,
    ruleset: Ruleset,
    history: Sequence[RoundPlan],
    ratings: Mapping[str, float] | None = None,
) -> RoundPlan:
    """Swiss round (Ludolimpico 2015, 1., "alla svizzera").

    Round 1 is random (``ranked_players``' order ignored) — unless ``ratings`` (seeding ratings,
    :func:`spread_by_rating`) are given: then round 1 spreads the strongest over the tables. Later
    rounds cut the standings into
    tables (best five at table 1, …); then, while a swap of two players of adjacent tables at most
    :data:`SWISS_SWAP_DISTANCE` standings apart (closest first) lowers the number of rematches, it
    is made. Seats within a table: start player with the fewest starts, a new wonder for every
    player where seats map to wonders, new neighbours (:func:`arrange_table`). ``ranked_players``
    are the checked-in players, so drops and late entries are whoever the caller passes.

    Raises:
        InvalidInput: duplicate or empty names, a count the tables cannot seat, round < 1.
    """
    if round_number < 1:
        raise InvalidInput(f"round number must be at least 1, got {round_number}")
    names = list(ranked_players)
    _check_players(names)
    sizes = table_sizes(len(names), ruleset)
    wonders = draw_wonders(seed, round_number, _wonder_count(sizes, ruleset))
    tie = sorted(names)
    rng(seed, "swiss-seat-order", round_number).shuffle(tie)
    order = tie[:] if round_number == 1 else names[:]
    past = _History.of(history, wonders_by_seat=not ruleset.auction)
    groups: list[list[str]] = []
    if round_number == 1 and ratings:
        groups = spread_by_rating(tie, sizes, ratings)
    else:
        i = 0
        for s in sizes:
            groups.append(order[i : i + s])
            i += s
    if round_number > 1:
        _avoid_rematches(groups, {p: j for j, p in enumerate(order)}, past.met)
    by_seat = None if ruleset.auction else wonders
    tables = tuple(SeatedTable(seats=arrange_table(group, by_seat, past, tie)) for group in groups)
    return RoundPlan(
        number=round_number,
        tables=tables,
        wonders=wonders,
        guilds=draw_guilds(seed, round_number),
        sides=draw_sides(seed, ruleset, round_number),
    )


def spread_by_rating(
    players: Sequence[str], sizes: Sequence[int], ratings: Mapping[str, float]
) -> list[list[str]]:
    """Round 1 of a Swiss event seeded by rating: the strongest spread over the tables.

    Players are ordered by rating, best first (a player without one counts 0.0, a newcomer's
    ordinal; equal ratings keep the order of ``players``, the round's seeded shuffle) and dealt to
    the tables in snake order — 1, 2, …, T, T, …, 2, 1, 1, 2, … — skipping full tables. Each table
    then holds one player of every strength band, like the first round of a chess Swiss (top half
    against bottom half): the favourites do not knock each other out in round 1, and the standings
    after it sort them apart.

    >>> spread_by_rating(["a", "b", "c", "d", "e", "f"], [3, 3], {"a": 1, "b": 6, "c": 5, "d": 4})
    [['b', 'a', 'e'], ['c', 'd', 'f']]
    """
    order = sorted(players, key=lambda p: -ratings.get(p, 0.0))
    groups: list[list[str]] = [[] for _ in sizes]
    snake = [*range(len(sizes)), *reversed(range(len(sizes)))]
    k = 0
    for player in order:
        while len(groups[snake[k % len(snake)]]) >= sizes[snake[k % len(snake)]]:
            k += 1
        groups[snake[k % len(snake)]].append(player)
        k += 1
    return groups


def _rematches(group: Sequence[str], met: Mapping[frozenset[str], int]) -> int:
    return sum(1 for a, b in combinations(group, 2) if met.get(frozenset((a, b)), 0))


def _avoid_rematches(
    groups: list[list[str]], rank: Mapping[str, int], met: Mapping[frozenset[str], int]
) -> None:
    improved = True
    while improved:
        improved = False
        for t in range(len(groups) - 1):
            upper, lower = groups[t], groups[t + 1]
            before = _rematches(upper, met) + _rematches(lower, met)
            if before == 0:
                continue
            candidates = sorted(
                ((a, b) for a in upper for b in lower if rank[b] - rank[a] <= SWISS_SWAP_DISTANCE),
                key=lambda ab: (rank[ab[1]] - rank[ab[0]], rank[ab[0]]),
            )
            for a, b in candidates:
                new_upper = [b if x == a else x for x in upper]
                new_lower = [a if x == b else x for x in lower]
                if _rematches(new_upper, met) + _rematches(new_lower, met) < before:
                    groups[t], groups[t + 1] = new_upper, new_lower
                    improved = True
                    break
