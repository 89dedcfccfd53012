"""``agon db backup FILE`` / ``agon db restore FILE``: the whole database, safe while it is in use.

SQLite: the online backup API (:meth:`sqlite3.Connection.backup`) copies a consistent snapshot
while the server keeps writing (WAL: readers and the backup never block writers), into a new file
that is then checked (``PRAGMA integrity_check``, and the journal's JSON) and moved into place. A restore copies the file into
the database the same way, in one step: the server's connections see the old database or the
restored one, never a mixture.

PostgreSQL: ``pg_dump --format=custom`` (a consistent snapshot, taken in one transaction) and
``pg_restore --clean --if-exists --single-transaction`` (all or nothing). They come with
PostgreSQL's client programs: on ``PATH``, else Debian's ``/usr/lib/postgresql/N/bin``.

A restore first checks the file (an agon database of a revision this agon knows, not truncated),
and refuses to replace a database that holds data unless forced.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL

from agon.errors import InvalidInput
from agon.store.db import database_url, private_file

SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"
#: The tables that make a database agon's (any revision).
AGON_TABLES = ("alembic_version", "journal", "tournaments")
#: The tables whose rows are data: a restore over them needs ``--force``.
DATA_TABLES = ("journal", "play_games", "settings")


@dataclass(frozen=True, slots=True)
class Done:
    """What a backup or restore did, for the command's one line: the file written (a backup)
    or the database restored."""

    path: Path
    backend: str
    revision: str | None
    journal_entries: int


# --- SQLite ---------------------------------------------------------------------------------------


def _sqlite_path(url: URL) -> Path:
    database = url.database or ""
    if not database or database == ":memory:":
        raise InvalidInput("an in-memory SQLite database cannot be backed up or restored")
    return Path(database)


@contextlib.contextmanager
def _sqlite(path: Path, *, readonly: bool) -> Iterator[sqlite3.Connection]:
    uri = f"file:{path}?mode=ro" if readonly else f"file:{path}"
    conn = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


def _flat(text: object) -> str:
    """A message of SQLite's (``integrity_check`` lists problems one a line) on one line."""
    return "; ".join(line.strip() for line in str(text).splitlines() if line.strip())


def _check_sqlite_file(path: Path, what: str) -> tuple[str, int]:
    """The revision and journal length of an agon SQLite database file.

    Raises:
        InvalidInput: not a SQLite file, damaged or truncated, not agon's, or of a revision this
        agon does not know.
    """
    try:
        with path.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot read {what}: {exc.strerror or exc}") from None
    if head != SQLITE_MAGIC:
        raise InvalidInput(f"{path}: not a SQLite database file (nor a pg_dump archive)")
    try:
        with _sqlite(path, readonly=True) as conn:
            check = conn.execute("PRAGMA integrity_check").fetchall()
            if check != [("ok",)]:
                raise InvalidInput(f"{path}: a damaged {what} ({_flat(check[0][0])})")
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            missing = [t for t in AGON_TABLES if t not in names]
            if missing:
                raise InvalidInput(f"{path}: not an agon database (no table {missing[0]!r})")
            broken = conn.execute(
                "SELECT id FROM journal WHERE NOT json_valid(payload) OR NOT json_valid(before) "
                "OR NOT json_valid(after) LIMIT 1"
            ).fetchone()
            if broken is not None:
                raise InvalidInput(f"{path}: a damaged {what} (journal entry {broken[0]})")
            revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()
            entries = conn.execute("SELECT count(*) FROM journal").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise InvalidInput(f"{path}: a damaged or truncated {what} ({_flat(exc)})") from None
    except UnicodeDecodeError:  # a damaged byte in a text (integrity_check quotes such a text)
        raise InvalidInput(f"{path}: a damaged {what} (a text that is not UTF-8)") from None
    _check_revision(path, revision[0] if revision else None)
    return str(revision[0]), int(entries)


def _check_revision(path: Path, revision: str | None) -> None:
    from agon.store.migrate import package_head

    if revision is None:
        raise InvalidInput(f"{path}: an agon database that was never migrated (no revision)")
    if revision > package_head():
        raise InvalidInput(
            f"{path}: made by a newer agon (revision {revision}; this one knows up to "
            f"{package_head()}); restore it with that version"
        )


def _backup_sqlite(url: URL, target: Path) -> Done:
    source = _sqlite_path(url)
    if not source.is_file():
        raise InvalidInput(f"no database at {source} (AGON_DATABASE_URL): nothing to back up")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    try:
        try:
            with _sqlite(source, readonly=False) as src, _sqlite(partial, readonly=False) as dst:
                src.backup(dst)  # one consistent snapshot; writers go on meanwhile (WAL)
                dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        except sqlite3.Error as exc:
            raise InvalidInput(f"backing up {source} failed: {_flat(exc)}") from None
        revision, entries = _check_sqlite_file(partial, "backup")
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return Done(target, "sqlite", revision, entries)


def _sqlite_has_data(path: Path) -> bool:
    if not path.is_file() or path.stat().st_size == 0:
        return False
    try:
        with _sqlite(path, readonly=True) as conn:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            return any(
                conn.execute(f'SELECT 1 FROM "{t}" LIMIT 1').fetchone() is not None
                for t in DATA_TABLES
                if t in names
            )
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return True  # something we cannot read: not ours to overwrite unasked


