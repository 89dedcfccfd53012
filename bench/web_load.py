"""Benchmark: phones reading the public standings of a 40-player tournament while the director
enters results (goals, issue 13: 1,000 phones p95 under 50 ms with 0 errors; 200 phones p99
under 10 ms).

The app runs in its own process, started as a director starts it (``agon serve``: one worker,
SQLite in a temporary folder), on 127.0.0.1 only. 200 clients (asyncio + httpx, one connection each) poll the standings page like phones do:
GET, then a think time (default 0.5–1.5 s, the htmx page polls every 10 s), for a fixed duration.
Meanwhile one writer enters and confirms the results of round 3 through the JSON API, table by
table, every ``--write-every`` seconds, then corrects and confirms them again round and round until
the end — each change makes the next reads recompute the page (once per journal version; the
standings themselves are kept incrementally, only the changed table is rescored).
Prints throughput and latency percentiles of the reads and of the writes, the server's CPU time
per request, the machine's load average before the run, and how late the load generator's own
event loop ran (when that is large the latencies measure the generator, not the server).
Everything is bounded: ``--seconds`` of load and at most ``--max-requests`` reads.

    python bench/web_load.py [--clients 200] [--seconds 20] [--think 1.0] [--write-every 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

PLAYERS = 40
TABLE = 5
PASSWORD = "bench-password"
SLUG = "load"


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
    request = f"GET /p/{SLUG} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept-Language: de\r\n\r\n"
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


def report(name: str, values: list[float], seconds: float) -> None:
    ms = [v * 1000 for v in values]
    if not ms:
        print(f"{name}: none completed in {seconds:.1f} s")
        return
    print(
        f"{name}: {len(ms)} requests in {seconds:.1f} s = {len(ms) / seconds:.0f}/s; "
        f"latency ms p50 {percentile(ms, 50):.1f}, p95 {percentile(ms, 95):.1f}, "
        f"p99 {percentile(ms, 99):.1f}, max {max(ms):.1f}, mean {statistics.fmean(ms):.1f}"
    )


def cpu_seconds(pid: int) -> float:
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
    args: argparse.Namespace, base: str, tables: list[list[str]], server_pid: int
) -> None:
    reads: list[float] = []
    writes: list[float] = []
    errors: list[str] = []
    budget = [args.max_requests]
    start = time.perf_counter()
    stop = start + args.seconds
    cpu0, server0 = time.process_time(), cpu_seconds(server_pid)
    load_before = os.getloadavg()[0]
    port = int(base.rsplit(":", 1)[1])
    lags: list[float] = []
    tasks = [
        asyncio.create_task(phone(port, stop, args.think, budget, reads, errors))
        for _ in range(args.clients)
    ]
    tasks.append(asyncio.create_task(loop_lag(stop, lags)))
    tables_done = await writer(base, tables, stop, args.write_every, writes)
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    client_cpu, server_cpu = time.process_time() - cpu0, cpu_seconds(server_pid) - server0
    print(
        f"{args.clients} clients, think time ~{args.think:g} s, {args.seconds:g} s; "
        f"{PLAYERS} players, round 3 of 4; {tables_done} results entered (or corrected) and "
        "confirmed meanwhile"
    )
    report("standings page reads", reads, elapsed)
    report("result writes (enter + confirm)", writes, elapsed)
    p95 = percentile([v * 1000 for v in reads], 95)
    p99 = percentile([v * 1000 for v in reads], 99)
    print(
        f"goal p95 < 50 ms: {'met' if p95 < 50 else 'NOT met'} ({p95:.1f} ms); errors: {len(errors)}"
    )
    if args.clients <= 200:
        print(f"goal at 200 phones p99 < 10 ms: {'met' if p99 < 10 else 'NOT met'} ({p99:.1f} ms)")
    print(
        f"CPU seconds: server {server_cpu:.1f} ({1000 * server_cpu / max(1, len(reads) + len(writes)):.2f} ms "
        f"per request), load generator {client_cpu:.1f}, in {elapsed:.1f} s of wall time on "
        f"{os.cpu_count()} cores (load average before: {load_before:.1f})"
    )
    lag_ms = [v * 1000 for v in lags] or [0.0]
    print(
        f"load generator's event loop late by ms: p50 {percentile(lag_ms, 50):.1f}, "
        f"p99 {percentile(lag_ms, 99):.1f}, max {max(lag_ms):.1f}"
    )
    if errors:
        print("first errors:", errors[:5])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between reads")
    parser.add_argument("--write-every", type=float, default=0.5)
    parser.add_argument("--max-requests", type=int, default=50_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'agon.db'}"
        tables = prepare(url)
        port = free_port()
        env = os.environ | {
            "AGON_DATABASE_URL": url,
            "AGON_SECRET_KEY": "bench",
            "AGON_DIRECTOR_PASSWORD": PASSWORD,
        }
        server = subprocess.Popen(
            [sys.executable, "-m", "agon", "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"{base}/p/{SLUG}", timeout=5).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.2)
            asyncio.run(run(args, base, tables, server.pid))
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
