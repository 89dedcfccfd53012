"""The cap on request bodies (issue 26): 413 before more than the limit is read, on every route.

Without it a client could send a body of any size and the framework read it whole before a route
refused it (4 parallel 150 MB ``POST /api/play`` took a server from 147 MB to 1.1 GB). This pure
ASGI middleware sits in front of everything:

* a declared ``Content-Length`` over the limit is refused when the app first asks for the body,
  before a byte of it is read;
* a body without one (``Transfer-Encoding: chunked``) is counted as it streams in, chunk by
  chunk; the chunk that crosses the limit is the last one read, and the request ends with 413.

Either way the refusal is an :class:`BodyTooLarge` raised from ``receive``: the app's handler of
HTTP errors answers it (JSON for the API, a page in the reader's language otherwise); should the
app let it escape, the middleware answers one plain line.

The limit is :data:`DEFAULT_LIMIT` (1 MiB, far above any form or JSON the app takes) except on
the routes that import a list of players as CSV (:data:`IMPORT_PATH`), which may carry
:data:`IMPORT_LIMIT` (8 MiB: some 100,000 players). Both are settings
(``AGON_MAX_BODY_BYTES``, ``AGON_MAX_IMPORT_BYTES``, :mod:`agon.web.settings`).
"""

from __future__ import annotations

import json
import re

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agon.web.rawanswer import send_answer

#: Bytes any request body may have.
DEFAULT_LIMIT = 1024 * 1024
#: Bytes a players' CSV import may have.
IMPORT_LIMIT = 8 * 1024 * 1024
#: The routes that take a CSV import (the desk's form and the JSON API).
IMPORT_PATH = re.compile(r"^/(?:desk|api/tournaments)/[^/]+/players/import/?$")


class BodyTooLarge(HTTPException):
    """Raised by the counting ``receive`` when the body crosses the limit; the app's handler of
    HTTP errors answers it (413, a page or JSON); the middleware answers it if the app did not."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, detail=refusal(limit))
        self.limit = limit


def refusal(limit: int) -> str:
    """The one line a refused body gets."""
    return f"the request body is too large (at most {limit} bytes here)"


class BodyLimit:
    """Refuse (413) a request body larger than its route's limit, reading no more than that."""

    def __init__(
        self, app: ASGIApp, *, limit: int = DEFAULT_LIMIT, import_limit: int = IMPORT_LIMIT
    ) -> None:
        self.app = app
        self.limit = limit
        self.import_limit = import_limit

    def limit_for(self, path: str) -> int:
        """The bytes a body sent to ``path`` may have."""
        return max(self.limit, self.import_limit) if IMPORT_PATH.match(path) else self.limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
        declared_too_large = False
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                declared = value.strip()
                declared_too_large = not declared.isdigit() or int(declared) > limit
        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            if declared_too_large:
                raise BodyTooLarge(limit)
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except BodyTooLarge:
            if started:  # the app answered already and read on: nothing more to say
                return
            await _refuse(scope, send, limit)


async def _refuse(scope: Scope, send: Send, limit: int) -> None:
    """Answer 413 with one line (JSON for the API, plain text otherwise) and close."""
    if str(scope.get("path", "")).startswith("/api/"):
        body = json.dumps({"detail": refusal(limit)}).encode()
        kind = b"application/json"
    else:
        body = (refusal(limit) + "\n").encode()
        kind = b"text/plain; charset=utf-8"
    await send_answer(send, 413, body, kind, [(b"connection", b"close")])
