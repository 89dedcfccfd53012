"""Benchmark: the journal's replay (``agon verify``'s and ``agon rebuild``'s core, issue 30).

Builds one tournament through the services, as a director would play it: 40 players imported and
checked in, sanctions, two rounds of 8 tables whose results are entered and confirmed, table 2 of
round 1 corrected ``--corrections`` times (the kill -9 test's writer), the first round closed.
Then :func:`agon.services.journal.verify` replays it ``--runs`` times in a new process and prints
the CPU seconds per replay (user + system of that process, the database server's not included)
and the wall seconds, best and median.

``--before SRC`` also runs the replays with another source tree first on ``PYTHONPATH`` (e.g. a
copy of main's ``src``), alternating with this one on the same database, and prints the ratio:
before and after measured in one run, under the same load. Both must verify the state as equal.
``--postgresql`` uses a throwaway PostgreSQL server (tests/store_testing.py) instead of SQLite.
Prints the load average (os.getloadavg()), the host, and "met"/"not met" against the goal: the
replay at most 0.8 of the ``--before`` one's CPU.

    python bench/replay.py [--runs 5] [--corrections 40] [--before SRC] [--postgresql]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

GOAL = 0.8  # the replay's CPU, as a fraction of the --before one's


def build(url: str, corrections: int) -> int:
    """The tournament ``t`` in the database at ``url``; returns its journal's length."""
    from agon.services import journal, players, results, rounds, tournaments
    from agon.services.schemas import PlayerCreate, ResultIn, TournamentCreate
    from agon.store.db import Settings, make_engine, make_session_factory
    from agon.store.migrate import upgrade

    engine = make_engine(Settings(url))
    upgrade(engine)
    session = make_session_factory(engine)()
    t0 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
    tournaments.create_tournament(
        session,
        data=TournamentCreate(slug="t", name="Bench", ruleset="bonn-2018", seed="bench"),
        actor="director",
        now=t0,
    )
    names = [f"Player {i:02d}" for i in range(1, 41)]
    players.import_players(
        session,
        tournament="t",
        players=[PlayerCreate(name=n, fee_paid=True) for n in names],
        actor="director",
        now=t0,
    )
    for name in names:  # one check-in each, as at the desk
        players.check_in_players(session, tournament="t", players=[name], actor="desk", now=t0)

    def sheet(seats: list[str], vp: int) -> list[ResultIn]:
        cats = (4, 3, 5, 6, 2, 0)
        out = []
        for i, name in enumerate(seats):
            own = vp - 3 * i
            breakdown = dict(
                zip(
                    ("military", "treasury", "wonder", "civilian", "commercial", "guilds"),
                    cats,
                    strict=True,
                )
            )
            breakdown["science"] = own - sum(cats)
            out.append(ResultIn(player=name, vp=own, coins=3, breakdown=breakdown))
        return out

    for number in (1, 2):
        order = names if number == 1 else names[::-1]
        tables = [order[i : i + 5] for i in range(0, 40, 5)]
        rounds.start_round(session, tournament="t", actor="director", tables=tables)
        for i, seats in enumerate(tables, start=1):
            done = results.enter_result(
                session,
                tournament="t",
                round_number=number,
                table=i,
                actor="writer",
                results=sheet(seats, 50 + i),
            )
            if number == 1 and i == 2:
                for c in range(corrections):
                    done = results.enter_result(
                        session,
                        tournament="t",
                        round_number=1,
                        table=2,
                        actor="writer",
                        results=sheet(seats, 60 + c % 20),
                        expected_version=done.version,
                    )
            results.confirm_result(
                session, tournament="t", actor="director", round_number=number, table=i
            )
        if number == 1:
            rounds.close_round(session, tournament="t", actor="director", number=1)
    length = len(journal.list_journal(session, tournament="t"))
    session.close()
    engine.dispose()
    return length


def measure(url: str, runs: int) -> None:
    """In a new process: replay ``t`` ``runs`` times; print ``cpu wall`` per run."""
    from agon.services import journal
    from agon.store.db import Settings, make_engine, make_session_factory

    session = make_session_factory(make_engine(Settings(url)))()
    assert journal.verify(session, tournament="t")  # warm: imports, the first connection
    for _ in range(runs):
        cpu, wall = time.process_time(), time.perf_counter()
        ok = journal.verify(session, tournament="t")
        print(f"{time.process_time() - cpu:.4f} {time.perf_counter() - wall:.4f}", flush=True)
        if not ok:
            raise SystemExit("verify: the state and the journal's replay differ")


def run(src: Path, url: str, runs: int) -> list[tuple[float, float]]:
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(
        [sys.executable, __file__, "--measure", url, "--runs", str(runs)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [(float(a), float(b)) for a, b in (line.split() for line in out.splitlines())]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3, help="alternations with --before")
    parser.add_argument("--corrections", type=int, default=40)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--postgresql", action="store_true")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.measure, args.runs)
        return
    here = Path(__file__).resolve().parents[1] / "src"
    server = None
    with tempfile.TemporaryDirectory(prefix="agon-bench-replay-") as tmp:
        if args.postgresql:
            sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
            from store_testing import PostgresServer

            server = PostgresServer.start()
            url = server.url()
        else:
            url = f"sqlite:///{tmp}/bench.db"
        try:
            load = os.getloadavg()
            length = build(url, args.corrections)
            print(f"host {platform.node()}, {os.cpu_count()} CPUs, load {load[0]:.1f}")
            print(f"{'postgresql' if server else 'sqlite'}: {length} journal entries")
            after: list[float] = []
            before: list[float] = []
            for _ in range(args.rounds if args.before else 1):
                if args.before:
                    before += [c for c, _ in run(args.before, url, args.runs)]
                after += [c for c, _ in run(here, url, args.runs)]
            load = os.getloadavg()
            print(
                f"replay (this tree): CPU best {min(after):.3f} s, median "
                f"{statistics.median(after):.3f} s"
            )
            if before:
                ratio = statistics.median(after) / statistics.median(before)
                print(
                    f"replay (--before):  CPU best {min(before):.3f} s, median "
                    f"{statistics.median(before):.3f} s"
                )
                print(
                    f"ratio {ratio:.2f} (goal <= {GOAL}): {'met' if ratio <= GOAL else 'not met'}"
                )
            print(f"load average now {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
        finally:
            if server is not None:
                server.stop()


if __name__ == "__main__":
    main()
