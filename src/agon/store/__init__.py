"""Persistence: SQLAlchemy 2 models, the engine/session factory and the Alembic migrations.

The tables are of two kinds: the append-only :class:`~agon.store.models.JournalEntry` log, which is
the truth, and the projection tables (tournaments, players, rounds, tables, results, sanctions),
which hold the current state and can be rebuilt from the journal at any time
(:func:`agon.services.journal.rebuild`). Nothing here knows tournament rules; the services do.

Modules:

- ``backup`` — ``agon db backup FILE`` / ``agon db restore FILE``: the whole database, safe while
  it is in use
- ``db`` — Settings, engine and session factories (nothing is built at import time)
- ``migrate`` — Alembic migrations shipped inside the package, applied on first use or by ``agon db
  upgrade``
- ``migrations`` — (no docstring)
- ``profiles`` — Player profiles: one person across the events of this database
- ``models`` — SQLAlchemy 2 models: the journal (the truth) and the projection tables (the current
  state)
- ``snapshot`` — A read-only look at a SQLite database with Python's own ``sqlite3``, without
  SQLAlchemy
- ``people`` — tables of people: accounts, organisations, roles, one-time links, sessions
- ``registration`` — Online registration's tables: a tournament's registration settings and its
  registrants
- ``sync`` — Tables of the sync to a hosted agon: the organisers' sync tokens and the synced copies
"""
