"""Benchmark: standings of 10,000 players x 10 rounds of random results (goal: under 1 s).

Prints what it measured for each built-in ruleset: CPU seconds of this process (one core, not
inflated by other load on the machine) and wall-clock seconds, for parsing the event document and
for computing the standings.
"""

from __future__ import annotations

import random
import time
from typing import Any

from agon.tournament.event import parse_event
from agon.tournament.ruleset import load_ruleset
from agon.tournament.standings import compute_standings

PLAYERS = 10_000
ROUNDS = 10


def random_event(ruleset: str, seed: int) -> dict[str, Any]:
    """An event document with random results; tables of the ruleset's preferred size."""
    rng = random.Random(seed)
    names = [f"P{i:05d}" for i in range(PLAYERS)]
    size = load_ruleset(ruleset).preferred_table_size
    auction = load_ruleset(ruleset).auction
    rounds = []
    for _ in range(ROUNDS):
        rng.shuffle(names)
        tables = [
            {
                "results": [
                    {
                        "player": p,
                        "vp": rng.randint(20, 75),
                        "coins": rng.randint(0, 15),
                        "bid": rng.randint(0, 3) if auction else 0,
                    }
                    for p in names[i : i + size]
                ]
            }
            for i in range(0, PLAYERS, size)
        ]
        rounds.append({"tables": tables})
    return {
        "name": "bench",
        "ruleset": ruleset,
        "seed": "bench",
        "players": names,
        "rounds": rounds,
    }


def timed(fn: Any, *args: Any) -> tuple[Any, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    value = fn(*args)
    return value, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    print(f"{PLAYERS} players x {ROUNDS} rounds of random results; goal: standings under 1 s")
    for name in ("bonn-2018", "ludolimpico-2015", "de-championship"):
        doc = random_event(name, 1)
        ruleset = load_ruleset(name)
        event, parse_cpu, parse_wall = timed(parse_event, doc)
        standings, cpu, wall = timed(compute_standings, event, ruleset)
        assert len(standings.rows) == PLAYERS
        print(
            f"  {name:17s} standings {cpu:.3f} s cpu ({wall:.3f} s wall); "
            f"parse {parse_cpu:.3f} s cpu ({parse_wall:.3f} s wall); "
            f"total {cpu + parse_cpu:.3f} s cpu"
        )


if __name__ == "__main__":
    main()
