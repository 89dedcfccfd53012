"""Table phones that survive the wifi (issue 29), in a real browser (Debian's Chromium at 360 px,
driven by Playwright): a phone goes offline in the middle of entering its table's result, saves
(the page says "waiting to send"), comes back, and the result arrives once; a second phone's
competing entry during an outage turns the first phone's queued entry into a dispute the desk
shows; with the server stopped, the table page and "Where do I sit?" still open from the service
worker, marked "as of HH:MM"; the standings say so when their refresh fails.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlalchemy.orm import Session

from agon.services import floor, journal, results, rounds
from agon.store.db import Settings, make_engine, make_session_factory
from agon.web.security import table_pin
from tests.web.conftest import BONN_TABLES, PASSWORD, make_bonn
from tests.web.test_browser import TIMEOUT_MS, app_on, serving

pytestmark = pytest.mark.slow

SECRET = "offline-secret"
WAITING = "Waiting to send"


@pytest.fixture
def db_file(migrated_db: Path, tmp_path: Path) -> Iterator[Path]:
    db = tmp_path / "agon.db"
    shutil.copy(migrated_db, db)
    engine = make_engine(Settings(f"sqlite:///{db}"))
    with make_session_factory(engine)() as s:
        make_bonn(s)
        rounds.start_round(
            s, tournament="bonn", actor="test", tables=[list(t) for t in BONN_TABLES]
        )
        s.rollback()
    engine.dispose()
    yield db


def session_on(db: Path) -> Session:
    return make_session_factory(make_engine(Settings(f"sqlite:///{db}")))()


def phone(browser: Browser) -> BrowserContext:
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="en-GB", has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx


def open_table(ctx: BrowserContext, url: str, table: int) -> Page:
    page = ctx.new_page()
    page.goto(f"{url}/t/bonn/r1/t{table}")
    page.fill("#pin", table_pin(SECRET, "bonn", 1, table))
    page.get_by_role("button", name="Open the table").tap()
    expect(page.locator('fieldset[data-seat="1"]')).to_be_visible()
    return page


def kept_offline(page: Page) -> None:
    """Wait until the service worker runs and this page is in the phone's cache."""
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready",
        timeout=TIMEOUT_MS,
    )
    page.wait_for_function(
        "caches.open('agon-pages').then(c => c.match(location.href)).then(r => !!r)",
        timeout=TIMEOUT_MS,
        polling=200,
    )


def fill(page: Page, seats: range, base: int) -> None:
    for k in seats:
        page.fill(f"#vp-{k}", str(base + k))
        page.fill(f"#coins-{k}", str(k))


def entries(db: Path, action: str, table: int) -> list[dict[str, object]]:
    with session_on(db) as s:
        return [
            e.payload
            for e in journal.list_journal(s, tournament="bonn")
            if e.action == action and e.payload.get("table") == table
        ]


def test_a_phone_offline_mid_entry_sends_its_result_once(db_file: Path, browser: Browser) -> None:
    with serving(app_on(db_file, SECRET)) as url:
        ctx = phone(browser)
        page = open_table(ctx, url, 2)
        kept_offline(page)
        seat_page = ctx.new_page()  # "Where do I sit?", opened once while online
        seat_page.goto(f"{url}/p/bonn/seat?name=Player+F")
        kept_offline(seat_page)
        fill(page, range(1, 3), 40)
        ctx.set_offline(True)  # the wifi goes, in the middle of the entry
        fill(page, range(3, 5), 40)
        page.get_by_role("button", name="Save the result").tap()
        expect(page.locator("#agon-queue")).to_contain_text(WAITING)
        assert entries(db_file, "result.enter", 2) == []
        # offline, the page opens again (from the service worker), still waiting
        page.reload()
        expect(page.locator("#agon-queue")).to_contain_text(WAITING)
        expect(page.locator("#agon-stale")).to_contain_text("As of ")
        ctx.set_offline(False)
        expect(page.locator(".flash.ok")).to_contain_text("Result saved.")
        expect(page.locator("#agon-queue")).to_be_hidden()
        sent = entries(db_file, "result.enter", 2)
        assert len(sent) == 1, sent
        with session_on(db_file) as s:
            table = results.get_table(s, tournament="bonn", round_number=1, table=2)
        assert [r.vp for r in table.results] == [41, 42, 43, 44]
        # the phone sends nothing more: still one entry a while later
        page.wait_for_timeout(6000)
        assert len(entries(db_file, "result.enter", 2)) == 1
        ctx.close()


