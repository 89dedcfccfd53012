"""Database fixtures shared by the store, service and command tests: a database of its own per
test (see ``tests/store_testing.py``), on the back-ends a test package chooses."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from agon.store.db import Settings, make_engine, make_session_factory
from tests.store_testing import shared_factory


def db_url_fixture(*backends: str) -> Callable[..., str]:
    """A ``db_url`` fixture parametrised over ``backends`` ("sqlite", "postgresql")."""

    @pytest.fixture(params=list(backends))
    def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
        factory = shared_factory(str(request.param))
        if factory is None:
            pytest.skip("PostgreSQL is not installed here (.ci/run installs it)")
        return factory.new_url(tmp_path)

    return db_url


@pytest.fixture
def session(db_url: str) -> Iterator[Session]:
    engine = make_engine(Settings(db_url))
    with make_session_factory(engine)() as s:
        yield s
    engine.dispose()
