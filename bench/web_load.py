"""Benchmark: phones reading the public standings of a 40-player tournament while the director
enters results, against a hello-world floor measured in the same run (goals, issue 30: 200 phones
p95 <= 2x and p99 <= 3x the floor; 1,000 phones p95 <= 3x the floor).

Two phases, one after the other, each ``--seconds`` long with the same phones:

* **floor**: a hello-world FastAPI app (``bench/web_floor.py``) served by the same uvicorn as
  ``agon serve``, no writes — what the machine, the web framework and the load generator cost;
* **agon**: the app in its own process, started as a director starts it (``agon serve``: one
  worker, SQLite in a temporary folder), on 127.0.0.1 only. Meanwhile one writer enters and
  confirms the results of round 3 through the JSON API, table by table, every ``--write-every``
  seconds, then corrects and confirms them again round and round until the end.

The phones (asyncio, one connection each, a minimal HTTP client) poll the page like phones do:
GET, then a think time (default 0.5-1.5 s, the htmx page polls every 10 s). Each phase prints
throughput and latency percentiles of the reads (and of the writes), the server's CPU time per
request, the load average before it, and how late the load generator's own event loop ran (when
that is large the latencies measure the generator, not the server). Then the ratios agon / floor
and "met" or "not met" per goal. ``--order agon-first`` swaps the phases; ``--rounds N`` repeats
the pair and reports every round (the machine is shared: compare ratios within one round).
``agon serve`` renders the pages a write changes in its render process
(:mod:`agon.web.renderproc`; its CPU counts as the server's); ``--in-server-too`` adds a phase
per round with the server rendering them itself (``AGON_RENDER_PROCESS=0``), before the agon one.
Everything is bounded: ``--seconds`` per phase and at most ``--max-requests`` reads.

    python bench/web_load.py [--phones 200] [--seconds 20] [--think 1.0] [--write-every 0.5]
    python bench/web_load.py --phones 1000
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx

PLAYERS = 40
TABLE = 5
PASSWORD = "bench-password"
#: The phase of ``--in-server-too``: agon without its render process.
IN_SERVER = "agon (rendering in the server)"
SLUG = "load"
#: What a phone sends besides the host (a German browser).
PHONE_HEADERS = {"Accept-Language": "de"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def prepare(database_url: str) -> list[list[str]]:
    """A Bonn 2018 tournament of 40 players: rounds 1 and 2 played and closed, round 3 seated."""
    from agon.services import players, results, rounds, tournaments
    from agon.services.schemas import PlayerCreate, ResultIn, TournamentCreate
    from agon.store.db import Settings, make_engine, make_session_factory
    from agon.store.migrate import upgrade

    engine = make_engine(Settings(database_url=database_url))
    upgrade(engine)
    rng = random.Random(2026)
    names = [f"Player {i:02d}" for i in range(PLAYERS)]
    with make_session_factory(engine)() as s:
        tournaments.create_tournament(
            s,
            data=TournamentCreate(slug=SLUG, name="Load test", ruleset="bonn-2018", seed="load"),
            actor="bench",
        )
        players.import_players(
            s, tournament=SLUG, players=[PlayerCreate(name=n) for n in names], actor="bench"
        )
        for n in names:
            players.check_in(s, tournament=SLUG, player=n, actor="bench")
        tables: list[list[str]] = []
        for number in (1, 2, 3):
            order = names[:]
            rng.shuffle(order)
            tables = [order[i : i + TABLE] for i in range(0, PLAYERS, TABLE)]
            rounds.start_round(s, tournament=SLUG, actor="bench", tables=tables)
            if number == 3:
                break
            for t, seats in enumerate(tables, start=1):
                results.enter_result(
                    s,
                    tournament=SLUG,
                    round_number=number,
                    table=t,
                    results=[
                        ResultIn(player=p, vp=rng.randint(30, 70), coins=rng.randint(0, 9))
                        for p in seats
                    ],
                    actor="bench",
                )
                results.confirm_result(
                    s, tournament=SLUG, round_number=number, table=t, actor="bench"
                )
            rounds.close_round(s, tournament=SLUG, number=number, actor="bench")
    engine.dispose()
    return tables


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def get(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, bytes]:
    """One HTTP/1.1 GET on a kept-alive connection: (status, body). A minimal client, so that the
    load generator spends little CPU per request (httpx spends several times the server's)."""
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    return status, await reader.readexactly(length)


async def phone(
    port: int,
    stop: float,
    think: float,
    budget: list[int],
    out: list[float],
    errors: list[str],
) -> None:
    """A phone polling the standings page over its own connection."""
    request = (
        f"GET /p/{SLUG} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        + "".join(f"{k}: {v}\r\n" for k, v in PHONE_HEADERS.items())
        + "\r\n"
    )
    await asyncio.sleep(random.uniform(0, think))  # phones do not arrive in lockstep
    conn = await asyncio.open_connection("127.0.0.1", port)
    try:
        while time.perf_counter() < stop and budget[0] > 0:
            budget[0] -= 1
            t0 = time.perf_counter()
            try:
                status, body = await get(*conn, request.encode())
                if status != 200 or b"Player" not in body:
                    errors.append(f"status {status}")
            except (OSError, asyncio.IncompleteReadError) as exc:
                errors.append(type(exc).__name__)
                conn[1].close()
                conn = await asyncio.open_connection("127.0.0.1", port)
            out.append(time.perf_counter() - t0)
            if think:
                await asyncio.sleep(random.uniform(0.5 * think, 1.5 * think))
    finally:
        conn[1].close()


async def writer(
    base: str, tables: list[list[str]], stop: float, every: float, out: list[float]
) -> int:
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        token = (await client.get("/api/session")).json()["csrf_token"]
        r = await client.post(
            "/api/login", json={"password": PASSWORD}, headers={"x-csrf-token": token}
        )
        r.raise_for_status()
        headers = {"x-csrf-token": r.json()["csrf_token"]}
        done = 0
        versions: dict[int, int] = {}
        # every table entered and confirmed, then corrected and confirmed again, round and
        # round, so that results keep changing for the whole run
        while time.perf_counter() < stop:
            t = done % len(tables) + 1
            seats = tables[t - 1]
            body: dict[str, object] = {
                "results": [
                    {"player": p, "vp": rng.randint(30, 70), "coins": rng.randint(0, 12)}
                    for p in seats
                ]
            }
            if t in versions:
                body["version"] = versions[t]
            t0 = time.perf_counter()
            r = await client.post(
                f"/api/tournaments/{SLUG}/rounds/3/tables/{t}/result", json=body, headers=headers
            )
            if r.status_code != 200:
                print("write refused:", r.status_code, r.text[:300])
            r.raise_for_status()
            out.append(time.perf_counter() - t0)
            await asyncio.sleep(min(every / 2, max(0.0, stop - time.perf_counter())))
            t0 = time.perf_counter()
            r = await client.post(
                f"/api/tournaments/{SLUG}/rounds/3/tables/{t}/confirm",
                json={"version": r.json()["version"]},
                headers=headers,
            )
            r.raise_for_status()
            versions[t] = r.json()["version"]
            out.append(time.perf_counter() - t0)
            done += 1
            await asyncio.sleep(min(every / 2, max(0.0, stop - time.perf_counter())))
        return done


#: The goals (issue 30) by number of phones: (the most phones they apply to, p95 and p99 as a
#: multiple of the floor's in the same run; None: no goal).
GOALS: list[tuple[int, float, float | None]] = [(200, 2.0, 3.0), (1_000_000, 3.0, None)]


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    reads: list[float]
    writes: list[float]
    errors: list[str]
    elapsed: float
    server_cpu: float
    client_cpu: float
    #: of ``server_cpu``: the server's child processes (the render process)
    children_cpu: float
    load_before: float
    lags: list[float]
    tables_done: int = 0

    def ms(self, q: float) -> float:
        return percentile([v * 1000 for v in self.reads], q) if self.reads else float("nan")


def report(name: str, values: list[float], seconds: float) -> None:
    ms = [v * 1000 for v in values]
    if not ms:
        print(f"  {name}: none completed in {seconds:.1f} s")
        return
    print(
        f"  {name}: {len(ms)} requests in {seconds:.1f} s = {len(ms) / seconds:.0f}/s; "
        f"latency ms p50 {percentile(ms, 50):.1f}, p95 {percentile(ms, 95):.1f}, "
        f"p99 {percentile(ms, 99):.1f}, max {max(ms):.1f}, mean {statistics.fmean(ms):.1f}"
    )


def family(pid: int) -> list[int]:
    """``pid`` and its live descendants (the server's render process; Linux /proc)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue
    return found


def cpu_seconds(pid: int, *, children_only: bool = False) -> float:
    """User + system CPU seconds of process ``pid`` and its children now alive (the render
    process renders what a write changed: its CPU is the server's)."""
    total = 0.0
    for member in family(pid)[1 if children_only else 0 :]:
        with suppress(OSError):  # ended meanwhile
            total += own_cpu_seconds(member)
    return total


def own_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def loop_lag(stop: float, out: list[float]) -> None:
    """How late the load generator's event loop wakes from a 5 ms sleep, until ``stop``."""
    while time.perf_counter() < stop:
        t0 = time.perf_counter()
        await asyncio.sleep(0.005)
        out.append(time.perf_counter() - t0 - 0.005)


async def run(
    args: argparse.Namespace,
    name: str,
    base: str,
    tables: list[list[str]] | None,
    server_pid: int,
) -> Phase:
    """One phase: the phones poll ``base`` for ``--seconds``; with ``tables``, a writer too."""
    reads: list[float] = []
    writes: list[float] = []
    errors: list[str] = []
    budget = [args.max_requests]
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    stop = start + args.seconds
    cpu0, server0 = time.process_time(), cpu_seconds(server_pid)
    children0 = cpu_seconds(server_pid, children_only=True)
    port = int(base.rsplit(":", 1)[1])
    lags: list[float] = []
    tasks = [
        asyncio.create_task(phone(port, stop, args.think, budget, reads, errors))
        for _ in range(args.phones)
    ]
    tasks.append(asyncio.create_task(loop_lag(stop, lags)))
    tables_done = 0
    if tables is not None:
        tables_done = await writer(base, tables, stop, args.write_every, writes)
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    return Phase(
        name,
        reads,
        writes,
        errors,
        elapsed,
        cpu_seconds(server_pid) - server0,
        time.process_time() - cpu0,
        cpu_seconds(server_pid, children_only=True) - children0,
        load_before,
        lags,
        tables_done,
    )


def show(phase: Phase) -> None:
    print(f"{phase.name} (load average before: {phase.load_before:.1f}):")
    report("page reads", phase.reads, phase.elapsed)
    if phase.name.startswith("agon"):
        print(
            f"  {phase.tables_done} results entered (or corrected) and confirmed meanwhile "
            f"({PLAYERS} players, round 3 of 4)"
        )
        report("result writes (enter + confirm)", phase.writes, phase.elapsed)
    requests = max(1, len(phase.reads) + len(phase.writes))
    lag_ms = [v * 1000 for v in phase.lags] or [0.0]
    print(
        f"  CPU seconds: server {phase.server_cpu:.1f} ({1000 * phase.server_cpu / requests:.2f} "
        f"ms per request; its child processes {phase.children_cpu:.1f}), load generator {phase.client_cpu:.1f}, in {phase.elapsed:.1f} s; "
        f"errors: {len(phase.errors)}" + (f" (first: {phase.errors[:5]})" if phase.errors else "")
    )
    print(
        f"  load generator's event loop late by ms: p50 {percentile(lag_ms, 50):.1f}, "
        f"p99 {percentile(lag_ms, 99):.1f}, max {max(lag_ms):.1f}"
    )


def judge(phones: int, floor: Phase, agon: Phase) -> bool:
    """Print the ratios and the goal for ``phones``; were the goals met (and no errors)?"""
    p95, p99 = agon.ms(95) / floor.ms(95), agon.ms(99) / floor.ms(99)
    print(
        f"{agon.name} / floor: p95 {agon.ms(95):.1f} / {floor.ms(95):.1f} ms = {p95:.2f}x, "
        f"p99 {agon.ms(99):.1f} / {floor.ms(99):.1f} ms = {p99:.2f}x"
    )
    _most, goal95, goal99 = next(goal for goal in GOALS if phones <= goal[0])
    met = not agon.errors and not floor.errors
    verdict = "met" if p95 <= goal95 else "not met"
    met = met and p95 <= goal95
    print(f"goal at {phones} phones: p95 <= {goal95:g}x the floor: {verdict} ({p95:.2f}x)")
    if goal99 is not None:
        verdict = "met" if p99 <= goal99 else "not met"
        met = met and p99 <= goal99
        print(f"goal at {phones} phones: p99 <= {goal99:g}x the floor: {verdict} ({p99:.2f}x)")
    if agon.errors or floor.errors:
        print("not met: errors (see above)")
    return met


def wait_until_up(base: str, path: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120  # a loaded machine starts a server slowly
    while True:
        try:
            # asked as the phones ask (their language): the page they read is rendered before
            # the phase starts, as the floor's is ready — the phases measure the steady state
            if httpx.get(f"{base}{path}", headers=PHONE_HEADERS, timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit("the server did not start")
        time.sleep(0.2)


def settled(pid: int) -> None:
    """Wait (at most 60 s) until the server and its children (the render process, started by
    the first read of the page) have used no CPU for half a second: the phase measures the
    steady state, not a process starting."""
    deadline = time.monotonic() + 60
    before = cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = cpu_seconds(pid)
        if now - before < 0.02:
            return
        before = now


@contextmanager
def floor_server() -> Iterator[tuple[str, int]]:
    """The hello-world app (``bench/web_floor.py``) under uvicorn as ``agon serve`` runs it."""
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "web_floor:app",
            "--app-dir",
            str(Path(__file__).parent),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-access-log",
            "--log-level",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, f"/p/{SLUG}", server)
        yield base, server.pid
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextmanager
def agon_server(
    tmp: str, render_process: bool = True
) -> Iterator[tuple[str, int, list[list[str]]]]:
    """``agon serve`` on a fresh SQLite database with the tournament of :func:`prepare`
    (``render_process``: ``AGON_RENDER_PROCESS``)."""
    url = f"sqlite:///{Path(tmp) / 'agon.db'}"
    tables = prepare(url)
    port = free_port()
    env = os.environ | {
        "AGON_DATABASE_URL": url,
        "AGON_SECRET_KEY": "bench",
        "AGON_DIRECTOR_PASSWORD": PASSWORD,
        "AGON_RENDER_PROCESS": "1" if render_process else "0",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "agon", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, f"/p/{SLUG}", server)
        settled(server.pid)
        yield base, server.pid, tables
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", "--clients", dest="phones", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per phase")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between reads")
    parser.add_argument("--write-every", type=float, default=0.5)
    parser.add_argument("--max-requests", type=int, default=50_000)
    parser.add_argument("--order", choices=("floor-first", "agon-first"), default="floor-first")
    parser.add_argument("--rounds", type=int, default=1, help="floor + agon pairs to run")
    parser.add_argument(
        "--in-server-too",
        action="store_true",
        help="a third phase per round: agon rendering the pages in the server "
        "(AGON_RENDER_PROCESS=0), to compare with the render process in the same run",
    )
    args = parser.parse_args()
    print(
        f"web_load: {args.phones} phones, think time ~{args.think:g} s, {args.seconds:g} s per "
        f"phase, a write every {args.write_every:g} s; host {platform.node()} "
        f"({platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}), "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load average {os.getloadavg()[0]:.1f}"
    )
    all_met = True
    for number in range(1, args.rounds + 1):
        if args.rounds > 1:
            print(f"--- round {number} of {args.rounds}")
        phases: dict[str, Phase] = {}
        order = ["floor", "agon"] if args.order == "floor-first" else ["agon", "floor"]
        if args.in_server_too:
            order.insert(order.index("agon"), IN_SERVER)
        for name in order:
            if name == "floor":
                with floor_server() as (base, pid):
                    phases[name] = asyncio.run(run(args, name, base, None, pid))
            else:
                with (
                    tempfile.TemporaryDirectory() as tmp,
                    agon_server(tmp, name != IN_SERVER) as (base, pid, tables),
                ):
                    phases[name] = asyncio.run(run(args, name, base, tables, pid))
            show(phases[name])
        if IN_SERVER in phases:
            judge(args.phones, phases["floor"], phases[IN_SERVER])
        all_met = judge(args.phones, phases["floor"], phases["agon"]) and all_met
    print(f"overall: {'met' if all_met else 'not met'}")


if __name__ == "__main__":
    main()
