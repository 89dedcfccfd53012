"""Exact search for a schedule without repeat encounters, as a SAT problem (CaDiCaL via python-sat).

Used by the pre-planned schedule (Bonn 2018, "vorher festgelegter Spielplan") when the counting
lower bound on repeats is 0 but the local search has not found such a schedule: for some room sizes
(22 players x 4 rounds at tables 5+5+4+4+4) zero-repeat groupings are rare enough that restarts of
the annealing search miss them, while the solver finds one in about a second.

Model: ``x[p, r, t]`` — player p sits at table t in round r; every player at exactly one table per
round, every table at its size, and for every pair at most one round in which they share a table.
Round 1 is fixed (symmetry breaking). The seed permutes the players, so different seeds give
different schedules; the solver itself is deterministic, and its work is bounded by a conflict
budget, not by time, so the result does not depend on the machine's speed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from hashlib import sha256
from itertools import combinations, permutations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Cadical153, Glucose42

#: Conflicts the solver may spend before giving up: 22 x 4 needs about 4,500, 23 x 4 about 8,000,
#: 22, 26 and 35 players x 5 rounds 45,000-62,000 (Glucose 4.2). 400,000 until issue 13: a room
#: without a solution in reach (28 x 5) then spent 20 s per call.
CONFLICT_BUDGET = 10_000
#: Conflicts for the seat-number model: on 40 seeds of 13 players x 4 rounds it found every
#: feasible case and proved all but one infeasible case within this (0.3 s at most).
SEAT_NUMBER_CONFLICT_BUDGET = 20_000


def zero_repeat_grouping(
    n: int, sizes: tuple[int, ...], rounds: int, seed: str, conflict_budget: int = CONFLICT_BUDGET
) -> list[list[list[int]]] | None:
    """Tables of every round (lists of player indices) with no pair meeting twice, or ``None``.

    ``None`` means the solver proved that no such grouping exists or ran out of its budget. The
    model does not depend on the seed (only the final relabelling of the players does), so its
    answer is computed once per room and kept (:func:`_zero_repeat_tables`): the attempts of one
    plan, and later plans of the same room, do not solve it again.
    """
    solved = _zero_repeat_tables(n, sizes, rounds, conflict_budget)
    if solved is None:
        return None
    perm = list(range(n))
    random.Random(sha256(f"{seed}|exact-grouping".encode()).digest()).shuffle(perm)
    return [[[perm[q] for q in table] for table in tables] for tables in solved]


#: Groupings that reach the counting lower bound on repeats where the annealing search often
#: misses it within its budget (Bonn 2018 tables, 4 rounds): 18 players at 5+5+4+4, 6 repeat
#: encounters, where 4 seeds in 10 ended at 8 (issue 30); 19 players at 5+5+5+4, 9 repeats,
#: where 5 seeds in 10 ended at 11. Found by the search itself (seed ``bench``; 400,000 moves for
#: 19) and kept as data; :func:`known_grouping` deals the players to it by the seed.
KNOWN_GROUPINGS: dict[tuple[int, tuple[int, ...], int], tuple[tuple[tuple[int, ...], ...], ...]] = {
    (18, (5, 5, 4, 4), 4): (
        ((5, 11, 8, 4, 12), (6, 13, 2, 9, 16), (10, 7, 14, 1), (0, 3, 15, 17)),
        ((4, 1, 15, 5, 9), (10, 2, 3, 13, 12), (16, 0, 8, 14), (11, 6, 17, 7)),
        ((5, 4, 10, 0, 6), (13, 7, 15, 2, 8), (14, 11, 3, 9), (16, 12, 17, 1)),
        ((13, 2, 11, 0, 1), (3, 4, 7, 16, 5), (8, 10, 9, 17), (14, 6, 12, 15)),
    ),
    (19, (5, 5, 5, 4), 4): (
        ((2, 18, 15, 16, 3), (10, 9, 5, 12, 0), (8, 17, 1, 11, 7), (6, 13, 14, 4)),
        ((14, 11, 2, 12, 8), (18, 13, 10, 7, 16), (0, 9, 6, 17, 3), (1, 4, 15, 5)),
        ((14, 7, 0, 9, 15), (18, 1, 6, 16, 12), (13, 5, 8, 11, 3), (10, 17, 4, 2)),
        ((9, 1, 0, 13, 2), (16, 14, 17, 18, 5), (11, 8, 10, 15, 6), (3, 7, 4, 12)),
    ),
}


def known_grouping(
    n: int, sizes: tuple[int, ...], rounds: int, seed: str
) -> list[list[list[int]]] | None:
    """The tables of every round of :data:`KNOWN_GROUPINGS` for this room, the players dealt to
    it by the seed (purpose ``known-grouping``), or ``None`` for a room it does not hold."""
    known = KNOWN_GROUPINGS.get((n, sizes, rounds))
    if known is None:
        return None
    perm = list(range(n))
    random.Random(sha256(f"{seed}|known-grouping".encode()).digest()).shuffle(perm)
    return [[[perm[q] for q in table] for table in tables] for tables in known]


#: Search nodes for the round shifts of :func:`cyclic_grouping` (6 tables have 5 such rounds and
#: no 6th: proving that takes about 0.3 s in full, so the search gives up within this).
CYCLIC_NODE_BUDGET = 5_000


def cyclic_grouping(
    n: int, sizes: tuple[int, ...], rounds: int, seed: str
) -> list[list[list[int]]] | None:
    """Tables of every round with no pair meeting twice, built from a grid, or ``None``.

    The players fill a grid of ``s`` rows (the largest table size) and ``T`` columns (the
    tables); the ``s·T − n`` empty cells lie in row 0. In round r the player in row i, column j
    sits at table ``(j + f_r(i)) mod T``, so every table gets one player of each row (a table
    with an empty cell is one seat smaller). Two players of rows i ≠ i' meet in round r exactly
    when ``j − j' ≡ f_r(i') − f_r(i)``; if ``f_r − f_q`` takes a different value on every row
    for every two rounds r ≠ q, they meet at most once, and players of one row never meet
    (the construction of an affine plane, ``f_r(i) = r·i`` for a prime T; :func:`_round_shifts`
    finds shifts for any T; a square grid adds its rows as one more round). It applies when the
    tables have ``s`` or ``s − 1`` seats and such shifts exist for the rounds: 21–40 players at
    Bonn tables for 4 and 5 rounds, 24, 25 and 31–40 for 6 rounds. The seed (purpose
    ``cyclic-grouping``) deals the players to the cells.
    """
    grid = _grid(n, sizes, seed)
    if grid is None:
        return None
    rows, tables = sizes[0], len(sizes)
    shifts = _round_shifts(rows, tables, rounds)
    if shifts is not None:
        return [_shifted_round(grid, tables, shift) for shift in shifts]
    # a square grid with at most one empty cell: its rows are one more round (an affine plane's
    # last parallel class), players of one row never meet in the shifted rounds
    if rows != tables or rows * tables - n > 1 or rounds < 2:
        return None
    shifts = _round_shifts(rows, tables, rounds - 1)
    if shifts is None:
        return None
    by_row = [[p for p, (i, _) in grid.items() if i == row] for row in range(rows)]
    return [_shifted_round(grid, tables, shift) for shift in shifts] + [
        sorted(by_row, key=len, reverse=True)
    ]


def cyclic_start(
    n: int, sizes: tuple[int, ...], rounds: int, seed: str
) -> list[list[list[int]]] | None:
    """A start for the grouping search where :func:`cyclic_grouping` has fewer rounds than
    asked (6 rounds of 21–30 players at Bonn tables), or ``None``.

    As many rounds as the grid gives without a repeat, then one round cut from the grid's rows
    in order (players of one row have never met; only where a table straddles two rows do
    players meet again), then rounds dealt at random (seed purpose ``cyclic-start``). The
    search starts from here: measured on 21–30 players x 6 rounds with three seeds, one
    annealing run of 107,000 moves ended at 2–9 repeats against 5–15 from a random start.
    """
    grid = _grid(n, sizes, seed)
    if grid is None:
        return None
    shifts = next(
        (
            found
            for k in range(rounds - 1, 1, -1)
            if (found := _round_shifts(sizes[0], len(sizes), k))
        ),
        None,
    )
    if shifts is None:
        return None
    schedule = [_shifted_round(grid, len(sizes), shift) for shift in shifts]
    order = list(grid)  # row by row
    rand = random.Random(sha256(f"{seed}|cyclic-start".encode()).digest())
    while len(schedule) < rounds:
        round_tables, i = [], 0
        for size in sizes:
            round_tables.append(order[i : i + size])
            i += size
        schedule.append(round_tables)
        rand.shuffle(order)
    return schedule


def _grid(n: int, sizes: tuple[int, ...], seed: str) -> dict[int, tuple[int, int]] | None:
    """The players in the cells of :func:`cyclic_grouping`'s grid (row by row), or ``None``."""
    rows, tables = sizes[0], len(sizes)
    holes = rows * tables - n
    if rows < 2 or any(s not in (rows, rows - 1) for s in sizes) or not 0 <= holes < tables:
        return None
    cells = [(i, j) for i in range(rows) for j in range(tables) if i > 0 or j >= holes]
    perm = list(range(n))
    random.Random(sha256(f"{seed}|cyclic-grouping".encode()).digest()).shuffle(perm)
    return {perm[q]: cell for q, cell in enumerate(cells)}


