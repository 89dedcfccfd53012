"""Benchmark of the pre-planned schedule optimiser (issue 3).

Prints, for N = 12…40 players with R = 4 rounds and for N = 1000 with R = 6 (Bonn 2018 tables):
repeat encounters, the lower bound, repeated neighbours, wonders played twice, start spread and
seconds. Goals: 40 × 4 under 2 s, 1000 × 6 under 10 s, zero repeats wherever a zero-repeat schedule
exists. Run: ``.venv/bin/python bench/seating.py [--quick]`` (``--quick``: N = 12…40 only).
"""

from __future__ import annotations

import sys
import time

from agon.tournament.ruleset import load_ruleset
from agon.tournament.seating import plan_schedule


def run(n: int, rounds: int, seed: str) -> tuple[int, int, int, int, int, float]:
    ruleset = load_ruleset("bonn-2018")
    players = [f"P{i:04d}" for i in range(1, n + 1)]
    start = time.perf_counter()
    schedule = plan_schedule(players, rounds=rounds, seed=seed, ruleset=ruleset)
    seconds = time.perf_counter() - start
    r = schedule.report
    return r.repeats, r.lower_bound, r.neighbour_repeats, r.wonder_repeats, r.start_spread, seconds


def main() -> None:
    quick = "--quick" in sys.argv
    cases = [(n, 4) for n in range(12, 41)]
    if not quick:
        cases.append((1000, 6))
    print(
        f"{'N':>5} {'R':>2} {'repeats':>7} {'bound':>5} {'nbrep':>5} {'wrep':>4} {'spread':>6} {'s':>6}"
    )
    worst = 0.0
    for n, rounds in cases:
        repeats, bound, nb, wrep, spread, seconds = run(n, rounds, seed="bench")
        worst = max(worst, seconds) if n <= 40 else worst
        flag = "" if repeats == bound else "  (above bound)"
        print(
            f"{n:>5} {rounds:>2} {repeats:>7} {bound:>5} {nb:>5} {wrep:>4} {spread:>6} "
            f"{seconds:>6.2f}{flag}"
        )
    print(f"slowest of N <= 40: {worst:.2f} s")


if __name__ == "__main__":
    main()
