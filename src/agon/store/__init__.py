"""Persistence: SQLAlchemy 2 models, the engine/session factory and the Alembic migrations.

The tables are of two kinds: the append-only :class:`~agon.store.models.JournalEntry` log, which is
the truth, and the projection tables (tournaments, players, rounds, tables, results, sanctions),
which hold the current state and can be rebuilt from the journal at any time
(:func:`agon.services.journal.rebuild`). Nothing here knows tournament rules; the services do.
"""
