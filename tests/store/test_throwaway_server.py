"""The throwaway PostgreSQL server of the tests (tests/store_testing.py) runs without autovacuum:
a worker's server collects a database per test, and the autovacuum launcher visited each of them
in turn for the whole run, CPU that no test's measured cost showed (make test, issue 30)."""

from __future__ import annotations

import subprocess
import uuid
from typing import Any

import pytest
from sqlalchemy import text
from tests import store_testing
from tests.db_fixtures import backend_factory
from tests.store_testing import PostgresServer, initialised_cluster

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


def test_each_throwaway_server_starts_on_its_own_copy_of_one_initdb(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``initdb`` runs once per machine (tests/store_testing.py: ``initialised_cluster``); each
    server starts on a copy of that folder, runs, and keeps its own data: one more server beside
    the test process's shared one (both were started by ``PostgresServer.start``)."""
    shared = backend_factory("postgresql").server
    assert shared is not None
    commands: list[list[str]] = []
    real_run = subprocess.run

    def spying_run(cmd: list[str], *args: Any, **kwargs: Any) -> Any:
        commands.append([str(c) for c in cmd])
        return real_run(cmd, *args, **kwargs)

    cluster = initialised_cluster(shared.bindir, shared.as_postgres)
    monkeypatch.setattr(store_testing.subprocess, "run", spying_run)
    own = PostgresServer.start()
    try:
        assert not [c for c in commands if any(part.endswith("/initdb") for part in c)]
        folders = {shared.directory / "data", own.directory / "data"}
        assert len(folders) == 2 and cluster not in folders
        for data in folders:
            assert (data / "PG_VERSION").read_text() == (cluster / "PG_VERSION").read_text()
        name = f"only_here_{uuid.uuid4().hex[:8]}"
        engine = make_engine(Settings(own.url()))
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        engine.dispose()
        for server, expected in ((own, 1), (shared, 0)):
            engine = make_engine(Settings(server.url()))
            with engine.connect() as conn:
                found = conn.execute(
                    text("SELECT count(*) FROM pg_database WHERE datname = :n"), {"n": name}
                ).scalar_one()
            engine.dispose()
            assert found == expected, server
    finally:
        own.stop()
    assert not (cluster / "postmaster.opts").exists()  # the machine's folder never ran a server
