"""One-time director login links (``agon desk link``, issue 26).

The password login is limited per client address (ten wrong tries per ten minutes): at a venue
where every phone shares one address, a few guessers lock the real director out. Whoever can run
``agon`` on the machine that serves the event is the director anyway, so ``agon desk link`` makes
a link that logs a browser in without the password and without any web limit:

* the token is random (256 bits); the database keeps only its SHA-256 (table
  ``web_login_links``), so a copy of the database opens nothing;
* it is short-lived (10 minutes unless ``--minutes``) and works once: the first request that
  opens it marks it used in the same ``UPDATE`` that checks it, so two browsers racing for it
  cannot both get in.
"""

from __future__ import annotations

import hashlib
import time
from enum import Enum
from typing import cast

from sqlalchemy import Engine, Table, delete, insert, select, update

from agon.store.db import WRITE_OPTION
from agon.store.models import LoginLinkRow
from agon.web.security import new_token

LINKS = cast(Table, LoginLinkRow.__table__)
#: Minutes a link lasts unless asked otherwise, and at most.
DEFAULT_MINUTES = 10
MAX_MINUTES = 24 * 60
#: The path a link opens (the token follows).
LINK_PATH = "/desk/link/"
#: Used or expired links are kept this long (to say "used" rather than "unknown"), then deleted.
KEPT_SECONDS = 7 * 24 * 3600


class LinkState(Enum):
    """What opening a link found."""

    OK = "ok"
    USED = "used"
    EXPIRED = "expired"
    UNKNOWN = "unknown"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def create_link(engine: Engine, *, minutes: int = DEFAULT_MINUTES, now: float | None = None) -> str:
    """A new link's token, valid for ``minutes`` from ``now`` (old links are swept here)."""
    moment = int(time.time() if now is None else now)
    token = new_token()
    with engine.connect() as conn:
        conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            conn.execute(delete(LINKS).where(LINKS.c.expires_at < moment - KEPT_SECONDS))
            conn.execute(
                insert(LINKS).values(token_hash=_hash(token), expires_at=moment + minutes * 60)
            )
    return token


def consume(engine: Engine, token: str, *, now: float | None = None) -> LinkState:
    """Use the link of ``token``: :attr:`LinkState.OK` the first time (within its lifetime), else
    why not. The check and the use are one statement."""
    moment = int(time.time() if now is None else now)
    hashed = _hash(token)
    with engine.connect() as conn:
        conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            used = conn.execute(
                update(LINKS)
                .where(
                    LINKS.c.token_hash == hashed,
                    LINKS.c.used_at.is_(None),
                    LINKS.c.expires_at >= moment,
                )
                .values(used_at=moment)
            )
            if used.rowcount == 1:
                return LinkState.OK
            row = conn.execute(
                select(LINKS.c.used_at, LINKS.c.expires_at).where(LINKS.c.token_hash == hashed)
            ).first()
    if row is None:
        return LinkState.UNKNOWN
    return LinkState.USED if row.used_at is not None else LinkState.EXPIRED
