"""What the app holds while it runs: settings, database engines and session factories, caches."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, event, func, select
from sqlalchemy.orm import Session, sessionmaker

from agon.store.db import database_url as parse_database_url
from agon.store.models import JournalEntry
from agon.tournament.incremental import StandingsKeepers
from agon.web.security import AttemptLimiter
from agon.web.sessions import DirectorSessions
from agon.web.settings import WebSettings

T = TypeVar("T")


def make_reader_engine(database_url: str, writer: Engine, busy_timeout_ms: int) -> Engine:
    """An engine for the public, read-only pages.

    The store's SQLite engine opens every transaction with ``BEGIN IMMEDIATE`` (writers never
    deadlock), which would also queue readers behind each other. In WAL mode readers need no lock:
    this engine opens plain deferred transactions, so phones reading the standings run side by side
    with the director's writes, each on a consistent snapshot. Other databases use ``writer``.
    """
    url = parse_database_url(database_url)
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
    """Values computed from a tournament's state, each kept with the version it was made from.

    The version is the tournament's last journal id, which every change (an undo too) raises,
    whichever process made it. A read with the current version gets the cached value. When the
    version moved on, one request recomputes the value while concurrent requests for the same key
    get the previous value meanwhile (stale for the time of one computation, never older) instead
    of all recomputing it at once; a request with nothing cached waits for that computation.
    """

    def __init__(self, *, max_entries: int = 512) -> None:
        self._data: dict[Hashable, tuple[int, Any]] = {}
        self._making: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()
        self.max_entries = max_entries

    def peek(self, key: Hashable, version: int) -> Any:
        """The value cached for ``key`` if it was made from ``version``, else ``None``."""
        with self._lock:
            entry = self._data.get(key)
        return entry[1] if entry is not None and entry[0] == version else None

    def get_or_make(self, key: Hashable, version: int, make: Callable[[], T]) -> T:
        with self._lock:
            entry = self._data.get(key)
            if entry is not None and entry[0] == version:
                value: T = entry[1]
                return value
            making = self._making.setdefault(key, threading.Lock())
        if not making.acquire(blocking=entry is None):
            assert entry is not None
            stale: T = entry[1]
            return stale
        try:
            with self._lock:
                entry = self._data.get(key)
            if entry is not None and entry[0] == version:
                done: T = entry[1]
                return done
            fresh = make()
            with self._lock:
                if len(self._data) >= self.max_entries:
                    self._data.clear()
                current = self._data.get(key)
                if current is None or current[0] <= version:
                    self._data[key] = (version, fresh)
            return fresh
        finally:
            making.release()


class VersionMemo:
    """The last journal version seen per tournament, trusted for ``ttl`` seconds.

    Phones poll the standings many times a second in all; asking the database for the version on
    every request would cost more than serving the cached page. Changes made through this app
    clear the memo when they commit (:func:`watch_commits`), so its own writes are seen at once;
    a change made by another process (``agon result …``) shows within ``ttl`` seconds.
    """

    def __init__(self, *, ttl: float) -> None:
        self.ttl = ttl
        self._seen: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()

    def get(self, tournament: str) -> int | None:
        with self._lock:
            seen = self._seen.get(tournament)
        if seen is None or time.monotonic() - seen[0] > self.ttl:
            return None
        return seen[1]

    def put(self, tournament: str, version: int) -> None:
        with self._lock:
            self._seen[tournament] = (time.monotonic(), version)

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()


def watch_commits(sessions: sessionmaker[Session], memo: VersionMemo) -> None:
    """Clear ``memo`` after every commit of a session made by ``sessions``."""

    @event.listens_for(sessions, "after_commit")
    def _after_commit(_session: Session) -> None:
        memo.clear()


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
    director_sessions: DirectorSessions
    cache: VersionedCache = field(default_factory=VersionedCache)
    versions: VersionMemo = field(default_factory=lambda: VersionMemo(ttl=0.5))
    #: the standings of every tournament, kept table by table (a write rescores one table)
    standings: StandingsKeepers = field(default_factory=StandingsKeepers)

    def version(self, tournament: str) -> int:
        """The tournament's journal version, from the memo when it is fresh enough."""
        known = self.versions.get(tournament)
        if known is not None:
            return known
        with self.readers() as session:
            version = journal_version(session, tournament)
        self.versions.put(tournament, version)
        return version
