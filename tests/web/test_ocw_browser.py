"""One Card Wonder online in a real browser at 360×740 (issue 28): the drawn table fits the phone;
a leader's interruption opens as a modal dialog on every seat's page and the spectators', takes
the focus, gives it back when closed, stays closed for that leader afterwards; axe-core finds no
serious or critical violation with the dialog open; the page announces the table politely."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import TIMEOUT_MS, app_on, serious, serving, shot
from tests.web.test_ocw_online import to_interruption

from playwright.sync_api import APIRequestContext, Browser, Page, expect  # isort: skip

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("ocw-browser") / "agon.db"
    shutil.copy(migrated_db, db)
    with serving(app_on(db, "ocw-browser-secret")) as url:
        yield url


def phone(browser: Browser) -> Page:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="en")
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx.new_page()


def driver(api: APIRequestContext, server: str) -> tuple[Any, Any]:
    def get(gid: str, token: str) -> dict[str, Any]:
        answer = api.get(f"{server}/api/play/{gid}", params={"token": token})
        assert answer.ok, answer.text()
        body: dict[str, Any] = answer.json()
        return body

    def act(gid: str, token: str, action: str, version: int) -> None:
        answer = api.post(
            f"{server}/api/play/{gid}/act",
            data={"token": token, "action": action, "version": version},
        )
        assert answer.status == 200, answer.text()

    return get, act


def test_a_leaders_interruption_is_a_modal_dialog_with_the_focus_handled(
    server: str, browser: Browser
) -> None:
    page = phone(browser)
    api = page.request
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bartholomäus"}]
    answer = api.post(
        f"{server}/api/play", data={"game": "ocw", "variant": "leaders", "seats": seats}
    )
    assert answer.status == 201, answer.text()
    game = answer.json()
    gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    page.goto(f"{server}/play/{gid}?token={tokens[0]}&lang=en")
    expect(page.locator(".ocw-stages-svg").first).to_be_visible()
    expect(page.locator(".ocw-storage").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.locator("#live-news").get_attribute("aria-live") == "polite"
    get, act = driver(api, server)
    waiting = to_interruption(get, act, gid, tokens)
    # the seat's page and a spectator's: the dialog opens as a modal on both
    page.reload()
    other = phone(browser)
    other.goto(f"{server}/play/{gid}/watch?lang=en")
    for p in (page, other):
        dialog = p.locator("dialog#ocw-leader")
        expect(dialog).to_be_visible()
        assert p.evaluate("document.querySelector('#ocw-leader').matches(':modal')")
        ok = dialog.get_by_role("button", name="OK")
        expect(ok).to_be_focused()
        expect(p.locator("#live-news")).to_have_count(1)
    shot(page, "play-ocw-leader-dialog")
    assert serious(page) == []
    # closed with Escape: the focus goes to the table (the first move of the seat that acts)
    me = waiting["seat"]
    seat_page = page if me == 0 else phone(browser)
    if me != 0:
        seat_page.goto(f"{server}/play/{gid}?token={tokens[me]}&lang=en")
        expect(seat_page.locator("dialog#ocw-leader")).to_be_visible()
    seat_page.keyboard.press("Escape")
    expect(seat_page.locator("dialog#ocw-leader")).to_be_hidden()
    assert seat_page.evaluate("document.activeElement.classList.contains('move')")
    # the same leader does not open the dialog again on this tab
    seat_page.reload()
    expect(seat_page.locator(".ocw-stages-svg").first).to_be_visible()
    expect(seat_page.locator("dialog#ocw-leader")).to_be_hidden()
    # the other page closes it with its button
    other.locator("dialog#ocw-leader").get_by_role("button", name="OK").click()
    expect(other.locator("dialog#ocw-leader")).to_be_hidden()
    assert serious(other) == []
    for p in {page, other, seat_page}:
        p.context.close()
