"""Re-plan after a drop (issue 11): 13 players, 4 rounds; one player drops after round 1.

Prints, per seed and per dropped seat (0: a start player, 1: not), the plan's figures and the
re-plan's over the whole event: repeat encounters, wonder repeats, start spread, CPU seconds.

    PYTHONPATH=src python bench/replan.py [SEED ...]
"""

from __future__ import annotations

import sys
import time

from agon.tournament.ruleset import load_ruleset
from agon.tournament.seating import plan_schedule


def main(seeds: list[str]) -> None:
    bonn = load_ruleset("bonn-2018")
    names = [f"P{i:02d}" for i in range(1, 14)]
    print("seed  drop  plan(rep wr spread)  replan(rep bound wr spread)  cpu_s")
    for seed in seeds:
        plan = plan_schedule(names, rounds=4, seed=seed, ruleset=bonn)
        p = plan.report
        for seat in (0, 1):
            first = plan.rounds[0]
            rest = [n for n in names if n != first.tables[0].seats[seat]]
            cpu = time.process_time()
            replan = plan_schedule(rest, rounds=3, seed=seed, ruleset=bonn, history=[first])
            cpu = time.process_time() - cpu
            r = replan.report
            print(
                f"{seed:5} {seat:4}  {p.repeats:4} {p.wonder_repeats:2} {p.start_spread:6}"
                f"        {r.repeats:4} {r.lower_bound:5} {r.wonder_repeats:2} {r.start_spread:6}"
                f"  {cpu:7.2f}"
            )


if __name__ == "__main__":
    main(sys.argv[1:] or ["a", "b", "c", "bonn", "demo"])
