"""The standings pages answered from memory (agon.web.pagecache): the same bytes as the routes,
never a page older than the last write, ETag and 304, and everything else left to the routes."""

from __future__ import annotations

import re
import sys
import time
import warnings
from typing import Any

import pytest
from sqlalchemy.orm import Session

from agon.services import rounds
from agon.web.app import GIL_SWITCH_SECONDS
from agon.web.pagecache import not_modified, page_key
from agon.web.state import WebState
from tests.web.conftest import csrf_of
from tests.web.helpers import play_round

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

LANGS = ("de", "it", "en")
PAGES = ("/p/bonn", "/p/bonn/standings-table")


def state_of(app: Any) -> WebState:
    """The app's state; the version memo trusted for an hour, not half a second, so that a slow
    test machine does not send a read to the routes (the app's own writes update the memo)."""
    state: WebState = app.state.web
    state.versions.ttl = 3600
    return state


def points(html: str) -> list[tuple[str, str]]:
    """The standings rows: (player, points)."""
    return re.findall(r'<td class="name">([^<]+)</td><td>([^<]+)</td>', html)


def test_the_fast_path_answers_the_same_bytes_as_the_route(
    app: Any, client: TestClient, db: Session, bonn: str
) -> None:
    play_round(db, bonn, 1, confirm=False)
    state = state_of(app)
    asks: list[dict[str, Any]] = [
        *({"headers": {"accept-language": lang}} for lang in LANGS),
        {"params": {"lang": "it"}, "headers": {"accept-language": "de"}},
        {"params": {"utm_source": "qr"}},
    ]
    for path in PAGES:
        for ask in asks:
            state.cache.clear()
            before = state.fast_reads
            routed = client.get(path, **ask)  # nothing kept: the route renders the page
            assert state.fast_reads == before, (path, ask)
            fast = client.get(path, **ask)
            assert state.fast_reads == before + 1, (path, ask)  # kept: answered before routing
            assert routed.status_code == fast.status_code == 200
            assert routed.content == fast.content and points(fast.text)
            assert routed.headers.multi_items() == fast.headers.multi_items()
            assert fast.headers["etag"] and fast.headers["vary"] == "Accept-Language, Cookie"
            assert fast.headers["cache-control"] == "no-cache"
            assert "content-security-policy" in fast.headers  # the security headers, as ever
    # a language cookie (the switcher's) is honoured on the fast path too
    client.cookies.set("agon_lang", "it")
    try:
        page = client.get("/p/bonn", headers={"accept-language": "de"})
    finally:
        client.cookies.delete("agon_lang")
    assert '<html lang="it">' in page.text and page.headers["content-language"] == "it"


def test_the_next_read_after_a_write_shows_it_in_every_language(
    app: Any, director: TestClient, db: Session, bonn: str
) -> None:
    """Phones (no cookie) read every page in every language; the director enters a result
    through the API; the very next read shows the new standings, whichever language."""
    play_round(db, bonn, 1, confirm=False)
    state = state_of(app)
    phone = TestClient(app)
    seen: dict[tuple[str, str], str] = {}
    for path in PAGES:
        for lang in LANGS:
            for _ in range(2):  # the second read is the fast path's
                seen[path, lang] = phone.get(path, headers={"accept-language": lang}).text
    fast = state.fast_reads
    token = csrf_of(director)
    table = rounds.get_round(db, tournament=bonn, number=1).tables[0]
    db.rollback()
    corrected = [{"player": p, "vp": 90 - k, "coins": 0} for k, p in enumerate(table.seats)]
    old_version = director.get(f"/api/tournaments/{bonn}/rounds/1/tables/1").json()["version"]
    r = director.post(
        f"/api/tournaments/{bonn}/rounds/1/tables/1/result",
        json={"results": corrected, "version": old_version},
        headers={"x-csrf-token": token},
    )
    assert r.status_code == 200, r.text
    fast = state.fast_reads
    for path in PAGES:
        for lang in LANGS:
            now = phone.get(path, headers={"accept-language": lang})
            assert now.text != seen[path, lang], (path, lang)
            # seat 1 of table 1 scored most now: 6 points (Bonn: 6-4-3-2-1)
            assert (table.seats[0], "6") in points(now.text), (path, lang)
    # rendered ahead by the write: even the first read after it was answered from memory
    assert state.fast_reads == fast + len(PAGES) * len(LANGS)