def _shifted_round(
    grid: dict[int, tuple[int, int]], tables: int, shift: tuple[int, ...]
) -> list[list[int]]:
    """One round of the grid: the player in row i, column j at table ``(j + shift[i]) mod T``;
    full tables first, then those with an empty cell (the sizes are largest first)."""
    by_table: list[list[int]] = [[] for _ in range(tables)]
    for p, (i, j) in grid.items():
        by_table[(j + shift[i]) % tables].append(p)
    return sorted(by_table, key=len, reverse=True)


@lru_cache(maxsize=64)
def _round_shifts(rows: int, tables: int, rounds: int) -> tuple[tuple[int, ...], ...] | None:
    """``rounds`` functions f (tuples over the rows, values mod ``tables``) whose pairwise
    differences take a different value on every row, or ``None`` (none within the budget).

    f_0 = 0 and f(0) = 0 for all (shifting a round's f relabels its tables); a depth-first
    search in lexicographic order, at most :data:`CYCLIC_NODE_BUDGET` nodes.
    """
    if rows > tables or rounds > tables:
        return None  # f(1) differs between any two rounds: at most T rounds
    zero = (0,) * rows
    candidates = [(0, *p) for p in permutations(range(1, tables), rows - 1)]

    def apart(f: tuple[int, ...], g: tuple[int, ...]) -> bool:
        return len({(a - b) % tables for a, b in zip(f, g, strict=True)}) == rows

    chosen = [zero]
    nodes = 0

    def extend(start: int) -> bool:
        nonlocal nodes
        if len(chosen) == rounds:
            return True
        for k in range(start, len(candidates)):
            nodes += 1
            if nodes > CYCLIC_NODE_BUDGET:
                return False
            f = candidates[k]
            if all(apart(f, g) for g in chosen):
                chosen.append(f)
                if extend(k + 1):
                    return True
                chosen.pop()
        return False

    return tuple(chosen) if extend(0) else None


