"""The pages phones poll, answered from memory without the web framework's routing.

The public standings page (``/p/SLUG``) and its table (``/p/SLUG/standings-table``) are rendered
once per journal version of the tournament and language — by the write that changed them
(:func:`agon.web.routes.public.prerender`), else by the first reader — and kept as a
:class:`CachedPage`. :class:`CachedPages` sits in front of the routes (inside the
session and security-header middleware, so cookies and headers come out as on any other page):
a ``GET`` of such a page whose current version is known and rendered is answered with the kept
bytes at once — routing and dependency injection, most of a cached read's cost, are skipped.
Anything else (another method, a message to show once, an unknown version, a page not rendered
yet, a tournament that does not exist) goes to the routes, which render and keep the page.

Both ways answer through :func:`page_response`, so status, headers and body are the same bytes
whichever way a request took; the page carries an ``ETag`` (a hash of the body) and
``Cache-Control: no-cache``, so a browser that asks again with ``If-None-Match`` gets a bodyless
304 while the standings have not changed.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from agon.web.deps import language
from agon.web.metrics import TEMPLATE_KEY
from agon.web.state import WebState

#: The cache keys of the two pages (with the tournament and the language).
PAGE = "standings-page"
TABLE = "standings-table"
TABLE_SUFFIX = "/standings-table"
#: The route templates of the two pages, as the routes declare them.
TEMPLATES = {PAGE: "/p/{slug}", TABLE: "/p/{slug}/standings-table"}


@dataclass(frozen=True, slots=True)
class CachedPage:
    """A rendered page and its entity tag (a hash of the bytes: a new server that renders the
    same bytes gives the same tag, a changed template a new one)."""

    body: bytes
    etag: str

    @classmethod
    def of(cls, body: bytes) -> CachedPage:
        return cls(body, '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"')


def not_modified(if_none_match: str | None, etag: str) -> bool:
    """Does the ``If-None-Match`` header name ``etag`` (weak comparison, as RFC 9110 asks)?"""
    if not if_none_match:
        return False
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False


def page_response(request: Request, page: CachedPage, lang: str) -> Response:
    """The answer for a kept page: 200 with the body, or 304 when the client has these bytes.

    The page depends on the language cookie: the session is marked as read, so the session
    middleware adds ``Cookie`` to ``Vary`` (as on every page that reads the session)."""
    request.session  # noqa: B018  (marks the session as read)
    headers = {
        "Content-Language": lang,
        "ETag": page.etag,
        "Cache-Control": "no-cache",
        "Vary": "Accept-Language",
    }
    if not_modified(request.headers.get("if-none-match"), page.etag):
        return Response(status_code=304, headers=headers)
    return Response(page.body, media_type="text/html", headers=headers)


def page_key(path: str) -> tuple[str, str] | None:
    """``(kind, slug)`` when ``path`` is one of the kept pages' paths, else ``None``."""
    if not path.startswith("/p/"):
        return None
    rest = path[3:]
    kind = PAGE
    if rest.endswith(TABLE_SUFFIX):
        kind, rest = TABLE, rest[: -len(TABLE_SUFFIX)]
    if not rest or "/" in rest:
        return None
    return kind, rest


class CachedPages:
    """ASGI middleware: answers a ``GET`` of a kept, current page from memory (see the module).

    When the version memo of a tournament it knows has expired (the background refresher ran
    late: a loaded machine), the readers do not each go to the routes and the database, piling
    up in the thread pool: the first starts one check of the version (``refresh``, which also
    renders a page that changed), the others wait for that same check, then all are answered
    from memory as usual (the page as fresh as the memo promises).
    """

    def __init__(
        self,
        app: ASGIApp,
        state: WebState,
        refresh: Callable[[WebState, list[str]], None] | None = None,
    ) -> None:
        self.app = app
        self.state = state
        self.refresh = refresh
        #: the version checks under way, by tournament
        self._checks: dict[str, asyncio.Future[None]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and not scope.get("root_path"):
            found = page_key(scope["path"])
            if found is not None:
                response = self._answer(scope, *found)
                if response is None and await self._checked(found[1]):
                    response = self._answer(scope, *found)
                if response is not None:
                    self.state.fast_reads += 1
                    scope[TEMPLATE_KEY] = TEMPLATES[found[0]]
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)

    async def _checked(self, slug: str) -> bool:
        """Was the expired version of ``slug`` checked (one check for all readers meanwhile)?"""
        versions = self.state.versions
        if self.refresh is None or versions.known(slug) is None or versions.get(slug) is not None:
            return False  # never seen (the route asks), or fresh (a page not rendered yet)
        check = self._checks.get(slug)
        if check is None:
            check = asyncio.ensure_future(asyncio.to_thread(self.refresh, self.state, [slug]))
            self._checks[slug] = check
            check.add_done_callback(lambda _done: self._checks.pop(slug, None))
        try:
            await asyncio.shield(check)
        except Exception:  # the database is away, say: the route answers as ever
            return False
        return True

    def _answer(self, scope: Scope, kind: str, slug: str) -> Response | None:
        request = Request(scope)
        if kind == PAGE and "flash" in request.session:
            return None  # a message to show once: the route renders the page for this reader
        version = self.state.versions.get(slug)
        if version is None:
            return None  # not known lately: the route asks the database
        lang = language(request)
        page = self.state.cache.peek((kind, slug, lang), version)
        if not isinstance(page, CachedPage):
            return None
        return page_response(request, page, lang)
