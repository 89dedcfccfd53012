"""The end screen and the replay in a real browser at 360×740 (issue 28): a person plays a short
7 Wonders game against two random bots to the end; the end screen fits the phone (no sideways
scrolling), shows the winner first, breaks no name mid-word, and axe-core finds no serious or
critical violation on it; then the replay opens from its link and steps back and forth with the
buttons and the arrow keys, from a seat's point of view too, axe-checked as well."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.test_browser import app_on, serious, serving, shot
from tests.web.test_play_browser import create_game, phone, play_to_the_end, tap_move

from playwright.sync_api import Browser, Page, expect  # isort: skip

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("play-end-browser") / "agon.db"
    shutil.copy(migrated_db, db)
    with serving(app_on(db, "play-end-browser-secret")) as url:
        yield url


def scroll_width(page: Page) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


def step_shown(page: Page) -> tuple[int, int]:
    text = page.locator("#replay-step").inner_text()
    m = re.search(r"(\d+) of (\d+)", text)
    assert m, text
    return int(m.group(1)), int(m.group(2))


def test_the_end_screen_fits_a_phone_and_the_replay_steps_back_and_forth(
    server: str, browser: Browser
) -> None:
    page = phone(browser, "en")
    page.goto(f"{server}/lang/en?next=/play")
    create_game(page, server, "7w", ["human", "bot:random", "bot:random"], "Annemarie-Louise")
    page.locator("#open-own").tap()
    # after the first turn: the last turn, highlighted; the story stays open across new boards
    expect(page.locator(".hand .hcard")).to_have_count(7)
    board = page.query_selector("#board")
    tap_move(page, 0)
    page.wait_for_function("el => !el.isConnected", arg=board)
    expect(page.locator(".last-turn")).to_contain_text("Age I, turn 1", timeout=30_000)
    shot(page, "play-7w-last-turn")
    page.locator("details.story summary").tap()
    board = page.query_selector("#board")
    tap_move(page, 0)
    page.wait_for_function("el => !el.isConnected", arg=board)
    expect(page.locator("details.story")).to_have_attribute("open", "")
    play_to_the_end(page, "7w")
    end = page.locator("#board .end")
    expect(end.locator(".winner")).to_be_visible()
    # the winner and the ranks come before the table and the chart
    order = page.evaluate(
        """() => ['.winner', '.ranks', '.end-table', '.end-chart'].map(
            s => document.querySelector('#board .end ' + s).getBoundingClientRect().top)"""
    )
    assert order == sorted(order), order
    expect(end.locator(".rank-row")).to_have_count(3)
    assert scroll_width(page) <= 360, scroll_width(page)
    box = end.locator(".end-table").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360
    print(f"\nend screen: scrollWidth {scroll_width(page)}, table {box['width']:.0f} px wide")
    # no name is broken across lines: one line box each
    lines = page.evaluate(
        "() => [...document.querySelectorAll('#board .end .pname')]"
        ".map(e => e.getClientRects().length)"
    )
    assert lines and all(n == 1 for n in lines), lines
    assert end.locator("svg[role=img]").count() == 1
    shot(page, "play-7w-end-screen")
    assert serious(page) == []
    # the replay, from the end screen's link: at the last move, then back and forth
    end.get_by_role("link", name="Watch the replay, move by move").tap()
    page.wait_for_selector("#replay-step")
    last, steps = step_shown(page)
    assert last == steps >= 54
    assert serious(page) == []
    page.locator("#replay-prev").tap()
    page.wait_for_url(re.compile(rf"step={steps - 1}\b"))
    assert step_shown(page) == (steps - 1, steps)
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(rf"step={steps - 2}\b"))
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(rf"step={steps - 1}\b"))
    assert step_shown(page) == (steps - 1, steps)
    page.keyboard.press("Home")
    page.wait_for_url(re.compile(r"step=0\b"))
    page.locator("#replay-next").tap()
    page.wait_for_url(re.compile(r"step=1\b"))
    # a seat's point of view: its hand (the game is over), shared by its address
    page.get_by_role("link", name="Annemarie-Louise").tap()
    page.wait_for_url(re.compile(r"seat=0"))
    expect(page.locator(".hand .hcard").first).to_be_visible()
    assert scroll_width(page) <= 360, scroll_width(page)
    shot(page, "play-7w-replay")
    assert serious(page) == []
    page.context.close()
