"""Database fixture for the command line: the embedded SQLite default, a database per test (the
services under it are tested on SQLite and PostgreSQL in tests/services)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.testing import shared_factory


@pytest.fixture(params=["sqlite"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    factory = shared_factory(str(request.param))
    if factory is None:
        pytest.skip("PostgreSQL is not installed here (.ci/run installs it)")
    return factory.new_url(tmp_path)


@pytest.fixture
def session(db_url: str) -> Iterator[Session]:
    engine = make_engine(Settings(db_url))
    with make_session_factory(engine)() as s:
        yield s
    engine.dispose()
