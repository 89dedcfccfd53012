"""Across worker processes: PostgreSQL's LISTEN/NOTIFY carries every accepted action (issue 12).

Every commit of an online game's action sends ``NOTIFY agon_play, '<game_id> <version>'``
(:func:`agon.play.store.append_actions`, in the same transaction, so it is delivered exactly when
the action is stored). Each worker process of ``agon serve --workers N`` keeps one asynchronous
psycopg connection listening on that channel and hands every notification to its own
:class:`~agon.play.service.Broadcaster`; the event streams it serves then read the game's new
state (catching up with the log). On SQLite (one worker) nothing listens: the process's own
broadcaster is enough.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from agon.play.service import PlayService
from agon.play.store import CHANNEL, SEATS_CHANGED
from agon.store.db import OUTAGE, database_fault, database_url

log = logging.getLogger(__name__)
#: Seconds between attempts to reconnect a lost listening connection.
RETRY_SECONDS = 1.0


def listen_url(url_text: str) -> str | None:
    """The libpq connection string of a PostgreSQL database URL, else ``None`` (SQLite)."""
    url = database_url(url_text)
    if url.get_backend_name() != "postgresql":
        return None
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


async def listen(service: PlayService, conninfo: str, ready: asyncio.Event | None = None) -> None:
    """Forward the channel's notifications to ``service``'s broadcaster until cancelled."""
    import psycopg

    lost = False
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                if lost:  # what was announced meanwhile never came: every game looks again
                    log.info("LISTEN %s back", CHANNEL)
                    service.resync()
                    lost = False
                if ready is not None:
                    ready.set()
                async for note in conn.notifies():
                    game_id, _, version = note.payload.partition(" ")
                    if version == SEATS_CHANGED:  # a bot took a seat in another process
                        service.reseated(game_id)
                        continue
                    with contextlib.suppress(ValueError):
                        service.announced(game_id, int(version))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            fault = database_fault(exc)
            if fault is None:
                log.exception("LISTEN %s lost; reconnecting", CHANNEL)
            else:  # the database is away: one line per outage, not one per retry
                OUTAGE.failed(f"LISTEN {CHANNEL}: {fault}")
            lost = True
            await asyncio.sleep(RETRY_SECONDS)
