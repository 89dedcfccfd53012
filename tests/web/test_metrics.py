"""Issue 27: Prometheus metrics — request latency by route template (no token ever a label), open
event streams, running online games, journal writes; for the director, a bearer token, or on a
port of their own; added up over several workers."""

from __future__ import annotations

import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from agon.errors import InvalidInput
from agon.web.app import create_app
from agon.web.metrics import OTHER_METHOD, UNMATCHED, serve_metrics_port
from agon.web.settings import WebSettings
from agon.web.streams import StreamCounter
from tests.play.server import free_port
from tests.web.conftest import TestClient
from tests.web.helpers import play_round
from tests.web.test_play_api import create

TOKEN = "metrics-secret-for-tests"


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(text: str, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    return sum(
        v for (n, ls), v in samples(text).items() if n == name and set(labels.items()) <= set(ls)
    )


@pytest.fixture
def watched(settings: WebSettings) -> Any:
    application = create_app(settings.replace(metrics_token=TOKEN))
    yield application
    application.state.web.engine.dispose()


def test_metrics_need_the_director_or_the_token(watched: Any) -> None:
    with TestClient(watched) as client:
        assert client.get("/metrics").status_code == 401
        wrong = client.get("/metrics", headers={"authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.headers["www-authenticate"] == "Bearer"
        ok = client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
        assert ok.status_code == 200 and ok.headers["content-type"].startswith("text/plain")
        assert "agon_http_request_duration_seconds" in ok.text


def test_metrics_for_the_director(director: TestClient) -> None:
    assert director.get("/metrics").status_code == 200


def test_latency_by_route_template_never_the_raw_path(director: TestClient, db: Any) -> None:
    game = create(director)
    seat_url, token = game["seats"][0]["url"], game["seats"][0]["token"]
    before = director.get("/metrics").text
    director.get(seat_url)
    director.get(seat_url)
    director.get("/no/such/page")
    text = director.get("/metrics").text
    route = {"route": "/play/{game_id}", "method": "GET", "status": "200"}
    count = "agon_http_request_duration_seconds_count"
    assert value(text, count, **route) - value(before, count, **route) == 2
    assert value(text, count, route=UNMATCHED, status="404") >= 1
    assert token not in text and game["game_id"] not in text and "/no/such" not in text
    assert value(text, "agon_online_games_running") >= 1


def test_made_up_methods_share_one_series(director: TestClient) -> None:
    """A client may send any token as its request method: each is counted under ``OTHER``,
    never as a series of its own (they would pile up in every worker without end)."""
    before = director.get("/metrics").text
    made_up = [f"FROB{i}" for i in range(5)]
    for method in made_up:
        assert director.request(method, "/").status_code < 500
    text = director.get("/metrics").text
    count = "agon_http_request_duration_seconds_count"
    added = value(text, count, method=OTHER_METHOD) - value(before, count, method=OTHER_METHOD)
    assert added == len(made_up)
    assert not any(m in text for m in made_up)


def test_journal_writes_are_counted(director: TestClient, db: Any, bonn: str) -> None:
    before = REGISTRY.get_sample_value("agon_journal_writes_total") or 0.0
    play_round(db, bonn, 1)  # results entered and confirmed: journal entries
    after = REGISTRY.get_sample_value("agon_journal_writes_total") or 0.0
    assert after > before
    text = director.get("/metrics").text
    assert value(text, "agon_journal_writes_total") == after


def test_open_streams_gauge() -> None:
    read = lambda: REGISTRY.get_sample_value("agon_open_event_streams") or 0.0  # noqa: E731
    start = read()
    counter = StreamCounter(per_address=1)
    assert counter.acquire("a") and not counter.acquire("a") and counter.acquire("b")
    assert read() == start + 2
    counter.release("a")
    counter.release("a")  # released twice: counted once
    assert read() == start + 1
    counter.release("b")
    assert read() == start


def test_a_port_of_their_own(watched: Any) -> None:
    for attempt in range(5):  # the port, released by free_port, may be taken meanwhile
        port = free_port()
        try:
            serve_metrics_port(port, "127.0.0.1", watched.state.web.sessions)
            break
        except InvalidInput as exc:
            if "address already in use" not in str(exc).lower() or attempt == 4:
                raise
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    assert "agon_online_games_running" in text and "agon_journal_writes_total" in text


@pytest.mark.slow  # a real agon serve --workers 2 on PostgreSQL: 10-60 s (the start, under load)
def test_two_workers_are_added_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.db_fixtures import backend_factory
    from tests.play.server import PortTaken, Server

    url = backend_factory("postgresql").new_url(tmp_path)
    monkeypatch.setenv("AGON_METRICS_TOKEN", TOKEN)
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    log = tmp_path / "serve.log"
    for attempt in range(5):  # the metrics' port, released by free_port, may be taken meanwhile
        port = free_port()
        server = Server(url, "--workers", "2", "--metrics-port", str(port), log=log)
        try:
            server.start()
            break
        except PortTaken as taken:
            if not taken.names(port) or attempt == 4:
                raise
    try:
        for _ in range(60):  # fresh connections: the kernel spreads them over both workers
            with httpx.Client() as client:
                answer = client.get(server.url + "/healthz")
                assert answer.status_code == 200
        games = 0
        with httpx.Client() as client:
            body = {
                "game": "ocw",
                "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}],
            }
            for _ in range(3):
                games += client.post(server.url + "/api/play", json=body).status_code == 201
        # a request is counted just after its answer went out: wait (briefly) for the last one
        deadline = time.monotonic() + 10
        while True:
            scraped = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
            seen = value(scraped, "agon_http_request_duration_seconds_count", route="/healthz")
            if seen >= 60 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        for _ in range(5):  # any worker's /metrics tells all workers' counts
            app = httpx.get(
                server.url + "/metrics", headers={"authorization": f"Bearer {TOKEN}"}, timeout=10
            ).text
            assert value(app, "agon_http_request_duration_seconds_count", route="/healthz") >= 60
        pids = set(re.findall(r'pid="(\d+)"', scraped))
    finally:
        server.stop()
    count = value(scraped, "agon_http_request_duration_seconds_count", route="/healthz")
    assert count == 60, log.read_text()[-2000:]
    assert games == 3 and value(scraped, "agon_online_games_running") == 3
    assert not pids  # added up, not one series per process


def test_a_port_that_is_taken_is_one_line(watched: Any) -> None:
    import socket

    from agon.errors import InvalidInput

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(InvalidInput, match=rf"^--metrics-port {port}: .*in use"):
            serve_metrics_port(port, "127.0.0.1", watched.state.web.sessions)


def test_a_kept_page_is_counted_by_its_template_without_matching_every_route(
    app: Any, director: TestClient, db: Any, bonn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The phones' reads answered from memory name their route template themselves: the
    metrics do not match them against the app's routes (a scan in the event loop per read)."""
    from agon.web.metrics import RouteTemplates

    play_round(db, bonn, 1)
    app.state.web.versions.ttl = 3600
    phone = TestClient(app)
    for path in ("/p/bonn", "/p/bonn/standings-table"):
        phone.get(path)  # rendered and kept by the route
    before = director.get("/metrics").text
    scanned: list[str] = []
    original = RouteTemplates._table

    def counted(self: RouteTemplates) -> Any:
        scanned.append("scan")
        return original(self)

    monkeypatch.setattr(RouteTemplates, "_table", counted)
    fast = app.state.web.fast_reads
    for path in ("/p/bonn", "/p/bonn", "/p/bonn/standings-table"):
        assert phone.get(path).status_code == 200
    assert app.state.web.fast_reads == fast + 3 and scanned == []
    monkeypatch.undo()
    text = director.get("/metrics").text
    count = "agon_http_request_duration_seconds_count"
    for template, reads in (("/p/{slug}", 2), ("/p/{slug}/standings-table", 1)):
        route = {"route": template, "method": "GET", "status": "200"}
        assert value(text, count, **route) - value(before, count, **route) == reads


def test_no_opentelemetry_provider_is_asked_per_request(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FastAPI's OpenTelemetry bridge is off (agon configures no provider and measures itself
    with the metrics above): no request asks for the global providers (they cost a few per cent
    of the server's CPU per move, bench/online_play.py)."""
    from opentelemetry import metrics, trace

    asked: list[str] = []
    for module, name in ((trace, "get_tracer_provider"), (metrics, "get_meter_provider")):
        real = getattr(module, name)

        def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            asked.append(_name)
            return _real(*args)

        monkeypatch.setattr(module, name, counted)
    game = create(client)
    assert client.get(f"/api/play/{game['game_id']}").status_code == 200
    assert client.get("/").status_code == 200
    assert asked == []
