"""Alembic migrations shipped inside the package, applied on first use or by ``agon db upgrade``."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

SCRIPT_LOCATION = "agon.store:migrations"


def alembic_config(engine: Engine) -> Config:
    """An Alembic config bound to ``engine`` (no ``alembic.ini`` needed)."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["engine"] = engine
    return config


def head_revision(engine: Engine) -> str | None:
    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply the migrations up to ``revision`` (default: the newest)."""
    command.upgrade(alembic_config(engine), revision)


def ensure_current(engine: Engine) -> None:
    """Upgrade the database if it is behind the package's migrations (cheap when it is not)."""
    if current_revision(engine) != head_revision(engine):
        upgrade(engine)
