"""Issue 26: while the database is away the app answers 503 with ``Retry-After`` (an HTML page for
pages, JSON for the API), logs one warning per outage instead of a traceback per request, and
serves again by itself when the database is back — no restart."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, event

from agon.services import tournaments
from agon.services.schemas import TournamentCreate
from agon.store.db import OUTAGE
from agon.web.app import create_app
from agon.web.settings import WebSettings
from tests.store_testing import PostgresServer, postgres_bin
from tests.web.conftest import PASSWORD_HASH, SECRET

TestClient: Any
with __import__("warnings").catch_warnings():
    __import__("warnings").simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

#: Routes that ask the database: the API's, a tournament's public page, the start page.
API_ROUTES = ["/api/tournaments", "/api/tournaments/cup", "/api/tournaments/cup/standings"]
PAGE_ROUTES = ["/p/cup", "/"]


def create_cup(app: Any) -> None:
    with app.state.web.sessions() as session:
        tournaments.create_tournament(
            session,
            data=TournamentCreate(slug="cup", name="Cup", ruleset="bonn-2018", seed="s"),
            actor="desk",
        )


def engines(app: Any) -> list[Engine]:
    web = app.state.web
    return list({id(e): e for e in (web.engine, web.readers.kw["bind"])}.values())


def break_connections(app: Any) -> Callable[[], None]:
    """Make every new connection of the app's engines fail (and drop the pooled ones), as a
    database that went away does; returns what mends them."""

    def refuse(*_args: object) -> None:
        raise sqlite3.OperationalError("unable to open database file")

    for engine in engines(app):
        event.listen(engine, "do_connect", refuse)
        engine.dispose()

    def mend() -> None:
        for engine in engines(app):
            event.remove(engine, "do_connect", refuse)

    return mend


def assert_unavailable(client: Any) -> None:
    for path in API_ROUTES:
        r = client.get(path)
        assert r.status_code == 503, (path, r.status_code, r.text[:300])
        assert r.headers["retry-after"] == "5"
        assert r.headers["content-type"] == "application/json"
        assert "database cannot be reached" in r.json()["detail"]
    for path in PAGE_ROUTES:
        r = client.get(path, headers={"accept-language": "de"})
        assert r.status_code == 503, (path, r.status_code, r.text[:300])
        assert r.headers["retry-after"] == "5"
        assert r.headers["content-type"].startswith("text/html")
        assert "<html" in r.text and "Datenbank" in r.text


def assert_available(client: Any) -> None:
    for path in [*API_ROUTES, *PAGE_ROUTES]:
        r = client.get(path)
        assert r.status_code == 200, (path, r.status_code, r.text[:300])


@pytest.fixture
def quiet_outage() -> Iterator[None]:
    OUTAGE.recovered()
    yield
    OUTAGE.recovered()


def outage_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_failing_connections_answer_503_and_recover(
    settings: WebSettings, caplog: pytest.LogCaptureFixture, quiet_outage: None
) -> None:
    app = create_app(settings)
    create_cup(app)
    caplog.set_level(logging.WARNING)
    with TestClient(app, raise_server_exceptions=False) as client:
        assert_available(client)
        mend = break_connections(app)
        for _ in range(3):
            assert_unavailable(client)
        failed = outage_records(caplog)
        assert len(failed) == 1, [r.getMessage() for r in failed]  # one line, not one per request
        assert "cannot use the database" in failed[0].getMessage()
        assert not any(r.exc_info for r in caplog.records)  # no traceback
        mend()
        assert_available(client)  # by itself, the same app
    app.state.web.engine.dispose()


@pytest.mark.slow
@pytest.mark.skipif(postgres_bin() is None, reason="PostgreSQL is not installed")
def test_a_stopped_and_restarted_postgresql(
    caplog: pytest.LogCaptureFixture, quiet_outage: None
) -> None:
    server = PostgresServer.start()
    try:
        settings = WebSettings(
            database_url=server.url(),
            secret_key=SECRET,
            director_password_hash=PASSWORD_HASH,
            public_url="http://agon.test",
            online_sweep_seconds=0.2,
        )
        app = create_app(settings)
        create_cup(app)
        caplog.set_level(logging.WARNING)
        with TestClient(app, raise_server_exceptions=False) as client:
            assert_available(client)
            server.pause()
            for _ in range(3):
                assert_unavailable(client)
            time.sleep(1.5)  # the background loops (sweep, LISTEN) meet the outage too
            assert_unavailable(client)
            server.resume()
            deadline = time.monotonic() + 30
            while client.get(API_ROUTES[0]).status_code != 200:
                assert time.monotonic() < deadline, "no recovery within 30 s"
                time.sleep(0.2)
            assert_available(client)
            # the sweep notes the recovery at its next tick: waited for, not a fixed second (the
            # tick starts late on a loaded machine, and one not started at the end is cancelled)
            deadline = time.monotonic() + 30
            while not any("the database is back" in r.getMessage() for r in caplog.records):
                assert time.monotonic() < deadline, "the sweep did not note the recovery in 30 s"
                time.sleep(0.05)
        logged = [r.getMessage() for r in outage_records(caplog)]
        assert not any(r.exc_info for r in caplog.records), logged
        assert 1 <= sum("cannot use the database" in m for m in logged) <= 2, logged  # + LISTEN
        assert any("the database is back" in m for m in logged), logged
        app.state.web.engine.dispose()
    finally:
        server.stop()


def test_a_stream_cut_by_an_outage_ends_cleanly(quiet_outage: None) -> None:
    """A game's event stream that meets the outage mid-way is ended (the phone reconnects and
    meets the 503), not left to the server's traceback."""
    import asyncio

    from sqlalchemy.exc import OperationalError

    from agon.web.outage import DatabaseOutage

    async def streaming_app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"event: state\n\n", "more_body": True})
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        return {"type": "http.disconnect"}

    asyncio.run(DatabaseOutage(streaming_app)({"type": "http", "path": "/x"}, receive, send))
    assert [m["type"] for m in sent] == ["http.response.start", *["http.response.body"] * 2]
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
    assert OUTAGE.down


