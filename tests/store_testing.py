"""Throwaway databases for tests: a migrated SQLite template file, a temporary PostgreSQL server.

Each test gets its own database (a copy of the migrated SQLite template, or a PostgreSQL database
created from a migrated template database), so tests never see each other's data. The PostgreSQL
server is Debian's ``postgresql`` package, started in a temporary directory on loopback; as root,
``initdb``/``pg_ctl`` run as the ``postgres`` user (initdb refuses root).
"""

from __future__ import annotations

import atexit
import fcntl
import glob
import hashlib
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.pool import NullPool

from agon.store.db import Settings, make_engine
from agon.store.migrate import upgrade


def postgres_bin() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``: on PATH, else Debian's newest ``/usr/lib/postgresql``."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(candidates[-1]).parent if candidates else None


#: The throwaway servers' settings. ``fsync=off``: a test's data need not survive a crash of the
#: machine. ``autovacuum=off``: every test gets a database of its own and none is dropped before
#: the server stops, so a worker's server holds dozens to hundreds of them, and the autovacuum
#: launcher started a worker for each in turn, again and again, the whole run: 2.5 s of CPU per
#: 90 s with 200 small databases, idle (docs/dev-measurements.md), CPU that no test's figure
#: showed (the server is not a child of the test process). No test reads a vacuumed statistic.
#: ``max_wal_size``/``min_wal_size``: each database made from the template writes the
#: template's pages to the WAL (about 8 MB); a small WAL checkpoints sooner and keeps the
#: server's folder small in the suite's temporary folder, a RAM disk where there is room
#: (tests/conftest.py).
SERVER_SETTINGS = {
    "fsync": "off",
    "autovacuum": "off",
    "max_wal_size": "96MB",
    "min_wal_size": "32MB",
}


#: ``initdb``'s arguments for every throwaway server (the data folder's path comes first).
INITDB_ARGS = ("-A", "trust", "-U", "postgres", "--no-sync")
#: The environment that ``initdb`` reads besides its arguments: the locale of the new cluster.
_INITDB_ENVIRONMENT = ("LANG", "LANGUAGE", "LC_ALL", "LC_COLLATE", "LC_CTYPE", "LC_MESSAGES")


def _initdb_key(bindir: Path, as_postgres: bool) -> str:
    """What an initialised data folder depends on: ``initdb`` and the ``postgres`` it runs (their
    folder, sizes and times: a new package is a new key), its arguments, the locale it reads and
    the user it runs as."""
    parts = [str(bindir), *INITDB_ARGS]
    for program in ("initdb", "postgres"):
        found = (bindir / program).stat()
        parts += [program, str(found.st_size), str(found.st_mtime_ns)]
    parts += [f"{name}={os.environ.get(name, '')}" for name in _INITDB_ENVIRONMENT]
    parts.append(f"as_postgres={as_postgres} uid={os.geteuid()}")
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def _pristine(data: Path) -> bool:
    """``data`` is a whole folder from ``initdb`` in which no server has run."""
    return (data / "PG_VERSION").exists() and not (data / "postmaster.opts").exists()