@lru_cache(maxsize=64)
def _zero_repeat_tables(
    n: int, sizes: tuple[int, ...], rounds: int, conflict_budget: int
) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """The solver's zero-repeat tables for unrelabelled players, or ``None`` (see above)."""
    pool = IDPool()
    tables = len(sizes)

    def x(p: int, r: int, t: int) -> int:
        return int(pool.id(("x", p, r, t)))

    clauses: list[list[int]] = []
    for r in range(rounds):
        for p in range(n):
            lits = [x(p, r, t) for t in range(tables)]
            clauses += CardEnc.equals(lits, 1, vpool=pool, encoding=EncType.pairwise).clauses
        for t, size in enumerate(sizes):
            lits = [x(p, r, t) for p in range(n)]
            clauses += CardEnc.equals(lits, size, vpool=pool, encoding=EncType.seqcounter).clauses
    for p, q in combinations(range(n), 2):
        meets = []
        for r in range(rounds):
            m = int(pool.id(("m", p, q, r)))
            clauses.extend([-x(p, r, t), -x(q, r, t), m] for t in range(tables))
            meets.append(m)
        clauses += CardEnc.atmost(meets, 1, vpool=pool, encoding=EncType.pairwise).clauses
    p = 0
    for t, size in enumerate(sizes):
        for _ in range(size):
            clauses.append([x(p, 0, t)])
            p += 1
    with Glucose42(bootstrap_with=clauses) as solver:
        solver.conf_budget(conflict_budget)
        if not solver.solve_limited():
            return None
        true = {lit for lit in solver.get_model() or [] if lit > 0}
    schedule = []
    for r in range(rounds):
        round_tables: list[list[int]] = [[] for _ in sizes]
        for q in range(n):
            t = next(t for t in range(tables) if x(q, r, t) in true)
            round_tables[t].append(q)
        schedule.append(tuple(tuple(t) for t in round_tables))
    return tuple(schedule)


