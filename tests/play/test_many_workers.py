"""Several real server processes on one PostgreSQL database, with hostile clients: the same move
posted three times at once (to both servers), bots playing the other seats. Each move is stored
once, every stored log replays, every game finishes.

On the main of 2026-11-27 5 of 12 such games stored a move twice (a waiter on the game's lock
went on with a copy that held an action whose store had failed) and stalled for ever.
"""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from agon.play.store import actions_after, check_stored
from agon.store.db import Settings, make_engine, make_session_factory
from tests.db_fixtures import backend_factory
from tests.play.server import Server, running

pytestmark = pytest.mark.slow

HUMAN_AND_TWO_BOTS: list[dict[str, Any]] = [
    {"kind": "human", "name": "Ann"},
    {"kind": "bot", "bot": "heuristic"},
    {"kind": "bot", "bot": "random"},
]


def _state(client: httpx.Client, url: str, gid: str, token: str) -> dict[str, Any]:
    r = client.get(f"{url}/api/play/{gid}", params={"token": token}, timeout=60)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def play_with_double_submits(
    servers: list[Server], gid: str, token: str, seed: int, outcomes: list[int]
) -> tuple[dict[str, Any], int]:
    """Play seat 0 to the end, posting every move three times at once (to every server in turn);
    ``outcomes`` gets each post's status code."""
    rng = random.Random(seed)
    moves = 0
    acked = 0  # the version the last accepted move made
    with httpx.Client() as client:
        for _ in range(400):
            reader = servers[rng.randrange(len(servers))].url
            state = _state(client, reader, gid, token)
            if state["over"]:
                return state, moves
            # a worker that has not heard the last move's NOTIFY yet shows the state before it
            # (the seat still to act): read again, as a person's page waits for the push
            if not state["to_act"] or state["version"] < acked:
                threading.Event().wait(0.01)
                continue
            body = {
                "token": token,
                "action": rng.choice(state["legal"]),
                "version": state["version"],
            }
            targets = [servers[k % len(servers)].url for k in range(3)]
            barrier = threading.Barrier(3)

            def post(
                url: str, body: dict[str, Any] = body, barrier: threading.Barrier = barrier
            ) -> httpx.Response:
                barrier.wait()
                with httpx.Client() as c:
                    return c.post(f"{url}/api/play/{gid}/act", json=body, timeout=60)

            with ThreadPoolExecutor(3) as pool:
                answers = list(pool.map(post, targets))
            codes = [r.status_code for r in answers]
            outcomes.extend(codes)
            assert codes.count(200) == 1, (gid, body, codes, [r.text[:200] for r in answers])
            acked = next(r.json()["version"] for r in answers if r.status_code == 200)
            moves += 1
            assert all(c in (200, 409) for c in codes), codes
    raise AssertionError(f"game {gid} did not end")


def test_double_submits_on_two_servers_store_each_move_once(tmp_path: Path) -> None:
    url = backend_factory("postgresql").new_url(tmp_path)
    log = tmp_path / "server.log"
    games = 4
    with running(url, "--workers", "2", log=log) as a, running(url, log=log) as b:
        created = []
        for k in range(games):
            r = httpx.post(
                f"{(a, b)[k % 2].url}/api/play",
                json={"game": "7w", "seats": HUMAN_AND_TWO_BOTS},
                timeout=60,
            )
            assert r.status_code == 201, r.text
            created.append((r.json()["game_id"], r.json()["seats"][0]["token"]))
        outcomes: list[int] = []
        with ThreadPoolExecutor(games) as pool:
            ends = list(
                pool.map(
                    lambda k: play_with_double_submits([a, b], *created[k], k, outcomes),
                    range(games),
                )
            )
        assert all(end["over"] for end, _moves in ends)
        acked = {gid: moves for (gid, _token), (_end, moves) in zip(created, ends, strict=True)}
        assert outcomes.count(200) * 3 == len(outcomes)
        # both servers answer every game, finished, the same way
        for gid, _token in created:
            for server in (a, b):
                r = httpx.get(f"{server.url}/api/play/{gid}/result", timeout=60)
                assert r.status_code == 200, r.text
    engine = make_engine(Settings(url))
    try:
        with make_session_factory(engine)() as session:
            for gid, _token in created:
                assert check_stored(session, gid) is None, gid
                seats = [seat for _seq, seat, _a in actions_after(session, gid, 0)]
                assert seats.count(0) == acked[gid]  # each move stored once
    finally:
        engine.dispose()
    assert "Traceback" not in log.read_text()


def test_a_seat_handed_to_a_bot_elsewhere_is_refused_by_every_server(tmp_path: Path) -> None:
    """Both servers hold the game in memory; a third process hands seat 0 to a bot in the
    database (as ``agon round collect`` does without a server). Every server then refuses the
    seat's old token (before, each kept its own copy of the seats and took the token for ever),
    and the bot plays the seat to the end."""
    from agon.play import store

    url = backend_factory("postgresql").new_url(tmp_path)
    log = tmp_path / "server.log"
    with running(url, log=log) as a, running(url, log=log) as b:
        r = httpx.post(
            f"{a.url}/api/play", json={"game": "7w", "seats": HUMAN_AND_TWO_BOTS}, timeout=60
        )
        assert r.status_code == 201, r.text
        gid, token = r.json()["game_id"], r.json()["seats"][0]["token"]
        for server in (a, b):  # each loads the game, seats included
            got = httpx.get(f"{server.url}/api/play/{gid}", params={"token": token}, timeout=60)
            assert got.status_code == 200 and got.json()["seat"] == 0
        engine = make_engine(Settings(url))
        try:
            with make_session_factory(engine)() as session:
                seats = [dict(s) for s in store.load_game(session, gid).seats]
                seats[0].update(kind="bot", bot="random", token_hash=None)
                store.set_seats(session, gid, seats)
        finally:
            engine.dispose()
        deadline = time.monotonic() + 20
        refused: set[str] = set()
        while len(refused) < 2 and time.monotonic() < deadline:
            for server in (a, b):
                got = httpx.get(f"{server.url}/api/play/{gid}", params={"token": token}, timeout=60)
                if got.status_code == 403:
                    refused.add(server.url)
            time.sleep(0.05)
        assert refused == {a.url, b.url}
        while time.monotonic() < deadline + 40:
            if httpx.get(f"{a.url}/api/play/{gid}", timeout=60).json()["over"]:
                break
            time.sleep(0.1)
        assert httpx.get(f"{b.url}/api/play/{gid}", timeout=60).json()["over"]
    assert "Traceback" not in log.read_text()
