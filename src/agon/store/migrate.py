"""Alembic migrations shipped inside the package, applied on first use or by ``agon db upgrade``.

Many commands may start at once on a fresh database (a desk of helpers all typing ``agon tournament
create``). Migrating is therefore serialised by a lock: on SQLite an exclusive file lock on
``<database>.lock`` next to the database file, on PostgreSQL a session advisory lock. One process
migrates; the others wait for it (up to :data:`MIGRATION_WAIT_SECONDS`), see the database current
and go on. A process that waited in vain stops with one line (:class:`MigrationBusy`, exit code 2 on
the command line). A process killed while migrating loses its lock with it, and its migration
transaction is rolled back, so the next one starts over cleanly.

Every command checks the schema version, so the check must be cheap: it reads the
``alembic_version`` table with one query and compares it with the newest revision of the package,
known from the migration files' names (``NNNN_name.py`` holds revision ``"NNNN"``). Alembic itself
(a third of a second to import) is loaded only when a migration has to run.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from agon.errors import AgonError, InvalidInput
from agon.store.db import LOCK_SPACE, MIGRATION_LOCK

if TYPE_CHECKING:
    from alembic.config import Config

SCRIPT_LOCATION = "agon.store:migrations"
#: A migration file's name: its revision id, then a word or two (``0002_floor.py``).
MIGRATION_FILE = re.compile(r"^(\d{4})_\w+\.py$")
#: How long a process waits for another one's migration before it gives up.
MIGRATION_WAIT_SECONDS = 120.0
_POLL_SECONDS = 0.05


class MigrationBusy(AgonError):
    """Another process has been migrating the database for longer than we are willing to wait."""


def alembic_config(engine: Engine) -> Config:
    """An Alembic config bound to ``engine`` (no ``alembic.ini`` needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["engine"] = engine
    return config


def package_head() -> str:
    """The newest revision shipped with the package, from the migration files' names.

    >>> package_head() >= "0003"
    True
    """
    versions = resources.files("agon.store.migrations").joinpath("versions")
    found = [m.group(1) for f in versions.iterdir() if (m := MIGRATION_FILE.match(f.name))]
    return max(found)


def head_revision(engine: Engine) -> str | None:
    """The newest revision as Alembic computes it from the scripts' ``down_revision`` chain."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The database's revision: one read of ``alembic_version`` (``None``: not migrated yet)."""
    with engine.connect() as conn:
        try:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        except DBAPIError:  # no such table: a new database
            return None


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply the migrations up to ``revision`` (default: the newest), holding the migration lock."""
    from alembic import command

    with migration_lock(engine):
        command.upgrade(alembic_config(engine), revision)


def ensure_current(engine: Engine, *, wait: float = MIGRATION_WAIT_SECONDS) -> None:
    """Upgrade the database if it is behind the package's migrations (cheap when it is not).

    Raises:
        MigrationBusy: another process held the migration lock for more than ``wait`` seconds.
        InvalidInput: the database was migrated by a newer agon (one line, not Alembic's
            traceback).
    """
    head = package_head()
    if engine.dialect.name != "sqlite" and current_revision(engine) == head:
        return  # PostgreSQL: reading the revision is safe while another process migrates
    with migration_lock(engine, wait=wait):
        current = current_revision(engine)
        if current is not None and current > head:  # the ids are zero-padded: "0007" > "0006"
            raise InvalidInput(
                f"the database is at migration {current}, newer than this agon knows ({head}): "
                "upgrade agon to use it"
            )
        if current != head:  # another process may have done it meanwhile
            from alembic import command

            command.upgrade(alembic_config(engine), "head")


def _busy(wait: float) -> MigrationBusy:
    return MigrationBusy(
        f"the database is being set up or upgraded by another agon process; waited {wait:g} s "
        "for it to finish — try again in a moment"
    )


@contextmanager
def migration_lock(engine: Engine, *, wait: float = MIGRATION_WAIT_SECONDS) -> Iterator[None]:
    """Hold the database's migration lock (waiting up to ``wait`` seconds for it).

    Raises:
        MigrationBusy: the lock stayed taken for ``wait`` seconds.
    """
    if engine.dialect.name == "sqlite":
        database = engine.url.database or ""
        if not database or database == ":memory:" or database.startswith("file:"):
            yield  # a private in-memory database: nobody to wait for
            return
        with _file_lock(Path(database + ".lock"), wait):
            yield
        return
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        deadline = time.monotonic() + wait
        key = {"space": LOCK_SPACE, "key": MIGRATION_LOCK}
        while not conn.execute(text("SELECT pg_try_advisory_lock(:space, :key)"), key).scalar():
            if time.monotonic() > deadline:
                raise _busy(wait)
            time.sleep(_POLL_SECONDS)
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:space, :key)"), key)


@contextmanager
def _file_lock(path: Path, wait: float) -> Iterator[None]:
    """An exclusive ``flock`` on ``path`` (released by the kernel if the process dies).

    Kept rather than ``filelock`` (4.2.11): that would be a new core dependency that takes 55 ms
    to import and 190 µs to take and free the lock, against 15 µs for this ``flock``.
    """
    import fcntl  # POSIX; imported here so that the module still imports elsewhere

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        fd = -1
    if fd < 0:  # a read-only folder: nobody can migrate there anyway, SQLite will say so
        yield
        return
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise _busy(wait) from None
                time.sleep(_POLL_SECONDS)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
