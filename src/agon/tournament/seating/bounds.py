"""Lower bounds on what no seating avoids (repeat encounters, wonder repeats, start spread),
with their reasons in plain language.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import combinations

from agon.tournament.draws import (
    WONDERS,
)

# --------------------------------------------------------------------------------------------
# lower bound and plain-language reasons


def repeat_lower_bound(sizes: Sequence[int], rounds: int) -> tuple[int, tuple[str, ...]]:
    """A lower bound on repeat encounters for ``rounds`` rounds at tables of ``sizes``, with reasons.

    The maximum of three counting arguments:

    * more pairs seated together over all rounds (M) than pairs of players: ``M - C(N, 2)``;
    * each player meets ``R·(s_min − 1)`` others but only ``N − 1`` exist:
      ``ceil(N · max(0, R·(s_min−1) − (N−1)) / 2)``;
    * pigeonhole against round 1: a table of s players in a later round draws them from the T
      tables of round 1, so at least ``sum C(k_g, 2)`` of its pairs (k_g as even as possible) met
      in round 1 already — forced from round 2 on when there are fewer tables than seats.
    """
    n = sum(sizes)
    m = rounds * sum(math.comb(s, 2) for s in sizes)
    pairs = math.comb(n, 2)
    s_min = min(sizes)
    b_pairs = max(0, m - pairs)
    b_player = math.ceil(n * max(0, rounds * (s_min - 1) - (n - 1)) / 2)
    t = len(sizes)
    per_round = 0
    for s in sizes:
        q, rem = divmod(s, t)
        per_round += rem * math.comb(q + 1, 2) + (t - rem) * math.comb(q, 2)
    b_pigeon = max(0, rounds - 1) * per_round
    notes = []
    if b_pairs > 0:
        notes.append(
            f"{rounds} rounds seat {m} pairs together but only {pairs} pairs of players exist, "
            f"so at least {b_pairs} meetings must be repeats"
        )
    if b_player > 0:
        notes.append(
            f"each player meets {rounds * (s_min - 1)} or more opponents over {rounds} rounds "
            f"but only {n - 1} exist, so at least {b_player} repeat encounters are forced"
        )
    if b_pigeon > 0:
        notes.append(
            f"there are {t} tables but up to {max(sizes)} seats per table: from round 2 on, some "
            f"players of the same round-1 table must meet again, at least {per_round} repeat "
            f"encounters per round ({b_pigeon} in all)"
        )
    return max(b_pairs, b_player, b_pigeon), tuple(notes)


def wonder_repeat_lower_bound(
    sizes: Sequence[int],
    draws: Sequence[Sequence[str]],
    played: Mapping[str, int] | None = None,
) -> tuple[int, tuple[str, ...]]:
    """Wonder repeats no seating avoids, with reasons: a counting argument per wonder.

    In a round where wonder w is drawn k-th, every table with more than k seats has a player on
    it; over the rounds that makes ``plays(w)`` plays, and N players can play it at most once
    each, so at least ``plays(w) − N`` of them are repeats. For a re-plan, ``played[w]`` players
    have played w in the rounds already played; only the others can play it anew.
    """
    n = sum(sizes)
    played = played or {}
    plays: dict[str, int] = {}
    for draw in draws:
        for k, wonder in enumerate(draw):
            plays[wonder] = plays.get(wonder, 0) + sum(1 for s in sizes if s > k)
    bound = 0
    notes = []
    for wonder, count in plays.items():
        fresh = n - played.get(wonder, 0)
        if count > fresh:
            bound += count - fresh
            rounds = sum(1 for d in draws if wonder in d)
            already = (
                f" ({played[wonder]} of them have played it already)" if played.get(wonder) else ""
            )
            notes.append(
                f"{wonder} is drawn in {rounds} rounds and is played {count} times by "
                f"{n} players{already}, so at least {count - fresh} plays of it are repeats"
            )
    return bound, tuple(notes)


def start_bands(starts: Sequence[int], rounds: int, tables: int) -> tuple[list[int], list[int]]:
    """The start rule per player: the lowest and highest start count each player may end with.

    Bonn 2018 deals the start seats round by round ("Startspieler"); agon keeps every two
    players' counts within one of each other. ``starts`` are the counts of the rounds already
    played (a re-plan; all zero for a new schedule), and ``rounds`` rounds of ``tables`` tables
    add ``rounds · tables`` starts, at most one per player and round. Those are dealt like water
    poured into columns: always to the players with the fewest — the most even totals any
    seating can reach (they minimise the largest count and maximise the smallest at once). A
    player below the water level starts in every round left, one above it never again; the
    others end on the level or one above it. With nothing played this is the usual band
    ``floor(S/N)…ceil(S/N)`` for every player; after rounds that broke the balance (an imported
    or hand-seated round, a drop, a late entry) it is the best balance still reachable, so the
    search can tell when it has reached it.

    >>> start_bands([0, 0, 0, 0, 0, 0], 2, 2)  # 4 starts for 6 players: 0 or 1 each
    ([0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1])
    >>> start_bands([3, 0, 0, 1, 0, 0], 1, 2)  # 3 starts already: no more; 2 of the 4 at 0
    ([3, 0, 0, 1, 0, 0], [3, 1, 1, 1, 1, 1])
    """
    new = rounds * tables

    def dealt(level: int) -> int:
        return sum(min(rounds, max(0, level - s)) for s in starts)

    level = min(starts, default=0)
    top = max(starts, default=0) + rounds
    while level < top and dealt(level + 1) <= new:
        level += 1
    extra = new - dealt(level)
    lo = [max(s, min(level, s + rounds)) for s in starts]
    hi = [
        c + 1 if extra and s <= level < s + rounds else c for s, c in zip(starts, lo, strict=True)
    ]
    return lo, hi


def wonder_conflict_note(draws: Sequence[Sequence[str]]) -> str | None:
    """Why every player must play a wonder twice, if the draws force it (Hall's condition).

    Each player plays one of round r's drawn wonders; if some set of rounds draws fewer distinct
    wonders than it has rounds, nobody can play a new wonder in each of them.
    """
    r = len(draws)
    if r > len(WONDERS):
        return f"{r} rounds but only {len(WONDERS)} wonders: every player plays a wonder twice"
    if r > 14:
        return None
    for size in range(2, r + 1):
        for subset in combinations(range(r), size):
            union = set().union(*(set(draws[i]) for i in subset))
            if len(union) < size:
                names = ", ".join(str(i + 1) for i in subset)
                return (
                    f"rounds {names} draw only {len(union)} different wonders between them, "
                    f"so every player must play one of them twice"
                )
    return None
