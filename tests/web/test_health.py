"""Issue 27: ``/healthz`` (the process answers, no database) and ``/readyz`` (the database is
reachable and at this agon's migrations), both without a login and with HEAD."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from agon.store.migrate import package_head
from tests.web.conftest import TestClient
from tests.web.test_outage import break_connections


def test_healthz_and_readyz_answer_on_a_current_database(client: TestClient) -> None:
    health = client.get("/healthz")
    assert health.status_code == 200 and health.json() == {"status": "ok"}
    assert health.headers["cache-control"] == "no-store"
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "database": "ok", "migration": package_head()}
    assert "set-cookie" not in ready.headers  # no session is opened for a monitor
    for path in ("/healthz", "/readyz"):
        head = client.head(path)
        assert head.status_code == 200 and head.content == b""


def test_readyz_names_a_database_that_is_away(app: Any, client: TestClient) -> None:
    mend = break_connections(app)
    try:
        ready = client.get("/readyz")
        assert ready.status_code == 503
        body = ready.json()
        assert body["status"] == "unavailable" and body["database"] == "unreachable"
        assert body["problem"] == "the database cannot be reached"
        assert "unable to open" not in ready.text  # the driver's words stay in the log
        assert client.get("/healthz").status_code == 200  # the process itself is fine
    finally:
        mend()
    assert client.get("/readyz").status_code == 200  # back by itself


def test_readyz_names_migrations_that_are_not_current(app: Any, client: TestClient) -> None:
    with app.state.web.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    ready = client.get("/readyz")
    assert ready.status_code == 503
    body = ready.json()
    assert body["database"] == "ok" and body["migration"] == "0001"
    assert body["migration_expected"] == package_head()
    assert "0001" in body["problem"] and "agon db upgrade" in body["problem"]
