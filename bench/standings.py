"""Benchmark: standings of 10,000 players x 10 rounds of random results.

Goals (issue 13): under 0.5 s end to end through the command line, ``agon standings FILE``
(start-up, reading and checking the file and printing the table included), on an idle machine.

Prints what it measured for each built-in ruleset: CPU seconds of this process (one core, not
inflated by other load on the machine) and wall-clock seconds, for parsing the event document and
for computing the standings; then, per ruleset, ``agon standings FILE`` run as a new process on a
file written to a temporary folder: wall seconds and the CPU seconds of that process (user +
system), best of ``--cli-runs`` runs. On a loaded machine the CPU seconds are the figure to
compare.

    python bench/standings.py [--cli-runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
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


def cli_run(path: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one ``agon standings PATH`` in a new process (output discarded)."""
    before = os.times()
    wall = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "agon", "standings", str(path)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - wall
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli-runs", type=int, default=3, help="runs of the command line per ruleset")
    args = ap.parse_args()
    print(f"{PLAYERS} players x {ROUNDS} rounds of random results")
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
    print(
        f"agon standings FILE, end to end (goal < 0.5 s wall, idle machine), best of {args.cli_runs}:"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("bonn-2018", "ludolimpico-2015", "de-championship"):
            path = Path(tmp) / f"{name}.json"
            path.write_text(json.dumps(random_event(name, 1)), encoding="utf-8")
            runs = [cli_run(path) for _ in range(max(1, args.cli_runs))]
            wall = min(r[0] for r in runs)
            cpu = min(r[1] for r in runs)
            print(f"  {name:17s} {wall:.3f} s wall, {cpu:.3f} s cpu")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
