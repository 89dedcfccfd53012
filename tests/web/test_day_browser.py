"""The public pages of a day, on a 360 px phone in German and Italian, in a real browser
(Debian's Chromium driven by Playwright; issue 32, points 7-10 and 12): the standings fit without
sideways scrolling (the games and what decided a place fold under the name), the marks beside
the names are words with a title; the round's results say who withdrew and show the points and
the virtual player; card costs say "1 Münze", "2 monete". Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, Page

from agon.i18n.marks import Mark, mark_text
from agon.services import rounds
from tests.web.conftest import make_bonn
from tests.web.helpers import play_round
from tests.web.test_browser import TIMEOUT_MS, app_on, serving, shot
from tests.web.test_day_public import LATE, LUDO, WITHDREW, ludo_day
from tests.web.test_layout import BONN, with_lang

pytestmark = pytest.mark.slow
SECRET = "day-secret"
LANGS = ("de", "it")

#: The page's width, and the standings' scroller: how wide its table is against what it shows.
WIDTHS = """() => {
  const scroller = document.querySelector('#standings .scroll');
  return {
    page: document.scrollingElement.scrollWidth,
    table: scroller ? scroller.scrollWidth : 0,
    shown: scroller ? scroller.clientWidth : 0,
  };
}"""


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("day") / "agon.db"
    shutil.copy(migrated_db, db)

    def make(url: str) -> FastAPI:
        app = app_on(db, SECRET)(url)
        with app.state.web.sessions() as s:
            absent = ludo_day(s)
            s.rollback()
            make_bonn(s, slug="bonn", names=BONN)  # long names, three tie-breaks shown
            for number in (1, 2):
                rounds.start_round(s, tournament="bonn", actor="t")
                play_round(s, "bonn", number)
                rounds.close_round(s, tournament="bonn", number=number, actor="t")
            s.rollback()
        app.state.absent = absent
        return app

    with serving(make) as url:
        yield url


def phone(browser: Browser, lang: str) -> Page:
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale=lang, has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx.new_page()


@pytest.mark.parametrize("lang", LANGS)
def test_the_standings_fit_a_phone(server: str, browser: Browser, lang: str) -> None:
    """Point 10: no sideways scrolling at 360 px, not even inside the standings' scroller; the
    games and the reason are still there, under the name."""
    page = phone(browser, lang)
    for slug in ("bonn", "ludo"):
        page.goto(f"{server}/p/{slug}?lang={lang}")
        widths = page.evaluate(WIDTHS)
        shot(page, f"day-standings-{slug}-{lang}")
        assert widths["page"] <= 360, f"{slug}: the page is {widths['page']} px wide"
        assert widths["table"] <= widths["shown"], f"{slug}: the standings scroll: {widths}"
        detail = page.locator("#standings tbody tr.narrow").nth(1)
        assert detail.is_visible() and re.search(r"\d", detail.inner_text())
        assert not page.locator("#standings th.wide").first.is_visible()
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_standings_mark_who_left_came_late_or_was_absent(
    server: str, browser: Browser, lang: str
) -> None:
    """Point 8: the marks read as words (not a colour) with the long sentence as title."""
    page = phone(browser, lang)
    page.goto(f"{server}/p/ludo?lang={lang}")
    for name, mark in (("Ivo Lanza", Mark("dropped", 1)), (LATE, Mark("late", 2))):
        text = mark_text(mark, lang)
        cell = page.locator("#standings td.name", has_text=re.compile(rf"^{re.escape(name)}"))
        assert f"({text.short})" in cell.inner_text()
        assert cell.locator(".mark").first.get_attribute("title") == text.long
    final = mark_text(Mark("absent-final"), lang)
    assert page.locator("#standings td.name .mark", has_text=final.short).count() == 1
    assert final.long in page.locator(".legend").inner_text()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_round_results_on_a_phone(server: str, browser: Browser, lang: str) -> None:
    """Points 7 and 9: the withdrawn player's words instead of "0 0", each player's points and
    the virtual player's score, at 360 px."""
    page = phone(browser, lang)
    page.goto(f"{server}/p/ludo/rounds/1?lang={lang}")
    shot(page, f"day-round-{lang}")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    left = page.locator("tr.left")
    assert left.count() == 1 and LUDO[0] in left.inner_text()
    assert WITHDREW[lang] in left.inner_text()
    second = page.locator("section.table-card").nth(1)
    assert "10" in second.locator("tr", has_text="Lia Greco").inner_text()
    virtual = {"de": "Virtueller Spieler: 44 Netto-SP, Platz 3",
               "it": "Giocatore virtuale: 44 PV netti, posizione 3"}  # fmt: skip
    assert second.locator(".virtual").inner_text() == virtual[lang]
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_card_costs_in_words_on_a_phone(server: str, browser: Browser, lang: str) -> None:
    """Point 12: every coin in a cost reads "1 Münze" / "2 monete", never "1×Münzen"."""
    page = phone(browser, lang)
    words = {"de": r"\d+ Münzen?", "it": r"\d+ (moneta|monete)"}[lang]
    seen = []
    for game, variant in (("ocw", "base"), ("7w", "base")):
        seats = [{"kind": "human", "name": "Heike Sommer"}]
        seats += [{"kind": "bot", "bot": "random"} for _ in range(2)]
        answer = page.request.post(
            f"{server}/api/play",
            data={"game": game, "variant": variant, "seats": seats, "seed": "day"},
        )
        assert answer.status == 201, answer.text()
        page.goto(with_lang(server + str(answer.json()["seats"][0]["url"]), lang))
        shot(page, f"day-play-{game}-{lang}")
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
        if game == "7w":  # a card's cost: the coin icon with its words (issue 28's hand strip)
            coin = page.locator('.hcard-cost .ico:has(use[href$="#i-coin"]) .vh')
            coins = [t.strip() for t in coin.all_text_contents()]
            assert all(re.fullmatch(words, t) for t in coins), coins
        else:  # One Card Wonder's costs: the coin icon, its name for screen readers, the number
            coin = page.locator('.ocw-count:has(use[href="#ocw-i-coin"])')
            coins = [" ".join(t.split()) for t in coin.all_text_contents()]
            assert all(re.fullmatch(r"[^\d×]+: \d+", t) for t in coins), coins
        seen += coins
    assert seen, "no cost in coins on the pages"
    page.context.close()
