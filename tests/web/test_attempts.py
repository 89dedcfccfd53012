"""Issue 26, hostile clients: the login, PIN and game-creation limits are counted in the database
— one atomic UPSERT per try, on SQLite and PostgreSQL — so every worker shares them and a
restart keeps them; PIN tries are also capped per address over all tables."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, func, select

from agon.store.db import Settings, make_engine
from agon.store.migrate import upgrade
from agon.store.models import AttemptRow
from agon.web.app import LOGIN_ATTEMPTS, create_app
from agon.web.attempts import DatabaseLimiter, forget_expired
from agon.web.settings import WebSettings
from tests.db_fixtures import db_url_fixture
from tests.play.server import running
from tests.web.conftest import PASSWORD, TestClient, csrf_of

db_url = db_url_fixture("sqlite", "postgresql")


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    built = make_engine(Settings(db_url))
    upgrade(built)
    yield built
    built.dispose()


def test_a_window_counts_its_tries_and_then_starts_anew(engine: Engine) -> None:
    limiter = DatabaseLimiter(engine, "login", limit=2, window_seconds=60)
    assert [limiter.reserve("k", now=t) for t in (0, 1, 2, 59)] == [True, True, False, False]
    assert limiter.reserve("other", now=3)  # another key has a window of its own
    assert limiter.reserve("k", now=60.5) and limiter.reserve("k", now=61)
    assert not limiter.reserve("k", now=62)
    assert forget_expired(engine, now=200) == 2
    assert limiter.reserve("k", now=201)


def test_a_right_try_is_handed_back(engine: Engine) -> None:
    limiter = DatabaseLimiter(engine, "pin", limit=2, window_seconds=600)
    for _ in range(5):  # right tries never run out
        assert limiter.reserve("k")
        limiter.succeeded("k")
    assert limiter.reserve("k") and limiter.reserve("k") and not limiter.reserve("k")


def test_pin_tries_are_capped_per_address_over_all_tables(engine: Engine) -> None:
    limiter = DatabaseLimiter(engine, "pin", limit=3, window_seconds=600, per_address=5)
    tries = [
        limiter.reserve(f"1.2.3.4|table {t}", address="1.2.3.4") for t in (1, 1, 2, 2, 3, 3, 4)
    ]
    assert tries == [True] * 5 + [False] * 2  # 2 per table, but 5 over all tables
    assert limiter.reserve("5.6.7.8|table 1", address="5.6.7.8")  # another address


def test_parallel_tries_pass_the_limit_exactly(engine: Engine) -> None:
    limiter = DatabaseLimiter(engine, "login", limit=10, window_seconds=600)
    barrier = threading.Barrier(24)
    passed: list[bool] = []

    def one() -> None:
        barrier.wait()
        passed.append(limiter.reserve("venue"))

    threads = [threading.Thread(target=one) for _ in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert passed.count(True) == 10 and len(passed) == 24
    with engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(AttemptRow)) == 1


def _wrong_logins(client: TestClient, times: int) -> list[int]:
    token = csrf_of(client)
    return [
        client.post(
            "/api/login", json={"password": "wrong"}, headers={"X-CSRF-Token": token}
        ).status_code
        for _ in range(times)
    ]


def test_the_login_limit_survives_a_restart(settings: WebSettings) -> None:
    first = create_app(settings)
    with TestClient(first) as client:
        assert _wrong_logins(client, LOGIN_ATTEMPTS) == [403] * LOGIN_ATTEMPTS
    first.state.web.engine.dispose()
    again = create_app(settings)  # a restarted server, or another worker
    with TestClient(again) as client:
        assert _wrong_logins(client, 1) == [429]
        token = csrf_of(client)
        right = client.post(
            "/api/login", json={"password": PASSWORD}, headers={"X-CSRF-Token": token}
        )
        assert right.status_code == 429
    again.state.web.engine.dispose()


def test_game_creation_is_counted_across_apps(settings: WebSettings) -> None:
    limited = settings.replace(play_games_per_hour=2)
    body = {"game": "ocw", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    codes = []
    for _ in range(3):
        app = create_app(limited)
        with TestClient(app) as client:
            codes.append(client.post("/api/play", json=body).status_code)
        app.state.web.engine.dispose()
    assert codes == [201, 201, 429]


def _login_tries(url: str, times: int, client: str | None = None) -> list[int]:
    """``times`` wrong director passwords, each from a new connection; ``client``: the address
    a trusted proxy forwards (``X-Forwarded-For``), else the tries come from 127.0.0.1 itself."""
    codes = []
    forwarded = {} if client is None else {"x-forwarded-for": client}
    for _ in range(times):
        with httpx.Client(base_url=url, timeout=30, headers=forwarded) as c:
            token = c.get("/api/session").json()["csrf_token"]
            r = c.post("/api/login", json={"password": "wrong"}, headers={"x-csrf-token": token})
            codes.append(r.status_code)
    return codes


#: The servers below trust a proxy on 127.0.0.1, so one server can be tried from a second
#: client address (documentation range, RFC 5737) that never tried before.
BEHIND_A_PROXY = {"AGON_TRUSTED_PROXIES": "127.0.0.1"}


@pytest.mark.slow
def test_two_servers_on_postgresql_share_the_login_allowance_and_keep_it(
    tmp_path: Path,
) -> None:
    from tests.db_fixtures import backend_factory

    url = backend_factory("postgresql").new_url(tmp_path)
    half = LOGIN_ATTEMPTS // 2
    with running(url, env=BEHIND_A_PROXY) as a, running(url, env=BEHIND_A_PROXY) as b:
        spread = _login_tries(a.url, half) + _login_tries(b.url, LOGIN_ATTEMPTS - half)
        assert spread == [403] * LOGIN_ATTEMPTS
        assert _login_tries(a.url, 1) == [429] and _login_tries(b.url, 1) == [429]
    with running(url, env=BEHIND_A_PROXY) as restarted:
        # the allowance is not given back by a restart
        assert _login_tries(restarted.url, 1) == [429]
        # one server alone, for a client that never tried: the same total, no more
        codes = _login_tries(restarted.url, LOGIN_ATTEMPTS + 2, client="192.0.2.7")
        assert codes == [403] * LOGIN_ATTEMPTS + [429] * 2
        assert _login_tries(restarted.url, 1) == [429]  # 127.0.0.1 still waits


def test_wrong_pins_are_capped_per_address_over_all_tables(settings: WebSettings) -> None:
    from agon.services import rounds
    from tests.web.conftest import BONN_TABLES, make_bonn

    app = create_app(settings.replace(pin_attempts_per_address=5))
    with app.state.web.sessions() as db:
        make_bonn(db)
        rounds.start_round(
            db, tournament="bonn", actor="test", tables=[list(t) for t in BONN_TABLES]
        )
    with TestClient(app) as phone:
        token = csrf_of(phone)

        def wrong(table: int) -> int:
            return phone.post(
                f"/api/tables/bonn/1/{table}/unlock",
                json={"pin": "0000x"},
                headers={"X-CSRF-Token": token},
            ).status_code

        codes = [wrong(t) for t in (1, 1, 2, 2, 3, 3)]
    app.state.web.engine.dispose()
    assert codes == [403] * 5 + [429]  # 2 per table, but 5 over all tables (8 per table alone)
