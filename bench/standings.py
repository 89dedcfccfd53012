"""Benchmark: standings of 10,000 players x 10 rounds of random results.

Goal (issue 30): under 0.3 s CPU end to end through the command line, ``agon standings FILE``
as a user runs it (process start, imports, reading and checking the file and printing the table
included), on an idle machine (issue 13's was 0.5 s wall). Prints "met"/"not met" per ruleset
(the median CPU seconds of the ``agon`` process against the goal), the load average and the host:
on a loaded machine the ``--before`` ratio, measured in one run, is the figure to compare.

Prints what it measured for each built-in ruleset: CPU seconds of this process (one core, not
inflated by other load on the machine) and wall-clock seconds, for the full reader (parsing the
event document into result objects, then computing the standings) and for the one pass that
``agon standings`` takes (:func:`agon.tournament.bulk.quick_standings`, straight from the decoded
document); then, per ruleset, ``agon standings FILE`` run as a new process on a file written to a
temporary folder: wall seconds and the CPU seconds of that process (user + system), best and
median of ``--cli-runs`` runs. On a loaded machine the CPU seconds are the figure to compare.

``--before SRC`` also runs the command line with another source tree first on ``PYTHONPATH``
(e.g. ``--before /path/to/main/src``), alternating with this one, and prints the ratio: before
and after measured in one run, under the same load; it stops if the two print different tables.

    python bench/standings.py [--cli-runs 3] [--before SRC]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agon.tournament.bulk import quick_standings
from agon.tournament.event import parse_event
from agon.tournament.ruleset import load_ruleset
from agon.tournament.standings import compute_standings

PLAYERS = 10_000
ROUNDS = 10
GOAL_CPU = 0.3  # seconds CPU of `agon standings FILE`, end to end (issue 30)


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


def cli_output(path: Path, src: str | None = None) -> bytes:
    """What ``agon standings PATH`` prints (``src``: as in :func:`cli_run`)."""
    return subprocess.run(
        [sys.executable, "-m", "agon", "standings", str(path)],
        check=True,
        capture_output=True,
        env=_env(src),
    ).stdout


def _env(src: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    return env


def cli_run(path: Path, src: str | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one ``agon standings PATH`` in a new process (output discarded);
    ``src``: a source tree to put first on ``PYTHONPATH``."""
    env = _env(src)
    before = os.times()
    wall = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "agon", "standings", str(path)],
        check=True,
        stdout=subprocess.DEVNULL,
        env=env,
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
    ap.add_argument("--before", metavar="SRC", help="also time this source tree, alternating")
    args = ap.parse_args()
    print(f"{PLAYERS} players x {ROUNDS} rounds of random results (in-process, CPU s)")
    for name in ("bonn-2018", "ludolimpico-2015", "de-championship"):
        doc = random_event(name, 1)
        ruleset = load_ruleset(name)
        event, parse_cpu, parse_wall = timed(parse_event, doc)
        standings, cpu, wall = timed(compute_standings, event, ruleset)
        quick, quick_cpu, quick_wall = timed(lambda d: quick_standings(d), doc)
        assert len(standings.rows) == PLAYERS
        assert quick is not None and quick.standings == standings
        print(
            f"  {name:17s} full reader: parse {parse_cpu:.3f} + standings {cpu:.3f} = "
            f"{cpu + parse_cpu:.3f} s cpu ({parse_wall + wall:.3f} s wall); "
            f"one pass {quick_cpu:.3f} s cpu ({quick_wall:.3f} s wall)"
        )
    runs = max(1, args.cli_runs)
    print(
        f"agon standings FILE, end to end (goal < {GOAL_CPU} s CPU, idle machine), {runs} runs: "
        "wall best/median, CPU best/median"
    )
    print(f"  ({_where()} at the start)")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("bonn-2018", "ludolimpico-2015", "de-championship"):
            path = Path(tmp) / f"{name}.json"
            path.write_text(json.dumps(random_event(name, 1)), encoding="utf-8")
            out = cli_output(path)  # warms the page cache and the bytecode
            if args.before and cli_output(path, args.before) != out:
                sys.exit(f"{name}: before and after print different tables")
            after: list[tuple[float, float]] = []
            before: list[tuple[float, float]] = []
            for _ in range(runs):
                if args.before:
                    before.append(cli_run(path, args.before))
                after.append(cli_run(path))
            cpu = statistics.median(c for _, c in after)
            verdict = "met" if cpu < GOAL_CPU else "not met"
            line = f"  {name:17s} {_figures(after)}: {verdict} (< {GOAL_CPU} s CPU)"
            if before:
                ratio = statistics.median(c for _, c in after) / statistics.median(
                    c for _, c in before
                )
                line += f"; before: {_figures(before)}; CPU ratio after/before {ratio:.2f}"
            print(line)
    print(f"({_where()} at the end)")


def _where() -> str:
    """The host and its load: a figure means little without them."""
    one, five, fifteen = os.getloadavg()
    return (
        f"host {platform.node()}, {os.cpu_count()} cores, "
        f"load average {one:.1f} {five:.1f} {fifteen:.1f}"
    )


def _figures(runs: list[tuple[float, float]]) -> str:
    walls = [w for w, _ in runs]
    cpus = [c for _, c in runs]
    return (
        f"{min(walls):.3f}/{statistics.median(walls):.3f} s wall, "
        f"{min(cpus):.3f}/{statistics.median(cpus):.3f} s cpu"
    )


if __name__ == "__main__":
    main()
