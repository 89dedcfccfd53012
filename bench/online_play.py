"""Online play under load (issue 12): many concurrent games against a real ``agon serve``.

Starts ``agon serve`` in a subprocess (a throwaway SQLite database unless ``--database`` names
one; ``--workers N`` needs PostgreSQL), creates ``--games`` games (default 200: 7 Wonders with 3
seats and One Card Wonder with 2, alternating), and runs one simulated person per game. The
people arrive evenly over the first ``--ramp`` seconds (default 5; 0: all at once). Each
listens to its seat's event stream (Server-Sent Events, as the browser page does) and, whenever
the pushed state says it must act, posts a random legal action of that state — after a think time
drawn uniformly from 0.5x to 1.5x ``--think`` seconds (default 1 s, i.e. 200 games offer up to
about 200 actions a second: far faster than people play 7 Wonders, where a card takes several
seconds; ``--think 5`` is closer to a real table, 0 acts at once, a stress test) — up to
``--moves`` actions per game. The other seats are heuristic bots, answering in the server.

Printed (and the goal: action -> push p95 < 100 ms, 0 errors, 0 lost actions):

* action -> push: from sending an action to receiving the push of the state it made, on the
  seat's event stream (p50, p95, p99, max);
* the action's own answer (POST .../act);
* errors (answers other than 200/201), broken event streams, and lost actions (acknowledged,
  yet not in the game's log in the database);
* pushes received per human action;
* the server's CPU seconds (all its processes) per human action — each includes the bots'
  answers to it and the pushes; creating the games is counted apart — and the client's, the wall
  time and the machine's load (on a shared machine the CPU seconds say more than the wall times);
* the server time of a full 5-player 7 Wonders game against 4 heuristic bots (goal < 5 s);
* issue 30's goals, "met" or "not met": p95 < 50 ms on the idle machine (the load it was taken
  at is printed with it) and at most 2 ms of server CPU per human action.

    .venv/bin/python bench/online_play.py                 # 200 games (the goal)
    .venv/bin/python bench/online_play.py --small         # 10 games, 5 actions each (a minute)
    .venv/bin/python bench/online_play.py [--games N] [--moves N] [--think S] [--database URL]
        [--workers N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
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
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
GOAL_P95_MS = 100.0
#: Issue 30's goals: p95 on the idle machine, server CPU per human action (a loaded machine
#: stretches the p95 far more than the CPU).
ISSUE30_P95_MS = 50.0
ISSUE30_CPU_MS = 2.0
HEAD = re.compile(rb'"version": ?(\d+)')
OVER = re.compile(rb'"over": ?true')
TO_ACT = re.compile(rb'"to_act": ?true')
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
            AGON_STREAMS_PER_ADDRESS="1000000",  # every simulated phone comes from 127.0.0.1
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
    broken: list[str] = field(default_factory=list)
    pushes: int = 0
    acked: dict[str, int] = field(default_factory=dict)
    finished: int = 0


class Connection:
    """A lean HTTP/1.1 keep-alive connection (the client shares the 2 cores with the server:
    a full HTTP client library spent more CPU than the server did)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.reader is not None and self.reader.at_eof():
            # the server closes a keep-alive connection idle for 5 s (uvicorn's default), as a
            # person thinking longer leaves it: open a new one, as a browser does
            self.close()
            self.reader = self.writer = None
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        return self.reader, self.writer

    async def send(self, method: str, path: str, body: bytes = b"") -> asyncio.StreamReader:
        """Send a request; answers the reader positioned after the status line and headers,
        with ``self.status`` and ``self.length`` (-1: chunked) set."""
        reader, writer = await self._open()
        writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        status = await reader.readline()
        if not status:
            raise ConnectionError("connection closed")
        self.status = int(status.split(b" ", 2)[1])
        self.length = -1
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                self.length = int(value)
        return reader

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        reused = self.reader is not None
        try:
            reader = await self.send(method, path, data)
        except (ConnectionError, asyncio.IncompleteReadError):
            if not reused:
                raise
            # the server closed the idle connection just as the request went out (no answer
            # came: it was not read); send it again on a new connection, as browsers do
            self.close()
            self.reader = self.writer = None
            reader = await self.send(method, path, data)
        return self.status, await reader.readexactly(self.length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def events(conn: Connection, path: str) -> AsyncIterator[bytes]:
    """The ``data:`` lines of an event stream (chunked transfer encoding)."""
    reader = await conn.send("GET", path)
    if conn.status != 200:
        raise ConnectionError(f"events {conn.status}")
    buffer = b""
    while True:
        size = int((await reader.readline()).strip(), 16)
        if size == 0:
            return
        buffer += (await reader.readexactly(size + 2))[:-2]
        while b"\n\n" in buffer:
            event, buffer = buffer.split(b"\n\n", 1)
            for line in event.split(b"\n"):
                if line.startswith(b"data: "):
                    yield line[6:]


async def create(port: int, index: int, seed: int, stats: Stats) -> tuple[str, str] | None:
    """Create game ``index`` (7 Wonders with 2 bots or One Card Wonder with 1, alternating):
    its id and the person's seat token."""
    game = "7w" if index % 2 == 0 else "ocw"
    bots = 2 if game == "7w" else 1
    body = {
        "game": game,
        "seed": f"bench-{seed}-{index}",
        "seats": [{"kind": "human", "name": "Human"}]
        + [{"kind": "bot", "bot": "heuristic"} for _ in range(bots)],
    }
    conn = Connection(port)
    try:
        status, answer = await conn.request("POST", "/api/play", body)
    finally:
        conn.close()
    if status != 201:
        stats.errors.append(f"create {status}")
        return None
    created = json.loads(answer)
    return created["game_id"], created["seats"][0]["token"]


async def human(
    port: int,
    game: tuple[str, str],
    index: int,
    moves: int,
    stats: Stats,
    think: float,
    arrive: float,
) -> None:
    """One person: arrive after ``arrive`` seconds, follow the seat's event stream, act on every
    turn."""
    gid, token = game
    await asyncio.sleep(arrive)
    actions, stream = Connection(port), Connection(port)
    try:
        rng = random.Random(index)
        stats.acked[gid] = 0
        waiting: tuple[int, float] | None = None
        done = 0
        async for line in events(stream, f"/api/play/{gid}/events?token={token}"):
            now = time.monotonic()
            stats.pushes += 1
            # the client reads only what it needs from each push (it shares the machine)
            head = HEAD.search(line)
            if head is None:
                stats.errors.append("push without a version")
                continue
            version = int(head.group(1))
            if waiting is not None and version >= waiting[0]:
                stats.latencies.append(now - waiting[1])
                waiting = None
            over = OVER.search(line) is not None
            if over or (done >= moves and waiting is None):  # the last action's push came
                stats.finished += over
                return
            if waiting is not None or TO_ACT.search(line) is None:
                continue
            state: dict[str, Any] = json.loads(line)
            if not state["to_act"]:  # the pattern also finds the cities' "to_act"
                continue
            if think > 0:  # a person reads the table before acting; the pushed state stays
                # good meanwhile (the bots' choices of the same turn do not make it stale)
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            sent = time.monotonic()
            try:
                status, answer = await actions.request(
                    "POST",
                    f"/api/play/{gid}/act",
                    {
                        "token": token,
                        "action": rng.choice(state["legal"]),
                        "version": state["version"],
                    },
                )
            except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
                stats.errors.append(f"act {type(exc).__name__}: {exc}")
                return  # this person gives up (counted as an error)
            stats.acts.append(time.monotonic() - sent)
            if status != 200:
                stats.errors.append(f"act {status}: {answer[:80]!r}")
                return  # this person gives up (counted as an error)
            done += 1
            stats.acked[gid] += 1
            head = HEAD.search(answer)
            assert head is not None
            waiting = (int(head.group(1)), sent)
        stats.broken.append("stream ended before the game")
    except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
        stats.broken.append(f"stream {type(exc).__name__}")
    finally:
        actions.close()
        stream.close()


def lost_actions(database: Path, acked: dict[str, int]) -> tuple[int, int]:
    """Acknowledged human actions missing from the log (seat 0 is the human), and the number of
    actions in the log (bots' included)."""
    with sqlite3.connect(database) as db:
        stored = dict(
            db.execute(
                "SELECT game_id, count(*) FROM play_actions WHERE seat = 0 GROUP BY game_id"
            ).fetchall()
        )
        (total,) = db.execute("SELECT count(*) FROM play_actions").fetchone()
    return sum(max(0, n - int(stored.get(gid, 0))) for gid, n in acked.items()), int(total)


def commits_counted(database: Path) -> tuple[int, int]:
    """The log's commits and entries: the group writer stamps every row of one commit with the
    same time, so distinct times are commits and distinct (game, time) pairs are entries."""
    with sqlite3.connect(database) as db:
        (commits,) = db.execute("SELECT count(DISTINCT at) FROM play_actions").fetchone()
        (entries,) = db.execute(
            "SELECT count(*) FROM (SELECT DISTINCT game_id, at FROM play_actions)"
        ).fetchone()
    return int(commits), int(entries)


async def load(
    port: int,
    games: int,
    moves: int,
    seed: int,
    think: float,
    ramp: float,
    cpu: Callable[[], float],
) -> tuple[Stats, float, float]:
    """Create the games, then play them all at once: the stats, the wall seconds of the play
    and the server's CPU seconds the creation took."""
    stats = Stats()
    cpu0 = cpu()
    made = await asyncio.gather(*(create(port, i, seed, stats) for i in range(games)))
    creation = cpu() - cpu0
    start = time.monotonic()
    # a person who hears nothing for long gives up (counted as an error): the bench ends
    patience = ramp + moves * (1.5 * think + 30) + 60

    async def person(i: int, game: tuple[str, str]) -> None:
        try:
            await asyncio.wait_for(
                human(port, game, i, moves, stats, think, ramp * i / games), patience
            )
        except TimeoutError:
            stats.errors.append(f"a person heard nothing more for {patience:.0f} s")

    await asyncio.gather(*(person(i, g) for i, g in enumerate(made) if g is not None))
    return stats, time.monotonic() - start, creation


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


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run the client on uvloop when it is installed (``agon serve`` uses it too)."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - the web extra brings it
        return asyncio.run(main)
    return uvloop.run(main)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=18, help="human actions per game at most")
    parser.add_argument(
        "--small", action="store_true", help="a quick run: 10 games, 5 human actions each"
    )
    parser.add_argument("--database", help="database URL (default: a throwaway SQLite file)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a simulated person takes before acting (0: at once)",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=5.0,
        help="seconds over which the people arrive, evenly (0: all at once, a thundering herd)",
    )
    parser.add_argument("--no-full-game", action="store_true", help="skip the 5-player game")
    args = parser.parse_args()
    if args.small:
        args.games, args.moves = 10, 5
    tmp = Path(tempfile.mkdtemp(prefix="agon-online-"))
    db_file = tmp / "agon.db"
    database = args.database or f"sqlite:///{db_file}"
    print(f"goal: {args.games} games, action -> push p95 < {GOAL_P95_MS:.0f} ms, 0 errors, 0 lost")
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
        stats, wall, creation = run(
            load(
                server.port,
                args.games,
                args.moves,
                args.seed,
                args.think,
                args.ramp,
                server.cpu,
            )
        )
        server_cpu = server.cpu() - cpu0 - creation
        client1 = resource.getrusage(resource.RUSAGE_SELF)
        client_cpu = (client1.ru_utime - client0.ru_utime) + (client1.ru_stime - client0.ru_stime)
        lost, total = lost_actions(db_file, stats.acked) if not args.database else (-1, -1)
        lat = stats.latencies
        humans = sum(stats.acked.values())
        print(
            f"{args.games} games (one simulated person each, think {0.5 * args.think:.1f}-"
            f"{1.5 * args.think:.1f} s, up to {args.moves} actions, arriving over {args.ramp:.0f} s)"
            f", {stats.finished} ended"
        )
        print(
            f"human actions: {humans} in {wall:.1f} s = {humans / wall:.1f}/s"
            + (
                f"; with the bots' {total - humans} actions: {total} in the log"
                if total >= 0
                else ""
            )
        )
        print(
            f"action -> push: p50 {pct(lat, 0.5):.1f} ms, p95 {pct(lat, 0.95):.1f} ms, "
            f"p99 {pct(lat, 0.99):.1f} ms, max {pct(lat, 1.0):.1f} ms over {len(lat)} actions"
        )
        print(
            f"the action's own answer (POST .../act): p50 {pct(stats.acts, 0.5):.1f} ms, "
            f"p95 {pct(stats.acts, 0.95):.1f} ms"
        )
        print(
            f"pushes received: {stats.pushes} ({stats.pushes / max(humans, 1):.1f} per human action)"
        )
        unheard = humans - len(lat)
        print(f"acknowledged actions whose push never came: {unheard}")
        print(f"errors: {len(stats.errors)} {sorted(set(stats.errors))[:5]}")
        print(f"broken event streams: {len(stats.broken)} {sorted(set(stats.broken))[:5]}")
        print(f"lost actions: {lost if lost >= 0 else 'not checked (not SQLite)'}")
        if not args.database:
            commits, entries = commits_counted(db_file)
            print(
                f"log: {entries} entries in {commits} commits ({entries / max(commits, 1):.2f} "
                f"entries a commit, {commits / max(humans, 1):.2f} commits per human action; "
                "the games' creation included)"
            )
        per = server_cpu / humans * 1000 if humans else float("nan")
        print(
            f"server CPU {server_cpu:.1f} s = {per:.2f} ms per human action (bots and pushes "
            f"included) = {server_cpu / wall:.2f} cores; client CPU {client_cpu:.1f} s; "
            f"wall {wall:.1f} s"
        )
        print(
            f"creating the {args.games} games took {creation:.1f} s of server CPU (not counted above)"
        )
        print(f"load after: {os.getloadavg()[0]:.1f} (1 min)")
        p95 = pct(lat, 0.95)
        met = (
            bool(lat)
            and p95 < GOAL_P95_MS
            and not stats.errors
            and not stats.broken
            and lost == 0
            and unheard == 0
        )
        print(
            f"goal (p95 < {GOAL_P95_MS:.0f} ms, 0 errors, 0 broken streams, 0 lost, every push "
            "came): "
            + ("MET" if met else "NOT MET")
            + ("" if lost >= 0 else " (lost actions not checked)")
        )
        load_now = os.getloadavg()[0]
        print(
            f"issue 30: action -> push p95 {p95:.1f} ms (goal < {ISSUE30_P95_MS:.0f} ms on the idle "
            f"machine): {'met' if lat and p95 < ISSUE30_P95_MS else 'not met'} at load {load_now:.1f}; "
            f"server CPU {per:.2f} ms per human action (goal <= {ISSUE30_CPU_MS:.0f} ms): "
            f"{'met' if per <= ISSUE30_CPU_MS else 'not met'}; host {platform.node()}"
        )
        if not args.no_full_game:
            cpu, game_wall, actions = full_game(server.url, server)
            print(
                f"5-player 7 Wonders, 4 heuristic bots: server CPU {cpu:.2f} s, wall "
                f"{game_wall:.2f} s, {actions} actions (goal < {GOAL_GAME_SECONDS:.0f} s)"
            )
        if lat:
            print(f"mean action -> push {statistics.fmean(lat) * 1000:.1f} ms")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
