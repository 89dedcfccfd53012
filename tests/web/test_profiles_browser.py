"""A player page in a real browser (Debian's Chromium driven by Playwright) on a 360 px phone, in
German, Italian and English: the rating plot is drawn (an SVG with its title, two lines with a
point per game), fits the screen, and the table of the same numbers opens under it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from agon.services import profiles, rounds
from tests.web.conftest import PASSWORD, make_bonn
from tests.web.helpers import play_round
from tests.web.test_browser import PAGE_CHECK, TIMEOUT_MS, app_on, serving, shot

pytestmark = pytest.mark.slow

NAMES = tuple(f"Spielerin {c}" for c in "ABCDEFGHIJKLM")


@pytest.mark.parametrize("lang", ["de", "it", "en"])
def test_a_player_page_shows_the_rating_plot_on_a_phone(
    migrated_db: Path, tmp_path: Path, lang: str, browser: Browser
) -> None:
    db = tmp_path / "agon.db"
    shutil.copy(migrated_db, db)
    make = app_on(db, "profiles-secret")
    with serving(make) as url:
        _setup(url, db)
        _check(browser, url, lang)
        _check_desk(browser, url, lang)


def _setup(url: str, db: Path) -> None:
    from agon.store.db import Settings, make_engine, make_session_factory

    engine = make_engine(Settings(f"sqlite:///{db}"))
    with make_session_factory(engine)() as s:
        made = profiles.create_profile(s, name="Maria-Theresia von Hohenzollern", tag="Bonn")
        for slug in ("spring", "autumn"):
            make_bonn(s, slug=slug, names=NAMES)
            for number in (1, 2):
                rounds.start_round(s, tournament=slug, actor="t")
                play_round(s, slug, number)
                rounds.close_round(s, tournament=slug, number=number, actor="t")
            profiles.link_player(s, tournament=slug, player=NAMES[0], profile=made.id, actor="t")
        s.rollback()
    engine.dispose()


def _check(browser: Browser, url: str, lang: str) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{url}/players/maria-theresia-von-hohenzollern?lang={lang}")
    plot = page.locator("figure.rating-plot svg")
    expect(plot).to_be_visible()
    assert plot.get_attribute("role") == "img"
    assert "Maria-Theresia" in (page.locator("#plot-title").text_content() or "")
    lines = page.locator("figure.rating-plot polyline")
    assert lines.count() == 2
    games = len((lines.first.get_attribute("points") or "").split())
    assert games == 2 * 2 * 1  # two events, two rounds each, one table per round for her
    box = plot.bounding_box()
    assert box is not None and box["width"] > 200 and box["x"] + box["width"] <= 360
    measured = page.evaluate(PAGE_CHECK)
    assert measured["width"] <= 360 and measured["wide"] == [], measured["wide"]
    page.locator("details summary").click()
    expect(page.locator("table.rating-table tbody tr")).to_have_count(games)
    shot(page, f"player-{lang}")
    page.close()


def _check_desk(browser: Browser, url: str, lang: str) -> None:
    """The desk's profile page fits the phone too, and one tap links a suggested profile."""
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{url}/desk/login?lang={lang}")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.goto(f"{url}/desk/spring/profiles?lang={lang}")
    measured = page.evaluate(PAGE_CHECK)
    assert measured["width"] <= 360 and measured["wide"] == [], measured["wide"]
    row = page.locator("tr", has_text=NAMES[1])
    row.locator("form[action$='/profiles/new'] button").click()
    expect(page.locator("tr", has_text=NAMES[1]).locator("a[href^='/players/']")).to_be_visible()
    shot(page, f"desk-profiles-{lang}")
    page.close()
