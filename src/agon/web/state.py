"""What the app holds while it runs: settings, database engines and session factories, caches."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, ParamSpec, Protocol, TypeVar

from sqlalchemy import Engine, create_engine, event, func, select
from sqlalchemy.orm import Session, sessionmaker

from agon.store.db import database_url as parse_database_url
from agon.store.models import JournalEntry
from agon.tournament.incremental import StandingsKeepers
from agon.web.security import Limiter
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
    The cache notes which keys were read, so that a write renders ahead only the pages somebody
    reads (:meth:`take_read`).
    """

    def __init__(self, *, max_entries: int = 512) -> None:
        self._data: dict[Hashable, tuple[int, Any]] = {}
        self._making: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()
        #: the keys read lately (a dict: ordered, no duplicates)
        self._read: dict[Hashable, None] = {}
        self.max_entries = max_entries

    def peek(self, key: Hashable, version: int) -> Any:
        """The value cached for ``key`` if it was made from ``version``, else ``None``."""
        with self._lock:
            entry = self._data.get(key)
            if entry is not None:
                self._read[key] = None
        return entry[1] if entry is not None and entry[0] == version else None

    def take_read(
        self, wanted: Callable[[Hashable], bool], *, older_than: int | None = None
    ) -> list[Hashable]:
        """The ``wanted`` keys read (:meth:`peek`, :meth:`get_or_make`) since the last call that
        returned them, in the order they were first read; they count as unread again.
        ``older_than``: only those whose value was made from an earlier version (or is
        missing); the others stay noted as read."""
        with self._lock:
            found = [
                key
                for key in self._read
                if wanted(key)
                and (
                    older_than is None
                    or (entry := self._data.get(key)) is None
                    or entry[0] < older_than
                )
            ]
            for key in found:
                del self._read[key]
        return found

    def clear(self) -> None:
        """Forget every value (each is made again on its next read)."""
        with self._lock:
            self._data.clear()
            self._read.clear()

    def get_or_make(
        self, key: Hashable, version: int, make: Callable[[], T], *, ahead: bool = False
    ) -> T:
        """The value for ``key`` made from ``version`` (see the class); ``ahead``: made before
        anyone asks (it does not count as read, :meth:`take_read`)."""
        with self._lock:
            entry = self._data.get(key)
            if not ahead and entry is not None:
                self._read[key] = None
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
                    self._read.clear()
                current = self._data.get(key)
                if current is None or current[0] <= version:
                    self._data[key] = (version, fresh)
                if not ahead:
                    self._read[key] = None
            return fresh
        finally:
            making.release()


class VersionMemo:
    """The last journal version seen per tournament, trusted for ``ttl`` seconds.

    Phones poll the standings many times a second in all; asking the database for the version on
    every request would cost more than serving the cached page. Changes made through this app
    clear the memo when they commit (:func:`watch_commits`), so its own writes are seen at once;
    a change made by another process (``agon result …``) shows within ``ttl`` seconds. The server
    asks the database again for the tournaments read lately before their entries expire
    (:func:`agon.web.routes.public.refresh_versions`), so the phones' reads need not.
    """

    def __init__(self, *, ttl: float, max_entries: int = 4096) -> None:
        self.ttl = ttl
        self.max_entries = max_entries
        self._seen: dict[str, tuple[float, int]] = {}
        #: when each known tournament was last asked for
        self._asked: dict[str, float] = {}
        self._lock = threading.Lock()

    def get(self, tournament: str) -> int | None:
        now = time.monotonic()
        with self._lock:
            seen = self._seen.get(tournament)
            if seen is not None:
                self._asked[tournament] = now
        if seen is None or now - seen[0] > self.ttl:
            return None
        return seen[1]

    def known(self, tournament: str) -> int | None:
        """The last version seen, however old (``None``: never seen)."""
        with self._lock:
            seen = self._seen.get(tournament)
        return None if seen is None else seen[1]

    def asked_lately(self, seconds: float) -> list[str]:
        """The known tournaments asked for (:meth:`get`) within the last ``seconds``."""
        since = time.monotonic() - seconds
        with self._lock:
            return [t for t, at in self._asked.items() if at >= since]

    def put(self, tournament: str, version: int) -> None:
        with self._lock:
            self._seen[tournament] = (time.monotonic(), version)

    def advance(self, tournament: str, version: int, *, read_at: float | None = None) -> None:
        """Remember ``version`` unless a later one is known and fresh: two commits, or a commit
        and a read of the database, may report out of order. A version read from the database
        is trusted from ``read_at`` (``time.monotonic()`` taken before the read), not from its
        end: a change committed by another process while a slow read (or the pages rendered
        after it) was under way would otherwise stay hidden for longer than ``ttl``."""
        now = time.monotonic()
        stamp = now if read_at is None else min(read_at, now)
        with self._lock:
            seen = self._seen.get(tournament)
            if seen is None or now - seen[0] > self.ttl or seen[1] <= version:
                if seen is None and len(self._seen) >= self.max_entries:
                    self._seen.clear()  # asked for many made-up names: forget, ask again
                    self._asked.clear()
                if seen is not None and seen[1] == version:
                    stamp = max(stamp, seen[0])  # the same version, seen later already
                self._seen[tournament] = (stamp, version)

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()
            self._asked.clear()


