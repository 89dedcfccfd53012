"""Group commit for online play: one writer thread stores the actions of many games at once.

Every accepted action must be stored before it is acknowledged, and every commit waits for the
disk (SQLite's ``synchronous=FULL``, PostgreSQL's WAL flush). Committing each action on its own
thread would queue the threads on the database's write lock — on SQLite behind its busy handler,
which sleeps up to 100 ms at a time. Instead the acting threads hand their entries to one writer
thread and wait (a move made on the event loop is called back instead, :meth:`GroupWriter.submit`);
the writer takes everything that has queued up meanwhile and commits it in one transaction: one
flush for many actions, and no lock waits. The writer keeps one database
connection of its own (no ORM session to set up and tear down per commit).

On SQLite a group that only adds log entries (no game's end, no turn's deadline: nearly every
group) is written through the driver's connection itself — ``BEGIN IMMEDIATE``, one
``executemany`` of the INSERT compiled once, ``COMMIT``, as SQLAlchemy would send them — without
SQLAlchemy's per-statement machinery (its transaction, events, cursor results: about 0.25 ms of
CPU per commit, more than SQLite's own work and its flush; issue 30). The driver's errors are
raised as SQLAlchemy's (a lost race is still its ``IntegrityError``). Other groups, and other
databases, go through SQLAlchemy.

A commit delay, in the manner of PostgreSQL's ``commit_delay`` and ``commit_siblings``: on a busy
server most groups hold the entries that queued during the previous commit's flush, but on a quiet
one the next entry often comes a moment after the writer took the last, and every action pays a
flush of its own. With ``commit_delay`` set, the writer waits for more entries before it commits:
only while at least ``commit_siblings`` games stored entries in the last second (with 2 or more,
a lone game is never kept waiting), and only until its group's oldest entry has queued
``commit_delay`` seconds (an entry that already waited out a previous commit is committed at
once). It sleeps meanwhile, as PostgreSQL does, rather than waking for every entry that comes.
Durability is the same: every entry is acknowledged only once the commit holding it has
returned; what the delay trades is up to ``commit_delay`` of an action's answer for fewer
flushes (issue 30).
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from agon.play.store import Append, append_many, insert_rows, now, write_appends
from agon.store.db import WRITE_OPTION

#: Games' entries committed in one transaction at most.
MAX_GROUP = 500
#: What the writer calls once an entry is stored: with ``None``, or the store's exception.
Done = Callable[[BaseException | None], None]
#: The window in which the writer counts the games storing entries (``commit_siblings``).
ACTIVITY_WINDOW = 1.0


class GroupWriter:
    """Stores :class:`~agon.play.store.Append` entries in groups (see the module docstring)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        *,
        commit_delay: float = 0.0,
        commit_siblings: int = 1,
    ) -> None:
        """``commit_delay``: seconds an entry may wait for others to share its commit (0: none);
        ``commit_siblings``: the delay applies only while at least this many games stored
        entries in the last second (see the module docstring)."""
        if commit_delay < 0 or commit_siblings < 0:
            raise ValueError("commit_delay and commit_siblings must not be negative")
        self.sessions = sessions
        self.commit_delay = commit_delay
        self.commit_siblings = commit_siblings
        #: entries waiting: the entry, its callback and when it was queued (``time.monotonic``)
        self._queue: queue.SimpleQueue[tuple[Append, Done, float] | None] = queue.SimpleQueue()
        #: the games that stored entries in the current and the previous activity window
        self._games_now: set[str] = set()
        self._games_before = 0
        self._window_ends = 0.0
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        #: transactions committed and entries stored (for the bench and the tests)
        self.commits = 0
        self.stored = 0
        bind = getattr(sessions, "kw", {}).get("bind")
        #: the engine the writer's own connection comes from (``None``: a session per commit)
        self._engine: Engine | None = bind if isinstance(bind, Engine) else None
        self._conn: Connection | None = None

    def append(self, entry: Append) -> None:
        """Store ``entry``; returns once it is committed.

        Raises:
            IntegrityError: another process stored the same ``seq`` first.
        """
        stored: Future[None] = Future()

        def done(error: BaseException | None) -> None:
            if error is None:
                stored.set_result(None)
            else:
                stored.set_exception(error)

        self.submit(entry, done)
        stored.result()

    def submit(self, entry: Append, done: Done) -> None:
        """Queue ``entry``; ``done`` is called in the writer's thread once it is committed
        (``None``) or failed (the exception :meth:`append` raises). Never blocks: an event loop
        may call it, and have ``done`` wake it (``call_soon_threadsafe``)."""
        if self._thread is None:  # the lock only until the writer runs
            self._start()
        self._queue.put((entry, done, time.monotonic()))

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    def _start(self) -> None:
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="agon-play-writer", daemon=True
                )
                self._thread.start()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            closing = self._take_queued(group)
            if not closing and self.commit_delay > 0 and len(group) < MAX_GROUP:
                closing = self._wait_for_siblings(group)
            self._commit(group)
            if closing:
                return

    def _take_queued(self, group: list[tuple[Append, Done, float]]) -> bool:
        """Add the entries queued now to ``group`` (up to :data:`MAX_GROUP`); whether the writer
        must stop after this group (:meth:`close` came)."""
        while len(group) < MAX_GROUP:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return False
            if item is None:
                return True
            group.append(item)
        return False

    def _busy(self, now: float) -> bool:
        """Whether enough games stored entries lately for the commit delay to apply."""
        if now >= self._window_ends:  # a new window: the one that ended is the measure
            ended = now - self._window_ends < ACTIVITY_WINDOW
            self._games_before = len(self._games_now) if ended else 0
            self._games_now = set()
            self._window_ends = now + ACTIVITY_WINDOW
        return max(self._games_before, len(self._games_now)) >= self.commit_siblings

    def _wait_for_siblings(self, group: list[tuple[Append, Done, float]]) -> bool:
        """The commit delay: when the server is busy enough, sleep until ``group``'s oldest
        entry has queued ``commit_delay`` seconds (no wake-up per arrival), then add what queued
        meanwhile; whether the writer must stop (:meth:`close` came)."""
        now = time.monotonic()
        if not self._busy(now):
            return False
        left = group[0][2] + self.commit_delay - now
        if left > 0:
            time.sleep(left)
        return self._take_queued(group)

    def _store(self, entries: Sequence[Append]) -> None:
        """One transaction storing ``entries`` (on the writer's connection when it has one)."""
        if self._engine is None:
            with self.sessions() as session:
                append_many(session, entries)
            return
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            self._conn = self._engine.connect().execution_options(**{WRITE_OPTION: True})
        conn = self._conn
        try:
            if conn.dialect.name == "sqlite" and all(
                e.scores is None and e.deadline is None for e in entries
            ):
                _insert_on_driver(conn, entries)
            else:
                with conn.begin():
                    write_appends(conn, entries)
        except IntegrityError:
            raise
        except BaseException:  # a broken connection: a fresh one next time
            with contextlib.suppress(Exception):
                conn.close()
            self._conn = None
            raise

    def _commit(self, group: Sequence[tuple[Append, Done, float]]) -> None:
        try:
            self._store([entry for entry, _done, _queued in group])
        except IntegrityError as exc:
            if len(group) == 1:
                group[0][1](exc)
                return
            for one in group:  # find the entry another process beat; store the others
                self._commit([one])
            return
        except BaseException as exc:
            for _entry, done, _queued in group:
                done(exc)
            return
        self.commits += 1
        self.stored += len(group)
        if self.commit_delay > 0:  # the games counted for the delay (a set per window)
            self._games_now.update(entry.game_id for entry, _done, _queued in group)
        for _entry, done, _queued in group:
            done(None)


def _insert_on_driver(conn: Connection, entries: Sequence[Append]) -> None:
    """Store ``entries`` (log entries only) in one transaction on ``conn``'s SQLite connection
    itself (see the module docstring); ``conn`` has no transaction open, and none is left open.

    Raises:
        IntegrityError: an entry does not extend the stored log (a lost race).
        DBAPIError: any other failure of the driver, as SQLAlchemy raises it.
    """
    raw: Any = conn.connection.dbapi_connection  # autocommit: agon's engine sends BEGIN itself
    sql, params = insert_rows(conn.dialect, entries, now())
    cursor = raw.cursor()
    try:
        cursor.execute("BEGIN IMMEDIATE")
        try:
            if params:
                cursor.executemany(sql, params)
            cursor.execute("COMMIT")
        except BaseException:
            if raw.in_transaction:
                with contextlib.suppress(Exception):
                    cursor.execute("ROLLBACK")
            raise
    except conn.dialect.loaded_dbapi.Error as exc:
        raise DBAPIError.instance(
            sql, None, exc, conn.dialect.loaded_dbapi.Error, dialect=conn.dialect
        ) from exc
    finally:
        cursor.close()
