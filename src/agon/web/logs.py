"""What ``agon serve`` logs (issue 27): the level, text or JSON lines, and an access log that is
opt-in and never holds a secret.

* :func:`logging_config` is the ``logging.config.dictConfig`` that uvicorn is started with
  (``--log-level``, ``--log-format text|json``): agon's loggers and uvicorn's at the same level, on
  standard error. JSON lines (:class:`JsonFormatter`) are one object per line with ``time``,
  ``level``, ``logger``, ``message`` and, for the access log, the request's fields.
* :class:`AccessLog` (``--access-log``) logs one line per request at ``info`` on the logger
  ``agon.access``: client, method, path, status, bytes, milliseconds. Uvicorn's own access log is
  off: it would log the raw URL.
* :func:`redact` takes the secrets out of a URL first: the value of every query parameter whose
  name says it is a secret (``token``, ``key``, ``code``, ``password``, ``pin``, ``secret``,
  ``sig``…), the path segment after ``/link/``, ``/seat/``, ``/invite/``, ``/register/``,
  ``/reset/`` or ``/token/`` (login, seat, invitation, registration and reset links), and any
  path segment that looks like a random token (20+ characters of URL-safe base64 that mix
  upper- and lower-case letters). Game ids and tournament slugs stay readable.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, quote, unquote

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agon.web.security import ProxyNetwork, client_address

ACCESS_LOGGER = "agon.access"
REDACTED = "REDACTED"
#: Query parameters whose values are secrets (a name containing one of these words).
SECRET_PARAMS = ("token", "key", "code", "password", "passwd", "pin", "secret", "sig", "auth")
#: Path segments after which the next segment is a secret.
SECRET_AFTER = frozenset({"link", "seat", "invite", "invitation", "register", "reset", "token"})
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{20,}")


def _secret_segment(segment: str) -> bool:
    """Does a path segment look like a random token?

    >>> _secret_segment("bonn-spielt-qualifier-2026"), _secret_segment("Zq3u_0Jx9fK2LmN8pQr4sT6v")
    (False, True)
    """
    text = unquote(segment)
    return bool(
        _TOKEN_LIKE.fullmatch(text)
        and any(c.isupper() for c in text)
        and any(c.islower() for c in text)
    )


def redact(path: str, query: str = "") -> str:
    """``path?query`` with its secrets replaced by ``REDACTED`` (see the module).

    >>> redact("/play/g1/board", "token=Ab3dEf&lang=de")
    '/play/g1/board?token=REDACTED&lang=de'
    >>> redact("/desk/link/abc")
    '/desk/link/REDACTED'
    """
    segments = path.split("/")
    out = []
    after_secret = False
    for segment in segments:
        secret = bool(segment) and (after_secret or _secret_segment(segment))
        out.append(REDACTED if secret else segment)
        after_secret = unquote(segment).lower() in SECRET_AFTER
    shown = "/".join(out)
    if not query:
        return shown
    pairs = []
    for name, value in parse_qsl(query, keep_blank_values=True):
        lowered = name.lower()
        if any(word in lowered for word in SECRET_PARAMS) or _secret_segment(value):
            value = REDACTED
        pairs.append(f"{quote(name, safe='')}={quote(value, safe='')}")
    return f"{shown}?{'&'.join(pairs)}" if pairs else shown


class JsonFormatter(logging.Formatter):
    """One JSON object per line (``time``, ``level``, ``logger``, ``message``, the extras)."""

    #: A record's extras that are copied into the line (the access log's fields).
    FIELDS = ("client", "method", "path", "status", "bytes", "ms", "route")

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in self.FIELDS:
            if field in record.__dict__:
                line[field] = record.__dict__[field]
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def logging_config(level: str = "warning", fmt: str = "text") -> dict[str, Any]:
    """The ``dictConfig`` of ``agon serve``: agon's and uvicorn's loggers at ``level``."""
    name = level.upper()
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonFormatter"}
        if fmt == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    handler = {"class": "logging.StreamHandler", "formatter": "agon", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"agon": formatter},
        "handlers": {"agon": handler},
        "loggers": {
            "agon": {"handlers": ["agon"], "level": name, "propagate": False},
            "uvicorn": {"handlers": ["agon"], "level": name, "propagate": False},
            "uvicorn.error": {"level": name},
            "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},
        },
    }


class AccessLog:
    """Pure ASGI middleware: one ``info`` line per request on ``agon.access``, secrets redacted."""

    def __init__(self, app: ASGIApp, trusted: Collection[ProxyNetwork | str] = ()) -> None:
        self.app = app
        self.trusted = trusted
        self.log = logging.getLogger(ACCESS_LOGGER)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.log.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        method = str(scope["method"])
        path = redact(str(scope["path"]), scope.get("query_string", b"").decode("latin-1"))
        status = 500
        sent = 0

        async def send_counted(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, send_counted)
        finally:
            ms = round((time.perf_counter() - began) * 1000, 1)
            forwarded = None
            for name, value in scope.get("headers", ()):
                if name == b"x-forwarded-for":
                    forwarded = value.decode("latin-1")
            client = scope.get("client")
            who = client_address(client[0] if client else None, forwarded, self.trusted)
            self.log.info(
                '%s "%s %s" %d %d %.1fms',
                who,
                method,
                path,
                status,
                sent,
                ms,
                extra={
                    "client": who,
                    "method": method,
                    "path": path,
                    "status": status,
                    "bytes": sent,
                    "ms": ms,
                },
            )
