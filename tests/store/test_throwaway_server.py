"""The throwaway PostgreSQL server of the tests (tests/store_testing.py) runs without autovacuum:
a worker's server collects a database per test, and the autovacuum launcher visited each of them
in turn for the whole run, CPU that no test's measured cost showed (make test, issue 30)."""

from __future__ import annotations

from sqlalchemy import text
from tests.db_fixtures import backend_factory

from agon.store.db import Settings, make_engine


def test_the_shared_postgresql_server_runs_without_autovacuum_and_fsync() -> None:
    server = backend_factory("postgresql").server
    assert server is not None
    engine = make_engine(Settings(server.url()))
    try:
        with engine.connect() as conn:
            settings = {
                name: conn.execute(text(f"SHOW {name}")).scalar_one()
                for name in ("autovacuum", "fsync")
            }
    finally:
        engine.dispose()
    assert settings == {"autovacuum": "off", "fsync": "off"}
