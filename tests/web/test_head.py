"""Issue 27: ``HEAD`` wherever ``GET`` works (uptime monitors use it): every GET route of the app,
taken from its route table, answers HEAD with the GET's status and headers and no body."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from fastapi.routing import iter_route_contexts

from tests.web.conftest import TestClient
from tests.web.test_play_api import create

#: A value for each path parameter the routes use (a tournament "bonn" with round 1 running).
PARAMS = {
    "slug": "bonn",
    "number": "1",
    "table": "1",
    "code": "de",
    "lang": "de",
    "kind": "sheets",
    "game": "7w",
    "variant": "base",
    "name": "nothing",
    "token": "not-a-token",
}
#: Headers that differ between two answers of the same page (time, a fresh cookie).
VARYING = {"date", "set-cookie", "etag", "last-modified", "content-length", "x-request-id"}


def get_paths(app: Any, **params: str) -> list[str]:
    """One concrete path for every route that takes GET, and a static file."""
    values = {**PARAMS, **params}
    paths = []
    for route in iter_route_contexts(app.routes):
        if route.path_format == "/static/{path}":
            paths.append("/static/app.css")
        elif "GET" in (route.methods or ()):
            path = re.sub(
                r"\{(\w+)(?::\w+)?\}", lambda m: values.get(m.group(1), "x"), route.path_format
            )
            paths.append(path)
    return paths


def compare_head_with_get(client: TestClient, paths: list[str]) -> dict[int, int]:
    statuses: dict[int, int] = {}
    for path in paths:
        if path.endswith(".pdf") or path.endswith("/events"):
            continue  # checked below on their own (a PDF is slow, a stream never ends)
        got = client.get(path, follow_redirects=False)
        head = client.head(path, follow_redirects=False)
        assert head.status_code == got.status_code, path
        assert head.content == b"", path
        assert head.headers.get("content-type") == got.headers.get("content-type"), path
        statuses[got.status_code] = statuses.get(got.status_code, 0) + 1
    return statuses


@pytest.mark.slow  # about 8 s: ~110 requests, half of them whole pages
def test_every_get_route_answers_head(app: Any, director: TestClient, bonn: str) -> None:
    paths = get_paths(app, game_id=create(director)["game_id"])
    assert len(paths) > 50 and "/healthz" in paths and "/static/app.css" in paths
    statuses = compare_head_with_get(director, paths)
    assert statuses.get(200, 0) > 30, statuses  # most of them real pages, not errors
    # the public page as a monitor sees it: its length, no body
    got, head = director.get("/p/bonn"), director.head("/p/bonn")
    assert head.headers["content-length"] == str(len(got.content)) and head.content == b""


@pytest.mark.slow
def test_head_without_a_login(app: Any, client: TestClient, bonn: str) -> None:
    statuses = compare_head_with_get(client, get_paths(app))
    assert statuses.get(303, 0) >= 8, statuses  # the desk's pages send to the login, HEAD too


def test_head_of_an_event_stream_ends(client: TestClient) -> None:
    game = create(client)
    token = game["seats"][0]["token"]
    for path in (
        f"/api/play/{game['game_id']}/events",
        f"/api/play/{game['game_id']}/events?token={token}",
    ):
        head = client.head(path)  # returns: the stream is closed once its headers are out
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-type"].startswith("text/event-stream")
    seat = client.head(game["seats"][0]["url"])  # the seat's page
    assert seat.status_code == 200 and seat.content == b""


def test_head_of_public_desk_api_and_static(director: TestClient, bonn: str) -> None:
    """The fast loop's sample of the walk above: a page of each face and a static file."""
    paths = ["/", "/p/bonn", "/p/bonn/seat", "/desk", "/desk/bonn", "/api/tournaments"]
    statuses = compare_head_with_get(director, [*paths, "/static/app.css", "/play"])
    assert statuses == {200: 8}


def test_head_through_a_real_uvicorn(app: Any, bonn: str, caplog: pytest.LogCaptureFixture) -> None:
    """uvicorn checks a HEAD's answer itself (no body, the GET's content-length): through it, not
    only through the test client. (Telling it GET made it fail every HEAD with a body.)"""
    import threading
    import time

    import httpx
    import uvicorn

    from tests.play.server import bound_socket

    sock = bound_socket()  # the port is ours from the start
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        end = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < end and thread.is_alive(), "uvicorn did not start"
            time.sleep(0.05)
        with httpx.Client(base_url=f"http://127.0.0.1:{sock.getsockname()[1]}") as client:
            for path in (
                "/p/bonn",
                "/healthz",
                "/static/app.css",
                "/desk/login",
                "/api/tournaments",
            ):
                got = client.get(path)
                head = client.head(path)
                assert (head.status_code, head.content) == (got.status_code, b""), path
                assert head.headers["content-length"] == str(len(got.content)), path
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
