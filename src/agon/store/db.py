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
import importlib.util
import logging
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker

from agon.errors import InvalidInput

DEFAULT_URL = "sqlite:///./var/agon.db"
#: Seconds a new PostgreSQL connection may take (unless the URL sets ``connect_timeout``).
CONNECT_TIMEOUT = 10
#: Execution option that marks a transaction as a writer's (``BEGIN IMMEDIATE`` on SQLite).
WRITE_OPTION = "agon_write"


@dataclass(frozen=True, slots=True)
class Settings:
    """Where the data lives and how long SQLite waits for a busy database."""

    database_url: str = DEFAULT_URL
    busy_timeout_ms: int = 30_000


def get_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Settings from the environment (``AGON_DATABASE_URL``), read when called.

    The director's commands read only this one setting, without the web app's typed settings
    (:mod:`agon.web.settings`, which checks the same variable the same way): pydantic is not
    imported by a command that does not need it.

    Raises:
        InvalidInput: the variable holds no usable database URL (naming it).
    """
    env = os.environ if environ is None else environ
    text = env.get("AGON_DATABASE_URL") or DEFAULT_URL
    try:
        database_url(text)
    except InvalidInput as exc:
        raise InvalidInput(f"AGON_DATABASE_URL: {exc}") from None
    return Settings(database_url=text)


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


def database_url(text: str) -> URL:
    """The database URL ``text`` (``AGON_DATABASE_URL``, ``--database``) parsed.

    Raises:
        InvalidInput: not a database URL, or one for a driver agon does not have.
    """
    shown = text if len(text) <= 60 else text[:57] + "..."
    try:
        url = make_url(text)
        dialect = url.get_dialect()
    except (ArgumentError, NoSuchModuleError, ValueError) as exc:
        raise InvalidInput(
            f"database URL {shown!r}: not usable ({exc}); give e.g. sqlite:///var/agon.db or "
            "postgresql+psycopg://user@host/agon"
        ) from None
    if (dialect.name, dialect.driver) not in SUPPORTED_DRIVERS:
        raise InvalidInput(
            f"database URL {url.render_as_string(hide_password=True)[:60]!r}: "
            f"{url.drivername} is not supported; agon works with sqlite (sqlite:///var/agon.db) "
            "and postgresql+psycopg (postgresql+psycopg://user@host/agon)"
        )
    if dialect.name == "postgresql" and importlib.util.find_spec("psycopg") is None:
        raise InvalidInput(
            f"database URL {url.render_as_string(hide_password=True)[:60]!r}: PostgreSQL needs "
            "the driver psycopg: pip install 'agon-tournaments[postgresql]'"
        )
    return url


#: The (dialect, driver) pairs agon runs on: SQLite (Python's own module) and PostgreSQL through
#: psycopg 3 (``postgresql://`` means ``postgresql+psycopg://``).
SUPPORTED_DRIVERS = frozenset({("sqlite", "pysqlite"), ("postgresql", "psycopg")})


def database_fault(exc: BaseException, url: str | None = None) -> str | None:
    """One line for an error that says the database cannot be reached or used (a server down, a
    closed port, a refused login, a file that cannot be opened), else ``None``."""
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    fault = isinstance(exc, OperationalError | InterfaceError | PoolTimeout) or (
        isinstance(exc, DBAPIError) and exc.connection_invalidated
    )
    if not fault and type(exc).__module__.startswith("psycopg"):  # the driver's own (LISTEN)
        import psycopg

        fault = isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)
    if not fault:
        return None
    cause = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    detail = lines[0] if lines else type(cause).__name__
    where = ""
    if url is not None:
        with contextlib.suppress(ArgumentError, ValueError):
            where = f" {make_url(url).render_as_string(hide_password=True)}"
    return f"cannot use the database{where}: {detail[:300]}"


def sqlite_file(url: URL) -> Path | None:
    """The file of a SQLite database URL (``None``: another backend, or an in-memory one)."""
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database or ""
    if not database or database == ":memory:":
        return None
    return Path(database)


def missing_database(text: str) -> Path | None:
    """The SQLite file that the database URL ``text`` names when it does not exist yet (a first
    use would create it), else ``None``."""
    path = sqlite_file(database_url(text))
    return path if path is not None and not path.exists() else None


def make_engine(settings: Settings | None = None, *, create: bool = True) -> Engine:
    """An engine for ``settings.database_url``; creates the SQLite file (mode 0600) and its folder
    (0700) when needed.

    Raises:
        InvalidInput: ``create`` is false and the SQLite file does not exist (a read never
            creates a database: a mistyped path would show an empty one).
    """
    settings = settings or get_settings()
    url = database_url(settings.database_url)
    if url.get_backend_name() == "sqlite":
        path = sqlite_file(url)
        if path is not None:
            if not create and not path.exists():
                raise InvalidInput(
                    f"no database at {path} (AGON_DATABASE_URL); 'agon tournament create', "
                    "'agon import' or 'agon db upgrade' make one"
                )
            private_file(path)
        engine = create_engine(url, connect_args={"timeout": settings.busy_timeout_ms / 1000})
        _sqlite_connect_hooks(engine, settings.busy_timeout_ms)
        return engine
    # a server that does not answer (a host gone, a firewall dropping packets) fails in seconds,
    # not after the system's TCP timeout of minutes
    timeout = {} if "connect_timeout" in url.query else {"connect_timeout": CONNECT_TIMEOUT}
    return create_engine(url, pool_pre_ping=True, connect_args=timeout)


def open_engine(url: str, *, create: bool) -> tuple[Engine, Path | None]:
    """An engine on ``url`` (:func:`make_engine`) and, when this call creates the SQLite file,
    its path (the command says where it created a database)."""
    new = missing_database(url) if create else None
    return make_engine(Settings(database_url=url), create=create), new


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


class Outage:
    """One warning line per outage of the database, not one traceback per failed request.

    :meth:`failed` logs the first failure of a burst (and again only after
    :data:`REPEAT_SECONDS` of failures); :meth:`recovered` logs once when a use succeeds again.
    Thread-safe: requests fail in worker threads, the background loops in the event loop.
    """

    #: While the database stays away, the warning is repeated this seldom (seconds).
    REPEAT_SECONDS = 300.0

    def __init__(self, logger: logging.Logger | None = None) -> None:
        self.log = logger or logging.getLogger("agon.store")
        self._lock = threading.Lock()
        self._since: float | None = None
        self._logged = 0.0

    @property
    def down(self) -> bool:
        """Whether the last use of the database failed."""
        return self._since is not None

    def failed(self, message: str) -> None:
        now = time.monotonic()
        with self._lock:
            first = self._since is None
            if first:
                self._since = now
            if not (first or now - self._logged >= self.REPEAT_SECONDS):
                return
            self._logged = now
        self.log.warning("%s (answering 503 until it is back)", message)

    def recovered(self) -> None:
        if self._since is None:  # the usual case: no lock taken
            return
        with self._lock:
            since, self._since = self._since, None
        if since is not None:
            self.log.warning("the database is back after %.0f s", time.monotonic() - since)


#: The process's one outage log (the web app's requests and background loops share it).
OUTAGE = Outage()
