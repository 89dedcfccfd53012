"""In a real browser (Debian's Chromium, driven by Playwright) at 360 px, in German and Italian:
the day's polish of issue 32, points 1-6 — a refused PIN or VP typo shown at its field, the phone
auction naming the drawn side and offering the smallest legal bid after a stale tap, a seat's own
page painting it connected, and the desk's round page with each table's guilds in play, each
seat's wonder, and the "left" box only where the ruleset has that rule. Every page is measured
(:class:`tests.web.test_browser.Walk`): nothing wider than the screen, no English text.

``AGON_DOC_SCREENSHOTS=1`` also writes the director guide's picture of the round page
(docs/img/desk-round.png, German, 360 px).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from agon.i18n import guild_name, wonder_name
from agon.services import players, rounds, tournaments
from agon.services.schemas import PlayerCreate, TournamentCreate
from agon.store.db import Settings, make_engine, make_session_factory
from agon.web.security import table_pin
from tests.web.conftest import PASSWORD, make_bonn
from tests.web.test_browser import CHROMIUM, TIMEOUT_MS, Walk, app_on, serving, shot
from tests.web.test_play_presence import SEATS, TABLE_META

if not Path(CHROMIUM).exists():  # test_browser skips the module then; so do we
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect

SECRET = "browser-day-secret"
BONN = tuple(f"Spieler {c}" for c in "ABCDEFGHI")  # 9: a table of 5 and one of 4
LUDO = tuple(f"Giocatore {c}" for c in "ABCDEFGH")  # 8: two tables of 4
LANGS = ("de", "it")
DOC_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


@pytest.fixture(scope="module")
def day(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A Bonn 2018 event (9 players) and a Ludolimpico 2015 one (8), round 1 seated by the
    ruleset; served; with the round plans read back for the checks."""
    db = tmp_path_factory.mktemp("browser-day") / "agon.db"
    shutil.copy(migrated_db, db)
    engine = make_engine(Settings(f"sqlite:///{db}"))
    try:
        with make_session_factory(engine)() as session:
            tournaments.create_tournament(
                session,
                data=TournamentCreate(
                    slug="bonn", name="BONN-SPIELT", ruleset="bonn-2018", seed="day", min_players=9
                ),
                actor="test",
            )
            players.import_players(
                session,
                tournament="bonn",
                players=[PlayerCreate(name=n, fee_paid=True) for n in BONN],
                actor="test",
            )
            players.check_in_players(session, tournament="bonn", players=list(BONN), actor="test")
            rounds.start_round(session, tournament="bonn", actor="test")
            make_bonn(session, slug="ludo", names=LUDO, ruleset="ludolimpico-2015")
            rounds.start_round(session, tournament="ludo", actor="test")
            session.commit()
            plans = {
                slug: rounds.get_round(session, tournament=slug, number=1)
                for slug in ("bonn", "ludo")
            }
    finally:
        engine.dispose()
    apps: list[FastAPI] = []
    make = app_on(db, SECRET)

    def keep(url: str) -> FastAPI:
        apps.append(make(url))
        return apps[-1]

    with serving(keep) as url:
        yield {"url": url, "plans": plans, "app": apps[0]}


def phone(browser: Browser, lang: str) -> BrowserContext:
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale=lang, has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx


@pytest.mark.parametrize("lang", LANGS)
def test_a_wrong_pin_and_a_vp_typo_are_shown_at_their_fields(
    day: dict[str, Any], browser: Browser, lang: str
) -> None:
    walk = Walk(lang)
    _ = walk._
    ctx = phone(browser, lang)
    page = ctx.new_page()
    table = day["plans"]["bonn"].tables[0]
    page.goto(f"{day['url']}/t/bonn/r1/t1")
    page.fill("#pin", "000000")
    page.get_by_role("button", name=_("Open the table")).tap()
    pin = page.locator("#pin")
    expect(pin).to_have_attribute("aria-invalid", "true")
    expect(pin).to_have_value("000000")
    expect(page.locator("#pin-error")).to_have_text(_("Wrong PIN for this table."))
    walk.check(page, "a wrong PIN")
    pin.fill(table_pin(SECRET, "bonn", 1, 1))
    page.get_by_role("button", name=_("Open the table")).tap()
    expect(page.locator('fieldset[data-seat="1"]')).to_be_visible()
    typed = {}
    for k in range(1, len(table.seats) + 1):
        typed[f"vp-{k}"] = "612" if k == 3 else str(40 + k)
        typed[f"coins-{k}"] = str(k)
    for field, value in typed.items():
        page.fill(f"#{field}", value)
    page.get_by_role("button", name=_("Save the result")).tap()
    vp = page.locator("#vp-3")
    expect(vp).to_have_attribute("aria-invalid", "true")
    message = page.locator("#vp-3-error")
    expect(message).to_be_visible()
    expect(message).to_contain_text(table.seats[2])
    expect(message).to_contain_text(_("VP"))
    expect(message).to_contain_text("612")
    for field, value in typed.items():
        expect(page.locator(f"#{field}")).to_have_value(value)
    # the refused field is where the phone looks: focused, on the screen
    expect(vp).to_be_focused()
    expect(vp).to_be_in_viewport()
    walk.check(page, "a VP typo refused at its field")
    shot(page, f"day-vp-typo-{lang}")
    ctx.close()
    walk.assert_clean(at_least=2)


