"""Settings, engine and session factories (nothing is built at import time).

``AGON_DATABASE_URL`` selects the database; the default is the embedded SQLite file
``./var/agon.db``. SQLite runs in WAL mode with ``synchronous=FULL`` (a committed change survives a
power cut, not only a killed process), a busy timeout (concurrent writers wait instead of failing),
foreign keys on, and every writing transaction (:func:`begin_write`) starts with ``BEGIN IMMEDIATE``:
a writer takes the write lock up front, so two writers never deadlock upgrading a read lock, while
readers never block anyone.

Every change to a tournament first takes the tournament's exclusive write lock
(:func:`lock_tournament`) and only then gets its journal position, so the journal's order is the
order in which the changes were committed: on SQLite ``BEGIN IMMEDIATE`` already serialises all
writers; on PostgreSQL a transaction-scoped advisory lock keyed on the tournament's slug does (it
exists before the tournament's row does, so it also covers the tournament's creation).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_URL = "sqlite:///./var/agon.db"
#: Execution option that marks a transaction as a writer's (``BEGIN IMMEDIATE`` on SQLite).
WRITE_OPTION = "agon_write"


@dataclass(frozen=True, slots=True)
class Settings:
    """Where the data lives and how long SQLite waits for a busy database."""

    database_url: str = DEFAULT_URL
    busy_timeout_ms: int = 30_000


def get_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Settings from the environment (``AGON_DATABASE_URL``), read when called."""
    env = os.environ if environ is None else environ
    return Settings(database_url=env.get("AGON_DATABASE_URL") or DEFAULT_URL)


def _sqlite_connect_hooks(engine: Engine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we emit BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = FULL")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        write = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def private_file(path: Path) -> None:
    """Make the SQLite file readable by its owner only: its folder is made with mode 0700, the
    file with 0600 (SQLite gives its ``-wal`` and ``-shm`` files the same mode), and an existing
    file others can read is narrowed to 0600. The database holds personal data."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))  # an empty file: a new database
    elif path.stat().st_mode & 0o077:
        with contextlib.suppress(OSError):  # not ours to change: leave it as it is
            os.chmod(path, 0o600)


def make_engine(settings: Settings | None = None) -> Engine:
    """An engine for ``settings.database_url``; creates the SQLite file (mode 0600) and its folder
    (0700) when needed."""
    settings = settings or get_settings()
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite":
        database = url.database or ""
        if database and database != ":memory:":
            private_file(Path(database))
        engine = create_engine(url, connect_args={"timeout": settings.busy_timeout_ms / 1000})
        _sqlite_connect_hooks(engine, settings.busy_timeout_ms)
        return engine
    return create_engine(url, pool_pre_ping=True)


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions for the services (which return plain values, never ORM objects)."""
    return sessionmaker(engine)


def begin_write(session: Session) -> None:
    """End whatever read transaction the session has open and begin a writing one."""
    if session.in_transaction():
        session.rollback()
    session.connection(execution_options={WRITE_OPTION: True})


#: First key of agon's PostgreSQL advisory locks ("agon" as a signed 32-bit number); the second
#: key says which lock (a tournament's, or the migration lock :data:`MIGRATION_LOCK`).
LOCK_SPACE = int.from_bytes(b"agon", "big", signed=True)
MIGRATION_LOCK = 0


def tournament_lock_key(slug: str) -> int:
    """A stable signed 32-bit key for the tournament ``slug`` (never :data:`MIGRATION_LOCK`)."""
    digest = hashlib.blake2b(slug.encode("utf-8", "surrogatepass"), digest_size=4).digest()
    return int.from_bytes(digest, "big", signed=True) or 1


def lock_tournament(session: Session, slug: str) -> None:
    """Take the tournament's exclusive write lock for the rest of the session's transaction.

    Call it right after :func:`begin_write` and before anything is read or written: every change
    (record, undo, rebuild, and the creation of a tournament that has no row yet) takes it first,
    so a journal entry's id is given out only while its writer holds the lock and the ids follow
    the commit order. SQLite needs nothing more than its ``BEGIN IMMEDIATE``.
    """
    if session.get_bind().dialect.name == "postgresql":
        session.execute(
            text("SELECT pg_advisory_xact_lock(:space, :key)"),
            {"space": LOCK_SPACE, "key": tournament_lock_key(slug)},
        )
