"""Latency of the director's commands: wall-clock and CPU seconds per run, as a person types them.

Each command runs as its own process (``python -m agon …``), the way a director's shell runs it,
against a throwaway SQLite database holding the Bonn example event (``agon import``). The goal
(issue 11) is under 0.5 s wall per command on an idle machine.

Python compiles every module it imports unless the bytecode is cached; an installed package has
its cache (``pip`` writes it), so this script lets the children write theirs to a throwaway
``PYTHONPYCACHEPREFIX`` and runs every command once untimed first.  ``--cold`` times the first
run too (as with ``PYTHONDONTWRITEBYTECODE=1``, no cache at all).  CPU seconds are the child's
user + system time: on a shared, loaded machine they say more than wall-clock time.

    .venv/bin/python bench/cli_latency.py [runs] [--cold]
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bonn-2018-sample.json"
GOAL = 0.5  # seconds wall per command (issue 11)

COMMANDS: list[tuple[str, ...]] = [
    ("--help",),
    ("tournament", "list"),
    ("player", "list"),
    ("tournament", "standings"),
    ("round", "show"),
    ("standings", str(EXAMPLE)),
]


def run(args: tuple[str, ...], env: dict[str, str]) -> tuple[float, float]:
    """One run of ``agon ARGS``: (wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "agon", *args], env=env, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"agon {' '.join(args)} failed: {proc.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str]) -> None:
    runs = int(next((a for a in argv if a.isdigit()), "5"))
    cold = "--cold" in argv
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env["AGON_DATABASE_URL"] = f"sqlite:///{tmp}/agon.db"
        env["AGON_ACTOR"] = "bench"
        env.pop("AGON_TOURNAMENT", None)
        if cold:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = f"{tmp}/pycache"
        run(("import", str(EXAMPLE), "--slug", "bench"), env)
        run(("tournament", "use", "bench"), env)
        print(f"{'command':<40} {'wall median':>12} {'wall max':>9} {'CPU median':>11}  goal")
        for args in COMMANDS:
            if not cold:
                run(args, env)  # warm the bytecode cache and the page cache
            times = [run(args, env) for _ in range(runs)]
            wall = statistics.median(t[0] for t in times)
            worst = max(t[0] for t in times)
            cpu = statistics.median(t[1] for t in times)
            label = "agon " + " ".join(a if len(a) < 30 else Path(a).name for a in args)
            verdict = "ok" if wall < GOAL else "SLOW"
            print(f"{label:<40} {wall:>11.3f}s {worst:>8.3f}s {cpu:>10.3f}s  {verdict}")
        print(
            f"({runs} runs each, {'no bytecode cache' if cold else 'bytecode cached'}; "
            f"load average {os.getloadavg()[0]:.2f})"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
