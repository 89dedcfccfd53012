"""Comparison run: OR-Tools CP-SAT on the grouping part of the schedule problem.

Not part of agon: OR-Tools (``ortools==9.15.6755``, about 244 MB) is not a dependency. This script
measured whether a CP-SAT model would beat agon's annealing (see docs/seating.md, "Optimiser");
it exits quietly when OR-Tools is not installed. Model: x[p, r, t] = player p at table t in round r;
exact table sizes; m[p, q, r] >= x[p, r, t] + x[q, r, t] - 1; repeats y[p, q] >= sum_r m[p, q, r] - 1;
minimise sum y; round 1 fixed (symmetry). Run: ``python bench/seating_cpsat.py [SECONDS]``.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations

from agon.tournament.ruleset import load_ruleset
from agon.tournament.seating import plan_schedule, repeat_lower_bound
from agon.tournament.tables import table_sizes


def cpsat_repeats(n: int, rounds: int, seconds: float) -> tuple[int, int, float]:
    from ortools.sat.python import cp_model

    sizes = table_sizes(n, load_ruleset("bonn-2018"))
    model = cp_model.CpModel()
    x = {
        (p, r, t): model.new_bool_var(f"x{p}_{r}_{t}")
        for p in range(n)
        for r in range(rounds)
        for t in range(len(sizes))
    }
    for r in range(rounds):
        for p in range(n):
            model.add_exactly_one(x[p, r, t] for t in range(len(sizes)))
        for t, size in enumerate(sizes):
            model.add(sum(x[p, r, t] for p in range(n)) == size)
    start = 0
    for t, size in enumerate(sizes):  # round 1 fixed: players in order
        for p in range(start, start + size):
            model.add(x[p, 0, t] == 1)
        start += size
    repeats = []
    for p, q in combinations(range(n), 2):
        meets = []
        for r in range(rounds):
            m = model.new_bool_var(f"m{p}_{q}_{r}")
            for t in range(len(sizes)):
                model.add_bool_or([x[p, r, t].Not(), x[q, r, t].Not(), m])
            meets.append(m)
        y = model.new_int_var(0, rounds, f"y{p}_{q}")
        model.add(y >= sum(meets) - 1)
        repeats.append(y)
    model.minimize(sum(repeats))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    begin = time.perf_counter()
    status = solver.solve(model)
    took = time.perf_counter() - begin
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return -1, -1, took
    return int(solver.objective_value), int(solver.best_objective_bound), took


def main() -> None:
    try:
        import ortools  # noqa: F401
    except ImportError:
        print("OR-Tools not installed (not an agon dependency); nothing to compare")
        return
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    ruleset = load_ruleset("bonn-2018")
    print(f"{'N':>4} {'bound':>5} {'cpsat':>5} {'proved':>6} {'s':>6}   {'agon':>4} {'s':>6}")
    for n in (12, 16, 20, 22, 23, 25, 30, 40):
        sizes = table_sizes(n, ruleset)
        bound, _ = repeat_lower_bound(sizes, 4)
        value, proved, took = cpsat_repeats(n, 4, seconds)
        begin = time.perf_counter()
        ours = plan_schedule(
            [f"P{i:02d}" for i in range(n)], rounds=4, seed="bench", ruleset=ruleset
        )
        ours_s = time.perf_counter() - begin
        print(
            f"{n:>4} {bound:>5} {value:>5} {proved:>6} {took:>6.2f}   "
            f"{ours.report.repeats:>4} {ours_s:>6.2f}"
        )


if __name__ == "__main__":
    main()
