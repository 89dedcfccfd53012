"""Online registration in a real browser (issue 27), on phones 360 px wide, in German: one player
registers and gets the last place, a second registers and is waitlisted, the first withdraws by
their private link, and the second — on their own private page — sees that they moved up. Every
page is measured (fits the screen, no English on a German page: :class:`tests.web.test_browser.Walk`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from agon.services import registration, tournaments
from agon.services.schemas import TournamentCreate
from agon.store.db import Settings, make_engine, make_session_factory
from tests.web.test_browser import TIMEOUT_MS, Walk, app_on, serving, shot

pytestmark = pytest.mark.slow

from playwright.sync_api import Browser, Page, expect  # noqa: E402


def _prepare(db: Path) -> None:
    engine = make_engine(Settings(f"sqlite:///{db}"))
    session: Session
    with make_session_factory(engine)() as session:
        tournaments.create_tournament(
            session,
            data=TournamentCreate(slug="quali", name="Qualifier", ruleset="bonn-2018", seed="s"),
            actor="test",
        )
        registration.open_registration(
            session,
            tournament="quali",
            capacity=1,
            deadline=None,
            fee_note="Startgeld 10 €",
            actor="test",
        )
    engine.dispose()


def _phone(browser: Browser) -> Page:
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="de", has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx.new_page()


def _register(page: Page, url: str, name: str, email: str, walk: Walk) -> str:
    _ = walk._
    page.goto(f"{url}/register/quali?lang=de")
    expect(page.locator("h1")).to_have_text("Qualifier")
    walk.check(page, f"{name}: the form")
    page.fill("#name", name)
    page.fill("#email", email)
    page.get_by_role("button", name=_("Register")).tap()
    page.wait_for_url("**/register/quali/me/**")
    walk.check(page, f"{name}: the private page after registering")
    return page.url


def test_a_waitlisted_player_is_promoted_when_another_withdraws(
    migrated_db: Path, tmp_path: Path, browser: Browser
) -> None:
    db = tmp_path / "agon.db"
    shutil.copy(migrated_db, db)
    _prepare(db)
    walk = Walk("de")
    _ = walk._
    with serving(app_on(db, "registration-secret")) as url:
        bea, anna = _phone(browser), _phone(browser)
        bea_link = _register(bea, url, "Bea Berger", "bea@example.org", walk)
        expect(bea.locator("#status")).to_have_text(_("You are registered: you have a place."))
        anna_link = _register(anna, url, "Anna Rossi", "anna@example.org", walk)
        waiting = _(
            "You are on the waiting list, position %(num)d. You move up automatically when "
            "someone withdraws."
        ) % {"num": 1}
        expect(anna.locator("#status")).to_have_text(waiting)
        shot(anna, "registration-waiting")
        assert anna_link != bea_link
        # the public list: names only, no e-mail
        anna.goto(f"{url}/register/quali")
        expect(anna.locator("ol.waiting")).to_have_text("Anna Rossi")
        assert "example.org" not in anna.content()
        walk.check(anna, "the public list")
        # Bea withdraws by her private link (opened again, as from a bookmark)
        bea.goto(bea_link)
        bea.get_by_role("button", name=_("Withdraw my registration")).tap()
        expect(bea.locator("#status")).to_have_text(_("You have withdrawn."))
        walk.check(bea, "Bea: withdrawn")
        # Anna opens her private link again: promoted
        anna.goto(anna_link)
        expect(anna.locator("#status")).to_have_text(_("You are registered: you have a place."))
        walk.check(anna, "Anna: promoted")
        shot(anna, "registration-promoted")
    walk.assert_clean(at_least=6)
