"""Alembic migrations shipped inside the package, applied on first use or by ``agon db upgrade``.

Every command checks the schema version, so the check must be cheap: it reads the
``alembic_version`` table with one query and compares it with the newest revision of the package,
known from the migration files' names (``NNNN_name.py`` holds revision ``"NNNN"``). Alembic itself
(a third of a second to import) is loaded only when a migration has to run.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import TYPE_CHECKING

from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from alembic.config import Config

SCRIPT_LOCATION = "agon.store:migrations"
#: A migration file's name: its revision id, then a word or two (``0002_floor.py``).
MIGRATION_FILE = re.compile(r"^(\d{4})_\w+\.py$")


def alembic_config(engine: Engine) -> Config:
    """An Alembic config bound to ``engine`` (no ``alembic.ini`` needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["engine"] = engine
    return config


def package_head() -> str:
    """The newest revision shipped with the package, from the migration files' names.

    >>> package_head() >= "0002"
    True
    """
    versions = resources.files("agon.store.migrations").joinpath("versions")
    found = [m.group(1) for f in versions.iterdir() if (m := MIGRATION_FILE.match(f.name))]
    return max(found)


def head_revision(engine: Engine) -> str | None:
    """The newest revision as Alembic computes it from the scripts' ``down_revision`` chain."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The database's revision: one read of ``alembic_version`` (``None``: not migrated yet)."""
    with engine.connect() as conn:
        try:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        except DBAPIError:  # no such table: a new database
            return None


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply the migrations up to ``revision`` (default: the newest)."""
    from alembic import command

    command.upgrade(alembic_config(engine), revision)


def ensure_current(engine: Engine) -> None:
    """Upgrade the database if it is behind the package's migrations (one query when it is not)."""
    if current_revision(engine) != package_head():
        upgrade(engine)