def _restore_sqlite(url: URL, source: Path, *, force: bool) -> Done:
    revision, entries = _check_sqlite_file(source, "backup")
    target = _sqlite_path(url)
    if not force and _sqlite_has_data(target):
        raise InvalidInput(
            f"the database at {target} holds data; nothing restored (give --force to replace it)"
        )
    private_file(target)
    try:
        with _sqlite(source, readonly=True) as src, _sqlite(target, readonly=False) as dst:
            src.backup(dst)  # replaces the whole database in one write transaction
            dst.execute("PRAGMA journal_mode = WAL")
    except sqlite3.Error as exc:
        raise InvalidInput(f"restoring {source} into {target} failed: {_flat(exc)}") from None
    return Done(target, "sqlite", revision, entries)


# --- PostgreSQL -----------------------------------------------------------------------------------


def pg_program(name: str) -> Path | None:
    """``pg_dump``/``pg_restore``: on PATH, else Debian's newest ``/usr/lib/postgresql/N/bin``."""
    found = shutil.which(name)
    if found:
        return Path(found)
    candidates = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(n) if (n := Path(p).parent.parent.name).isdigit() else 0,
    )
    return Path(candidates[-1]) if candidates else None


def _need(name: str) -> Path:
    program = pg_program(name)
    if program is None:
        raise InvalidInput(
            f"{name} is not installed (PostgreSQL's client programs; Debian: apt-get install "
            "postgresql-client); nothing done"
        )
    return program


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """The URL as libpq reads it (without the password) and the environment with it."""
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _run(cmd: list[str], env: dict[str, str], what: str) -> None:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
        raise InvalidInput(f"{what} failed: {lines[-1] if lines else f'exit {done.returncode}'}")


def _pg_counts(url: URL) -> tuple[str | None, int, bool]:
    """Revision, journal length, and whether the database holds data."""
    from sqlalchemy import inspect, text

    from agon.store.db import Settings, make_engine

    engine = make_engine(Settings(url.render_as_string(hide_password=False)))
    try:
        with engine.connect() as conn:
            names = set(inspect(conn).get_table_names())
            revision = (
                conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
                if "alembic_version" in names
                else None
            )
            entries = (
                int(conn.execute(text("SELECT count(*) FROM journal")).scalar() or 0)
                if "journal" in names
                else 0
            )
            data = any(
                conn.execute(text(f'SELECT 1 FROM "{t}" LIMIT 1')).first() is not None
                for t in DATA_TABLES
                if t in names
            )
    finally:
        engine.dispose()
    return revision, entries, data


def _backup_pg(url: URL, target: Path) -> Done:
    pg_dump = _need("pg_dump")
    conninfo, env = _libpq(url)
    partial = target.with_name(target.name + ".partial")
    try:
        _run(
            [str(pg_dump), "--format=custom", "--no-owner", f"--file={partial}", conninfo],
            env,
            "pg_dump",
        )
        os.chmod(partial, 0o600)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    revision, entries, _ = _pg_counts(url)
    return Done(target, "postgresql", revision, entries)


def _restore_pg(url: URL, source: Path, *, force: bool) -> Done:
    try:
        with source.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise InvalidInput(f"{source}: cannot read backup: {exc.strerror or exc}") from None
    if not head.startswith(PGDUMP_MAGIC):
        kind = "a SQLite database" if head == SQLITE_MAGIC else "not a pg_dump archive"
        raise InvalidInput(
            f"{source}: {kind}; a PostgreSQL database restores from 'agon db backup' of one "
            "(to move one event between back-ends: agon export --journal)"
        )
    pg_restore = _need("pg_restore")
    listing = subprocess.run(
        [str(pg_restore), "--list", str(source)], capture_output=True, text=True, check=False
    )
    if listing.returncode != 0:
        raise InvalidInput(f"{source}: a damaged or truncated pg_dump archive")
    if " TABLE public journal " not in listing.stdout:
        raise InvalidInput(f"{source}: not an agon database (no table 'journal')")
    _, _, data = _pg_counts(url)
    if data and not force:
        raise InvalidInput("the database holds data; nothing restored (give --force to replace it)")
    conninfo, env = _libpq(url)
    _run(
        [
            str(pg_restore),
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            "--exit-on-error",
            f"--dbname={conninfo}",
            str(source),
        ],
        env,
        "pg_restore",
    )
    revision, entries, _ = _pg_counts(url)
    return Done(Path(url.database or ""), "postgresql", revision, entries)


# --- the two commands -----------------------------------------------------------------------------


def backup(database: str, target: Path, *, force: bool = False) -> Done:
    """Back up the whole database ``database`` (a URL) into the file ``target``.

    Raises:
        InvalidInput: no database there, ``target`` exists (without ``force``), a tool missing.
    """
    url = database_url(database)
    if target.exists() and not force:
        raise InvalidInput(f"{target} exists; nothing written (give --force to replace it)")
    if target.is_dir():
        raise InvalidInput(f"{target} is a folder; give a file name")
    if url.get_backend_name() == "sqlite":
        return _backup_sqlite(url, target)
    if url.get_backend_name() == "postgresql":
        return _backup_pg(url, target)
    raise InvalidInput(f"cannot back up a {url.get_backend_name()} database")


def restore(database: str, source: Path, *, force: bool = False) -> Done:
    """Replace the whole database ``database`` (a URL) by the backup ``source``.

    Raises:
        InvalidInput: the file is not a good backup, or the database holds data (without
        ``force``).
    """
    url = database_url(database)
    if not source.is_file():
        raise InvalidInput(f"{source}: no such backup file")
    if url.get_backend_name() == "sqlite":
        return _restore_sqlite(url, source, force=force)
    if url.get_backend_name() == "postgresql":
        return _restore_pg(url, source, force=force)
    raise InvalidInput(f"cannot restore a {url.get_backend_name()} database")
