"""Seat connections over a real event stream (uvicorn in a thread): at a tournament table's game
the seat's stream open makes it *connected*, closing it makes it *not connected*; spectators are
not counted, nor casual games; the table and spectator pages show who is connected."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import uvicorn
from fastapi import FastAPI

from agon.play import presence
from agon.play.store import SeatSpec
from agon.services.core import utcnow
from agon.store.models import PlayPresenceRow
from agon.web.app import create_app
from agon.web.settings import WebSettings
from tests.play.helpers import wait_until
from tests.play.server import bound_socket
from tests.web.conftest import PASSWORD_HASH, TestClient

SEATS = [
    SeatSpec("human", name="Ann"),
    SeatSpec("human", name="Bea"),
    SeatSpec("bot", bot="random"),
]
#: What the tournament's game host gives a table's game (agon.services.online_host).
TABLE_META = {"tournament_table": "bonn round 1 table 1", "tournament": "bonn", "round": 1}


@contextmanager
def served(db: Path) -> Iterator[tuple[str, FastAPI]]:
    sock = bound_socket()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    app = create_app(
        WebSettings(
            database_url=f"sqlite:///{db}",
            secret_key="presence-secret",
            director_password_hash=PASSWORD_HASH,
            public_url=url,
        )
    )
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield url, app
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
        sock.close()
        app.state.web.engine.dispose()


def connected(app: FastAPI, gid: str) -> list[bool]:
    with app.state.play.sessions() as session:
        return [p.connected for p in presence.presence(session, gid, 3, utcnow())]


def seen_at(app: FastAPI, gid: str) -> datetime | None:
    with app.state.play.sessions() as session:
        row = session.get(PlayPresenceRow, (gid, 0))
        return None if row is None else row.seen_at


def test_a_seat_is_connected_while_its_event_stream_is_open(
    migrated_db: Path, tmp_path: Path
) -> None:
    db = tmp_path / "agon.db"
    shutil.copy(migrated_db, db)
    with served(db) as (url, app):
        play = app.state.play
        created = play.create_game(game="7w", seed="presence", seats=SEATS, meta=TABLE_META)
        gid, ann = created.game_id, created.seats[0].token
        casual = play.create_game(game="7w", seed="casual", seats=SEATS)
        assert connected(app, gid) == [False, False, False]
        now = [utcnow()]
        app.state.clock = lambda: now[0]
        with (
            httpx.Client(timeout=httpx.Timeout(10, read=30)) as http,
            http.stream("GET", f"{url}/api/play/{gid}/events") as watcher,
        ):
            watched = watcher.iter_lines()  # kept: a dropped iterator closes the stream
            assert next(watched).startswith("event: state")
            with http.stream("GET", f"{url}/api/play/{gid}/events?token={ann}") as seat:
                lines = seat.iter_lines()
                assert next(lines).startswith("event: state")
                wait_until(lambda: connected(app, gid) == [True, False, False], seconds=10)
                # 20 s later Ann plays: the state her stream gets renews her connection
                now[0] += timedelta(seconds=20)
                state = httpx.get(f"{url}/api/play/{gid}", params={"token": ann}).json()
                act = {"token": ann, "action": state["legal"][0], "version": state["version"]}
                assert httpx.post(f"{url}/api/play/{gid}/act", json=act).status_code == 200
                wait_until(lambda: seen_at(app, gid) == now[0], seconds=10)
                # a minute later without any sign of life the stream would count as gone
                with app.state.play.sessions() as session:
                    later = now[0] + timedelta(seconds=presence.STALE_SECONDS + 1)
                    assert not presence.seat_presence(session, gid, 0, later).connected
                board = httpx.get(f"{url}/play/{gid}/watch/board?lang=en").text
                assert "Ann</span>: connected" in board
                assert "Bea</span>: not connected" in board
            # Ann's tab closed: not connected from then on (the spectator never counted)
            wait_until(lambda: connected(app, gid) == [False, False, False], seconds=10)
            # a casual game's seats are not tracked (no writes), and its page lists nobody
            other_url = f"{url}/api/play/{casual.game_id}/events?token={casual.seats[0].token}"
            with http.stream("GET", other_url) as other:
                other_lines = other.iter_lines()
                assert next(other_lines).startswith("event: state")
                board = httpx.get(f"{url}/play/{casual.game_id}/watch/board?lang=en").text
                assert 'class="presence"' not in board
                assert connected(app, casual.game_id) == [False, False, False]
        with app.state.play.sessions() as session:
            gone = presence.seat_presence(session, gid, 0, utcnow())
        assert gone.since is not None and not gone.connected


def test_the_table_shows_bots_and_absent_players(client: TestClient) -> None:
    service = client.app.state.play  # type: ignore[attr-defined]
    created = service.create_game(game="7w", seed="presence", seats=SEATS, meta=TABLE_META)
    gid, ann = created.game_id, created.seats[0].token
    for lang, off, bot in (
        ("en", "not connected", "bot"),
        ("de", "nicht verbunden", "Bot"),
        ("it", "non connesso", "bot"),
    ):
        page = client.get(f"/play/{gid}?token={ann}&lang={lang}").text
        assert f"Bea</span>: {off}" in page and "presence-bot" in page
        assert f"</span>: {bot}</li>" in page
