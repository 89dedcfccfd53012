"""The standings pages a write changes, rendered in a process of their own (issue 30).

A write renders the kept pages it changed before it is answered (read-your-writes,
:func:`agon.web.routes.public.prerender`). Rendered in the writing thread, that took about 22 ms
of CPU with the interpreter lock held, and the event loop answering the phones waited for the
lock meanwhile. :class:`RenderProcess` hands the rendering to one process (``spawn``: nothing of
the server's threads is copied) that opens the database itself: the writing thread waits on a
pipe, which holds no lock, and the event loop keeps answering.

- The process starts when it may soon be needed (a kept page is first rendered for a reader,
  or a write changes a page somebody reads) and is warmed up by rendering that page once
  (:meth:`RenderProcess.prepare`: a new process's first render takes many times longer). Until
  it is ready, and whenever it is not — it died, it took longer than
  :data:`RENDER_TIMEOUT_SECONDS`, the database is an in-memory one it cannot see — :meth:`call`
  says so (``None``) and the caller renders in its own thread, as before. A dead process is
  started again on a later call (at most once per :data:`RESTART_SECONDS`).
- It runs at a lower priority (:data:`RENDER_NICENESS`): on a busy machine the server's event
  loop, which answers the phones, goes first.
- It reads the database after the write's commit, so it renders that write or a later one, and
  says which version it rendered; the caller keeps the pages under that version.
- Each server process (``agon serve --workers N``) has its own render process; the pages'
  invalidation between workers is unchanged (the version memo, LISTEN/NOTIFY).
- :meth:`close` (the app's shutdown) stops it and waits for it (killed after
  :data:`CLOSE_SECONDS`). A server process killed with ``kill -9`` cannot: the render process
  ends itself within :data:`ORPHAN_CHECK_SECONDS` of finding it has no server any more.

In the render process :func:`child_state` holds what a render needs: a read-only session
factory, a cache of fragments and the incremental standings keepers (the same classes as the
server's, :class:`agon.web.state.PageState`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar

from sqlalchemy.orm import Session, sessionmaker

from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.db import database_url as parse_database_url
from agon.tournament.incremental import StandingsKeepers
from agon.web.state import VersionedCache, make_reader_engine

P = ParamSpec("P")
T = TypeVar("T")

#: The longest a write waits for the render process before it renders the pages itself.
RENDER_TIMEOUT_SECONDS = 10.0
#: A render process that died or hung is started again at most this often.
RESTART_SECONDS = 5.0
#: How much lower the render process's scheduling priority is than the server's.
RENDER_NICENESS = 5
#: How long the server's shutdown waits for the render process before it kills it.
CLOSE_SECONDS = 10.0
#: How often the render process looks whether its server process still runs.
ORPHAN_CHECK_SECONDS = 1.0

_log = logging.getLogger("agon.web")


@dataclass(slots=True)
class ChildState:
    """What the render process renders with (:class:`agon.web.state.PageState`)."""

    readers: sessionmaker[Session]
    cache: VersionedCache = field(default_factory=VersionedCache)
    standings: StandingsKeepers = field(default_factory=StandingsKeepers)


_CHILD: ChildState | None = None


def _exit_when_orphaned(parent: int, every: float) -> None:
    """End this process once ``parent`` is no longer its parent: a server process killed with
    ``kill -9`` cannot stop its render process, and a process pool's worker holds both ends of
    its own task pipe, so it would wait for work forever, holding its memory and its database
    connections."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


def _child_start(
    database_url: str, busy_timeout_ms: int, parent: int, orphan_check: float = ORPHAN_CHECK_SECONDS
) -> None:
    """The render process's start: its own engine on the server's database, and a watch on the
    server process (:func:`_exit_when_orphaned`)."""
    global _CHILD
    threading.Thread(
        target=_exit_when_orphaned, args=(parent, orphan_check), name="orphan-watch", daemon=True
    ).start()
    # Ctrl-C reaches the whole process group: the server stops this process itself (close)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # on a busy machine the server's event loop (the phones' reads) goes first
    with contextlib.suppress(OSError):
        os.nice(RENDER_NICENESS)
    engine = make_engine(Settings(database_url=database_url, busy_timeout_ms=busy_timeout_ms))
    _CHILD = ChildState(
        readers=make_session_factory(make_reader_engine(database_url, engine, busy_timeout_ms))
    )


def _child_ready() -> int:
    return os.getpid()


def child_state() -> ChildState:
    """The render process's state (only in the render process)."""
    if _CHILD is None:
        raise RuntimeError("not in the render process")
    return _CHILD


