"""The web's limits, counted in the database (issue 26): shared by every server process and kept
across restarts.

In memory (one :class:`agon.web.security.AttemptLimiter` per process), ``agon serve --workers N``
gave every client N times the allowance of wrong logins, wrong PINs and new games, and a restart
gave it all back. Here a limit is a counter per ``(kind, key)`` in table ``web_attempts``, for a
fixed window: the first try opens a window of ``window`` seconds, each try adds one, a try that
finds the window over starts a new one. A try is counted *before* the costly check (the Argon2
hash, the PIN) with ONE statement — an ``INSERT … ON CONFLICT DO UPDATE … RETURNING count``, the
same on SQLite and PostgreSQL — so parallel tries on any number of workers cannot all pass the
count before they are recorded: the database serialises them on the row. A try that turns out
right is handed back (:meth:`DatabaseLimiter.succeeded`, one ``UPDATE``) and does not count.

Keys are hashed (SHA-256): the table never holds a client's address or a player's name.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Engine, Table, and_, case, delete, or_, update
from sqlalchemy.dialects import postgresql, sqlite

from agon.store.db import WRITE_OPTION
from agon.store.models import AttemptRow

ATTEMPTS = cast(Table, AttemptRow.__table__)


@dataclass(frozen=True, slots=True)
class Counter:
    """One counted limit: ``limit`` tries of ``kind`` per ``window`` seconds for ``key``."""

    kind: str
    key: str
    limit: int
    window: int

    @property
    def hashed(self) -> str:
        return hashlib.sha256(self.key.encode("utf-8", "surrogatepass")).hexdigest()


def reserve(engine: Engine, counters: Sequence[Counter], *, now: float | None = None) -> bool:
    """Count one try on every counter (one statement); ``True`` when all are within their limit.

    A refused try is counted too (the window does not grow by it): a client that keeps trying
    stays refused until its window ends.
    """
    if not counters:
        return True
    moment = int(time.time() if now is None else now)
    rows = [
        {"kind": c.kind, "key": c.hashed, "count": 1, "expires_at": moment + c.window}
        for c in counters
    ]
    insert = (
        postgresql.insert(ATTEMPTS)
        if engine.dialect.name == "postgresql"
        else sqlite.insert(ATTEMPTS)
    )
    values = insert.values(rows)
    over = ATTEMPTS.c.expires_at <= moment
    stmt = values.on_conflict_do_update(
        index_elements=[ATTEMPTS.c.kind, ATTEMPTS.c.key],
        set_={
            "count": case((over, 1), else_=ATTEMPTS.c["count"] + 1),
            "expires_at": case((over, values.excluded.expires_at), else_=ATTEMPTS.c.expires_at),
        },
    ).returning(ATTEMPTS.c.kind, ATTEMPTS.c.key, ATTEMPTS.c["count"])
    limits = {(c.kind, c.hashed): c.limit for c in counters}
    with engine.connect() as conn:
        conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            counted = conn.execute(stmt).all()
    return all(count <= limits[(kind, key)] for kind, key, count in counted)


def hand_back(engine: Engine, counters: Sequence[Counter]) -> None:
    """The reserved try was right: take it off every counter again (one statement)."""
    if not counters:
        return
    stmt = (
        update(ATTEMPTS)
        .where(
            or_(*(and_(ATTEMPTS.c.kind == c.kind, ATTEMPTS.c.key == c.hashed) for c in counters)),
            ATTEMPTS.c["count"] > 0,
        )
        .values(count=ATTEMPTS.c["count"] - 1)
    )
    with engine.connect() as conn:
        conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            conn.execute(stmt)


def forget_expired(engine: Engine, *, now: float | None = None) -> int:
    """Delete the counters whose window is over (the server does it now and then)."""
    moment = int(time.time() if now is None else now)
    with engine.connect() as conn:
        conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            result = conn.execute(delete(ATTEMPTS).where(ATTEMPTS.c.expires_at <= moment))
    return int(result.rowcount or 0)


class DatabaseLimiter:
    """A limit of one kind (``limit`` tries per ``window`` seconds and key), optionally with a
    second cap per client address over all keys (``per_address`` tries of ``kind-address``):
    the PIN brake counts per address *and* table, and per address over all tables.

    Drop-in for :class:`agon.web.security.AttemptLimiter` (``reserve(key)``, ``succeeded(key)``);
    ``address`` names the client for the second cap.
    """

    def __init__(
        self,
        engine: Engine,
        kind: str,
        *,
        limit: int,
        window_seconds: int,
        per_address: int | None = None,
    ) -> None:
        self.engine = engine
        self.kind = kind
        self.limit = limit
        self.window = window_seconds
        self.per_address = per_address

    def counters(self, key: str, address: str | None) -> list[Counter]:
        found = [Counter(self.kind, key, self.limit, self.window)]
        if address is not None and self.per_address is not None:
            found.append(Counter(self.kind + "-address", address, self.per_address, self.window))
        return found

    def reserve(self, key: str, *, address: str | None = None, now: float | None = None) -> bool:
        """Count one try for ``key`` (and ``address``); ``False``: over a limit, refuse it."""
        return reserve(self.engine, self.counters(key, address), now=now)

    def succeeded(self, key: str, *, address: str | None = None) -> None:
        """A reserved try was right: it does not count."""
        hand_back(self.engine, self.counters(key, address))
