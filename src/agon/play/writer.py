"""Group commit for online play: one writer thread stores the actions of many games at once.

Every accepted action must be stored before it is acknowledged, and every commit waits for the
disk (SQLite's ``synchronous=FULL``, PostgreSQL's WAL flush). Committing each action on its own
thread would queue the threads on the database's write lock — on SQLite behind its busy handler,
which sleeps up to 100 ms at a time. Instead the acting threads hand their entries to one writer
thread and wait; the writer takes everything that has queued up meanwhile and commits it in one
transaction: one flush for many actions, and no lock waits.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from concurrent.futures import Future

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from agon.play.store import Append, append_many

#: Games' entries committed in one transaction at most.
MAX_GROUP = 500


class GroupWriter:
    """Stores :class:`~agon.play.store.Append` entries in groups (see the module docstring)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self._queue: queue.SimpleQueue[tuple[Append, Future[None]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        #: transactions committed and entries stored (for the bench and the tests)
        self.commits = 0
        self.stored = 0

    def append(self, entry: Append) -> None:
        """Store ``entry``; returns once it is committed.

        Raises:
            IntegrityError: another process stored the same ``seq`` first.
        """
        self._start()
        done: Future[None] = Future()
        self._queue.put((entry, done))
        done.result()

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)

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
            while len(group) < MAX_GROUP:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._commit(group)
                    return
                group.append(item)
            self._commit(group)

    def _commit(self, group: Sequence[tuple[Append, Future[None]]]) -> None:
        try:
            with self.sessions() as session:
                append_many(session, [entry for entry, _done in group])
        except IntegrityError as exc:
            if len(group) == 1:
                group[0][1].set_exception(exc)
                return
            for one in group:  # find the entry another process beat; store the others
                self._commit([one])
            return
        except BaseException as exc:
            for _entry, done in group:
                done.set_exception(exc)
            return
        self.commits += 1
        self.stored += len(group)
        for _entry, done in group:
            done.set_result(None)