def usable(database_url: str) -> bool:
    """Can another process open this database (not an in-memory SQLite one)?"""
    url = parse_database_url(database_url)
    return not (url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"))


class RenderProcess:
    """One render process for a server process (see the module). Thread-safe."""

    def __init__(
        self,
        database_url: str,
        busy_timeout_ms: int,
        *,
        timeout: float = RENDER_TIMEOUT_SECONDS,
        restart_seconds: float = RESTART_SECONDS,
    ) -> None:
        self.database_url = database_url
        self.busy_timeout_ms = busy_timeout_ms
        self.timeout = timeout
        self.restart_seconds = restart_seconds
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._ready: Future[int] | None = None
        self._started_at = -float("inf")
        self._closed = False
        #: renders done by the process, and renders it could not do (the caller did them)
        self.rendered = 0
        self.fell_back = 0

    def start(self) -> Future[int]:
        """Start the process unless it runs; the future gives its pid once it is ready."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the render process was closed")
            if self._pool is None or self._ready is None:
                import multiprocessing

                self._started_at = time.monotonic()
                self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_child_start,
                    initargs=(self.database_url, self.busy_timeout_ms, os.getpid()),
                )
                self._ready = self._pool.submit(_child_ready)
            return self._ready

    def prepare(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> None:
        """Start the process in the background unless it runs (a kept page was read: a write
        will want it), and have it run ``fn`` once, its answer thrown away: its first real
        call finds the code imported, the templates compiled and the database's queries and
        standings warm (the first render in a new process takes many times longer)."""
        with self._lock:
            wanted = not self._closed and self._pool is None
            due = time.monotonic() - self._started_at >= self.restart_seconds
        if not (wanted and due):
            return
        try:
            self.start()
            with self._lock:
                pool = self._pool
            if pool is not None:
                pool.submit(fn, *args, **kwargs)
        except RuntimeError:  # closed or broken meanwhile: the next call sees to it
            pass

    def pid(self) -> int | None:
        """The running process's id (``None``: not started, not ready yet, or gone)."""
        ready = self._ready
        if ready is None or not ready.done() or ready.exception() is not None:
            return None
        return ready.result()

    def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | None:
        """``fn(*args, **kwargs)`` run in the render process and its answer; ``None`` when the
        process cannot run it now (not ready yet — it is started —, dead, hung): the caller
        does the work itself. ``fn`` is named by its module and name (a module-level function).
        An exception raised by ``fn`` is raised here."""
        with self._lock:
            if self._closed:
                return None
            pool, ready = self._pool, self._ready
            due = time.monotonic() - self._started_at >= self.restart_seconds
        if pool is None or ready is None:
            if due:  # started again; its first call warms it up (this one is done here)
                self.prepare(fn, *args, **kwargs)
        elif ready.done() and ready.exception() is not None:
            self._discard(pool, f"it did not start: {ready.exception()}")
        elif ready.done():
            done, result = self._run(pool, fn, *args, **kwargs)
            if done:
                self.rendered += 1
                return result
        self.fell_back += 1
        return None

    def _run(
        self, pool: ProcessPoolExecutor, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> tuple[bool, T | None]:
        """``(True, answer)``, or ``(False, None)`` when the process could not answer."""
        try:
            answer = pool.submit(fn, *args, **kwargs)
        except RuntimeError as exc:  # BrokenProcessPool: it died; or it was shut down meanwhile
            self._discard(pool, f"it stopped: {exc!r}")
            return False, None
        try:
            return True, answer.result(timeout=self.timeout)
        except BrokenProcessPool as exc:
            self._discard(pool, f"it died: {exc}")
        except FutureTimeout:
            self._discard(pool, f"it took longer than {self.timeout} s", kill=True)
        return False, None

    def _discard(self, pool: ProcessPoolExecutor, why: str, *, kill: bool = False) -> None:
        """Forget ``pool`` (if it is still the current one); started again on a later call."""
        pid = self.pid() if kill else None
        with self._lock:
            if self._pool is not pool:
                return
            self._pool, self._ready = None, None
        _log.warning("the render process is not used (%s): pages render in the server", why)
        if pid is not None:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self, wait: float = CLOSE_SECONDS) -> None:
        """Stop the process and wait for it (the app's shutdown), killing it after ``wait``
        seconds (a render stuck on the database); later calls answer ``None``."""
        pid = self.pid()
        with self._lock:
            self._closed = True
            pool, self._pool, self._ready = self._pool, None, None
        if pool is None:
            return
        stopping = threading.Thread(
            target=pool.shutdown, kwargs={"wait": True, "cancel_futures": True}, daemon=True
        )
        stopping.start()
        stopping.join(wait)
        if stopping.is_alive() and pid is not None:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            stopping.join(wait)
