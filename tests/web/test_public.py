"""The public face: standings, where do I sit, results per round, rank chart, clock, languages."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from sqlalchemy.orm import Session

from agon.services import rounds
from agon.services.core import utcnow
from agon.web import floor
from tests.web.conftest import BONN_TABLES, TestClient, make_bonn
from tests.web.helpers import play_round, version_of


def test_index_lists_tournaments(client: TestClient, bonn: str) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'href="/p/bonn"' in page.text and "Bonn test" in page.text


def test_standings_show_points_tiebreaks_and_explanations(
    client: TestClient, db: Session, bonn: str
) -> None:
    play_round(db, bonn, 1)
    page = client.get("/p/bonn", headers={"accept-language": "en"})
    assert page.status_code == 200
    rows = re.findall(r'<td class="name">([^<]+)</td><td>([^<]+)</td>', page.text)
    assert len(rows) == 13
    # table 1 (5 players): seat 5 scored most -> 6 points (Bonn: 6-4-3-2-1)
    assert rows[0][1] == "6"
    assert "Share" in page.text and "after 0 rounds" in page.text  # round 1 not closed yet
    assert "is above" in page.text  # the explanation of places
    rounds.close_round(db, tournament=bonn, number=1, actor="test")
    assert "after 1 round" in client.get("/p/bonn/standings-table").text


def test_language_from_browser_and_switcher(client: TestClient, bonn: str) -> None:
    de = client.get("/p/bonn", headers={"accept-language": "de-DE,de;q=0.9,en;q=0.5"})
    assert '<html lang="de">' in de.text and "Tabelle" in de.text
    assert "Qualifikation zur Deutschen Meisterschaft" in de.text  # the ruleset's German title
    assert de.headers["content-language"] == "de"
    switched = client.get("/lang/it?next=/p/bonn", follow_redirects=False)
    assert switched.status_code == 303 and switched.headers["location"] == "/p/bonn"
    it = client.get("/p/bonn", headers={"accept-language": "de"})
    assert '<html lang="it">' in it.text and "Classifica" in it.text
    assert "/lang/en?next=%2Fp%2Fbonn" in it.text


def test_language_switch_does_not_redirect_off_site(client: TestClient) -> None:
    for target in ("https://evil.example/", "//evil.example/x", "/\\evil"):
        r = client.get("/lang/de", params={"next": target}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/", target


def test_where_do_i_sit(client: TestClient, bonn: str) -> None:
    page = client.get("/p/bonn/seat", params={"name": "player f"})
    assert "Round 1: table 2, seat 1 of 4" in page.text
    assert "You start the game" in page.text
    assert f"Left neighbour: {BONN_TABLES[1][-1]}" in page.text
    none = client.get("/p/bonn/seat", params={"name": "nobody"})
    assert "Nobody with that name is seated in round 1." in none.text
    many = client.get("/p/bonn/seat", params={"name": "player"})
    assert many.text.count('class="seat-card"') == 13


def test_where_do_i_sit_ignores_accents_and_prefers_exact_names(
    client: TestClient, db: Session
) -> None:
    names = (
        "Jürgen",
        "Jürgen Koch",
        "Anna",
        "Bea",
        "Carl",
        "Dora",
        "Emil",
        "Fritz",
        "Gabi",
        "Hugo",
        "Ida",
        "Jan",
    )
    make_bonn(db, slug="acc", names=names)
    rounds.start_round(
        db, tournament="acc", actor="t", tables=[list(names[:4]), list(names[4:8]), list(names[8:])]
    )
    exact = client.get("/p/acc/seat", params={"name": "JURGEN"})
    assert exact.text.count('class="seat-card"') == 1
    assert "<h2>Jürgen</h2>" in exact.text


def test_results_per_round(client: TestClient, db: Session, bonn: str) -> None:
    assert (
        client.get("/p/bonn/rounds", follow_redirects=False).headers["location"]
        == "/p/bonn/rounds/1"
    )
    before = client.get("/p/bonn/rounds/1").text
    assert before.count("badge") >= 3 and "open" in before
    play_round(db, bonn, 1, confirm=False)
    after = client.get("/p/bonn/rounds/1").text
    assert "pending" in after and "<td>47</td>" in after  # table 1, seat 2: 40 + 3 + 1 + 3
    assert client.get("/p/bonn/rounds/2").status_code == 404


def test_rank_chart_draws_a_line_per_player(client: TestClient, db: Session, bonn: str) -> None:
    assert "No results yet." in client.get("/p/bonn/chart").text
    play_round(db, bonn, 1)
    rounds.close_round(db, tournament=bonn, number=1, actor="t")
    rounds.start_round(
        db, tournament=bonn, actor="t", tables=[list(t) for t in reversed(BONN_TABLES)][::-1]
    )
    play_round(db, bonn, 2, base=30)
    page = client.get("/p/bonn/chart", params={"player": "player m"})
    svg = page.text[page.text.index("<svg") : page.text.index("</svg>")]
    polylines = re.findall(r'<polyline points="([^"]+)"', svg)
    assert len(polylines) == 13 and all(len(p.split()) == 2 for p in polylines)
    assert svg.count('class="series highlight"') == 1
    ranks = client.get("/api/tournaments/bonn/ranks").json()
    assert ranks["rounds"] == [1, 2] and len(ranks["ranks"]["Player M"]) == 2


def test_projector_clock_counts_down_and_says_finish_the_age(
    client: TestClient, db: Session
) -> None:
    names = tuple(f"P{i}" for i in range(8))
    make_bonn(db, slug="ludo", names=names, ruleset="ludolimpico-2015")
    assert "No round has been started yet." in client.get("/p/ludo/clock").text
    rounds.start_round(db, tournament="ludo", actor="t", tables=[list(names[:4]), list(names[4:])])
    stopped = client.get("/p/ludo/clock").text
    assert "The clock has not been started." in stopped and "30:00" in stopped  # Ludolimpico 1
    floor.start_clock(db, tournament="ludo", round_number=1, minutes=30)
    running = client.get("/p/ludo/clock?fragment=1").text
    assert 'data-state="running"' in running
    assert re.search(r'data-remaining="(1[89]\d\d)"', running)  # 30 minutes, a moment ago
    floor.start_clock(
        db, tournament="ludo", round_number=1, minutes=30, now=utcnow() - timedelta(minutes=31)
    )
    over = client.get("/p/ludo/clock").text
    assert 'data-state="over"' in over and ">00:00<" in over
    assert "Time is up: finish the current age." in over
    assert "hidden" not in over[over.index("js-timeup") : over.index("finish the current age")]


def test_clock_without_limit_counts_time_played(client: TestClient, db: Session, bonn: str) -> None:
    floor.start_clock(
        db, tournament=bonn, round_number=1, minutes=None, now=utcnow() - timedelta(minutes=5)
    )
    page = client.get("/p/bonn/clock").text
    assert "Time played (no time limit)" in page and "js-countup" in page
    assert re.search(r">05:0\d<", page)
    floor.pause_clock(db, tournament=bonn, round_number=1)
    assert "Paused" in client.get("/p/bonn/clock").text
    clock = client.get("/api/tournaments/bonn/clock").json()
    assert clock["state"] == "paused" and 300 <= clock["elapsed_seconds"] < 320


def test_unknown_tournament_is_404(client: TestClient) -> None:
    for url in (
        "/p/nope",
        "/p/nope/seat?name=x",
        "/p/nope/chart",
        "/p/nope/clock",
        "/api/tournaments/nope/standings",
    ):
        assert client.get(url).status_code == 404, url
    assert "no tournament 'nope'" in client.get("/api/tournaments/nope").json()["detail"]


def test_static_files_are_served_from_the_package(client: TestClient) -> None:
    htmx = client.get("/static/htmx.min.js")
    assert htmx.status_code == 200 and len(htmx.content) == 52182
    assert client.get("/static/app.js").status_code == 200
    assert "max-width" in client.get("/static/app.css").text


def test_cache_serves_the_old_page_only_while_one_request_recomputes() -> None:
    import threading

    from agon.web.state import VersionedCache

    cache = VersionedCache()
    assert cache.get_or_make("k", 1, lambda: "v1") == "v1"
    assert cache.get_or_make("k", 1, lambda: "never") == "v1"
    started, release = threading.Event(), threading.Event()

    def slow() -> str:
        started.set()
        release.wait(5)
        return "v2"

    worker = threading.Thread(target=lambda: cache.get_or_make("k", 2, slow))
    worker.start()
    assert started.wait(5)
    assert cache.get_or_make("k", 2, lambda: "duplicate") == "v1"  # stale, not recomputed twice
    release.set()
    worker.join(5)
    assert cache.get_or_make("k", 2, lambda: "never") == "v2"
    assert cache.peek("k", 2) == "v2" and cache.peek("k", 3) is None


def test_changes_through_the_app_show_at_once(client: TestClient, db: Session, bonn: str) -> None:
    first = client.get("/p/bonn").text
    assert client.get("/p/bonn").text == first  # served from the cache
    play_round(db, bonn, 1, confirm=False)  # commits through the app's sessions
    assert client.get("/p/bonn").text != first


def test_the_public_standings_rescore_only_the_tables_that_changed(
    app: object, client: TestClient, db: Session, bonn: str
) -> None:
    """The page phones poll keeps the standings incrementally: entering one more table's result
    scores that table only, and the rows equal the full recomputation."""
    from agon.services import exchange, results
    from agon.services.schemas import ResultIn

    state = app.state.web  # type: ignore[attr-defined]
    play_round(db, bonn, 1, confirm=False)
    client.get("/p/bonn")
    keeper = state.standings.of("bonn", exchange.standings(db, tournament="bonn").ruleset)
    db.rollback()
    before = keeper.tables_scored
    assert before == len(BONN_TABLES)
    rnd = rounds.get_round(db, tournament="bonn", number=1)
    table = rnd.tables[0]
    results.enter_result(  # a correction
        db,
        tournament="bonn",
        round_number=1,
        table=table.number,
        results=[ResultIn(player=p, vp=90 - k, coins=k) for k, p in enumerate(table.seats)],
        actor="test",
        expected_version=table.version,
    )
    db.rollback()
    page = client.get("/p/bonn").text
    assert keeper.tables_scored == before + 2  # the old result out, the corrected one in
    full = exchange.standings(db, tournament="bonn")
    db.rollback()
    assert keeper.sync(exchange.event_of(db, tournament="bonn")) == full
    db.rollback()
    assert table.seats[0] in page


def test_a_commit_through_the_app_sets_the_version_memo(
    app: object, client: TestClient, db: Session, bonn: str
) -> None:
    """After a change made through the app the memo holds the tournament's new journal version
    at once, so the phones' next reads need no database query for it; an older version reported
    late (a read that raced the commit) does not move it back."""
    state = app.state.web  # type: ignore[attr-defined]
    client.get("/p/bonn")
    old = state.versions.get("bonn")
    play_round(db, bonn, 1, confirm=False)
    new = version_of(db, bonn)
    assert new > (old or 0)
    assert state.versions.get("bonn") == new
    state.versions.advance("bonn", new - 1)
    assert state.versions.get("bonn") == new


@pytest.mark.parametrize("who", ["the app's own read", "the refresher"])
def test_a_version_read_slowly_is_trusted_from_the_start_of_the_read(
    app: object, db: Session, bonn: str, monkeypatch: pytest.MonkeyPatch, who: str
) -> None:
    """A change committed by another process shows within the memo's ``ttl`` seconds even when
    the app's read of the version was slow: the version read is trusted from the start of the
    read, not from its end. The read here finds the old version, another process commits, and
    the read ends ``ttl`` seconds later (a thread starved on a loaded server, or the pages
    rendered after the refresher's read): the app's next look must not answer the old version."""
    from agon.store.db import Settings, make_engine, make_session_factory
    from agon.web import state as state_module
    from agon.web.routes import public

    state = app.state.web  # type: ignore[attr-defined]
    other = make_engine(Settings(state.settings.database_url))  # another process's writes
    real = state_module.journal_version

    def slow_read(session: Session, tournament: str) -> int:
        version = real(session, tournament)
        with make_session_factory(other)() as elsewhere:
            play_round(elsewhere, bonn, 1, confirm=False)
        time.sleep(state.versions.ttl + 0.1)
        return version

    try:
        monkeypatch.setattr(state_module, "journal_version", slow_read)
        monkeypatch.setattr(public, "journal_version", slow_read)
        if who == "the refresher":
            public.refresh_versions(state, [bonn])
        else:
            state.version(bonn)
        monkeypatch.setattr(state_module, "journal_version", real)
        assert state.version(bonn) == version_of(db, bonn)
    finally:
        other.dispose()
