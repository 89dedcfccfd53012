"""Online play against a real ``agon serve`` subprocess: kill -9 and restart resume every game
exactly; every push of the event stream hides what the seat may not see; two server processes
on one PostgreSQL database push each other's moves (LISTEN/NOTIFY)."""

from __future__ import annotations

import os
import random
import signal
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from agon.store.db import Settings, make_engine, make_session_factory
from agon.web.cli import SHUTDOWN_GRACE
from tests.db_fixtures import backend_factory
from tests.play.helpers import leaks, secrets_of
from tests.play.server import EventReader, Server, running

pytestmark = pytest.mark.slow
SEED = "seed-4be1d09a"
#: A 7 Wonders table: a person and two bots.
ANN_AND_TWO_BOTS: list[dict[str, Any]] = [
    {"kind": "human", "name": "Ann"},
    {"kind": "bot", "bot": "heuristic"},
    {"kind": "bot", "bot": "random"},
]


def create(
    url: str, game: str, seats: list[dict[str, Any]], variant: str = "base"
) -> dict[str, Any]:
    r = httpx.post(
        f"{url}/api/play",
        json={"game": game, "variant": variant, "seats": seats}
        # a game with two or more people gets a seed the server draws
        | ({"seed": SEED} if sum(s["kind"] == "human" for s in seats) < 2 else {}),
        timeout=30,
    )
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def get(url: str, gid: str, token: str | None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    r = httpx.get(f"{url}/api/play/{gid}", params=params, timeout=30)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def settled(url: str, gid: str, token: str) -> dict[str, Any]:
    """Seat 0's state once it must act and nobody else is thinking (or the game is over)."""
    end = time.monotonic() + 120
    while time.monotonic() < end:
        state = get(url, gid, token)
        if state["over"] or (state["to_act"] and state["view"]["waiting_for"] == [0]):
            return state
        time.sleep(0.02)
    raise AssertionError("the bots did not finish their turn")


def play(url: str, gid: str, token: str, moves: int, rng: random.Random) -> dict[str, Any]:
    for _ in range(moves):
        state = settled(url, gid, token)
        if state["over"]:
            return state
        r = httpx.post(
            f"{url}/api/play/{gid}/act",
            timeout=30,
            json={
                "token": token,
                "action": rng.choice(state["legal"]),
                "version": state["version"],
            },
        )
        assert r.status_code == 200, r.text
    return settled(url, gid, token)


def test_kill_9_and_a_restart_resume_every_game_exactly(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'agon.db'}"
    rng = random.Random(9)
    log = tmp_path / "server.log"
    first = Server(url, log=log).start()
    try:
        seven = create(first.url, "7w", ANN_AND_TWO_BOTS)
        ocw = create(
            first.url,
            "ocw",
            [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
            variant="leaders",
        )
        g7, t7 = seven["game_id"], seven["seats"][0]["token"]
        go, to = ocw["game_id"], ocw["seats"][0]["token"]
        pushes = EventReader(f"{first.url}/api/play/{g7}/events?token={t7}")
        watcher = EventReader(f"{first.url}/api/play/{g7}/events")
        play(first.url, g7, t7, 7, rng)
        play(first.url, go, to, 15, rng)
        before = {
            "7w": settled(first.url, g7, t7),
            "7w spectator": get(first.url, g7, None),
            "ocw": settled(first.url, go, to),
            "ocw spectator": get(first.url, go, None),
        }
        assert before["7w"]["version"] > 10 and not before["7w"]["over"]
        pushes.wait_for(before["7w"]["version"])
        first.kill9()
    finally:
        first.stop()
    second = Server(url, log=log).start()
    try:
        after = {
            "7w": get(second.url, g7, t7),
            "7w spectator": get(second.url, g7, None),
            "ocw": get(second.url, go, to),
            "ocw spectator": get(second.url, go, None),
        }
        assert after == before
        again = EventReader(f"{second.url}/api/play/{g7}/events?token={t7}")
        end7 = play(second.url, g7, t7, 100, rng)
        endo = play(second.url, go, to, 2000, rng)
        assert end7["over"] and endo["over"]
        again.wait_for(end7["version"])
        for gid in (g7, go):
            r = httpx.get(f"{second.url}/api/play/{gid}/result", timeout=30)
            assert r.status_code == 200 and r.json()["scores"]
    finally:
        second.stop()
    engine = make_engine(Settings(url))
    sessions = make_session_factory(engine)
    try:
        seen = [state for _at, state in pushes.events + again.events]
        # about a push per move of Ann's 18 (the bots' answers are inside her moves' commits)
        # and the state each stream began with; a stream that lags sends only the newest
        assert len(seen) > 15
        checked = 0
        for state in seen:
            assert state["seat"] == 0
            secret = secrets_of(sessions, g7, state["version"], 0)
            assert leaks(state, secret) == [], state["version"]
            checked += len(secret) > 2
        assert checked > 10
        for _at, state in watcher.events:
            assert state["seat"] is None and "hand" not in state["view"]
            assert leaks(state, secrets_of(sessions, g7, state["version"], None)) == []
    finally:
        engine.dispose()


def test_two_server_processes_on_postgresql_push_each_others_moves(tmp_path: Path) -> None:
    url = backend_factory("postgresql").new_url(tmp_path)
    log = tmp_path / "server.log"
    with running(url, "--workers", "2", log=log) as a, running(url, log=log) as b:
        data = create(a.url, "7w", [{"kind": "human"} for _ in range(3)])
        gid = data["game_id"]
        tokens = [s["token"] for s in data["seats"]]
        on_b = EventReader(f"{b.url}/api/play/{gid}/events?token={tokens[0]}")
        on_a = EventReader(f"{a.url}/api/play/{gid}/events")
        latencies = []
        version = 0

        def legal_at_version(server: Server, seat: int) -> list[str]:
            # server a runs two workers: the one answering may not have heard the other
            # server's NOTIFY yet (a read catches up once it has), so ask until it has
            deadline = time.monotonic() + 10
            while (state := get(server.url, gid, tokens[seat]))["version"] < version:
                assert time.monotonic() < deadline, f"{server.url} stays at {state['version']}"
                time.sleep(0.02)
            assert state["version"] == version
            legal: list[str] = state["legal"]
            return legal

        # age I through both servers, alternating, each move by the next seat that must act:
        # the seed is the server's, so a Halikarnassos B may revive a card or a Babylon B play
        # its seventh one, decisions of one seat beyond the 18 card plays
        seat = -1
        age = 1
        while age == 1:
            assert version < 30, "age I does not end"
            server, reader = (a, on_b) if version % 2 == 0 else (b, on_a)
            for seat in [(seat + k) % 3 for k in range(1, 4)]:
                if legal := legal_at_version(server, seat):
                    break
            else:
                raise AssertionError(f"nobody acts at version {version}")
            sent = time.monotonic()
            r = httpx.post(
                f"{server.url}/api/play/{gid}/act",
                timeout=30,
                json={"token": tokens[seat], "action": legal[0], "version": version},
            )
            assert r.status_code == 200, r.text
            version += 1
            assert r.json()["version"] == version
            age = r.json()["view"]["age"]
            latencies.append(reader.wait_for(version) - sent)
        assert version >= 18  # six turns of three card plays at least
        # age I resolved, through both servers: age II begins everywhere (a worker of server a
        # that has not heard the last NOTIFY yet answers the version before: ask on)
        for server in (a, b):
            deadline = time.monotonic() + 10
            while (state := get(server.url, gid, None))["version"] < version:
                assert time.monotonic() < deadline, f"{server.url} stays at {state['version']}"
                time.sleep(0.02)
            view = state["view"]
            assert state["version"] == version
            assert (view["age"], view["turn"], view["pass"]) == (2, 1, "right")
        ms = sorted(1000 * x for x in latencies)
        print(
            f"\naction -> push on the other server: median {statistics.median(ms):.1f} ms, "
            f"max {ms[-1]:.1f} ms over {len(ms)} actions"
        )
        for reader in (on_a, on_b):
            assert [s["version"] for _t, s in reader.events] == sorted(
                {s["version"] for _t, s in reader.events}
            )


def test_sigterm_ends_the_server_while_an_event_stream_is_open(tmp_path: Path) -> None:
    """Ctrl-C or a service manager's SIGTERM stops ``agon serve`` even while a phone holds an
    event stream open: uvicorn's graceful shutdown waits for every open connection, and an event
    stream never ends by itself, so the wait is bounded (``SHUTDOWN_GRACE`` seconds). Without
    the bound the server was still running when the test gave up on it."""
    server = Server(f"sqlite:///{tmp_path / 'agon.db'}").start()
    try:
        game = create(server.url, "7w", ANN_AND_TWO_BOTS)
        reader = EventReader(
            f"{server.url}/api/play/{game['game_id']}/events?token={game['seats'][0]['token']}"
        )
        reader.wait_for(0)
        assert server.proc is not None
        os.killpg(server.proc.pid, signal.SIGTERM)
        try:
            code = server.proc.wait(timeout=SHUTDOWN_GRACE + 20)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                "agon serve ignored SIGTERM while an event stream was open"
            ) from None
        assert code in (0, -signal.SIGTERM)  # uvicorn re-raises the signal once it has stopped
        reader.thread.join(10)
        assert not reader.thread.is_alive()  # the stream was closed by the server
    finally:
        server.stop()
