"""Issue 10, defect 9: the login and PIN limits hold under 40 parallel tries, forged
``X-Forwarded-For`` headers do not make new clients, and logout ends the session on the server.

The parallel tests run the app in a real uvicorn server on 127.0.0.1 and count the checks that
were actually made (each Argon2 check costs 64 MiB with the default parameters).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy.orm import Session

from agon.web import security
from agon.web.app import LOGIN_ATTEMPTS, create_app
from agon.web.cli import UVICORN_OPTIONS
from agon.web.routes import table as table_routes
from agon.web.security import AttemptLimiter, client_address
from agon.web.settings import WebSettings
from tests.web.conftest import PASSWORD, TestClient, csrf_of

PARALLEL = 40


class Counting:
    """Wraps a function: counts its calls and makes each one slow, as a real Argon2 check is."""

    def __init__(self, inner: Callable[..., Any], delay: float = 0.05) -> None:
        self.inner = inner
        self.delay = delay
        self.calls = 0
        self._lock = threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self.calls += 1
        time.sleep(self.delay)
        return self.inner(*args, **kwargs)


class CountingHasher:
    def __init__(self, hasher: Any) -> None:
        self.hasher = hasher
        self.verify = Counting(hasher.verify)

    def hash(self, password: str) -> str:
        return str(self.hasher.hash(password))


@pytest.fixture
def server(request: pytest.FixtureRequest, settings: WebSettings) -> Iterator[str]:
    """The app served by uvicorn on a free port of 127.0.0.1; its base URL.

    ``@pytest.mark.parametrize("server", [{"trusted_proxies": ...}], indirect=True)`` changes
    the settings.
    """
    overrides = getattr(request, "param", {})
    app = create_app(settings.replace(**overrides))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, **{**UVICORN_OPTIONS, "log_level": "error"})  # as `agon serve`
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=20)
        sock.close()
        app.state.web.engine.dispose()


def parallel_tries(base: str, path: str, body: Callable[[int], dict[str, str]]) -> list[int]:
    """``PARALLEL`` clients (each its own session and a different X-Forwarded-For) at once."""
    barrier = threading.Barrier(PARALLEL)

    def one(i: int) -> int:
        with httpx.Client(base_url=base, timeout=60) as c:
            token = c.get("/api/session").json()["csrf_token"]
            headers = {"x-csrf-token": token, "x-forwarded-for": f"198.51.100.{i}"}
            barrier.wait()
            return c.post(path, json=body(i), headers=headers).status_code

    with ThreadPoolExecutor(PARALLEL) as pool:
        return list(pool.map(one, range(PARALLEL)))


def test_parallel_wrong_passwords_are_checked_at_most_limit_times(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    hasher = CountingHasher(security._HASHER)
    monkeypatch.setattr(security, "_HASHER", hasher)
    codes = parallel_tries(server, "/api/login", lambda i: {"password": f"wrong {i}"})
    print(f"\nlogin: {PARALLEL} parallel wrong passwords, {hasher.verify.calls} Argon2 checks")
    assert hasher.verify.calls <= LOGIN_ATTEMPTS
    assert codes.count(403) == hasher.verify.calls and codes.count(429) == PARALLEL - codes.count(
        403
    )
    # the same client, now with the right password, waits too: nothing was checked
    with httpx.Client(base_url=server) as c:
        token = c.get("/api/session").json()["csrf_token"]
        r = c.post("/api/login", json={"password": PASSWORD}, headers={"x-csrf-token": token})
    assert r.status_code == 429 and hasher.verify.calls <= LOGIN_ATTEMPTS


def test_parallel_wrong_pins_are_checked_at_most_limit_times(
    server: str, bonn: str, settings: WebSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    counting = Counting(table_routes.table_pin)
    monkeypatch.setattr(table_routes, "table_pin", counting)
    codes = parallel_tries(server, "/api/tables/bonn/1/1/unlock", lambda i: {"pin": f"{i:04d}x"})
    print(f"\nPIN: {PARALLEL} parallel wrong PINs, {counting.calls} PIN checks")
    assert counting.calls <= settings.pin_attempts
    assert codes.count(429) >= PARALLEL - settings.pin_attempts and 500 not in codes


@pytest.mark.parametrize("server", [{"trusted_proxies": frozenset({"127.0.0.1"})}], indirect=True)
def test_a_configured_proxy_names_the_client(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Behind a proxy the director configured, each forwarded client has a limit of its own."""
    hasher = CountingHasher(security._HASHER)
    monkeypatch.setattr(security, "_HASHER", hasher)
    codes = parallel_tries(server, "/api/login", lambda i: {"password": f"wrong {i}"})
    assert codes == [403] * PARALLEL and hasher.verify.calls == PARALLEL


