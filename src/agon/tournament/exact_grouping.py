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
from hashlib import sha256
from itertools import combinations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Cadical153

#: Conflicts the solver may spend before giving up (22 x 4 needs well under this).
CONFLICT_BUDGET = 400_000
#: Conflicts for the seat-number model: on 40 seeds of 13 players x 4 rounds it found every
#: feasible case and proved all but one infeasible case within this (0.3 s at most).
SEAT_NUMBER_CONFLICT_BUDGET = 20_000


def zero_repeat_grouping(
    n: int, sizes: tuple[int, ...], rounds: int, seed: str, conflict_budget: int = CONFLICT_BUDGET
) -> list[list[list[int]]] | None:
    """Tables of every round (lists of player indices) with no pair meeting twice, or ``None``.

    ``None`` means the solver proved that no such grouping exists or ran out of its budget.
    """
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
    with Cadical153(bootstrap_with=clauses) as solver:
        solver.conf_budget(conflict_budget)
        if not solver.solve_limited():
            return None
        true = {lit for lit in solver.get_model() or [] if lit > 0}
    perm = list(range(n))
    random.Random(sha256(f"{seed}|exact-grouping".encode()).digest()).shuffle(perm)
    schedule = []
    for r in range(rounds):
        round_tables: list[list[int]] = [[] for _ in sizes]
        for q in range(n):
            t = next(t for t in range(tables) if x(q, r, t) in true)
            round_tables[t].append(perm[q])
        schedule.append(round_tables)
    return schedule


def wonder_start_seat_numbers(
    sizes: tuple[int, ...],
    wonders: list[list[int]],
    played: list[list[int]],
    starts: list[int],
    band: tuple[int, int],
    seed: str,
    conflict_budget: int = SEAT_NUMBER_CONFLICT_BUDGET,
) -> list[list[int]] | None:
    """Seat numbers (``idx[r][p]``) keeping the wonder and the start rule exactly, or ``None``.

    Seat k plays round r's wonder ``wonders[r][k]`` and seat 0 starts (Bonn 2018), so the two
    rules depend only on seat numbers. Model: ``y[p, r, k]`` — player p takes seat number k in
    round r; one number per player and round; as many players on number k as tables have more
    than k seats; no wonder twice for a player, none he has ``played`` already (a re-plan); his
    ``starts`` so far plus the new ones within ``band`` (lowest, highest start count). Used when
    the annealing of seat numbers stays above zero wonder repeats although a seating may keep
    both rules. ``None``: the rules cannot hold together, or the conflict budget ran out.
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
    lo, hi = band
    for p in range(n):
        for r in range(rounds):
            lits = [y(p, r, k) for k in range(s_max)]
            clauses += CardEnc.equals(lits, 1, vpool=pool, encoding=EncType.pairwise).clauses
        by_wonder: dict[int, list[int]] = {}
        for r in range(rounds):
            for k in range(s_max):
                by_wonder.setdefault(wonders[r][k], []).append(y(p, r, k))
        for w, lits in by_wonder.items():
            if played[p][w]:
                clauses += [[-lit] for lit in lits]
            elif len(lits) > 1:
                clauses += CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.pairwise).clauses
        first = [y(p, r, 0) for r in range(rounds)]
        low, high = max(0, lo - starts[p]), max(0, hi - starts[p])
        if low > rounds:
            return None
        if low > 0:
            clauses += CardEnc.atleast(first, low, vpool=pool, encoding=EncType.seqcounter).clauses
        if high < rounds:
            clauses += CardEnc.atmost(first, high, vpool=pool, encoding=EncType.seqcounter).clauses
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
