"""Migration 0015 adds the sync tokens and the synced copies' mark (issue 29), on both back-ends:
down and up again, keeping every other table as it was."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect

from agon.services import people, sync
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.migrate import alembic_config, ensure_current


def test_migration_0015_adds_the_sync_tables_and_goes_down_cleanly(db_url: str) -> None:
    engine = make_engine(Settings(db_url))
    ensure_current(engine)
    sessions = make_session_factory(engine)
    try:
        tables = set(inspect(engine).get_table_names())
        assert {"sync_tokens", "sync_tournaments"} <= tables
        with sessions() as s:
            people.create_organisation(s, slug="fed", name="Federation")
            sync.create_token(s, organisation="fed", label="laptop")
        command.downgrade(alembic_config(engine), "0015")  # the later migrations' tables go first
        below = set(inspect(engine).get_table_names())
        command.downgrade(alembic_config(engine), "0014")
        after = set(inspect(engine).get_table_names())
        assert below - after == {"sync_tokens", "sync_tournaments"}
        command.upgrade(alembic_config(engine), "head")
        with sessions() as s:
            assert [o.slug for o in people.list_organisations(s)] == ["fed"]
            assert sync.list_tokens(s) == []  # the tokens went with their table
            sync.create_token(s, organisation="fed")
            assert len(sync.list_tokens(s)) == 1
    finally:
        engine.dispose()
