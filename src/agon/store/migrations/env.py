"""Alembic environment: runs online against the engine handed over in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine

from agon.store.models import Base

config = context.config
engine = config.attributes.get("engine")
if not isinstance(engine, Engine):  # pragma: no cover - only reached through the alembic CLI
    from agon.store.db import make_engine

    engine = make_engine()

with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
