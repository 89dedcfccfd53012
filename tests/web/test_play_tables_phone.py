"""The tournament tables' new play views fit a 360 px phone in German, Italian and English (real
Chromium): the side choice, the round clock and who is connected on a seat's page, the seat link
with its QR code on "Where do I sit?", and the desk's printable seat-link cards. A phone then
chooses its side by tapping."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, expect

from agon.services import floor, online
from agon.services.online import OnlineOptions
from agon.web.security import player_code
from tests.web.conftest import PASSWORD, make_bonn
from tests.web.test_browser import TIMEOUT_MS, app_on, serving
from tests.web.test_layout import BONN, measure

SECRET = "tables-phone-secret"
LANGS = ("de", "it", "en")
TABLES = [list(BONN[:5]), list(BONN[5:9]), list(BONN[9:])]


def _setup(app: Any) -> dict[str, str]:
    """Bonn round 1 online (the players choose their sides), with a 50-minute clock."""
    with app.state.web.sessions() as s:
        make_bonn(s, slug="bonn", names=BONN)
        seated = online.start_round_online(
            s,
            tournament="bonn",
            actor="t",
            tables=TABLES,
            options=OnlineOptions(),
            host=app.state.online_host,
        )
        floor.start_clock(s, tournament="bonn", round_number=1, minutes=50, actor="t")
        links = online.seat_links(s, tournament="bonn", number=1)
        s.rollback()
    return {"seat": links[(1, 0)], "game": seated.tables[0].game or ""}


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("tables-phone") / "agon.db"
    shutil.copy(migrated_db, db)

    def make(url: str) -> FastAPI:
        app = app_on(db, SECRET)(url)
        _setup(app)
        return app

    with serving(make) as url:
        yield url


def test_the_new_views_fit_a_phone_and_a_phone_chooses_its_side(
    server: str, browser: Browser
) -> None:
    import httpx

    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    # the seat link of table 1, seat 1 (Where do I sit? with the player's code shows it)
    first = BONN[0]
    code = player_code(SECRET, "bonn", first)
    where = httpx.get(f"{server}/p/bonn/seat", params={"name": first, "code": code}).text
    seat = (
        where.split('class="button seat-link" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    )
    game = seat.split("/play/", 1)[1].split("?", 1)[0]
    problems: list[str] = []
    for lang in LANGS:
        problems += measure(
            page,
            f"{server}/p/bonn/seat?name={first}&code={code}&lang={lang}",
            360,
            f"seat-qr-{lang}",
        )
        problems += measure(page, f"{server}{seat}&lang={lang}", 360, f"side-choice-{lang}")
        problems += measure(page, f"{server}/play/{game}/watch?lang={lang}", 360, f"watch-{lang}")
    page.goto(f"{server}/desk/login")
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").first.click()
    for lang in LANGS:
        url = f"{server}/desk/bonn/rounds/1/seat-links?lang={lang}"
        problems += measure(page, url, 360, f"seat-links-{lang}")
    assert not problems, "\n".join(problems)
    # the phone chooses side B: the page shows it is waiting for the others
    page.goto(f"{server}{seat}&lang=en")
    expect(page.locator(".round-clock")).to_contain_text("Remaining")
    page.get_by_role("button", name="Play side B").tap()
    expect(page.locator(".side-choice")).to_contain_text("Waiting for the other players.")
    expect(page.get_by_role("button", name="Play side B")).to_have_count(0)
    ctx.close()
