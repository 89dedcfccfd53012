"""What the app holds while it runs: settings, database engines and session factories, caches."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, event, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from agon.store.models import JournalEntry
from agon.web.security import AttemptLimiter
from agon.web.settings import WebSettings

T = TypeVar("T")


def make_reader_engine(database_url: str, writer: Engine, busy_timeout_ms: int) -> Engine:
    """An engine for the public, read-only pages.

    The store's SQLite engine opens every transaction with ``BEGIN IMMEDIATE`` (writers never
    deadlock), which would also queue readers behind each other. In WAL mode readers need no lock:
    this engine opens plain deferred transactions, so phones reading the standings run side by side
    with the director's writes, each on a consistent snapshot. Other databases use ``writer``.
    """
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return writer
    engine = create_engine(url, connect_args={"timeout": busy_timeout_ms / 1000})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        cur.execute("PRAGMA query_only = ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN")

    return engine


class VersionedCache:
    """Values computed from a tournament's state, kept until its journal grows.

    The key carries the tournament's last journal id, which every change (an undo too) raises,
    so a cached page is never older than the data it was made from — whichever process changed it.
    """

    def __init__(self, *, max_entries: int = 512) -> None:
        self._data: dict[Hashable, Any] = {}
        self._lock = threading.Lock()
        self.max_entries = max_entries

    def get_or_make(self, key: Hashable, make: Callable[[], T]) -> T:
        with self._lock:
            if key in self._data:
                value: T = self._data[key]
                return value
        value = make()
        with self._lock:
            if len(self._data) >= self.max_entries:
                self._data.clear()
            self._data[key] = value
        return value


def journal_version(session: Session, tournament: str) -> int:
    """The tournament's last journal id (0 when it has none): changes whenever its state does."""
    return (
        session.scalar(
            select(func.max(JournalEntry.id)).where(JournalEntry.tournament == tournament)
        )
        or 0
    )


@dataclass(slots=True)
class WebState:
    """The running app's resources (one per :func:`agon.web.app.create_app`)."""

    settings: WebSettings
    engine: Engine
    sessions: sessionmaker[Session]
    readers: sessionmaker[Session]
    secret_key: str
    pin_limiter: AttemptLimiter
    login_limiter: AttemptLimiter
    cache: VersionedCache = field(default_factory=VersionedCache)
