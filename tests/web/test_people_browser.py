"""People and roles in a real browser at 360 px (Debian's Chromium via Playwright): an admin
creates an organisation and invites its organiser; the organiser creates a tournament, registers
the players and invites a director and a scorekeeper; the director starts round 1; the scorekeeper
enters and confirms a table's result but gets 403 on starting a round; the journal names each
person. Every page is measured like the desk's day (:class:`tests.web.test_browser.Walk`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from agon.services import people
from agon.store.db import Settings, make_engine, make_session_factory
from tests.web.conftest import BONN_13, BONN_TABLES
from tests.web.test_browser import TIMEOUT_MS, Walk, app_on, chromium, serving

pytestmark = pytest.mark.slow
PW = "a long enough password"


def phone(browser: Browser) -> BrowserContext:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE")
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx


def accept(page: Page, link: str, name: str, walk: Walk) -> None:
    """Open an invitation, choose a name and a password, accept: logged in on /people."""
    _ = walk._
    page.goto(link)
    walk.check(page, f"invitation for {name}")
    page.fill("#name", name)
    page.fill("#password", PW)
    page.get_by_role("button", name=_("Accept")).click()
    expect(page.locator("h1")).to_have_text(name)
    walk.check(page, f"{name}: the people page")


def invite(page: Page, walk: Walk, email: str, role: str) -> str:
    _ = walk._
    page.select_option("#invite-tournament", "cup")
    page.fill("#invite-email", email)
    page.select_option("#invite-role", role)
    page.get_by_role("button", name=_("Make an invitation link")).click()
    link = page.locator("#link").input_value()
    assert "/people/invite/" in link
    walk.check(page, f"invitation link for a {role}")
    return link


def test_admin_organiser_director_scorekeeper_at_360px(migrated_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "agon.db"
    shutil.copy(migrated_db, db)
    engine = make_engine(Settings(database_url=f"sqlite:///{db}"))
    with make_session_factory(engine)() as session:
        people.create_account(
            session, email="ada@club.test", name="Ada Admin", password=PW, admin=True
        )
    engine.dispose()
    walk = Walk("de")
    _ = walk._
    with serving(app_on(db, "people-secret")) as url, chromium() as browser:
        # the admin: an organisation, its organiser's invitation
        admin = phone(browser).new_page()
        admin.goto(f"{url}/desk/login")
        walk.check(admin, "login with an e-mail")
        admin.fill("#email", "ada@club.test")
        admin.fill("#password", PW)
        admin.get_by_role("button", name=_("Log in")).click()
        admin.goto(f"{url}/people")
        walk.check(admin, "the admin's page")
        admin.fill("#org-name", "Spieleclub Bonn")
        admin.fill("#org-slug", "club")
        admin.get_by_role("button", name=_("Create organisation")).click()
        expect(admin.locator(".flash")).to_contain_text(_("Organisation created."))
        admin.fill("#organiser-club", "olga@club.test")
        admin.get_by_role("button", name=_("Invite organiser")).click()
        organiser_link = admin.locator("#link").input_value()
        walk.check(admin, "the organiser's invitation")

        # the organiser: a tournament of the club, its players, a director and a scorekeeper
        org = phone(browser).new_page()
        accept(org, organiser_link, "Olga Org", walk)
        org.fill("#t-name-club", "Club cup")
        org.fill("#t-slug-club", "cup")
        org.select_option("#t-ruleset-club", "bonn-2018")
        org.get_by_role("button", name=_("Create tournament")).click()
        expect(org.locator(".flash")).to_contain_text(_("Tournament created."))
        org.get_by_text(_("Register many (CSV)")).click()
        org.fill("#csv_text", "name\n" + "\n".join(BONN_13))
        org.get_by_role("button", name=_("Register all")).click()
        org.get_by_role("button", name=_("Check in everyone registered")).click()
        expect(org.locator(".flash")).to_contain_text(_("Checked in: %s") % 13)
        walk.check(org, "the organiser's tournament, 13 checked in")
        org.goto(f"{url}/people")
        director_link = invite(org, walk, "dora@club.test", "director")
        scorer_link = invite(org, walk, "sam@club.test", "scorekeeper")

        # the director starts round 1 (seated by hand)
        director = phone(browser).new_page()
        accept(director, director_link, "Dora Director", walk)
        director.goto(f"{url}/desk/cup")
        director.get_by_text(_("Seat by hand")).click()
        director.fill("#tables", "\n".join("; ".join(t) for t in BONN_TABLES))
        director.get_by_role("button", name=_("Start with these tables")).click()
        director.get_by_role("button", name=_("Yes, start the round")).click()
        expect(director.locator(".flash")).to_contain_text(_("Round %d started.") % 1)
        walk.check(director, "the director's round 1")

        # the scorekeeper: enters and confirms table 1, may not start a round
        scorer = phone(browser).new_page()
        accept(scorer, scorer_link, "Sam Scorer", walk)
        scorer.goto(f"{url}/desk/cup/rounds/1")
        walk.check(scorer, "the scorekeeper's round page")
        card = scorer.locator("#table-1")
        for k in range(1, len(BONN_TABLES[0]) + 1):
            card.locator(f'input[name="vp-{k}"]').fill(str(30 + 5 * k))
            card.locator(f'input[name="coins-{k}"]').fill(str(k % 3))
        card.get_by_role("button", name=_("Save result")).click()
        expect(scorer.locator(".flash")).to_contain_text(_("Table %d saved.") % 1)
        scorer.locator("#table-1").get_by_role("button", name=_("Confirm for all players")).click()
        expect(scorer.locator("#table-1 td.mark").first).to_have_text("✓")
        walk.check(scorer, "the scorekeeper confirmed table 1")
        scorer.goto(f"{url}/desk/cup")
        refused = scorer.get_by_role("button", name=_("Seat by the ruleset and start"))
        refused.click()
        expect(scorer.locator("main")).to_contain_text(_("Your role does not allow this here."))
        walk.check(scorer, "the scorekeeper is refused a round")
        answer = scorer.request.post(
            f"{url}/api/tournaments/cup/rounds",
            data={},
            headers={"x-csrf-token": scorer.request.get(f"{url}/api/session").json()["csrf_token"]},
        )
        assert answer.status == 403

        # the journal names each person
        director.goto(f"{url}/desk/cup/journal")
        journal = director.locator("main")
        for who in ("Olga Org (organiser)", "Dora Director (director)", "Sam Scorer (scorekeeper)"):
            expect(journal).to_contain_text(who)
        walk.check(director, "the journal")
    walk.assert_clean(at_least=14)