@pytest.mark.parametrize(("lang", "number"), [("de", 1), ("it", 2)])
def test_the_phone_auction_names_sides_and_offers_the_smallest_bid(
    day: dict[str, Any], browser: Browser, lang: str, number: int
) -> None:
    walk = Walk(lang)
    _ = walk._
    plan = day["plans"]["ludo"]
    assert plan.sides
    ctx = phone(browser, lang)
    page, other = ctx.new_page(), ctx.new_page()  # two phones of the table (one session)
    url = f"{day['url']}/t/ludo/r1/t{number}"
    page.goto(url)
    page.fill("#pin", table_pin(SECRET, "ludo", 1, number))
    page.get_by_role("button", name=_("Open the table")).tap()
    select = page.locator(f"#aw-{number}")
    expect(select).to_be_visible()
    labels = select.locator("option").all_inner_texts()
    values = [o.get_attribute("value") for o in select.locator("option").all()]
    assert labels == [f"{wonder_name(w, lang)} {plan.sides[w]}" for w in values]
    walk.check(page, "the phone auction: the wonders with their sides")
    # the other phone opens the first wonder for 2; this one still shows the opening (bid 0)
    other.goto(f"{url}#auction")
    other.select_option(f"#aw-{number}", values[0])
    other.fill(f"#ab-{number}", "2")
    other.get_by_role("button", name=_("Open"), exact=True).tap()
    expect(other.locator(".flash")).to_be_visible()
    lot = f"{wonder_name(values[0] or '', lang)} {plan.sides[values[0]]}"
    expect(other.locator(f"#auction-{number}")).to_contain_text(lot)
    expect(page.locator(f"#ab-{number}")).to_have_value("0")
    page.get_by_role("button", name=_("Open"), exact=True).tap()
    expect(page.locator(f"#auction-{number} .flash.error")).to_be_visible()
    box = page.locator(f"#ab-{number}")
    expect(box).to_have_value("3")
    expect(box).to_have_attribute("min", "3")
    expect(page.locator(f"#auction-{number}")).to_contain_text(lot)
    walk.check(page, "an out-of-turn bid refused: the smallest raise offered")
    shot(page, f"day-auction-{lang}")
    ctx.close()
    walk.assert_clean(at_least=2)


@pytest.mark.parametrize("lang", LANGS)
def test_a_seats_own_page_paints_it_connected(
    day: dict[str, Any], browser: Browser, lang: str
) -> None:
    walk = Walk(lang)
    _ = walk._
    created = day["app"].state.play.create_game(
        game="7w", seed=f"own-{lang}", seats=SEATS, meta=TABLE_META
    )
    ctx = phone(browser, lang)
    page = ctx.new_page()
    url = f"{day['url']}/play/{created.game_id}?token={created.seats[0].token}"
    first = page.goto(url)
    assert first is not None
    painted = first.text()  # the first paint, before the seat's stream connects
    assert f"Ann</span>: {_('connected')}</li>" in painted
    assert f"Bea</span>: {_('not connected')}</li>" in painted
    own = page.locator(".presence li", has_text="Ann")
    expect(own).to_have_class(re.compile("presence-online"))
    walk.check(page, "a seat's own page")
    ctx.close()
    walk.assert_clean(at_least=1)


def desk_page(browser: Browser, day: dict[str, Any], lang: str, walk: Walk) -> Page:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale=lang)
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    page.goto(f"{day['url']}/desk")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name=walk._("Log in")).click()
    expect(page.locator("h1")).to_be_visible()
    return page


@pytest.mark.parametrize("lang", LANGS)
def test_the_round_page_shows_each_tables_guilds_and_wonders(
    day: dict[str, Any], browser: Browser, lang: str
) -> None:
    walk = Walk(lang)
    _ = walk._
    page = desk_page(browser, day, lang, walk)
    plan = day["plans"]["bonn"]
    page.goto(f"{day['url']}/desk/bonn/rounds/1")
    assert sorted(len(t.seats) for t in plan.tables) == [4, 5]
    for table in plan.tables:
        card = page.locator(f"#table-{table.number}")
        n = len(table.seats)
        guilds = ", ".join(guild_name(g, lang) for g in plan.guilds[: n + 2])
        expect(card.locator(".table-guilds")).to_contain_text(guilds)
        expect(card.locator(".table-guilds strong")).to_contain_text(f"({n + 2})")
        seats = card.locator(".seat-wonders li")
        expect(seats).to_have_count(n)
        for k, (player, wonder) in enumerate(zip(table.seats, plan.wonders, strict=False)):
            expect(seats.nth(k)).to_have_text(f"{player}: {wonder_name(wonder, lang)}")
        # Bonn 2018 has no rule for a player who leaves during the game: no box
        expect(card.locator('input[name^="left-"]')).to_have_count(0)
    walk.check(page, "the round page: guilds and wonders per table")
    shot(page, f"day-desk-round-{lang}")
    if lang == "de" and os.environ.get("AGON_DOC_SCREENSHOTS"):
        page.locator("#table-1").screenshot(path=str(DOC_IMG / "desk-round.png"))
    ludo = day["plans"]["ludo"]
    page.goto(f"{day['url']}/desk/ludo/rounds/1")
    card = page.locator("#table-1")
    expect(card.locator('input[name^="left-"]')).to_have_count(len(ludo.tables[0].seats))
    title = card.locator("label.left-game").first.get_attribute("title") or ""
    assert title.endswith("(Ludolimpico 2015, 2.5 «Ritiro / Espulsione»).")
    expect(card.locator(".seat-wonders li").first).to_contain_text(_("wonder from the auction"))
    walk.check(page, "the round page of an auction ruleset")
    page.context.close()
    walk.assert_clean(at_least=2)