def initialised_cluster(bindir: Path, as_postgres: bool) -> Path:
    """A data folder as ``initdb`` makes it (:data:`INITDB_ARGS`), made once per machine in the
    suite's temporary folder and never started: each throwaway server starts on a copy of it
    (``cp -a``, about 0.1 s of CPU) instead of running ``initdb`` (0.7–1.0 s of CPU here, and the
    suite starts a server in every test process that uses PostgreSQL, and one for each of the
    chaos, outage and deploy-kit tests). The folder's name holds :func:`_initdb_key`; a lock file
    makes the test processes that ask at once wait for the first, which builds it under another
    name and renames it into place (a half-built folder is never used)."""
    cache = Path(tempfile.gettempdir()) / f"agon-initdb-{_initdb_key(bindir, as_postgres)}"
    if _pristine(cache / "data"):
        return cache / "data"
    with open(f"{cache}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _pristine(cache / "data"):  # missing, or a server ran in it: made anew
            building = Path(tempfile.mkdtemp(prefix=f"{cache.name}.", dir=cache.parent))
            try:
                if as_postgres:
                    shutil.chown(building, "postgres", "postgres")
                cmd = [str(bindir / "initdb"), "-D", str(building / "data"), *INITDB_ARGS]
                if as_postgres:
                    cmd = ["runuser", "-u", "postgres", "--", *cmd]
                subprocess.run(cmd, check=True, capture_output=True, text=True)
                shutil.rmtree(cache, ignore_errors=True)
                building.rename(cache)
            finally:
                shutil.rmtree(building, ignore_errors=True)
    return cache / "data"


#: Starts of a throwaway PostgreSQL server on a new port after its port was found taken, at most.
PORT_ATTEMPTS = 5


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class PostgresServer:
    """A PostgreSQL server in a temporary directory; :meth:`stop` removes it."""

    directory: Path
    port: int
    bindir: Path
    as_postgres: bool
    #: the port, held while the server is paused (:meth:`pause`)
    held: socket.socket | None = field(default=None, repr=False)

    def _run(self, *args: str) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, text=True)

    @classmethod
    def start(cls) -> PostgresServer:
        bindir = postgres_bin()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        root = Path(tempfile.mkdtemp(prefix="agon-pg-"))
        data = root / "data"
        as_postgres = os.geteuid() == 0
        if as_postgres:
            shutil.chown(root, "postgres", "postgres")
        server = cls(directory=root, port=_free_port(), bindir=bindir, as_postgres=as_postgres)
        # a copy of the machine's one initdb'd folder (as root, cp -a keeps postgres its owner)
        cluster = initialised_cluster(bindir, as_postgres)
        subprocess.run(["cp", "-a", str(cluster), str(data)], check=True, capture_output=True)
        # The port was released by _free_port and is bound by the server a moment later: if
        # another process of the suite took it meanwhile, the server's log says so and it starts
        # again on another port (only then; any other failure is raised).
        for attempt in range(PORT_ATTEMPTS):
            begin = server._log_size()
            try:
                server.resume()
                return server
            except subprocess.CalledProcessError:
                if attempt == PORT_ATTEMPTS - 1 or not server._port_was_taken(begin):
                    raise
                server.port = _free_port()
        raise AssertionError("unreachable")

    def _log_size(self) -> int:
        log = self.directory / "log"
        return log.stat().st_size if log.exists() else 0

    def _port_was_taken(self, begin: int) -> bool:
        """Whether the server's log, since ``begin``, says it could not bind its port."""
        with open(self.directory / "log", "rb") as f:
            f.seek(begin)
            said = f.read().decode(errors="replace").lower()
        return "address already in use" in said and str(self.port) in said

    def resume(self) -> None:
        """Start the server (again, after :meth:`pause`) on the same port and data."""
        root = self.directory
        options = " ".join(f"-c {name}={value}" for name, value in SERVER_SETTINGS.items())
        self._run(
            "pg_ctl",
            "-D",
            str(root / "data"),
            "-w",
            "-l",
            str(root / "log"),
            "-o",
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {root} {options}",
            "start",
        )
        self._release()

    def pause(self) -> None:
        """Stop the server, keeping its data (an outage; :meth:`resume` ends it). Its port stays
        the test's meanwhile: bound (not listened on, so connections are refused as by a stopped
        server) with ``SO_REUSEADDR``, which PostgreSQL sets too, so the server binds it again
        beside it; another process of the suite cannot take it while the server is away."""
        self._run("pg_ctl", "-D", str(self.directory / "data"), "-w", "-m", "fast", "stop")
        held = socket.socket()
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            held.bind(("127.0.0.1", self.port))
        except OSError:  # taken already in the moment since the stop: resume will say so
            held.close()
            return
        self.held = held

    def _release(self) -> None:
        if self.held is not None:
            self.held.close()
            self.held = None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        self._release()
        try:
            self._run("pg_ctl", "-D", str(self.directory / "data"), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


class DatabaseFactory:
    """Fresh migrated databases, one per test, for ``sqlite`` or ``postgresql``."""

    def __init__(self, backend: str, workdir: Path, server: PostgresServer | None = None) -> None:
        self.backend = backend
        self.workdir = workdir
        self.server = server
        self._template: str | None = None
        self._admin: Engine | None = None

    def _admin_engine(self) -> Engine:
        """The server's ``postgres`` database, for ``CREATE DATABASE``: one engine per factory
        (a new engine per database read the server's settings again on its first connection,
        about 7 ms of CPU a test); no pool, so each use is a connection of its own that is closed
        after it, as before (a suspended and resumed server, no idle session left on it)."""
        if self._admin is None:
            assert self.server is not None
            self._admin = create_engine(
                self.server.url(), poolclass=NullPool, connect_args={"connect_timeout": 10}
            )
        return self._admin

    def _create_database(self, sql: str) -> None:
        with self._admin_engine().connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(sql))

    def _prepare(self) -> str:
        if self._template is not None:
            return self._template
        if self.backend == "sqlite":
            path = self.workdir / "template.db"
            engine = make_engine(Settings(f"sqlite:///{path}"))
            upgrade(engine)
            engine.dispose()
            self._template = str(path)
        else:
            assert self.server is not None
            self._create_database("CREATE DATABASE agon_template")
            engine = make_engine(Settings(self.server.url("agon_template")))
            upgrade(engine)
            engine.dispose()
            self._template = "agon_template"
        return self._template

    def sqlite_template(self) -> Path:
        """The migrated SQLite file every new database of this factory is copied from (migrated
        once per process); to be copied, never written."""
        assert self.backend == "sqlite"
        return Path(self._prepare())

    def new_url(self, directory: Path) -> str:
        """A new empty, migrated database; returns its URL."""
        template = self._prepare()
        if self.backend == "sqlite":
            target = directory / f"agon-{uuid.uuid4().hex[:8]}.db"
            shutil.copyfile(template, target)
            return f"sqlite:///{target}"
        assert self.server is not None
        name = f"t_{uuid.uuid4().hex[:12]}"
        self._create_database(f'CREATE DATABASE "{name}" TEMPLATE agon_template')
        return self.server.url(name)

    def empty_url(self, directory: Path) -> str:
        """A new database that has never been migrated (first use); returns its URL."""
        if self.backend == "sqlite":
            return f"sqlite:///{directory / f'fresh-{uuid.uuid4().hex[:8]}.db'}"
        assert self.server is not None
        name = f"e_{uuid.uuid4().hex[:12]}"
        self._create_database(f'CREATE DATABASE "{name}"')
        return self.server.url(name)


_FACTORIES: dict[str, DatabaseFactory | None] = {}


def shared_factory(backend: str) -> DatabaseFactory | None:
    """One factory per backend and process (a pytest-xdist worker); the PostgreSQL server behind
    it starts on first use and stops when the process exits. ``None``: PostgreSQL not installed."""
    if backend not in _FACTORIES:
        workdir = Path(tempfile.mkdtemp(prefix="agon-db-"))
        atexit.register(shutil.rmtree, workdir, True)
        if backend == "sqlite":
            _FACTORIES[backend] = DatabaseFactory("sqlite", workdir)
        elif postgres_bin() is None:
            _FACTORIES[backend] = None
        else:
            server = PostgresServer.start()
            atexit.register(server.stop)
            _FACTORIES[backend] = DatabaseFactory("postgresql", workdir, server)
    return _FACTORIES[backend]