_NEW_VERSIONS = "agon.new_versions"


def watch_commits(
    sessions: sessionmaker[Session],
    memo: VersionMemo,
    *,
    before_advance: Callable[[dict[str, int]], None] | None = None,
) -> None:
    """Keep ``memo`` right after every commit of a session made by ``sessions``.

    A commit that wrote journal entries sets each tournament's version to its newest entry, so
    the phones' next reads are served from the page cache without asking the database (clearing
    the memo would send every read arriving before the first answer to the database). A commit
    without journal entries changes no version and leaves the memo as it is.

    ``before_advance`` (the new versions by tournament) runs first, in the committing thread:
    the app renders the changed pages there (:func:`agon.web.routes.public.prerender`), so the
    new version is trusted only once its pages are ready — before the write is answered.
    """

    @event.listens_for(sessions, "after_flush")
    def _after_flush(session: Session, _context: object) -> None:
        found: dict[str, int] = session.info.setdefault(_NEW_VERSIONS, {})
        for obj in session.new:
            if isinstance(obj, JournalEntry) and obj.id is not None:
                found[obj.tournament] = max(found.get(obj.tournament, 0), obj.id)

    @event.listens_for(sessions, "after_commit")
    def _after_commit(session: Session) -> None:
        found: dict[str, int] = session.info.pop(_NEW_VERSIONS, {})
        if found and before_advance is not None:
            before_advance(found)
        for tournament, version in found.items():
            memo.advance(tournament, version)

    @event.listens_for(sessions, "after_rollback")
    def _after_rollback(session: Session) -> None:
        session.info.pop(_NEW_VERSIONS, None)


def journal_version(session: Session, tournament: str) -> int:
    """The tournament's last journal id (0 when it has none): changes whenever its state does."""
    return (
        session.scalar(
            select(func.max(JournalEntry.id)).where(JournalEntry.tournament == tournament)
        )
        or 0
    )


P = ParamSpec("P")
R = TypeVar("R")


class Renderer(Protocol):
    """Runs functions in another process (:class:`agon.web.renderproc.RenderProcess`)."""

    def call(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R | None:
        """``fn``'s answer, or ``None``: not run (the caller does the work itself)."""
        ...

    def prepare(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> None:
        """Start the process unless it runs, warmed up by running ``fn`` once."""
        ...

    def close(self) -> None:
        """Stop the process (the app's shutdown)."""
        ...


class PageState(Protocol):
    """What rendering a kept page needs: the server's :class:`WebState`, or the render
    process's state (:class:`agon.web.renderproc.ChildState`)."""

    @property
    def cache(self) -> VersionedCache: ...

    @property
    def standings(self) -> StandingsKeepers: ...


@dataclass(slots=True)
class WebState:
    """The running app's resources (one per :func:`agon.web.app.create_app`)."""

    settings: WebSettings
    engine: Engine
    sessions: sessionmaker[Session]
    readers: sessionmaker[Session]
    secret_key: str
    pin_limiter: Limiter
    login_limiter: Limiter
    director_sessions: DirectorSessions
    cache: VersionedCache = field(default_factory=VersionedCache)
    versions: VersionMemo = field(default_factory=lambda: VersionMemo(ttl=0.5))
    #: the standings of every tournament, kept table by table (a write rescores one table)
    standings: StandingsKeepers = field(default_factory=StandingsKeepers)
    #: reads answered from memory before the routes (:class:`agon.web.pagecache.CachedPages`)
    fast_reads: int = 0
    #: renders the pages a write changed outside this process (``None``: in the writing thread)
    renderer: Renderer | None = None
    #: held while the pages a change made are rendered ahead (one change at a time: a second
    #: look at the same change — the version refresher's — finds them done and renders nothing)
    prerendering: threading.Lock = field(default_factory=threading.Lock)

    def version(self, tournament: str) -> int:
        """The tournament's journal version, from the memo when it is fresh enough."""
        known = self.versions.get(tournament)
        if known is not None:
            return known
        read_at = time.monotonic()
        with self.readers() as session:
            version = journal_version(session, tournament)
        # a commit may have reported a later one
        self.versions.advance(tournament, version, read_at=read_at)
        return self.versions.get(tournament) or version