def enter_table_1(director: TestClient, slug: str, vp: int) -> None:
    seats = director.get(f"/api/tournaments/{slug}/rounds/1/tables/1").json()
    body: dict[str, Any] = {
        "results": [{"player": p, "vp": vp - k, "coins": 0} for k, p in enumerate(seats["seats"])]
    }
    if seats.get("results"):
        body["version"] = seats["version"]
    r = director.post(
        f"/api/tournaments/{slug}/rounds/1/tables/1/result",
        json=body,
        headers={"x-csrf-token": csrf_of(director)},
    )
    assert r.status_code == 200, r.text


def test_a_write_renders_ahead_only_the_pages_read_since_the_last_change(
    app: Any, director: TestClient, bonn: str
) -> None:
    state = state_of(app)
    phone = TestClient(app)
    phone.get("/p/bonn", headers={"accept-language": "it"})
    enter_table_1(director, bonn, 60)
    phone.get("/p/bonn", headers={"accept-language": "de"})  # "it" not read since the change
    enter_table_1(director, bonn, 70)
    version = state.versions.get(bonn)
    assert version is not None
    assert state.cache.peek(("standings-page", bonn, "de"), version) is not None
    assert state.cache.peek(("standings-page", bonn, "it"), version) is None
    assert state.cache.peek(("standings-table", bonn, "de"), version) is None


