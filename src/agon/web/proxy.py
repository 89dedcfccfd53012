"""What lies between a reverse proxy or an uptime monitor and the app (issue 27): ``HEAD`` wherever
``GET`` works, the scheme a trusted proxy reports, and a path prefix (``--root-path``).

* :class:`HeadAsGet`: a ``HEAD`` request is answered as the ``GET`` of the same URL would be —
  same status, same headers (``content-length`` included) — without the body. An event stream
  is ended as soon as its headers are out.
* :class:`ForwardedProto`: ``X-Forwarded-Proto`` (``http``/``https``) sets the request's scheme,
  but only when the connection comes from a trusted proxy (``AGON_TRUSTED_PROXIES``, addresses or
  CIDR ranges, :func:`agon.web.security.is_trusted`); from anyone else it is ignored.
* :class:`RootPath`: the app served under a prefix (``/agon``). A request arrives with the prefix
  (a proxy that passes the path on) or without it (one that strips it); the app inside sees the
  path without it either way. On the way out the prefix is put in front of every ``Location`` (and
  htmx's ``HX-Redirect``/``HX-Location``) that starts with ``/``, and of every site-absolute
  link in an HTML page (``href``, ``src``, ``action``, ``formaction``, ``hx-*`` and ``data-*``
  attributes whose value starts with one ``/``); the pages' scripts take their URLs from those
  attributes. JSON bodies are left alone: the one route that answers a site-absolute link in
  JSON (``POST /api/play``: the seats' ``url``) puts the prefix in itself (:data:`ROOT_PATH_KEY`).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agon.web.security import ProxyNetwork, is_trusted


class HeadAsGet:
    """Pure ASGI middleware: ``HEAD`` runs the ``GET`` route and sends no body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        scope["method"] = "GET"  # routed as a GET; the server is told HEAD again before the
        started = done = False  # answer goes out (uvicorn reads it there: no body expected)

        async def receive_until_answered() -> Message:
            if started:  # the headers are out: a stream waiting for more is told the client left
                return {"type": "http.disconnect"}
            return await receive()

        async def send_without_body(message: Message) -> None:
            nonlocal started, done
            scope["method"] = "HEAD"
            if message["type"] == "http.response.start":
                started = True
                await send(message)
            elif message["type"] == "http.response.body":
                if not done:
                    done = True
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
            else:
                await send(message)

        try:
            await self.app(scope, receive_until_answered, send_without_body)
        finally:
            scope["method"] = "HEAD"


class ForwardedProto:
    """Pure ASGI middleware: the scheme from ``X-Forwarded-Proto`` of a trusted proxy."""

    def __init__(self, app: ASGIApp, trusted: Collection[ProxyNetwork | str]) -> None:
        self.app = app
        self.trusted = trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self.trusted:
            client = scope.get("client")
            peer = client[0] if client else None
            if peer and is_trusted(peer, self.trusted):
                for name, value in scope.get("headers", ()):
                    if name == b"x-forwarded-proto":
                        proto = value.decode("latin-1").split(",")[0].strip().lower()
                        if proto in ("http", "https"):
                            scope["scheme"] = proto
                        break
        await self.app(scope, receive, send)


#: Where the prefix is told to the routes (``request.scope``) that make links in JSON.
ROOT_PATH_KEY = "agon.root_path"
#: A site-absolute URL in an attribute of a page: ``name="/…"`` (not ``//host``).
_LINK = re.compile(
    rb"""(?P<lead>\s(?:href|src|action|formaction|hx-[a-z-]+|data-[a-z0-9-]+)=(?P<q>["']))/(?!/)"""
)
#: Response headers that carry a URL to follow.
_URL_HEADERS = (b"location", b"hx-redirect", b"hx-location")


def prefixed(prefix: str, url: str) -> str:
    """``url`` under ``prefix`` when it is site-absolute (``/x``, not ``//host`` or ``http:``).

    >>> prefixed("/agon", "/desk"), prefixed("/agon", "https://x/desk"), prefixed("/agon", "//x")
    ('/agon/desk', 'https://x/desk', '//x')
    """
    if url.startswith("/") and not url.startswith("//") and not url.startswith(prefix + "/"):
        return prefix + url
    return url


def rewrite_links(prefix: str, html: bytes) -> bytes:
    """Every site-absolute link attribute of ``html`` under ``prefix``.

    >>> rewrite_links("/agon", b'<a href="/p/x">x</a><a href="//cdn/y"><b data-frag="/t">')
    b'<a href="/agon/p/x">x</a><a href="//cdn/y"><b data-frag="/agon/t">'
    """
    return _LINK.sub(lambda m: m.group("lead") + prefix.encode() + b"/", html)


class RootPath:
    """Pure ASGI middleware: the app under ``prefix`` (see the module)."""

    def __init__(self, app: ASGIApp, prefix: str) -> None:
        self.app = app
        self.prefix = prefix.rstrip("/")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not self.prefix:
            await self.app(scope, receive, send)
            return
        prefix = self.prefix
        path = str(scope["path"])
        if path == prefix or path.startswith(prefix + "/"):
            path = path[len(prefix) :] or "/"
        scope["path"] = path
        raw = scope.get("raw_path")
        if isinstance(raw, bytes) and (
            raw == prefix.encode() or raw.startswith(prefix.encode() + b"/")
        ):
            scope["raw_path"] = raw[len(prefix) :] or b"/"
        scope["root_path"] = ""  # the links are rewritten here, not made by the app
        scope[ROOT_PATH_KEY] = prefix
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def send_prefixed(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = [
                    (k, prefixed(prefix, v.decode("latin-1")).encode("latin-1"))
                    if k.lower() in _URL_HEADERS
                    else (k, v)
                    for k, v in message.get("headers", ())
                ]
                message = {**message, "headers": headers}
                content_type = dict((k.lower(), v) for k, v in headers).get(b"content-type", b"")
                if content_type.startswith(b"text/html"):
                    start = message  # held until the whole page is here
                    return
                await send(message)
            elif message["type"] == "http.response.body" and start is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                body = rewrite_links(prefix, b"".join(chunks))
                headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(body)).encode()))
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": body, "more_body": False})
            else:
                await send(message)

        await self.app(scope, receive, send_prefixed)
