"""Latency of the director's commands: wall-clock and CPU seconds per run, as a person types them.

Each command runs as its own process (``python -m agon …``), the way a director's shell runs it,
against a throwaway SQLite database holding a real tournament: 35 players of a Bonn 2018 event
with three rounds played (``agon import`` of a generated event file) and round 4 started. The
goals (issues 11 and 13): every director command under 0.5 s wall on an idle machine (aim: under
0.3 s CPU, so that the goal holds with margin), ``agon --help`` under 0.3 s.

Reads run as they are; each write runs with its undo (``agon tournament undo``, itself a write
through the journal), so the state is the same for every run: ``player add`` + undo, ``result
enter`` of a table of round 4 + undo.  ``round start --dry-run`` (timed before round 4 starts)
runs the whole start of a round — seating, draws — and rolls it back.  For scale, the CPU time
of ``python -c "import sqlalchemy.orm"`` is printed too: the floor of every command that opens
the database.

Python compiles every module it imports unless the bytecode is cached; an installed package has
its cache (``pip`` writes it), so this script lets the children write theirs to a throwaway
``PYTHONPYCACHEPREFIX`` and runs every command once untimed first.  ``--cold`` times the first
run too (as with ``PYTHONDONTWRITEBYTECODE=1``, no cache at all).  CPU seconds are the child's
user + system time: on a shared, loaded machine they say more than wall-clock time.  Printed per
command: the median and the worst wall time and the median CPU time of N runs (default 5).

The director reads of issue 30 (``tournament list``, ``round show``, ``tournament standings``)
have a CPU goal of their own, at most 0.25 s CPU (``import sqlalchemy.orm`` alone costs more
here): their lines say "met" or "not met" against it, and the host and the load average are
printed at the start and at the end. ``python -m agon`` answers them from a SQLite database
without SQLAlchemy or click (:mod:`agon.commands.fast_reads`); each is also timed the long way,
through :func:`agon.cli.main` (click, SQLAlchemy), alternating in the same run: the peer and the
CPU ratio are printed under its line.

``--before SRC`` runs every read command and the dry run with another source tree first on
``PYTHONPATH`` too (e.g. ``--before /path/to/main/src``), alternating with this one, and prints the
CPU ratio: before and after measured in one run, under the same load.  ``--only WORDS`` times only
the commands whose line contains WORDS (e.g. ``--only "round start"``; the setup still runs).

    .venv/bin/python bench/cli_latency.py [runs] [--cold] [--before SRC] [--only WORDS]
"""

from __future__ import annotations

import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bonn-2018-sample.json"
GOAL = 0.5  # seconds wall per director command (issue 11)
HELP_GOAL = 0.3  # agon --help (issue 13)
CPU_AIM = 0.3  # seconds CPU per command: the wall goal with margin
#: Issue 30's director reads: at most this many seconds CPU each.
READ_CPU_GOAL = 0.25
DIRECTOR_READS = {("tournament", "list"), ("round", "show"), ("tournament", "standings")}
PLAYERS = 35

READS: list[tuple[str, ...]] = [
    ("--help",),
    ("tournament", "list"),
    ("tournament", "show"),
    ("player", "list"),
    ("round", "show"),
    ("result", "show", "--round", "3"),
    ("tournament", "standings"),
    ("tournament", "journal"),
    ("export",),
    ("db", "current"),
    ("standings", str(EXAMPLE)),
]
#: Run before round 4 starts: the whole start (seating, draws) computed and rolled back.
DRY_RUNS: list[tuple[str, ...]] = [("round", "start", "--dry-run")]


def event_document(seed: int = 7) -> dict[str, object]:
    """A Bonn 2018 event of :data:`PLAYERS` players and three rounds of random results."""
    rng = random.Random(seed)
    names = [f"Player {i:02d}" for i in range(PLAYERS)]
    rounds = []
    for _ in range(3):
        rng.shuffle(names)
        tables = [
            {
                "results": [
                    {"player": p, "vp": rng.randint(25, 70), "coins": rng.randint(0, 12)}
                    for p in names[i : i + 5]
                ]
            }
            for i in range(0, PLAYERS, 5)
        ]
        rounds.append({"tables": tables})
    return {
        "name": "Bench 40",
        "ruleset": "bonn-2018",
        "seed": "bench",
        "players": sorted(names),
        "rounds": rounds,
    }


#: ``agon ARGS`` the long way: click and the services, never the fast reads of agon.launch.
CLICK_PATH = "import sys\nfrom agon.cli import main\nsys.argv[0] = 'agon'\nmain()"


