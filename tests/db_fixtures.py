"""Database fixtures shared by the store, service and command tests: a database of its own per
test (see ``tests/store_testing.py``), on the back-ends a test package chooses."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from agon.store.db import Settings, make_engine, make_session_factory
from tests.store_testing import DatabaseFactory, shared_factory


def backend_factory(backend: str) -> DatabaseFactory:
    """The shared database factory of ``backend``. Without PostgreSQL its tests are skipped,
    except under CI (the ``CI`` environment variable set), where they fail: a CI run must not
    pass by leaving out half of the guarantees."""
    factory = shared_factory(backend)
    if factory is None:
        message = "PostgreSQL is not installed here (.ci/run installs it)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}, and CI is set: the PostgreSQL tests must run", pytrace=False)
        pytest.skip(message)
    return factory


def db_url_fixture(*backends: str) -> Callable[..., str]:
    """A ``db_url`` fixture parametrised over ``backends`` ("sqlite", "postgresql")."""

    @pytest.fixture(params=list(backends))
    def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
        return backend_factory(str(request.param)).new_url(tmp_path)

    return db_url


@pytest.fixture
def session(db_url: str) -> Iterator[Session]:
    engine = make_engine(Settings(db_url))
    with make_session_factory(engine)() as s:
        yield s
    engine.dispose()