def test_a_competing_entry_during_the_outage_turns_the_queued_one_into_a_dispute(
    db_file: Path, browser: Browser
) -> None:
    with serving(app_on(db_file, SECRET)) as url:
        first, second = phone(browser), phone(browser)
        a = open_table(first, url, 3)
        kept_offline(a)
        first.set_offline(True)
        fill(a, range(1, 5), 50)
        a.get_by_role("button", name="Save the result").tap()
        expect(a.locator("#agon-queue")).to_contain_text(WAITING)
        b = open_table(second, url, 3)  # the second phone is online and enters its result
        fill(b, range(1, 5), 30)
        b.get_by_role("button", name="Save the result").tap()
        expect(b.locator(".flash")).to_contain_text("Result saved.")
        first.set_offline(False)
        expect(a.locator(".flash.error").first).to_contain_text("did not overwrite it")
        # never overwriting: the second phone's result stands; the queued one is a dispute
        with session_on(db_file) as s:
            table = results.get_table(s, tournament="bonn", round_number=1, table=3)
            disputes = floor.disputes(
                s, tournament="bonn", round_number=1, versions={3: table.version}
            )
        assert [r.vp for r in table.results] == [31, 32, 33, 34]
        assert len(entries(db_file, "result.enter", 3)) == 1
        assert len(entries(db_file, "dispute.open", 3)) == 1 and len(disputes[3]) == 1
        # the desk shows it, with what the phone wanted
        desk_ctx = browser.new_context(viewport={"width": 360, "height": 740})
        desk = desk_ctx.new_page()
        desk.goto(f"{url}/desk")
        desk.fill("#password", PASSWORD)
        desk.get_by_role("button", name="Log in").click()
        desk.goto(f"{url}/desk/bonn/rounds/1")
        expect(desk.locator("#table-3")).to_contain_text(
            f"The phone wanted: {BONN_TABLES[2][0]} 51"
        )
        for ctx in (first, second, desk_ctx):
            ctx.close()


def test_with_the_server_gone_the_table_and_seat_pages_open_from_the_cache(
    db_file: Path, browser: Browser
) -> None:
    ctx = phone(browser)
    with serving(app_on(db_file, SECRET)) as url:
        page = open_table(ctx, url, 1)
        kept_offline(page)
        seat = ctx.new_page()
        seat.goto(f"{url}/p/bonn/seat?name=Player+A")
        kept_offline(seat)
        expect(seat.locator("#agon-stale")).to_be_hidden()
        standings = ctx.new_page()  # refreshes itself every 10 seconds
        standings.goto(f"{url}/p/bonn")
        expect(standings.locator("#agon-stale")).to_be_hidden()
    # the standings' refresh fails: the page says since when it is not up to date
    expect(standings.locator("#agon-stale")).to_contain_text("As of ")
    # the server is stopped: both pages open from the service worker, marked stale
    page.goto(f"{url}/t/bonn/r1/t1")
    expect(page.locator('fieldset[data-seat="1"]')).to_be_visible()
    expect(page.locator("#agon-stale")).to_contain_text("As of ")
    # the phone thinks it is online, the server does not answer: the service worker keeps
    # the entry in the queue and shows the page again, waiting to send
    fill(page, range(1, 6), 40)
    page.get_by_role("button", name="Save the result").tap()
    expect(page.locator("#agon-queue")).to_contain_text(WAITING)
    seat.goto(f"{url}/p/bonn/seat?name=Player+A")
    expect(seat.locator("body")).to_contain_text("Player A")
    expect(seat.locator("#agon-stale")).to_contain_text("As of ")
    ctx.close()
