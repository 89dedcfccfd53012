"""Per-turn clocks on two real server processes sharing one PostgreSQL database (issue 28): both
look at the stored deadlines every tick and race to time the absent seat out; the log's hash
chain lets one of them append, so each turn's timeout is stored exactly once, followed by the
heuristic's move for the seat, and the game goes on turn after turn."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import httpx
import pytest

from agon.play.adapters import TABLE, new_adapter
from agon.play.store import actions_after, check_stored, load_game
from agon.store.db import Settings, make_engine, make_session_factory
from tests.db_fixtures import backend_factory
from tests.play.server import running

pytestmark = pytest.mark.slow
#: fast (30 s) becomes 1.5 s; both servers then look every 0.075 s
TINY_CLOCKS = {"AGON_PLAY_CLOCK_SCALE": "0.05"}


def test_two_servers_time_an_absent_seat_out_once_per_turn(tmp_path: Path) -> None:
    url = backend_factory("postgresql").new_url(tmp_path)
    log = tmp_path / "server.log"
    with (
        running(url, log=log, env=TINY_CLOCKS) as a,
        running(url, log=log, env=TINY_CLOCKS) as b,
    ):
        seats = [
            {"kind": "human", "name": "Ann"},
            {"kind": "bot", "bot": "medium"},
            {"kind": "bot", "bot": "easy"},
        ]
        r = httpx.post(f"{a.url}/api/play", json={"game": "7w", "seats": seats, "clock": "fast"})
        assert r.status_code == 201, r.text
        gid = r.json()["game_id"]
        httpx.get(f"{b.url}/api/play/{gid}", timeout=30)  # both hold the game
        end = time.monotonic() + 90
        while time.monotonic() < end:
            state = httpx.get(f"{(a, b)[int(time.monotonic()) % 2].url}/api/play/{gid}").json()
            if state["timeouts"][0] >= 4:
                break
            time.sleep(0.2)
        else:
            raise AssertionError(f"the clock did not run out 4 times: {state['timeouts']}")
        assert state["clock"]["name"] == "fast" and state["timeouts"][1:] == [0, 0]
    engine = make_engine(Settings(url))
    try:
        with make_session_factory(engine)() as session:
            assert check_stored(session, gid) is None
            setup = load_game(session, gid).setup
            entries = [(seat, action) for _seq, seat, action in actions_after(session, gid, 0)]
    finally:
        engine.dispose()
    timeouts = [i for i, e in enumerate(entries) if e == (TABLE, "timeout 0")]
    assert len(timeouts) >= 4
    assert [i for i, (seat, _a) in enumerate(entries) if seat == 0] == [i + 1 for i in timeouts]
    # the log replayed: every timeout is of a decision seat 0 had to make then; after each of
    # seat 0's moves, does it decide again alone (the seed is the server's: Babylon B's seventh
    # card or Halikarnassos' revival come after the turn, with no move of the bots between)?
    game = new_adapter(setup)
    alone_again = []
    for seat, action in entries:
        if (seat, action) == (TABLE, "timeout 0"):
            assert game.legal(0)
        game.apply(seat, action)
        if seat == 0:
            alone_again.append(bool(game.legal(0)) and not game.legal(1) and not game.legal(2))
    for k, (i, j) in enumerate(itertools.pairwise(timeouts)):  # a turn resolved between two
        assert {seat for seat, _a in entries[i:j]} >= {1, 2} or alone_again[k], entries[i:j]
    assert "Traceback" not in log.read_text()
