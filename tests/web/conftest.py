"""Fixtures for the web app: each test gets its own SQLite database (a copy of a migrated one)."""

from __future__ import annotations

import re
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from argon2 import PasswordHasher
from sqlalchemy.orm import Session

from agon.services import players, rounds, tournaments
from agon.services.schemas import PlayerCreate, TournamentCreate
from agon.store.db import Settings, make_engine
from agon.store.migrate import upgrade
from agon.web.app import create_app
from agon.web.settings import WebSettings
from tests.store_testing import shared_factory

with warnings.catch_warnings():  # Starlette's TestClient warns that it will move to httpx2
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.web.test_browser import WorkerChromium

PASSWORD = "correct horse battery staple"
# Argon2 reads its cost from the hash: a cheap hash keeps the many logins of the tests fast.
PASSWORD_HASH = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash(PASSWORD)
SECRET = "test-secret-key"
BONN_13 = tuple(f"Player {c}" for c in "ABCDEFGHIJKLM")
BONN_TABLES = (BONN_13[:5], BONN_13[5:9], BONN_13[9:])


@pytest.fixture(scope="session")
def migrated_db() -> Path:
    """The process's migrated SQLite template (the same file the store, service and command
    tests' databases are copied from: migrated once per process, not once for them and once
    for the web tests); tests copy it, never write it."""
    factory = shared_factory("sqlite")
    assert factory is not None
    return factory.sqlite_template()


@pytest.fixture
def settings(migrated_db: Path, tmp_path: Path) -> WebSettings:
    db = tmp_path / "agon.db"
    shutil.copy(migrated_db, db)
    return WebSettings(
        database_url=f"sqlite:///{db}",
        secret_key=SECRET,
        director_password_hash=PASSWORD_HASH,
        public_url="http://agon.test",
        # rendered in the server's process: a render process per test app would cost a spawn
        # each (tests/web/test_renderproc.py turns it on)
        render_process=False,
    )


@pytest.fixture
def app(settings: WebSettings) -> Iterator[object]:
    application = create_app(settings)
    yield application
    application.state.web.engine.dispose()


@pytest.fixture
def client(app: object) -> Iterator[TestClient]:
    with TestClient(app) as c:  # type: ignore[arg-type]
        yield c


@pytest.fixture
def db(app: object) -> Iterator[Session]:
    with app.state.web.sessions() as session:  # type: ignore[attr-defined]
        yield session


def csrf_of(client: TestClient) -> str:
    token = client.get("/api/session").json()["csrf_token"]
    assert isinstance(token, str) and len(token) > 20
    return token


def form_token(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "the page has no CSRF field"
    return match.group(1)


@pytest.fixture
def director(client: TestClient) -> TestClient:
    """The client, logged in as the director."""
    token = form_token(client.get("/desk/login").text)
    r = client.post("/desk/login", data={"password": PASSWORD, "csrf_token": token})
    assert r.status_code == 200 and r.url.path == "/desk"
    return client


def make_bonn(
    session: Session,
    *,
    slug: str = "bonn",
    names: tuple[str, ...] = BONN_13,
    ruleset: str = "bonn-2018",
) -> None:
    """A tournament (Bonn 2018 unless told) with ``names`` registered, paid and checked in."""
    tournaments.create_tournament(
        session,
        data=TournamentCreate(slug=slug, name="Bonn test", ruleset=ruleset, seed="seed"),
        actor="test",
    )
    players.import_players(
        session,
        tournament=slug,
        players=[PlayerCreate(name=n, fee_paid=True) for n in names],
        actor="test",
    )
    players.check_in_players(session, tournament=slug, players=list(names), actor="test")
    session.rollback()


@pytest.fixture
def bonn(db: Session) -> str:
    """Bonn 2018, 13 players, round 1 seated by hand (5, 4, 4)."""
    make_bonn(db)
    rounds.start_round(db, tournament="bonn", actor="test", tables=[list(t) for t in BONN_TABLES])
    db.rollback()  # end the read transaction: SQLite's BEGIN IMMEDIATE would block the app
    return "bonn"


def bonn_on_postgresql(tmp_path: Path, **settings: object) -> WebSettings:
    """Settings of a new PostgreSQL database holding the Bonn tournament with round 1 started,
    for tests that run several apps (workers) on one database."""
    from agon.store.db import make_session_factory
    from tests.db_fixtures import backend_factory

    url = backend_factory("postgresql").new_url(tmp_path)
    engine = make_engine(Settings(database_url=url))
    upgrade(engine)
    with make_session_factory(engine)() as session:
        make_bonn(session)
        rounds.start_round(
            session, tournament="bonn", actor="t", tables=[list(t) for t in BONN_TABLES]
        )
    engine.dispose()
    return WebSettings(
        database_url=url,
        secret_key=SECRET,
        director_password_hash=PASSWORD_HASH,
        public_url="http://agon.test",
        **settings,  # type: ignore[arg-type]
    )


@pytest.fixture(scope="session")
def worker_chromium() -> Iterator[WorkerChromium]:
    """The test process's one Chromium, lent to each browser test module in turn (its ``browser``
    fixture): tests/web/test_browser.py, :class:`~tests.web.test_browser.WorkerChromium`."""
    from tests.web.test_browser import WorkerChromium  # Playwright only where a test needs it

    shared = WorkerChromium()
    try:
        yield shared
    finally:
        shared.close()


@pytest.fixture(scope="module")
def browser(worker_chromium: WorkerChromium) -> Iterator[Browser]:
    """The worker's Chromium for a browser test module's tests, which open contexts of their own
    in it; they are closed when the module ends."""
    with worker_chromium.lend() as b:
        yield b