def test_a_seat_streams_presence_during_an_outage_is_one_line(
    caplog: pytest.LogCaptureFixture, quiet_outage: None
) -> None:
    """The record of a seat's connection meets the outage: the stream goes on, and the log gets
    the outage's one warning line, not a traceback per stream."""
    import asyncio
    from datetime import UTC, datetime
    from types import SimpleNamespace

    from sqlalchemy.exc import OperationalError

    from agon.web.routes.play import _tracked

    def away() -> Any:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    app = SimpleNamespace(
        state=SimpleNamespace(play=SimpleNamespace(sessions=away), clock=lambda: datetime.now(UTC))
    )

    async def chunks() -> Any:
        yield "event: state\n\n"

    async def stream() -> list[str]:
        return [c async for c in _tracked(SimpleNamespace(app=app), "g1", 0, chunks())]  # type: ignore[arg-type]

    caplog.set_level(logging.WARNING)
    assert asyncio.run(stream()) == ["event: state\n\n"]
    assert OUTAGE.down
    assert not any(r.exc_info for r in caplog.records), [r.getMessage() for r in caplog.records]
    assert sum("cannot use the database" in r.getMessage() for r in caplog.records) == 1


def test_a_tables_story_during_an_outage_is_one_line(
    caplog: pytest.LogCaptureFixture, quiet_outage: None
) -> None:
    """The table's story (told beside the game from its log) meets the outage: the table gets no
    story, and the log gets the outage's one warning line, not a traceback per page."""
    import asyncio
    from types import SimpleNamespace

    from sqlalchemy.exc import OperationalError

    from agon.web.playgate import story

    def away(_game_id: str) -> Any:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    request = SimpleNamespace(
        app=SimpleNamespace(state=SimpleNamespace(play=SimpleNamespace(log_of=away)))
    )
    caplog.set_level(logging.WARNING)
    for _ in range(3):
        assert asyncio.run(story(request, "g1")) == ()  # type: ignore[arg-type]
    assert OUTAGE.down
    assert not any(r.exc_info for r in caplog.records), [r.getMessage() for r in caplog.records]
    assert sum("cannot use the database" in r.getMessage() for r in caplog.records) == 1