def _wonder_and_start_clauses(
    seats: list[list[int]],
    wonders: list[list[int]],
    played: list[int],
    starts: int,
    band: tuple[int, int],
    pool: IDPool,
    repeats: dict[int, list[int]] | None = None,
) -> list[list[int]] | None:
    """One player's wonder and start rule as clauses: ``seats[r][k]`` is the literal "takes seat
    number k in round r" (seat k plays ``wonders[r][k]``, seat 0 starts); no wonder twice, none in
    ``played`` (counts per wonder so far), ``starts`` so far plus the new ones within ``band``.
    ``None``: the band cannot be reached in the rounds left.

    With ``repeats``, wonders may repeat: each repeat he would play sets a literal, which is
    added to ``repeats[wonder]`` (the caller bounds their number): a play of a wonder in
    ``played`` is one, and so is "at least j plays" of another for j = 2, 3, …"""
    clauses: list[list[int]] = []
    by_wonder: dict[int, list[int]] = {}
    for r, lits in enumerate(seats):
        for k, lit in enumerate(lits):
            by_wonder.setdefault(wonders[r][k], []).append(lit)
    for w, lits in by_wonder.items():
        if repeats is not None:
            if played[w]:
                repeats.setdefault(w, []).extend(lits)
                continue
            for j in range(2, len(lits) + 1):
                at_least = int(pool.id(("repeat", *lits, j)))
                clauses += [[*(-lit for lit in group), at_least] for group in combinations(lits, j)]
                repeats.setdefault(w, []).append(at_least)
        elif played[w]:
            clauses += [[-lit] for lit in lits]
        elif len(lits) > 1:
            clauses += CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.pairwise).clauses
    first = [lits[0] for lits in seats]
    rounds = len(seats)
    lo, hi = band
    low, high = max(0, lo - starts), max(0, hi - starts)
    if low > rounds:
        return None
    if low > 0:
        clauses += CardEnc.atleast(first, low, vpool=pool, encoding=EncType.seqcounter).clauses
    if high < rounds:
        clauses += CardEnc.atmost(first, high, vpool=pool, encoding=EncType.seqcounter).clauses
    return clauses


def _forced_repeats(
    repeats: dict[int, list[int]] | None,
    plays: dict[int, int],
    played: list[list[int]],
    pool: IDPool,
) -> list[list[int]]:
    """Clauses: each wonder repeats at most as often as the draws force (none for ``None``).

    Wonder w is played ``plays[w]`` times and only the players who have not played it yet can
    play it anew, so ``plays[w] − fresh`` plays are repeats in any seating (the counting bound
    of :func:`agon.tournament.seating.wonder_repeat_lower_bound`); allowing exactly that many
    per wonder is the forced total, in small constraints the solver handles well.
    """
    if repeats is None:
        return []
    clauses: list[list[int]] = []
    for w, lits in repeats.items():
        fresh = sum(1 for row in played if not row[w])
        allowed = max(0, plays.get(w, 0) - fresh)
        if len(lits) > allowed:
            enc = CardEnc.atmost(lits, allowed, vpool=pool, encoding=EncType.seqcounter)
            clauses += enc.clauses
    return clauses


