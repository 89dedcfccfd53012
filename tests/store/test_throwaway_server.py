"""The throwaway PostgreSQL server of the tests (tests/store_testing.py) runs without autovacuum:
a worker's server collects a database per test, and the autovacuum launcher visited each of them
in turn for the whole run, CPU that no test's measured cost showed (make test, issue 30)."""

from __future__ import annotations

import os
import subprocess
from typing import Any

import pytest
from sqlalchemy import text
from tests import store_testing
from tests.db_fixtures import backend_factory
from tests.store_testing import PostgresServer, initialised_cluster, postgres_bin

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


@pytest.mark.skipif(postgres_bin() is None, reason="PostgreSQL is not installed")
def test_each_throwaway_server_starts_on_its_own_copy_of_one_initdb(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``initdb`` runs once per machine (tests/store_testing.py: ``initialised_cluster``); each
    server starts on a copy of that folder, runs, and keeps its own data."""
    commands: list[list[str]] = []
    real_run = subprocess.run

    def spying_run(cmd: list[str], *args: Any, **kwargs: Any) -> Any:
        commands.append([str(c) for c in cmd])
        return real_run(cmd, *args, **kwargs)

    bindir = postgres_bin()
    assert bindir is not None
    cluster = initialised_cluster(bindir, os.geteuid() == 0)  # made here if it was not yet
    monkeypatch.setattr(store_testing.subprocess, "run", spying_run)
    first, second = PostgresServer.start(), PostgresServer.start()
    try:
        assert not [c for c in commands if any(part.endswith("/initdb") for part in c)]
        for server in (first, second):
            data = server.directory / "data"
            assert (
                data != cluster
                and (data / "PG_VERSION").read_text() == (cluster / "PG_VERSION").read_text()
            )
        engine = make_engine(Settings(first.url()))
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE only_here (n int)"))
        engine.dispose()
        for server, expected in ((first, 1), (second, 0)):
            engine = make_engine(Settings(server.url()))
            with engine.connect() as conn:
                found = conn.execute(
                    text("SELECT count(*) FROM pg_tables WHERE tablename = 'only_here'")
                ).scalar_one()
            engine.dispose()
            assert found == expected
    finally:
        first.stop()
        second.stop()
    assert not (cluster / "postmaster.pid").exists()  # the machine's folder is never started
