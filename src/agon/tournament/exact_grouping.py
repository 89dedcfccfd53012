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
