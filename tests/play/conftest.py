"""Fixtures for online play: a migrated SQLite database per test, a PlayService over it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from agon.play.service import PlayService
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.migrate import upgrade


@pytest.fixture(scope="session")
def play_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("play-template") / "agon.db"
    engine = make_engine(Settings(database_url=f"sqlite:///{path}"))
    upgrade(engine)
    engine.dispose()
    return path


@pytest.fixture
def db_file(play_template: Path, tmp_path: Path) -> Path:
    path = tmp_path / "agon.db"
    shutil.copy(play_template, path)
    return path


@pytest.fixture
def sessions(db_file: Path) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(Settings(database_url=f"sqlite:///{db_file}"))
    yield make_session_factory(engine)
    engine.dispose()


@pytest.fixture
def service(sessions: sessionmaker[Session]) -> Iterator[PlayService]:
    svc = PlayService(sessions)
    yield svc
    svc.close()
