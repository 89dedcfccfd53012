"""The app's secret key: kept out of the database (issue 10, defect 8).

The key signs the session cookie and derives every table PIN, so whoever holds it can forge a
director's cookie and print any table's PIN. It therefore never lives in the database, which
directors copy, export and back up:

* ``AGON_SECRET_KEY`` in the environment, if set; else
* a key file, mode 0600 in a folder of mode 0700: ``AGON_SECRET_FILE``, or by default next to
  the SQLite database with the suffix ``.key`` (``./var/agon.key`` for ``./var/agon.db``), or
  ``./var/agon.key`` for PostgreSQL. It is made on first start.

Older versions kept the key in the ``settings`` table; at start-up it is moved into the key file
(so printed PINs stay valid) and deleted from the database with SQLite's ``secure_delete``, the
write-ahead log checkpointed and truncated, so the file no longer holds its bytes.
``agon secret rotate`` writes a new key: every director session ends and every table PIN changes
(reprint the score sheets and table cards of running rounds).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from sqlalchemy import Engine, delete, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from agon.errors import InvalidInput
from agon.store.db import DEFAULT_URL, begin_write
from agon.store.models import Setting

#: Where versions before issue 10 kept the key (moved out at start-up).
LEGACY_SETTING = "web_secret_key"


def secret_file(database_url: str, configured: str | None = None) -> Path:
    """The key file for ``database_url`` (``configured`` = ``AGON_SECRET_FILE`` wins).

    >>> secret_file("sqlite:///./var/agon.db").as_posix()
    'var/agon.key'
    >>> secret_file("postgresql+psycopg://agon@db/agon").as_posix()
    'var/agon.key'
    """
    if configured:
        return Path(configured)
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return Path(str(url.database)).with_suffix(".key")
    default = make_url(DEFAULT_URL).database
    return Path(str(default)).with_suffix(".key")


def _write_private(path: Path, value: str, *, replace: bool = True) -> None:
    """Write ``value`` to ``path`` atomically, readable by the owner only (folder 0700).

    With ``replace=False`` an existing file is kept (two processes starting at once agree on
    the key the first of them wrote).
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(value + "\n")
            out.flush()
            os.fsync(out.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _read(path: Path) -> str:
    """The key in ``path``; a file others can read is made private first.

    Raises:
        InvalidInput: the file is empty.
    """
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o600)
    value = path.read_text(encoding="ascii", errors="replace").strip()
    if len(value) < 16:
        raise InvalidInput(
            f"secret key file {str(path)!r}: empty or too short; delete it or fill it"
        )
    return value


def legacy_secret(sessions: sessionmaker[Session]) -> str | None:
    """The key an older version kept in the database, if it is still there."""
    with sessions() as session:
        return session.scalar(select(Setting.value).where(Setting.key == LEGACY_SETTING))


def pop_legacy_secret(engine: Engine, sessions: sessionmaker[Session]) -> str | None:
    """Remove the key older versions kept in the database; return it (``None`` if there was none).

    On SQLite the row is deleted with ``secure_delete`` (its bytes are overwritten) and the
    write-ahead log is checkpointed and truncated, so no copy of the file still holds the key.
    """
    value = legacy_secret(sessions)
    if value is None:
        return None
    if engine.dialect.name != "sqlite":
        with sessions() as session:
            begin_write(session)
            session.execute(delete(Setting).where(Setting.key == LEGACY_SETTING))
            session.commit()
        return value
    raw = engine.raw_connection()  # autocommit (the store's connect hook): we say BEGIN ourselves
    try:
        cur = raw.cursor()
        cur.execute("PRAGMA secure_delete = ON")
        cur.execute("BEGIN IMMEDIATE")
        cur.execute("DELETE FROM settings WHERE key = ?", (LEGACY_SETTING,))
        cur.execute("COMMIT")
        cur.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        cur.execute("PRAGMA secure_delete = OFF")
        cur.close()
    finally:
        raw.close()
    return value


def load_secret(
    *,
    environment_key: str | None,
    path: Path,
    engine: Engine,
    sessions: sessionmaker[Session],
) -> str:
    """The key to use: the environment's, else the key file's (made, or moved out of the database,
    on first start). A key left in the database by an older version is written to the file first
    and only then deleted, so a crash in between loses nothing; it is deleted either way."""
    legacy = legacy_secret(sessions)
    key = environment_key
    if not key:
        if not path.exists():
            _write_private(path, legacy or secrets.token_urlsafe(32), replace=False)
        key = _read(path)
    if legacy is not None:
        pop_legacy_secret(engine, sessions)
    return key


def rotate_secret(path: Path, sessions: sessionmaker[Session]) -> None:
    """Write a new key to ``path`` and close every director session."""
    from agon.web.sessions import close_all

    _write_private(path, secrets.token_urlsafe(32))
    with sessions() as session:
        close_all(session)
