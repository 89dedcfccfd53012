"""Online play under load (issue 12): many concurrent games against a real ``agon serve``.

Starts ``agon serve`` in a subprocess (a throwaway SQLite database unless ``--database`` names
one; ``--workers N`` needs PostgreSQL), creates ``--games`` games (default 200: 7 Wonders with 3
seats and One Card Wonder with 2, alternating), and runs one simulated human per game: it listens
to its seat's event stream (Server-Sent Events) and, whenever the pushed state says it must act,
posts a random legal action — after ``--think`` seconds on average (default 1: a person reads
the table first; 0 acts at once, a stress test) — up to ``--moves`` actions per game. The other seats are heuristic
bots. Printed:

* action -> push: from sending an action to receiving the push of the state it made (p50, p95);
* errors (answers other than 200/201, broken streams) and lost actions (acknowledged, yet not
  in the game's log in the database);
* the server's CPU seconds (all its processes) and the client's, and the machine's load;
* the server time of a full 5-player 7 Wonders game against 4 heuristic bots (goal < 5 s): the
  server's CPU seconds while one client plays it to the end alone.

    .venv/bin/python bench/online_play.py [--games 200] [--moves 18] [--database URL] [--workers N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
GOAL_P95_MS = 100.0
HEAD = re.compile(r'"version": (\d+)')
GOAL_GAME_SECONDS = 5.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def group_cpu(pgid: int) -> float:
    """CPU seconds (user + system) of every live process in the process group ``pgid``."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after the name: state ppid pgrp ...
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


