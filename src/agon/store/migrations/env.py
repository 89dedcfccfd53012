"""Alembic environment: runs online against the engine handed over in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine

from agon.store import people as _people  # noqa: F401  (its tables join the metadata)
from agon.store import profiles as _profiles  # noqa: F401  (its table joins Base.metadata)
from agon.store import registration as _registration  # noqa: F401  (its tables in Base)
from agon.store import sync as _sync  # noqa: F401  (its tables join Base.metadata)
from agon.store.db import WRITE_OPTION
from agon.store.models import Base

config = context.config
engine = config.attributes.get("engine")
if not isinstance(engine, Engine):  # pragma: no cover - only reached through the alembic CLI
    from agon.store.db import make_engine

    engine = make_engine()

with engine.connect() as connection:
    # a writer's transaction (SQLite: BEGIN IMMEDIATE): all of a migration or nothing, even if the
    # process is killed; other processes wait on agon.store.migrate's lock, not in here
    connection.execution_options(**{WRITE_OPTION: True})
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