def test_client_address_ignores_forwarded_headers_unless_configured() -> None:
    assert client_address("127.0.0.1", "1.2.3.4", frozenset()) == "127.0.0.1"
    assert client_address("10.0.0.9", "1.2.3.4", frozenset({"10.0.0.2"})) == "10.0.0.9"
    proxy = frozenset({"10.0.0.2"})
    assert client_address("10.0.0.2", "6.6.6.6, 1.2.3.4", proxy) == "1.2.3.4"  # spoofed hop
    assert client_address("10.0.0.2", None, proxy) == "10.0.0.2"
    assert client_address(None, None, frozenset()) == "unknown"


def test_limiter_counts_before_the_check_and_forgives_success() -> None:
    limiter = AttemptLimiter(limit=3, window_seconds=60)
    assert [limiter.reserve("k", now=1.0) for _ in range(4)] == [True, True, True, False]
    limiter.succeeded("k")  # one of the reserved tries was right: it no longer counts
    assert limiter.reserve("k", now=2.0) is True and limiter.reserve("k", now=2.0) is False
    assert limiter.reserve("k", now=61.5) is True  # the window slid past the first three
    assert limiter.reserve("other", now=2.0) is True


def _director_cookie(client: TestClient) -> str:
    token = csrf_of(client)
    r = client.post("/api/login", json={"password": PASSWORD}, headers={"x-csrf-token": token})
    assert r.json()["director"] is True
    cookie = client.cookies.get("agon_session")
    assert cookie
    return cookie


def test_a_copied_cookie_stops_working_after_logout(app: Any, bonn: str) -> None:
    with TestClient(app) as director, TestClient(app) as thief:
        stolen = _director_cookie(director)
        thief.cookies.set("agon_session", stolen)
        assert thief.get("/api/tournaments/bonn/journal").status_code == 200
        headers = {"x-csrf-token": director.get("/api/session").json()["csrf_token"]}
        assert director.post("/api/logout", headers=headers).json()["director"] is False
        assert thief.get("/api/tournaments/bonn/journal").status_code == 401
        assert thief.get("/api/session").json()["director"] is False
        page = thief.get("/desk/bonn", follow_redirects=False)
        assert page.status_code == 303 and page.headers["location"].startswith("/desk/login")


def test_desk_logout_revokes_the_session_too(app: Any, director: TestClient, bonn: str) -> None:
    stolen = director.cookies.get("agon_session")
    page = director.get("/desk/bonn").text
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    assert director.post("/desk/logout", data={"csrf_token": token}).status_code == 200
    with TestClient(app) as thief:
        thief.cookies.set("agon_session", stolen or "")
        assert thief.get("/api/tournaments/bonn/journal").status_code == 401


def test_sessions_are_kept_as_hashes(app: Any, db: Session) -> None:
    """The database holds a hash of the session id, never the id a cookie carries."""
    import base64
    import json

    from sqlalchemy import select

    from agon.store.models import Setting
    from agon.web.security import session_key

    with TestClient(app) as director:
        cookie = _director_cookie(director)
    payload = cookie.split(".")[0]
    session_id = json.loads(base64.b64decode(payload + "=" * (-len(payload) % 4)))["director"]
    rows = list(db.execute(select(Setting.key, Setting.value)))
    db.rollback()
    assert session_key(session_id) in [key for key, _ in rows]
    assert not any(session_id in key or session_id in value for key, value in rows)
    assert all(len(key) <= 64 for key, _ in rows)  # fits the column on PostgreSQL too