class Server:
    def __init__(self, database: str, workers: int) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
        env.update(
            AGON_SECRET_KEY="bench-secret",
            AGON_DIRECTOR_PASSWORD="bench-password",
            AGON_PLAY_GAMES_PER_HOUR="1000000",
        )
        args = ["--workers", str(workers)] if workers > 1 else []
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agon",
                "serve",
                "--port",
                str(self.port),
                "--database",
                database,
                *args,
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        end = time.monotonic() + 120
        while True:
            try:
                if httpx.get(self.url + "/api/play/catalog/ocw", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                raise SystemExit("agon serve did not start")
            time.sleep(0.2)

    def cpu(self) -> float:
        return group_cpu(self.proc.pid)

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    acts: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acked: dict[str, int] = field(default_factory=dict)
    finished: int = 0


async def human(
    client: httpx.AsyncClient,
    url: str,
    index: int,
    moves: int,
    stats: Stats,
    seed: int,
    think: float,
) -> None:
    """One game: create it, follow the seat's event stream, act on every turn."""
    game = "7w" if index % 2 == 0 else "ocw"
    bots = 2 if game == "7w" else 1
    body = {
        "game": game,
        "seed": f"bench-{seed}-{index}",
        "seats": [{"kind": "human", "name": "Human"}]
        + [{"kind": "bot", "bot": "heuristic"} for _ in range(bots)],
    }
    r = await client.post(f"{url}/api/play", json=body)
    if r.status_code != 201:
        stats.errors.append(f"create {r.status_code}")
        return
    gid, token = r.json()["game_id"], r.json()["seats"][0]["token"]
    rng = random.Random(index)
    stats.acked[gid] = 0
    waiting: tuple[int, float] | None = None
    done = 0
    try:
        async with client.stream(
            "GET", f"{url}/api/play/{gid}/events", params={"token": token}
        ) as stream:
            async for line in stream.aiter_lines():
                if not line.startswith("data: "):
                    continue
                now = time.monotonic()
                # the client reads only what it needs from each push (it shares the machine)
                head = HEAD.search(line)
                if head is None:
                    stats.errors.append("push without a version")
                    continue
                version = int(head.group(1))
                if waiting is not None and version >= waiting[0]:
                    stats.latencies.append(now - waiting[1])
                    waiting = None
                if '"over": true' not in line and (
                    waiting is not None or '"to_act": true' not in line
                ):
                    continue
                state: dict[str, Any] = json.loads(line[6:])
                if waiting is not None and state["version"] >= waiting[0]:
                    stats.latencies.append(now - waiting[1])
                    waiting = None
                if state["over"] or done >= moves:
                    stats.finished += state["over"]
                    return
                if not state["to_act"] or waiting is not None:
                    continue
                if think > 0:  # a person reads the table before acting
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                    state = (
                        await client.get(f"{url}/api/play/{gid}", params={"token": token})
                    ).json()
                    if not state["to_act"]:
                        continue
                sent = time.monotonic()
                act = await client.post(
                    f"{url}/api/play/{gid}/act",
                    json={
                        "token": token,
                        "action": rng.choice(state["legal"]),
                        "version": state["version"],
                    },
                )
                stats.acts.append(time.monotonic() - sent)
                if act.status_code != 200:
                    stats.errors.append(f"act {act.status_code}: {act.text[:80]}")
                    continue
                done += 1
                stats.acked[gid] += 1
                waiting = (int(act.json()["version"]), sent)
    except httpx.HTTPError as exc:
        stats.errors.append(f"stream {type(exc).__name__}")


def lost_actions(database: Path, acked: dict[str, int]) -> int:
    """Acknowledged human actions missing from the log (seat 0 is the human)."""
    with sqlite3.connect(database) as db:
        stored = dict(
            db.execute(
                "SELECT game_id, count(*) FROM play_actions WHERE seat = 0 GROUP BY game_id"
            ).fetchall()
        )
    return sum(max(0, n - int(stored.get(gid, 0))) for gid, n in acked.items())


async def load(url: str, games: int, moves: int, seed: int, think: float) -> tuple[Stats, float]:
    stats = Stats()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    timeout = httpx.Timeout(60, read=None)
    async with httpx.AsyncClient(limits=limits, timeout=timeout) as client:
        start = time.monotonic()
        await asyncio.gather(
            *(human(client, url, i, moves, stats, seed, think) for i in range(games))
        )
        return stats, time.monotonic() - start


def full_game(url: str, server: Server) -> tuple[float, float, int]:
    """A 5-player 7 Wonders game, one human (random, at once) and 4 heuristic bots: the
    server's CPU seconds and the wall seconds it took, and the number of actions."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 4
    with httpx.Client(timeout=60) as client:
        cpu0, wall0 = server.cpu(), time.monotonic()
        data = client.post(f"{url}/api/play", json={"game": "7w", "seed": "five", "seats": seats})
        gid, token = data.json()["game_id"], data.json()["seats"][0]["token"]
        rng = random.Random(5)
        while True:
            state = client.get(f"{url}/api/play/{gid}", params={"token": token}).json()
            if state["over"]:
                break
            if not state["to_act"]:
                time.sleep(0.005)
                continue
            client.post(
                f"{url}/api/play/{gid}/act",
                json={
                    "token": token,
                    "action": rng.choice(state["legal"]),
                    "version": state["version"],
                },
            )
        return server.cpu() - cpu0, time.monotonic() - wall0, int(state["version"])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=18, help="human actions per game at most")
    parser.add_argument("--database", help="database URL (default: a throwaway SQLite file)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a simulated person takes before acting (0: at once)",
    )
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="agon-online-"))
    db_file = tmp / "agon.db"
    database = args.database or f"sqlite:///{db_file}"
    print(f"load before: {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores")
    server = Server(database, args.workers)
    try:
        with httpx.Client(timeout=30) as idle:
            trips = []
            for _ in range(30):
                t = time.monotonic()
                idle.get(f"{server.url}/api/play/catalog/ocw")
                trips.append(time.monotonic() - t)
        print(f"baseline: one trivial request, p50 {pct(trips, 0.5):.1f} ms (the machine's load)")
        client0 = resource.getrusage(resource.RUSAGE_SELF)
        cpu0 = server.cpu()
        stats, wall = asyncio.run(load(server.url, args.games, args.moves, args.seed, args.think))
        server_cpu = server.cpu() - cpu0
        client1 = resource.getrusage(resource.RUSAGE_SELF)
        client_cpu = (client1.ru_utime - client0.ru_utime) + (client1.ru_stime - client0.ru_stime)
        lost = lost_actions(db_file, stats.acked) if not args.database else -1
        lat = stats.latencies
        print(
            f"{args.games} games, think {args.think:.1f} s, "
            f"{sum(stats.acked.values())} human actions in {wall:.1f} s "
            f"({stats.finished} games over)"
        )
        print(
            f"action -> push: p50 {pct(lat, 0.5):.1f} ms, p95 {pct(lat, 0.95):.1f} ms, "
            f"max {pct(lat, 1.0):.1f} ms over {len(lat)} actions (goal p95 < {GOAL_P95_MS:.0f} ms)"
        )
        print(
            f"the action's own answer (POST .../act): p50 {pct(stats.acts, 0.5):.1f} ms, "
            f"p95 {pct(stats.acts, 0.95):.1f} ms"
        )
        print(f"errors: {len(stats.errors)} {sorted(set(stats.errors))[:5]}")
        print(f"lost actions: {lost if lost >= 0 else 'not checked (not SQLite)'}")
        print(f"server CPU {server_cpu:.1f} s, client CPU {client_cpu:.1f} s, wall {wall:.1f} s")
        print(f"load after: {os.getloadavg()[0]:.1f} (1 min)")
        cpu, game_wall, actions = full_game(server.url, server)
        print(
            f"5-player 7 Wonders, 4 heuristic bots: server CPU {cpu:.2f} s, wall {game_wall:.2f} s, "
            f"{actions} actions (goal < {GOAL_GAME_SECONDS:.0f} s)"
        )
        if lat:
            print(f"mean action -> push {statistics.fmean(lat) * 1000:.1f} ms")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