def test_a_change_seen_again_by_the_version_refresher_is_not_rendered_twice(
    app: Any, director: TestClient, bonn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refresher asks the database while a write renders its pages (before the memo
    trusts the new version): it finds the change too, and the phones have read the page again
    meanwhile. Its look at the change waits for the write's and renders nothing more."""
    from agon.web.routes import public

    state = state_of(app)
    phone = TestClient(app)
    phone.get("/p/bonn")
    render = public._page_bytes
    renders: list[str] = []

    def counted(*args: Any) -> bytes:
        renders.append(args[2])
        return render(*args)

    monkeypatch.setattr(public, "_page_bytes", counted)
    enter_table_1(director, bonn, 80)
    assert renders == ["standings-page"]
    version = state.versions.get(bonn)
    assert version is not None
    phone.get("/p/bonn")  # read again (from memory) since the change
    public.prerender(state, {bonn: version})  # the refresher's look at the same change
    assert renders == ["standings-page"]
    enter_table_1(director, bonn, 70)  # a new change: rendered, once
    assert renders == ["standings-page"] * 2


def test_a_page_that_fails_to_render_ahead_does_not_fail_the_write(
    app: Any, director: TestClient, bonn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agon.web.routes import public

    state = state_of(app)
    phone = TestClient(app)
    phone.get("/p/bonn")
    render = public._page_bytes
    failures: list[str] = []

    def fail_once(*args: Any) -> bytes:
        if not failures:
            failures.append("failed")
            raise RuntimeError("rendering failed")
        return render(*args)

    monkeypatch.setattr(public, "_page_bytes", fail_once)
    before = state.fast_reads
    enter_table_1(director, bonn, 80)  # 200 although its page failed
    assert failures
    page = phone.get("/p/bonn", headers={"accept-language": "en"})
    assert page.status_code == 200 and ("Player A", "6") in points(page.text)
    assert state.fast_reads == before  # the route rendered it


def test_a_browser_that_has_the_page_gets_304_until_it_changes(
    app: Any, client: TestClient, db: Session, bonn: str
) -> None:
    state = state_of(app)
    first = client.get("/p/bonn")
    etag = first.headers["etag"]
    for asked in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        before = state.fast_reads
        again = client.get("/p/bonn", headers={"if-none-match": asked})
        assert again.status_code == 304 and again.content == b"", asked
        assert again.headers["etag"] == etag and state.fast_reads == before + 1
    assert client.get("/p/bonn", headers={"if-none-match": '"other"'}).status_code == 200
    play_round(db, bonn, 1, confirm=False)
    changed = client.get("/p/bonn", headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag
    assert client.get("/p/bonn", headers={"accept-language": "it"}).headers["etag"] != etag


def test_everything_else_goes_to_the_routes(
    app: Any, director: TestClient, db: Session, bonn: str
) -> None:
    state = state_of(app)
    director.get("/p/bonn")
    director.get("/p/bonn")
    head = director.head("/p/bonn")  # HEAD is a GET without the body (issue 27): kept too
    assert head.status_code == 200 and head.content == b"" and int(head.headers["content-length"])
    before = state.fast_reads
    assert director.post("/p/bonn").status_code == 405
    assert director.get("/p/nothing").status_code == 404
    assert director.get("/p/nothing/standings-table").status_code == 404
    assert director.get("/p/bonn/seat").status_code == 200
    assert state.fast_reads == before
    # a message to show once (after a form) is shown by the route, then the page is kept again
    token = csrf_of(director)
    moved = director.post(
        f"/desk/{bonn}/players/checkin-all",
        data={"csrf_token": token},
        follow_redirects=False,
    )
    assert moved.status_code == 303, moved.text
    with_message = director.get("/p/bonn")
    assert 'class="flash' in with_message.text and state.fast_reads == before
    assert 'class="flash' not in director.get("/p/bonn").text


def test_a_change_from_another_process_shows_once_the_version_is_asked_again(
    app: Any, client: TestClient, settings: Any, bonn: str
) -> None:
    """The command line writes with its own engine: the fast path serves the kept page only
    while the version memo is fresh (half a second), then the route asks the database. The
    server's own refresher may have read the version just before the change and store it after
    the memo was cleared: the new page then shows at its next round, within the memo's life."""
    from agon.store.db import Settings, make_engine, make_session_factory

    client.get("/p/bonn")
    before = client.get("/p/bonn").text
    engine = make_engine(Settings(database_url=settings.database_url))
    try:
        with make_session_factory(engine)() as other:
            play_round(other, bonn, 1, confirm=False)
    finally:
        engine.dispose()
    memo = state_of(app).versions
    memo.clear()  # what half a second does
    deadline = time.monotonic() + 4 * memo.ttl
    while (page := client.get("/p/bonn").text) == before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert page != before


def test_the_language_switcher_on_a_kept_page_does_not_carry_the_first_readers_query(
    client: TestClient, bonn: str
) -> None:
    client.get("/p/bonn", params={"lang": "en", "utm_source": "poster"})
    page = client.get("/p/bonn", headers={"accept-language": "en"}).text
    assert "utm_source" not in page and "/lang/de?next=%2Fp%2Fbonn" in page


def test_paths_and_validators() -> None:
    assert page_key("/p/bonn") == ("standings-page", "bonn")
    assert page_key("/p/bonn/standings-table") == ("standings-table", "bonn")
    for other in ("/p/", "/p/bonn/", "/p/bonn/seat", "/p//standings-table", "/desk/bonn", "/"):
        assert page_key(other) is None, other
    assert not_modified('"a"', '"a"') and not_modified('W/"a"', '"a"')
    assert not not_modified(None, '"a"') and not not_modified('"b"', '"a"')


def test_the_server_hands_the_interpreter_lock_back_to_the_event_loop_often(app: Any) -> None:
    before = sys.getswitchinterval()
    with TestClient(app):
        assert sys.getswitchinterval() == pytest.approx(min(before, GIL_SWITCH_SECONDS))
    assert sys.getswitchinterval() == before


def test_made_up_tournament_names_do_not_fill_the_memory(app: Any, client: TestClient) -> None:
    from agon.web.state import VersionMemo

    state = state_of(app)
    for n in range(5):
        assert client.get(f"/p/nothing-{n}").status_code == 404
    assert state.cache.take_read(lambda _key: True) == []  # nothing kept, nothing noted
    memo = VersionMemo(ttl=60, max_entries=8)
    for n in range(20):
        memo.advance(f"made-up-{n}", 0)
        assert len(memo._seen) <= 8
    assert memo.get("made-up-19") == 0


def test_a_change_from_another_process_is_rendered_and_trusted_in_the_background(
    app: Any, client: TestClient, settings: Any, bonn: str
) -> None:
    """The server asks the database again for the tournaments read lately before the memo stops
    trusting their versions: the phones' reads never go to the database, and a change made by
    another process (the command line) is rendered before it is trusted — the first read after
    it is answered from memory, with the new standings."""
    import time

    from agon.store.db import Settings, make_engine, make_session_factory

    state: WebState = app.state.web
    state.versions.ttl = 0.2
    before = client.get("/p/bonn").text
    old = state.versions.known(bonn)
    engine = make_engine(Settings(database_url=settings.database_url))
    try:
        with make_session_factory(engine)() as other:
            play_round(other, bonn, 1, confirm=False)
    finally:
        engine.dispose()
    deadline = time.monotonic() + 30
    while state.versions.known(bonn) == old and time.monotonic() < deadline:
        client.get("/p/bonn/seat")  # the phones keep reading meanwhile (other pages too)
        time.sleep(0.05)
    assert state.versions.known(bonn) != old
    state.versions.ttl = 3600  # the next read must not depend on this slow machine's timing
    fast = state.fast_reads
    after = client.get("/p/bonn")
    assert after.text != before and points(after.text)
    if state.fast_reads == fast:
        # on a loaded machine the memo's 0.2 s can run out before the refresher comes round: a
        # phone's read then finds the change itself (and renders that page), so this page is
        # rendered by this first read; the next one comes from memory, with the new standings
        again = client.get("/p/bonn")
        assert again.text == after.text
    assert state.fast_reads == fast + 1


def test_a_write_renders_the_page_with_one_computation_of_the_standings(
    app: Any, director: TestClient, bonn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page rendered ahead by a write asks for the standings three times (the table, the
    status, the podium): they are computed once, by the server's incremental keepers."""
    from agon.services import exchange
    from agon.tournament.incremental import StandingsKeepers

    state = state_of(app)
    phone = TestClient(app)
    phone.get("/p/bonn", headers={"accept-language": "de"})
    made: list[str] = []
    full, kept = exchange.compute_standings, StandingsKeepers.standings

    def counted_full(*args: Any, **kwargs: Any) -> Any:
        made.append("full")
        return full(*args, **kwargs)

    def counted_kept(self: StandingsKeepers, *args: Any, **kwargs: Any) -> Any:
        made.append("kept")
        return kept(self, *args, **kwargs)

    monkeypatch.setattr(exchange, "compute_standings", counted_full)
    monkeypatch.setattr(StandingsKeepers, "standings", counted_kept)
    enter_table_1(director, bonn, 60)
    assert made == ["kept"]
    before = state.fast_reads
    page = phone.get("/p/bonn", headers={"accept-language": "de"})
    assert state.fast_reads == before + 1 and points(page.text)  # the page rendered ahead


def test_readers_of_an_expired_version_share_one_check_of_the_database(
    app: Any, client: TestClient, bonn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memo of a kept page expired (the refresher ran late): many phones read at once; one
    asks the database for the version, the others wait for that answer — none goes to the
    routes — and all get the page from memory."""
    import asyncio

    import httpx

    import agon.web.routes.public as public
    import agon.web.state as web_state

    state = state_of(app)
    client.get("/p/bonn")
    kept = client.get("/p/bonn").text
    asked: list[str] = []
    original = web_state.journal_version

    def slow(session: Session, tournament: str) -> int:
        asked.append(tournament)
        time.sleep(0.1)  # a loaded machine: the readers arrive while it is asked
        return original(session, tournament)

    monkeypatch.setattr(public, "journal_version", slow)
    monkeypatch.setattr(web_state, "journal_version", slow)
    # the refresher runs late: its ticks (every ttl/2 since the app started) find nothing to ask,
    # else one landing in the sleep below would ask for the version before the readers do
    monkeypatch.setattr(state.versions, "asked_lately", lambda seconds: [])
    state.versions.ttl = 1.0
    state.versions.put(bonn, state.versions.known(bonn) or 0)
    time.sleep(1.05)  # expired
    # a refresher tick already under way when asked_lately was replaced may have put the
    # version again meanwhile (a loaded machine: CI failed once); no later tick asks, so the
    # memo expires at most one lifetime after that
    deadline = time.monotonic() + 10
    while state.versions.get(bonn) is not None:
        assert time.monotonic() < deadline, "the version memo never expired"
        time.sleep(0.05)
    assert state.versions.known(bonn) is not None
    fast = state.fast_reads

    async def readers() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as phone:
            return await asyncio.gather(*(phone.get("/p/bonn") for _ in range(20)))

    pages = asyncio.run(readers())
    assert [p.status_code for p in pages] == [200] * 20 and {p.text for p in pages} == {kept}
    assert asked == [bonn]  # one check; before, each reader asked through the route
    assert state.fast_reads == fast + 20


def test_two_workers_on_postgresql_see_each_others_writes(tmp_path: Any) -> None:
    """Two workers (two apps on one PostgreSQL database): a result entered through one is on
    the other's next read once its memo of the version has expired — through the one shared
    check of the version, not the routes — and at once on the writer's own."""
    import asyncio

    import httpx

    from agon.web.app import create_app
    from tests.web.conftest import BONN_TABLES, PASSWORD, bonn_on_postgresql, form_token

    # with a render process: tests/web/test_renderproc.py
    settings = bonn_on_postgresql(tmp_path, render_process=False)
    one, two = create_app(settings), create_app(settings)
    try:
        writer, reader = TestClient(one), TestClient(two)
        for c in (writer, reader):
            c.get("/p/bonn")
        before = reader.get("/p/bonn").text
        second: WebState = state_of(two)
        memo = second.versions
        memo.ttl = 3600.0  # trusted however slow the login and the entry below (a loaded host)

        token = form_token(writer.get("/desk/login").text)
        r = writer.post("/desk/login", data={"password": PASSWORD, "csrf_token": token})
        assert r.status_code == 200
        enter_table_1(writer, "bonn", 70)
        own = writer.get("/p/bonn").text
        assert own != before  # the writer's worker: at once
        assert reader.get("/p/bonn").text == before  # the other: its memo still trusted
        # expired, still known: the next readers share one check, and the version it finds is
        # fresh for the five of them (they read within the second, even on a loaded host)
        memo.ttl = 1.0
        time.sleep(1.05)
        fast = second.fast_reads

        async def readers() -> list[str]:
            transport = httpx.ASGITransport(app=two)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as phone:
                pages = await asyncio.gather(*(phone.get("/p/bonn") for _ in range(5)))
                return [p.text for p in pages]

        seen = asyncio.run(readers())
        assert all((BONN_TABLES[0][0], "6") in points(text) for text in seen)
        assert all(points(text) == points(own) for text in seen)
        assert second.fast_reads == fast + 5  # all from memory, after the one check
    finally:
        for application in (one, two):
            application.state.web.engine.dispose()