def wonder_start_seat_numbers(
    sizes: tuple[int, ...],
    wonders: list[list[int]],
    played: list[list[int]],
    starts: list[int],
    band: tuple[Sequence[int], Sequence[int]],
    seed: str,
    conflict_budget: int = SEAT_NUMBER_CONFLICT_BUDGET,
    wonder_repeats: bool = False,
) -> list[list[int]] | None:
    """Seat numbers (``idx[r][p]``) keeping the wonder and the start rule exactly, or ``None``.

    Seat k plays round r's wonder ``wonders[r][k]`` and seat 0 starts (Bonn 2018), so the two
    rules depend only on seat numbers. Model: ``y[p, r, k]`` — player p takes seat number k in
    round r; one number per player and round; as many players on number k as tables have more
    than k seats; no wonder twice for a player, none he has ``played`` already (a re-plan); his
    ``starts`` so far plus the new ones within ``band`` (each player's lowest and highest start
    count, :func:`agon.tournament.seating.start_bands`). Used when
    the annealing of seat numbers stays above zero wonder repeats although a seating may keep
    both rules. With ``wonder_repeats`` (where the draws force wonder repeats), each wonder may
    repeat as often as the draws force (:func:`_forced_repeats`), no more.
    ``None``: the rules cannot hold together, or the conflict budget ran out.
    """
    n = len(starts)
    rounds = len(wonders)
    s_max = max(sizes)
    need = [sum(1 for s in sizes if s > k) for k in range(s_max)]
    perm = list(range(n))
    random.Random(sha256(f"{seed}|exact-seat-numbers".encode()).digest()).shuffle(perm)
    pool = IDPool()

    def y(p: int, r: int, k: int) -> int:
        return int(pool.id(("y", p, r, k)))

    clauses: list[list[int]] = []
    repeats: dict[int, list[int]] | None = {} if wonder_repeats else None
    for p in range(n):
        for r in range(rounds):
            lits = [y(p, r, k) for k in range(s_max)]
            clauses += CardEnc.equals(lits, 1, vpool=pool, encoding=EncType.pairwise).clauses
        rules = _wonder_and_start_clauses(
            [[y(p, r, k) for k in range(s_max)] for r in range(rounds)],
            wonders, played[p], starts[p], (band[0][p], band[1][p]), pool, repeats,
        )  # fmt: skip
        if rules is None:
            return None
        clauses += rules
    plays: dict[int, int] = {}
    for r in range(rounds):
        for k in range(s_max):
            plays[wonders[r][k]] = plays.get(wonders[r][k], 0) + need[k]
    clauses += _forced_repeats(repeats, plays, played, pool)
    for r in range(rounds):
        for k in range(s_max):
            lits = [y(perm[q], r, k) for q in range(n)]
            clauses += CardEnc.equals(
                lits, need[k], vpool=pool, encoding=EncType.seqcounter
            ).clauses
    with Cadical153(bootstrap_with=clauses) as solver:
        solver.conf_budget(conflict_budget)
        if not solver.solve_limited():
            return None
        true = {lit for lit in solver.get_model() or [] if lit > 0}
    return [
        [next(k for k in range(s_max) if y(p, r, k) in true) for p in range(n)]
        for r in range(rounds)
    ]


def wonder_seat_types(
    size: int,
    wonders: list[list[int]],
    seed: str,
    conflict_budget: int = SEAT_NUMBER_CONFLICT_BUDGET,
) -> list[list[int]] | None:
    """Seat numbers of ``size`` player *types* (``idx[r][i]``) at the forced wonder repeats, or
    ``None``.

    For a room of T tables of ``size`` players each, with no rounds played yet: the players fall
    into ``size`` types of T players each, and in every round the types take the seat numbers in
    some order (a permutation), so every number is taken by exactly the T players it needs. Wonder
    ``w``, drawn in ``k_w`` rounds, is then played ``k_w`` times by every type; the counting bound
    (:func:`agon.tournament.seating.wonder_repeat_lower_bound`) is T · Σ max(0, k_w − ``size``).
    The model asks for exactly that: no type plays a wonder twice that is drawn in at most
    ``size`` rounds, every type plays each wonder drawn in more rounds at least once (so its
    excess plays are the only repeats), every type starts ``floor(R/size)`` or ``ceil(R/size)``
    times, and (where it can) no type takes one seat number more than ``ceil(R/size)`` times.
    ``None``: the start rule and the bound cannot hold together for these draws, or the conflict
    budget ran out. The seed permutes the types; the solver is deterministic.
    """
    rounds = len(wonders)
    lo, hi = rounds // size, -(-rounds // size)
    drawn: dict[int, int] = {}
    for draw in wonders:
        for w in draw[:size]:
            drawn[w] = drawn.get(w, 0) + 1
    pool = IDPool()

    def y(i: int, r: int, k: int) -> int:
        return int(pool.id(("y", i, r, k)))

    clauses: list[list[int]] = []
    for r in range(rounds):
        for i in range(size):
            lits = [y(i, r, k) for k in range(size)]
            clauses += CardEnc.equals(lits, 1, vpool=pool, encoding=EncType.pairwise).clauses
        for k in range(size):
            lits = [y(i, r, k) for i in range(size)]
            clauses += CardEnc.equals(lits, 1, vpool=pool, encoding=EncType.pairwise).clauses
    for i in range(size):
        for w, count in drawn.items():
            lits = [y(i, r, wonders[r].index(w)) for r in range(rounds) if w in wonders[r][:size]]
            if count > size:
                clauses.append(lits)
            elif len(lits) > 1:
                clauses += CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.pairwise).clauses
        first = [y(i, r, 0) for r in range(rounds)]
        if lo > 0:
            clauses += CardEnc.atleast(first, lo, vpool=pool, encoding=EncType.seqcounter).clauses
        if hi < rounds:
            clauses += CardEnc.atmost(first, hi, vpool=pool, encoding=EncType.seqcounter).clauses
    seats: list[list[int]] = []
    for i in range(size):
        for k in range(1, size):
            lits = [y(i, r, k) for r in range(rounds)]
            if hi < rounds:
                seats += CardEnc.atmost(lits, hi, vpool=pool, encoding=EncType.seqcounter).clauses
    true: set[int] | None = None
    for extra in (seats, []):
        with Cadical153(bootstrap_with=clauses + extra) as solver:
            solver.conf_budget(conflict_budget)
            if solver.solve_limited():
                true = {lit for lit in solver.get_model() or [] if lit > 0}
                break
    if true is None:
        return None
    perm = list(range(size))
    random.Random(sha256(f"{seed}|seat-types".encode()).digest()).shuffle(perm)
    return [
        [next(k for k in range(size) if y(perm[i], r, k) in true) for i in range(size)]
        for r in range(rounds)
    ]


