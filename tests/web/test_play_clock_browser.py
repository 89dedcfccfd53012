"""In a real browser (Chromium, Playwright) on a 360×740 phone (issue 28): a timed game in which
the person's turn clock runs out — the page counts down, then shows the seat as timed out while
the heuristic's move was played for it — and "My games", which lists the seat this browser
opened and marks that it is the person's turn."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.test_browser import TIMEOUT_MS, app_on, serving, shot

from playwright.sync_api import Browser, Page, expect  # isort: skip

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("play-clock-browser") / "agon.db"
    shutil.copy(migrated_db, db)
    # tiny clocks for the test: "normal" (60 s) lasts 12 s
    with serving(app_on(db, "play-clock-secret", play_clock_scale=0.2)) as url:
        yield url


def phone(browser: Browser) -> Page:
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="en", has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx.new_page()


def test_a_clock_runs_out_and_my_games_marks_my_turn(server: str, browser: Browser) -> None:
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "easy"},
        {"kind": "bot", "bot": "expert"},
    ]
    r = httpx.post(f"{server}/api/play", json={"game": "7w", "seats": seats, "clock": "normal"})
    assert r.status_code == 201, r.text
    url = r.json()["seats"][0]["url"]
    page = phone(browser)
    page.goto(server + url)
    expect(page.locator(".turn-clock")).to_be_visible()
    expect(page.locator(".timed-out")).to_have_count(0)
    shot(page, "play-clock-running")
    # the clock runs out: the page shows the seat timed out (the board is pushed, not reloaded)
    expect(page.locator(".timed-out")).to_contain_text("Ann", timeout=60_000)
    expect(page.locator(".timed-out")).to_contain_text("timed out")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "play-clock-timed-out")

    mine = page.context.new_page()  # the same browser: its localStorage holds the seat link
    mine.goto(f"{server}/play/mine")
    seat = mine.locator(".mine-seat")
    expect(seat).to_have_count(1)
    expect(seat).to_contain_text("Ann")
    expect(mine.locator(".mine-seat.my-turn")).to_have_count(1, timeout=30_000)
    expect(seat).to_contain_text("Your turn")
    assert mine.evaluate("document.documentElement.scrollWidth") <= 360
    html = mine.content()
    assert "token=" in html  # the seat's own link, from this browser's list only
    shot(mine, "play-my-games")
    # a link that opens no seat is said so, and can be forgotten
    mine.evaluate(
        """() => {
            const list = JSON.parse(localStorage.getItem("agon-seats"));
            list.push({game_id: "NoSuchGame", token: "nothing"});
            localStorage.setItem("agon-seats", JSON.stringify(list));
        }"""
    )
    mine.reload()
    expect(mine.locator(".mine-seat")).to_have_count(2)
    gone = mine.locator(".mine-seat").nth(1)
    expect(gone).to_contain_text("no longer valid")
    gone.locator("button").tap()
    expect(mine.locator(".mine-seat")).to_have_count(1)
