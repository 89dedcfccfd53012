"""Issue 26, hostile clients: event streams are capped per client address (429 beyond), and a
seat's stream ends once its token is revoked (a bot took the seat) — in this process or in
another one that shares the database."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import httpx
import pytest

from agon.play import store
from agon.play.store import SeatSpec
from agon.web.routes import play as play_routes
from agon.web.streams import TOO_MANY
from tests.play.helpers import wait_until
from tests.web.test_play_presence import served

SEATS = [
    SeatSpec("human", name="Ann"),
    SeatSpec("human", name="Bea"),
    SeatSpec("bot", bot="random"),
]


def test_streams_beyond_the_cap_of_one_address_get_429(migrated_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "agon.db"
    shutil.copy(migrated_db, db)
    with served(db) as (url, app), httpx.Client(timeout=httpx.Timeout(10, read=30)) as http:
        app.state.streams.per_address = 3
        gid = app.state.play.create_game(game="7w", seed="cap", seats=SEATS).game_id
        events = f"{url}/api/play/{gid}/events"
        opened = [http.stream("GET", events) for _ in range(3)]
        answers = [s.__enter__() for s in opened]
        lines = [a.iter_lines() for a in answers]  # kept: a dropped iterator closes the stream
        try:
            assert [next(it).startswith("event: state") for it in lines] == [True] * 3
            refused = http.get(events)
            assert refused.status_code == 429
            assert refused.json() == {"detail": TOO_MANY}
            opened.pop().__exit__(None, None, None)  # one stream closed: room for one more
            wait_until(lambda: app.state.streams.open_streams("127.0.0.1") == 2, seconds=10)
            with http.stream("GET", events) as again:
                assert again.status_code == 200
        finally:
            for s in opened:
                s.__exit__(None, None, None)
        wait_until(lambda: app.state.streams.open_streams("127.0.0.1") == 0, seconds=10)


def _ends_revoked(lines: object) -> float:
    """Read the stream until it ends; it must have said ``event: revoked``; how long it took."""
    started = time.monotonic()
    seen = list(lines)  # type: ignore[call-overload]
    assert "event: revoked" in seen, seen[-5:]
    return time.monotonic() - started


@pytest.mark.parametrize("where", ["this process", "the database only"])
def test_a_seat_stream_ends_when_a_bot_takes_the_seat(
    migrated_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    # in this process the push of the bot's first move ends the stream (no keep-alive comes
    # within the test); a change made elsewhere is found at the next keep-alive
    keepalive = 60.0 if where == "this process" else 0.5
    monkeypatch.setattr(play_routes, "KEEPALIVE_SECONDS", keepalive)
    db = tmp_path / "agon.db"
    shutil.copy(migrated_db, db)
    with served(db) as (url, app), httpx.Client(timeout=httpx.Timeout(10, read=30)) as http:
        play = app.state.play
        created = play.create_game(game="7w", seed="revoke", seats=SEATS)
        gid, ann = created.game_id, created.seats[0].token
        with (
            http.stream("GET", f"{url}/api/play/{gid}/events") as watcher,
            http.stream("GET", f"{url}/api/play/{gid}/events?token={ann}") as seat,
        ):
            watched, lines = watcher.iter_lines(), seat.iter_lines()
            assert next(lines).startswith("event: state")
            assert next(watched).startswith("event: state")
            if where == "this process":
                play.replace_with_bot(gid, 0)
            else:  # as another worker does it: only the stored seats change
                with play.sessions() as session:
                    seats = [dict(s) for s in store.load_game(session, gid).seats]
                    seats[0].update(kind="bot", bot="random", token_hash=None)
                    store.set_seats(session, gid, seats)
            assert _ends_revoked(lines) < 5
            # the spectator's stream goes on
            assert next(watched) is not None
