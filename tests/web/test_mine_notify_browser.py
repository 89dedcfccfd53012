"""Web Notifications of "My games" in a real browser (issue 28): /play/mine, open in the
background with the permission granted, raises a notification when it becomes my turn — and none
while the page is in front, nor for a seat that was my turn already when the page opened.

The page's ``Notification`` constructor is observed by an init script (it wraps the browser's
own); "in the background" is ``document.hidden`` (headless Chromium never hides a page itself)."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import FULL_CHROMIUM, TIMEOUT_MS, app_on, chromium, serving

from playwright.sync_api import APIRequestContext, Browser, BrowserContext  # isort: skip

pytestmark = pytest.mark.slow

# The full browser, not the headless shell of the other browser tests: the shell answers "denied"
# to every permission, notifications too.
if not Path(FULL_CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip(
        f"{FULL_CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True
    )

#: Record every notification the page makes; ``window.__hidden`` says whether it is hidden.
WATCH = """(() => {
  window.__notes = [];
  window.__hidden = true;
  Object.defineProperty(document, 'hidden', {get: () => window.__hidden});
  const Real = window.Notification;
  function Watched(title, options) {
    window.__notes.push({title: title, tag: (options || {}).tag});
    return new Real(title, options);
  }
  Object.defineProperty(Watched, 'permission', {get: () => Real.permission});
  Watched.requestPermission = (...a) => Real.requestPermission(...a);
  window.Notification = Watched;
})();"""


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("mine-notify") / "agon.db"
    shutil.copy(migrated_db, db)
    with serving(app_on(db, "mine-notify-secret")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium(FULL_CHROMIUM) as b:
        yield b


def state(api: APIRequestContext, server: str, gid: str, token: str) -> dict[str, Any]:
    answer = api.get(f"{server}/api/play/{gid}", params={"token": token})
    assert answer.ok, answer.text()
    body: dict[str, Any] = answer.json()
    return body


def act(api: APIRequestContext, server: str, gid: str, token: str) -> None:
    """The seat makes its first legal move (it must be its turn)."""
    s = state(api, server, gid, token)
    assert s["to_act"], s
    answer = api.post(
        f"{server}/api/play/{gid}/act",
        data={"token": token, "action": s["legal"][0], "version": s["version"]},
    )
    assert answer.status == 200, answer.text()


def two_people(api: APIRequestContext, server: str, name: str) -> tuple[str, str, str]:
    """A 7 Wonders game of two people and a bot: (game, my token, the other's token)."""
    seats = [{"kind": "human", "name": name}, {"kind": "human", "name": "Ben"}]
    seats.append({"kind": "bot", "bot": "random"})
    answer = api.post(f"{server}/api/play", data={"game": "7w", "variant": "base", "seats": seats})
    assert answer.status == 201, answer.text()
    body = answer.json()
    return body["game_id"], body["seats"][0]["token"], body["seats"][1]["token"]


def context(browser: Browser, server: str) -> BrowserContext:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="en")
    ctx.grant_permissions(["notifications"], origin=server)
    ctx.set_default_timeout(TIMEOUT_MS)
    ctx.add_init_script(WATCH)
    return ctx


def notes_after(ctx: BrowserContext, seconds: float) -> list[dict[str, str]]:
    """The notifications /play/mine made within ``seconds`` (it polls every 5 s)."""
    page = ctx.pages[-1]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        notes: list[dict[str, str]] = page.evaluate("window.__notes")
        if notes:
            return notes
        page.wait_for_timeout(250)
    found: list[dict[str, str]] = page.evaluate("window.__notes")
    return found


def test_my_games_notifies_when_it_becomes_my_turn_in_the_background(
    server: str, browser: Browser
) -> None:
    ctx = context(browser, server)
    page = ctx.new_page()
    api = page.request
    gid, mine, theirs = two_people(api, server, "Annemarie")
    page.goto(f"{server}/play/{gid}?token={mine}")  # the seat link: remembered by this browser
    act(api, server, gid, mine)  # my move is made: now I wait for Ben
    page.goto(f"{server}/play/mine")
    assert page.evaluate("Notification.permission") == "granted"
    page.wait_for_selector("#mine-list li.mine-seat")
    assert "my-turn" not in (page.locator("#mine-list li").first.get_attribute("class") or "")
    assert notes_after(ctx, 1) == []
    act(api, server, gid, theirs)  # Ben moves: the next turn is mine
    notes = notes_after(ctx, 20)
    assert [n["tag"] for n in notes] == [f"agon-{gid}"], notes
    assert "It is your turn" in notes[0]["title"]
    page.wait_for_selector("#mine-list li.my-turn")
    ctx.close()


def test_no_notification_while_the_page_is_in_front(server: str, browser: Browser) -> None:
    ctx = context(browser, server)
    page = ctx.new_page()
    api = page.request
    gid, mine, theirs = two_people(api, server, "Annemarie")
    page.goto(f"{server}/play/{gid}?token={mine}")
    act(api, server, gid, mine)
    page.goto(f"{server}/play/mine")
    page.evaluate("window.__hidden = false")
    page.wait_for_selector("#mine-list li.mine-seat")
    act(api, server, gid, theirs)
    page.wait_for_selector("#mine-list li.my-turn", timeout=20_000)  # seen, but not notified
    assert page.evaluate("window.__notes") == []
    ctx.close()
