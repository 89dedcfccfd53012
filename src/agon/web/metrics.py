"""Prometheus metrics of ``agon serve`` (issue 27), with ``prometheus-client``.

* ``agon_http_request_duration_seconds`` (histogram; ``method``, ``route``, ``status``): the
  route is the route's *template* (``/play/{game_id}/board``), never the raw path — no token,
  slug or id becomes a label; a path that matches no route counts as ``<unmatched>``.
* ``agon_open_event_streams`` (gauge): event streams open now (all workers added up).
* ``agon_online_games_running`` (gauge): online games not over, counted in the database when the
  metrics are read (so every worker and the separate port tell the same number).
* ``agon_journal_writes_total`` (counter): journal entries written (every change to a
  tournament), counted as they are flushed to the database.

**Where**: ``GET /metrics`` of the app, for a logged-in director or a request with
``Authorization: Bearer <AGON_METRICS_TOKEN>`` (401 otherwise); or, with ``agon serve
--metrics-port N``, on a port of their own without a login, on ``127.0.0.1`` unless
``--metrics-host`` (``AGON_METRICS_HOST``) widens it.

**Several workers** (``agon serve --workers N``): prometheus-client's multiprocess mode. ``agon
serve`` points ``PROMETHEUS_MULTIPROC_DIR`` at a fresh directory (or the one set) before the
workers start; each worker writes its counts there and ``/metrics`` — whichever worker answers
— and the separate port add up all workers'. A worker that stops is marked dead, so its open
streams leave the gauge.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.routing import iter_route_contexts
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session, sessionmaker
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agon.store.models import JournalEntry, PlayGameRow

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
UNMATCHED = "<unmatched>"
#: The request methods a series is kept for; any other (a client may send any token as its
#: method) is counted as ``OTHER``, so that made-up methods cannot add series without end.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
OTHER_METHOD = "OTHER"

REQUEST_SECONDS = Histogram(
    "agon_http_request_duration_seconds",
    "Time to answer a request (until its last byte), by route template",
    ["method", "route", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
OPEN_STREAMS = Gauge(
    "agon_open_event_streams",
    "Event streams (online games) open now",
    multiprocess_mode="livesum",
)
JOURNAL_WRITES = Counter("agon_journal_writes_total", "Journal entries written")


def multiprocess_dir() -> str | None:
    """The multiprocess directory in force (``None``: one process, its own registry)."""
    return os.environ.get(MULTIPROC_ENV) or None


class RunningGames(Collector):
    """``agon_online_games_running``: asked of the database at each scrape."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def collect(self) -> Iterator[GaugeMetricFamily]:
        gauge = GaugeMetricFamily(
            "agon_online_games_running", "Online games started and not over (in the database)"
        )
        try:
            with self.sessions() as session:
                running = session.scalar(
                    select(func.count()).select_from(PlayGameRow).where(PlayGameRow.over.is_(False))
                )
        except Exception:  # the database is away: the gauge is left out of this scrape
            return
        gauge.add_metric([], float(running or 0))
        yield gauge


def scrape_registry(sessions: sessionmaker[Session] | None) -> CollectorRegistry:
    """The registry a scrape reads: every worker's counts (multiprocess) or this process's."""
    if multiprocess_dir() is not None:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry = CollectorRegistry()
        registry.register(_Forward(REGISTRY))
    if sessions is not None:
        registry.register(RunningGames(sessions))
    return registry


class _Forward(Collector):
    """The default registry's metrics, inside another registry."""

    def __init__(self, source: CollectorRegistry) -> None:
        self.source = source

    def collect(self) -> Iterator[Any]:
        yield from self.source.collect()


def exposition(sessions: sessionmaker[Session] | None) -> tuple[bytes, str]:
    """The text a scrape gets, and its content type."""
    return generate_latest(scrape_registry(sessions)), CONTENT_TYPE_LATEST


_journal_hook_installed = False


def count_journal_writes() -> None:
    """Count every journal entry inserted, in whichever session (installed once per process)."""
    global _journal_hook_installed
    if _journal_hook_installed:
        return
    _journal_hook_installed = True

    def inserted(_mapper: Any, _connection: Any, _target: Any) -> None:
        JOURNAL_WRITES.inc()

    event.listen(JournalEntry, "after_insert", inserted)


def worker_stopped() -> None:
    """Mark this worker dead in the multiprocess directory (its live gauges drop out)."""
    if multiprocess_dir() is not None:
        multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


#: The scope key where a request answered before the routes names its route template
#: (:class:`agon.web.pagecache.CachedPages`), so that :class:`RouteTemplates` need not match it
#: against every route of the app (a scan in the event loop, on the phones' every read).
TEMPLATE_KEY = "agon.route_template"


class RouteTemplates:
    """The route template of a request, from the app's whole route table (included routers
    flattened, :func:`fastapi.routing.iter_route_contexts`), read once on first use."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._contexts: list[Any] | None = None
        self._by_route: dict[int, str] = {}

    def _table(self) -> list[Any]:
        if self._contexts is None:
            contexts = list(iter_route_contexts(self.app.routes))
            self._by_route = {
                id(c.original_route): str(c.path_format) for c in contexts if c.path_format
            }
            self._contexts = contexts
        return self._contexts

    def __call__(self, scope: Scope) -> str:
        """The template ``scope`` matched (or would match), never the raw path."""
        named = scope.get(TEMPLATE_KEY)
        if isinstance(named, str):  # a kept page, answered before the routes
            return named
        contexts = self._table()
        route = scope.get("route")
        if route is not None and id(route) in self._by_route:
            return self._by_route[id(route)]
        for context in contexts:  # answered before the router (kept pages), or a mount
            match, _child = context.matches(scope)
            if match is not Match.NONE:  # PARTIAL: the path matched, not the method
                return str(context.path_format or UNMATCHED)
        return UNMATCHED


class RequestMetrics:
    """Pure ASGI middleware: every request's time into :data:`REQUEST_SECONDS`."""

    def __init__(self, app: ASGIApp, routes_of: Callable[[], Any]) -> None:
        self.app = app
        self.routes_of = routes_of
        self._templates: RouteTemplates | None = None
        #: each (method, route, status) series' ``observe``: the histogram's ``labels`` checks
        #: and looks up its labels under a lock on every call (a few µs a request); the series
        #: are the histogram's own, the same few a request can reach
        self._observers: dict[tuple[str, str, int], Callable[[float], None]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        method = scope["method"] if scope["method"] in METHODS else OTHER_METHOD
        status = 500

        async def send_seen(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_seen)
        finally:
            if self._templates is None:
                self._templates = RouteTemplates(self.routes_of())
            key = (method, self._templates(scope), status)
            observe = self._observers.get(key)
            if observe is None:
                observe = REQUEST_SECONDS.labels(key[0], key[1], str(status)).observe
                self._observers[key] = observe
            observe(time.perf_counter() - began)


def serve_metrics_port(port: int, host: str, sessions: sessionmaker[Session] | None) -> None:
    """The metrics on ``host:port`` of their own, in a thread of this process."""
    from prometheus_client import start_http_server

    from agon.errors import InvalidInput

    try:
        start_http_server(port, addr=host, registry=scrape_registry(sessions))
    except OSError as exc:  # the port is taken, or not ours to bind
        raise InvalidInput(f"--metrics-port {port}: {exc.strerror or exc}") from None
