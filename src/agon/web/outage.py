"""While the database is away (PostgreSQL stopped or restarting, a closed port, a file that cannot
be opened), the app answers 503 with ``Retry-After`` — an HTML page for pages, JSON for ``/api`` —
instead of a 500 and a traceback per request; it logs one warning per outage
(:class:`agon.store.db.Outage`) and serves again by itself once the database is back (the engines
check a pooled connection before using it, so the first request after the outage reconnects).
"""

from __future__ import annotations

import contextlib
import json
from html import escape

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agon.i18n import N_
from agon.store.db import OUTAGE, Outage, database_fault
from agon.web.rawanswer import send_answer

#: What ``Retry-After`` asks a client to wait (seconds): a restarting PostgreSQL is back in a few.
RETRY_AFTER_SECONDS = 5
#: The page's and the API's message.
UNAVAILABLE = N_("The database cannot be reached right now. Try again in a few seconds.")


class DatabaseOutage:
    """Pure ASGI middleware: a database fault raised before the response has started becomes a
    503 with ``Retry-After``; one raised while a response streams (a game's event stream) ends
    that response cleanly (the phone reconnects, and meets the 503 until the database is back).
    Anything else passes through untouched."""

    def __init__(self, app: ASGIApp, outage: Outage = OUTAGE) -> None:
        self.app = app
        self.outage = outage

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = finished = False

        async def send_tracked(message: Message) -> None:
            nonlocal started, finished
            if message["type"] == "http.response.start":
                started = True
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                finished = True
            await send(message)

        try:
            await self.app(scope, receive, send_tracked)
        except Exception as exc:
            fault = database_fault(exc)
            if fault is None:
                raise
            self.outage.failed(fault)
            if not started:
                await _unavailable(scope, send)
            elif not finished:  # a stream cut short: end it, the client comes back
                with contextlib.suppress(Exception):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _unavailable(scope: Scope, send: Send) -> None:
    path = str(scope.get("path", "/"))
    if path.startswith("/api/"):
        body = json.dumps({"detail": "the database cannot be reached; try again shortly"}).encode()
        content_type = b"application/json"
        lang = "en"
    else:
        lang, body = _page(scope, path)
        content_type = b"text/html; charset=utf-8"
    await send_answer(
        send,
        503,
        body,
        content_type,
        [
            (b"retry-after", str(RETRY_AFTER_SECONDS).encode()),
            (b"cache-control", b"no-store"),
            (b"content-language", lang.encode()),
        ],
    )


def _page(scope: Scope, path: str) -> tuple[str, bytes]:
    """The error page in the reader's language; it asks nothing of the database (no session, no
    director check): a page kept for every reader (:func:`agon.web.templating.render_kept`)."""
    from starlette.requests import Request

    from agon.web.deps import language
    from agon.web.templating import render_kept, tr

    lang = "en"
    try:
        lang = language(Request(scope))
        message = tr(lang, UNAVAILABLE)
        html = render_kept("error.html", lang, path=path, status=503, message=message, back=path)
    except Exception:  # the page must not fail in its turn: plain text in English
        html = f"<!doctype html><title>503 · agon</title><p>{escape(UNAVAILABLE)}</p>"
    return lang, html.encode("utf-8")
