"""The store: migrations apply on both databases, SQLite runs in WAL mode, settings from env."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import inspect, text

from agon.store.db import DEFAULT_URL, Settings, get_settings, make_engine
from agon.store.migrate import current_revision, ensure_current, head_revision


def test_settings_come_from_the_environment_when_asked() -> None:
    assert get_settings({}).database_url == DEFAULT_URL == "sqlite:///./var/agon.db"
    assert get_settings({"AGON_DATABASE_URL": "sqlite:///x.db"}).database_url == "sqlite:///x.db"


def test_migrated_database_has_every_table_and_is_at_head(db_url: str) -> None:
    engine = make_engine(Settings(db_url))
    names = set(inspect(engine).get_table_names())
    assert {"journal", "tournaments", "players", "rounds", "game_tables", "results"} <= names
    assert {"web_round_clocks", "web_disputes"} <= names  # migration 0002: the web app's floor
    assert current_revision(engine) == head_revision(engine) == "0002"
    engine.dispose()


def test_sqlite_file_is_created_in_wal_mode_and_migrated_on_first_use(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/var/agon.db"
    engine = make_engine(Settings(url))
    assert current_revision(engine) is None
    ensure_current(engine)
    assert current_revision(engine) == head_revision(engine)
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    assert (tmp_path / "var" / "agon.db").is_file()
    engine.dispose()


def test_migrations_match_the_models_and_downgrade_cleanly(db_url: str) -> None:
    from alembic import command
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from agon.store.migrate import alembic_config
    from agon.store.models import Base

    engine = make_engine(Settings(db_url))
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    command.downgrade(alembic_config(engine), "base")
    assert current_revision(engine) is None
    assert "journal" not in inspect(engine).get_table_names()
    ensure_current(engine)
    assert current_revision(engine) == "0002"
    engine.dispose()
