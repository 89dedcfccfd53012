"""In a real browser (Debian's Chromium, driven by Playwright): a director runs a 13-player
BONN-SPIELT tournament through all four rounds; at one table per round the players enter and
confirm their result on a 360×740 phone. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI

from agon.web.app import create_app
from agon.web.settings import WebSettings
from tests.web.conftest import BONN_13, PASSWORD, PASSWORD_HASH

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError(
            f"{CHROMIUM} is missing: make test installs Debian's chromium (tools/system-packages)"
        )
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

# Generous waits: the machine running the suite may be busy (seating round 1 plans all four
# rounds at once, about a second of CPU on an idle core).
TIMEOUT_MS = 90_000
expect.set_options(timeout=TIMEOUT_MS)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(make_app: Callable[[str], FastAPI]) -> Iterator[str]:
    """Serve ``make_app(url)`` with uvicorn in a thread on a free port of 127.0.0.1; yields the
    base URL, stops the server and releases the app's database afterwards (the browser tests'
    one way to run the web app)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    app = make_app(url)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield url
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
        app.state.web.engine.dispose()


def app_on(db: Path, secret: str, **settings: Any) -> Callable[[str], FastAPI]:
    """A ``make_app`` for :func:`serving`: the web app on the SQLite file ``db``."""

    def make(url: str) -> FastAPI:
        return create_app(
            WebSettings(
                database_url=f"sqlite:///{db}",
                secret_key=secret,
                director_password_hash=PASSWORD_HASH,
                public_url=url,
                **settings,
            )
        )

    return make


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless, with the browser tests' arguments."""
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser") / "agon.db"
    shutil.copy(migrated_db, db)
    with serving(app_on(db, "browser-secret")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def phone_enters_and_confirms(browser: Browser, url: str, pin: str, number: int) -> None:
    """The players of a table: open the sheet's URL, type the PIN, fill the pad, each confirms."""
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="de-DE", has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    phone = ctx.new_page()
    phone.goto(url)
    expect(phone.locator("h1")).to_be_visible()
    phone.fill("#pin", pin)
    phone.get_by_role("button", name="Tisch öffnen").tap()
    expect(phone.locator('fieldset[data-seat="1"]')).to_be_visible()
    seats = phone.locator("fieldset[data-seat]").count()
    assert seats in (4, 5)
    # seat 1 uses the score pad; the page adds up and computes science from the symbols
    phone.locator('fieldset[data-seat="1"] summary').tap()
    pad = {"military": 5, "treasury": 3, "wonder": 10, "civilian": 12, "commercial": 4, "guilds": 6}
    for cat, value in pad.items():
        phone.fill(f"#{cat}-1", str(value))
    phone.fill("#gear-1", "2")
    phone.fill("#compass-1", "1")
    phone.fill("#tablet-1", "1")
    phone.fill("#wild-1", "1")  # best: a third gear, 9 + 1 + 1 + 7 = 18
    expect(phone.locator("#science-1")).to_have_value("18")
    expect(phone.locator("#vp-1")).to_have_value(str(sum(pad.values()) + 18))
    phone.fill("#coins-1", "4")
    for k in range(2, seats + 1):
        phone.fill(f"#vp-{k}", str(35 + 4 * k + number))
        phone.fill(f"#coins-{k}", str(k))
    if number == 1:
        shot(phone, "phone-score-pad")
    phone.get_by_role("button", name="Ergebnis speichern").tap()
    expect(phone.locator(".flash")).to_contain_text("Ergebnis gespeichert")
    for _ in range(seats):
        phone.get_by_role("button", name=re.compile(r"^Als .* bestätigen$")).first.tap()
        expect(phone.locator(".flash")).to_contain_text("Bestätigt")
    expect(phone.get_by_text("Dieser Tisch ist fertig. Danke!")).to_be_visible()
    if number == 1:
        shot(phone, "phone-confirmed")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the phone page is {width} px wide"
    ctx.close()


def test_director_runs_bonn_through_four_rounds(server: str, browser: Browser) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    ctx.set_default_timeout(TIMEOUT_MS)
    desk = ctx.new_page()
    desk.goto(f"{server}/desk")
    desk.fill("#password", PASSWORD)
    desk.get_by_role("button", name="Log in").click()
    desk.fill("#name", "BONN-SPIELT (browser)")
    desk.fill("#slug", "bonn")
    desk.select_option("#ruleset", "bonn-2018")
    desk.fill("#seed", "browser-seed")
    desk.get_by_role("button", name="Create tournament").click()
    expect(desk.locator(".flash")).to_contain_text("Tournament created.")
    desk.get_by_text("Register many (CSV)").click()
    desk.fill("#csv_text", "name\n" + "\n".join(BONN_13))
    desk.get_by_role("button", name="Register all").click()
    expect(desk.locator(".flash")).to_contain_text("Players registered: 13")
    desk.get_by_role("button", name="Check in everyone registered").click()
    expect(desk.locator(".flash")).to_contain_text("Checked in: 13")

    for number in (1, 2, 3, 4):
        # Round 1 plans all four rounds at once: seconds of search on a quiet machine (hard draws
        # for 13 players take ~9 s CPU), far longer on a loaded CI machine.
        desk.get_by_role("button", name="Seat by the ruleset and start").click(timeout=180_000)
        # the confirmation step: the seating it would make, nothing done yet
        expect(desk.locator("h1")).to_have_text("Start the round?")
        expect(desk.locator("#preview")).to_contain_text(f"Round {number} started")
        desk.get_by_role("button", name="Yes, start the round").click(timeout=180_000)
        expect(desk.locator(".flash")).to_contain_text(f"Round {number} started.")
        cards = desk.locator("section.table-card")
        assert sorted(cards.nth(i).locator("tbody tr").count() for i in range(3)) == [4, 4, 5]
        if number == 1:
            desk.get_by_role("button", name="Start the clock").click()
            shot(desk, "desk-round")
        # table 1: the players, on a phone
        pin = desk.locator("#table-1 .pin").inner_text()
        link = desk.locator("#table-1 a").first.get_attribute("href")
        assert link is not None and link.endswith(f"/r{number}/t1")
        phone_enters_and_confirms(browser, link, pin, number)
        # tables 2 and 3: the director types the signed paper sheets
        for table in (2, 3):
            card = desk.locator(f"#table-{table}")
            rows = card.locator("tbody tr").count()
            for k in range(1, rows + 1):
                card.locator(f'input[name="vp-{k}"]').fill(str(30 + 5 * k + table + number))
                card.locator(f'input[name="coins-{k}"]').fill(str(k % 3))
            card.locator('input[name="confirm"]').check()
            card.get_by_role("button", name="Save result").click()
            expect(desk.locator(".flash")).to_contain_text(f"Table {table} saved.")
        desk.reload()
        expect(desk.locator("#status")).to_contain_text("confirmed: 3")
        desk.get_by_role("button", name="Close the round").click()
        expect(desk.locator("#preview")).to_contain_text(f"Round {number} closed")
        desk.get_by_role("button", name="Yes, close the round").click()
        expect(desk.locator(".flash")).to_contain_text(f"Round {number} closed.")

    expect(desk.get_by_text("Start round 5")).to_have_count(0)
    public = browser.new_context(viewport={"width": 360, "height": 740}, locale="it-IT")
    public.set_default_timeout(TIMEOUT_MS)
    page = public.new_page()
    page.goto(f"{server}/p/bonn")
    expect(page.locator("p.caption")).to_contain_text("dopo 4 turni")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(13)
    games = [rows.nth(i).locator("td").nth(-2).inner_text() for i in range(13)]
    assert games == ["4"] * 13
    shot(page, "phone-standings")
    page.goto(f"{server}/p/bonn/seat?name=player+c")
    expect(page.locator(".seat-card")).to_have_count(1)
    page.goto(f"{server}/p/bonn/chart?player=Player+A")
    assert page.locator("svg.chart polyline").count() == 13
    shot(page, "phone-rank-chart")
    projector = ctx.new_page()
    projector.goto(f"{server}/p/bonn/clock")
    expect(projector.locator(".clock-round")).to_contain_text("Round 4")
    shot(projector, "projector")
    # the desk works on a phone too: nothing wider than the screen
    desk.set_viewport_size({"width": 360, "height": 740})
    for url in ("/desk", "/desk/bonn", "/desk/bonn/rounds/4", "/p/bonn/rounds/4", "/p/bonn/clock"):
        desk.goto(f"{server}{url}")
        width = desk.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{url} is {width} px wide"
    shot(desk, "phone-projector")
    ctx.close()
    public.close()
