"""Throwaway databases for tests: a migrated SQLite template file, a temporary PostgreSQL server.

Each test gets its own database (a copy of the migrated SQLite template, or a PostgreSQL database
created from a migrated template database), so tests never see each other's data. The PostgreSQL
server is Debian's ``postgresql`` package, started in a temporary directory on loopback; as root,
``initdb``/``pg_ctl`` run as the ``postgres`` user (initdb refuses root).
"""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import text

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
        server._run("initdb", "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync")
        server.resume()
        return server

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

    def pause(self) -> None:
        """Stop the server, keeping its data (an outage; :meth:`resume` ends it)."""
        self._run("pg_ctl", "-D", str(self.directory / "data"), "-w", "-m", "fast", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
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
            admin = make_engine(Settings(self.server.url()))
            with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.execute(text("CREATE DATABASE agon_template"))
            admin.dispose()
            engine = make_engine(Settings(self.server.url("agon_template")))
            upgrade(engine)
            engine.dispose()
            self._template = "agon_template"
        return self._template

    def new_url(self, directory: Path) -> str:
        """A new empty, migrated database; returns its URL."""
        template = self._prepare()
        if self.backend == "sqlite":
            target = directory / f"agon-{uuid.uuid4().hex[:8]}.db"
            shutil.copyfile(template, target)
            return f"sqlite:///{target}"
        assert self.server is not None
        name = f"t_{uuid.uuid4().hex[:12]}"
        admin = make_engine(Settings(self.server.url()))
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE agon_template'))
        admin.dispose()
        return self.server.url(name)

    def empty_url(self, directory: Path) -> str:
        """A new database that has never been migrated (first use); returns its URL."""
        if self.backend == "sqlite":
            return f"sqlite:///{directory / f'fresh-{uuid.uuid4().hex[:8]}.db'}"
        assert self.server is not None
        name = f"e_{uuid.uuid4().hex[:12]}"
        admin = make_engine(Settings(self.server.url()))
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
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