def wonder_start_seat_orders(
    tables: list[list[list[int]]],
    wonders: list[list[int]],
    played: list[list[int]],
    starts: list[int],
    band: tuple[Sequence[int], Sequence[int]],
    conflict_budget: int = SEAT_NUMBER_CONFLICT_BUDGET,
    wonder_repeats: bool = False,
) -> list[list[int]] | None:
    """Seat numbers (``idx[r][p]``) that keep the wonder and the start rule exactly for a fixed
    grouping, or ``None``.

    ``tables[r][t]`` are the players of table t in round r (in any order); a seat order of a
    table is a permutation of its players. Model as :func:`wonder_start_seat_numbers`, with each
    table's seat numbers ``0 … size − 1`` taken once each by its own players. The grouping
    search asks this before annealing seat orders, so a grouping that leaves no seat order
    keeping both rules is recognised at once (the model is tiny: a few hundred variables).
    With ``wonder_repeats`` (where the draws force wonder repeats), each wonder may repeat as
    often as the draws force, no more: the order keeps the wonder rule as far as any seating can.
    ``None``: no such seat order exists, or the conflict budget ran out.
    """
    n = len(starts)
    rounds = len(tables)
    pool = IDPool()

    def y(p: int, r: int, k: int) -> int:
        return int(pool.id(("y", p, r, k)))

    clauses: list[list[int]] = []
    size_of = [[0] * n for _ in range(rounds)]
    for r in range(rounds):
        for table in tables[r]:
            s = len(table)
            for p in table:
                size_of[r][p] = s
                lits = [y(p, r, k) for k in range(s)]
                clauses += CardEnc.equals(lits, 1, vpool=pool, encoding=EncType.pairwise).clauses
            for k in range(s):
                lits = [y(p, r, k) for p in table]
                clauses += CardEnc.equals(lits, 1, vpool=pool, encoding=EncType.pairwise).clauses
    repeats: dict[int, list[int]] | None = {} if wonder_repeats else None
    for p in range(n):
        rules = _wonder_and_start_clauses(
            [[y(p, r, k) for k in range(size_of[r][p])] for r in range(rounds)],
            wonders, played[p], starts[p], (band[0][p], band[1][p]), pool, repeats,
        )  # fmt: skip
        if rules is None:
            return None
        clauses += rules
    plays: dict[int, int] = {}
    for r in range(rounds):
        for table in tables[r]:
            for k in range(len(table)):
                plays[wonders[r][k]] = plays.get(wonders[r][k], 0) + 1
    clauses += _forced_repeats(repeats, plays, played, pool)
    with Cadical153(bootstrap_with=clauses) as solver:
        solver.conf_budget(conflict_budget)
        if not solver.solve_limited():
            return None
        true = {lit for lit in solver.get_model() or [] if lit > 0}
    return [
        [next(k for k in range(size_of[r][p]) if y(p, r, k) in true) for p in range(n)]
        for r in range(rounds)
    ]