def run(
    args: tuple[str, ...], env: dict[str, str], *, long_way: bool = False
) -> tuple[float, float, str]:
    """One run of ``agon ARGS``: (wall seconds, CPU seconds of the child, its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    how = ["-c", CLICK_PATH] if long_way else ["-m", "agon"]
    proc = subprocess.run(
        [sys.executable, *how, *args], env=env, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"agon {' '.join(args)} failed: {proc.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def timed_read(
    args: tuple[str, ...], env: dict[str, str], runs: int, cold: bool, before: str | None = None
) -> bool:
    """Time ``agon ARGS`` (after one untimed run that warms the caches) and print the line;
    with ``before`` (a source tree) also that tree's runs, alternating, and the CPU ratio."""
    other = dict(env, PYTHONPATH=before) if before else None
    if not cold:
        run(args, env)  # warm the bytecode cache and the page cache
        if other:
            run(args, other)
    times: list[tuple[float, float]] = []
    old: list[tuple[float, float]] = []
    slow: list[tuple[float, float]] = []
    director_read = args in DIRECTOR_READS
    if director_read and not cold:
        run(args, env, long_way=True)
    for _ in range(runs):
        if other:
            old.append(run(args, other)[:2])
        if director_read:
            slow_run = run(args, env, long_way=True)
            slow.append(slow_run[:2])
        fast_run = run(args, env)
        times.append(fast_run[:2])
        if director_read and fast_run[2] != slow_run[2]:
            raise SystemExit(f"agon {' '.join(args)}: the output differs from the click path's")
    label = "agon " + " ".join(a if len(a) < 30 else Path(a).name for a in args)
    ok = report(label, times, HELP_GOAL if args == ("--help",) else GOAL)
    if director_read:
        cpu = statistics.median(t[1] for t in times)
        verdict = "met" if cpu <= READ_CPU_GOAL else "not met"
        slow_cpu = statistics.median(t[1] for t in slow)
        report(f"  the long way (click, SQLAlchemy; {cpu / slow_cpu:.2f} CPU)", slow, GOAL)
        print(
            f"  issue 30 director read: {cpu:.3f} s CPU, goal <= {READ_CPU_GOAL} s: {verdict} "
            f"(load average {os.getloadavg()[0]:.1f}, the same output both ways)"
        )
    if old:
        ratio = statistics.median(c for _, c in times) / statistics.median(c for _, c in old)
        report(f"  before ({ratio:.2f}: CPU after/before)", old, GOAL)
    return ok


def floor_run(env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of a Python that only imports SQLAlchemy's ORM."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import sqlalchemy.orm"], env=env, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def table_of_round_4(env: dict[str, str]) -> list[str]:
    """``NAME=VP,coins=C`` for every seat of table 1 of round 4."""
    doc = json.loads(run(("round", "show", "--json"), env)[2])
    table = doc["tables"][0]
    return [f"{seat}=40,coins=3" for seat in table["seats"]]


def report(label: str, times: list[tuple[float, float]], goal: float) -> bool:
    wall = statistics.median(t[0] for t in times)
    worst = max(t[0] for t in times)
    cpu = statistics.median(t[1] for t in times)
    verdict = "ok" if wall < goal else "SLOW"
    aim = "" if cpu <= CPU_AIM else f" (CPU above the {CPU_AIM} s aim)"
    print(f"{label:<44} {wall:>11.3f}s {worst:>8.3f}s {cpu:>10.3f}s  {verdict}{aim}")
    return wall < goal


def main(argv: list[str]) -> None:
    runs = int(next((a for a in argv if a.isdigit()), "5"))
    cold = "--cold" in argv
    before = argv[argv.index("--before") + 1] if "--before" in argv else None
    only = argv[argv.index("--only") + 1] if "--only" in argv else None

    def wanted(args: tuple[str, ...]) -> bool:
        return only is None or only in "agon " + " ".join(args)

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
        event = Path(tmp) / "bench.json"
        event.write_text(json.dumps(event_document()), encoding="utf-8")
        run(("import", str(event), "--slug", "bench"), env)
        run(("tournament", "use", "bench"), env)
        print(
            f"{PLAYERS} players, 3 rounds played, then round 4 started; "
            f"{runs} runs each, {'no bytecode cache' if cold else 'bytecode cached'}"
        )
        print(f"({_where()} at the start)")
        print(f"{'command':<44} {'wall median':>12} {'wall max':>9} {'CPU median':>11}  goal")
        all_ok = True
        for args in DRY_RUNS:
            if wanted(args):
                all_ok &= timed_read(args, env, runs, cold, before)
        run(("round", "start"), env)
        seats = table_of_round_4(env)
        writes: list[tuple[str, tuple[str, ...]]] = [
            ("agon player add NAME", ("player", "add", "Late Entry")),
            (
                "agon result enter -r 4 --table 1 …",
                ("result", "enter", "-r", "4", "--table", "1", *seats),
            ),
        ]
        undo = ("tournament", "undo")
        for args in READS:
            if wanted(args):
                all_ok &= timed_read(args, env, runs, cold, before)
        for label, args in writes:
            if not wanted((label,)):
                continue
            if not cold:
                run(args, env)
                run(undo, env)
            timed: list[tuple[float, float]] = []
            undone: list[tuple[float, float]] = []
            for _ in range(runs):
                timed.append(run(args, env)[:2])
                undone.append(run(undo, env)[:2])
            all_ok &= report(label, timed, GOAL)
            all_ok &= report(f"agon tournament undo (of {args[0]} {args[1]})", undone, GOAL)
        floor = [floor_run(env) for _ in range(runs)]
        report('python -c "import sqlalchemy.orm" (the floor)', floor, GOAL)
        print(
            f"(goals: < {GOAL} s wall per command, < {HELP_GOAL} s for --help, on an idle "
            f"machine; load average now {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)"
        )
        print("all within the goals" if all_ok else "some commands missed the goal (see SLOW)")
        print(f"({_where()} at the end)")


def _where() -> str:
    """The host and its load: a figure means little without them."""
    one, five, fifteen = os.getloadavg()
    return (
        f"host {platform.node()}, {os.cpu_count()} cores, "
        f"load average {one:.1f} {five:.1f} {fifteen:.1f}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
