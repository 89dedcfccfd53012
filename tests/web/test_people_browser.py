"""People and roles in a real browser at 360 px (Debian's Chromium via Playwright): an admin
creates an organisation and invites its organiser; the organiser creates a tournament, registers
the players and invites a director and a scorekeeper; the director starts round 1; the scorekeeper
enters and confirms a table's result but gets 403 on starting a round; the journal names each
person. Then the rest of issue 27's day: the organiser opens online registration for the club's
next event, a player registers, is waitlisted and is promoted when another withdraws; the director
links a player to the profile of last season's events and the public player page shows the rating
plot. Every page is measured like the desk's day (:class:`tests.web.test_browser.Walk`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlalchemy.orm import Session

from agon.services import people, profiles, rounds
from agon.store.db import Settings, make_engine, make_session_factory
from tests.web.conftest import BONN_13, BONN_TABLES, make_bonn
from tests.web.helpers import play_round
from tests.web.test_browser import TIMEOUT_MS, Walk, app_on, serving

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


def register(page: Page, url: str, name: str, walk: Walk) -> str:
    """Register ``name`` on the public form of the tournament ``open``: its private link."""
    _ = walk._
    page.goto(f"{url}/register/open")
    walk.check(page, f"{name}: the registration form")
    page.fill("#name", name)
    page.fill("#email", name.split()[0].lower() + "@example.org")
    page.get_by_role("button", name=_("Register")).click()
    page.wait_for_url("**/register/open/me/**")
    walk.check(page, f"{name}: the private page")
    return page.url


def last_season(session: Session) -> str:
    """Last season's event (two rounds played), its first player linked to a profile: its id."""
    made = profiles.create_profile(session, name=BONN_13[0])
    make_bonn(session, slug="spring")
    for number in (1, 2):
        rounds.start_round(session, tournament="spring", actor="t")
        play_round(session, "spring", number)
        rounds.close_round(session, tournament="spring", number=number, actor="t")
    profiles.link_player(
        session, tournament="spring", player=BONN_13[0], profile=made.id, actor="t"
    )
    return made.id


def test_admin_organiser_director_scorekeeper_at_360px(
    migrated_db: Path, tmp_path: Path, browser: Browser
) -> None:
    db = tmp_path / "agon.db"
    shutil.copy(migrated_db, db)
    engine = make_engine(Settings(database_url=f"sqlite:///{db}"))
    with make_session_factory(engine)() as session:
        people.create_account(
            session, email="ada@club.test", name="Ada Admin", password=PW, admin=True
        )
        profile = last_season(session)
    engine.dispose()
    walk = Walk("de")
    _ = walk._
    with serving(app_on(db, "people-secret")) as url:
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

        # online registration for the club's next event: one place, a waiting list
        org.goto(f"{url}/people")
        org.fill("#t-name-club", "Club open")
        org.fill("#t-slug-club", "open")
        org.select_option("#t-ruleset-club", "bonn-2018")
        org.get_by_role("button", name=_("Create tournament")).click()
        expect(org.locator(".flash")).to_contain_text(_("Tournament created."))
        org.goto(f"{url}/desk/open/registration")
        org.fill("#capacity", "1")
        org.get_by_role("button", name=_("Open online registration")).click()
        walk.check(org, "online registration opened")
        bea, anna = phone(browser).new_page(), phone(browser).new_page()
        bea_link = register(bea, url, "Bea Berger", walk)
        placed = _("You are registered: you have a place.")
        expect(bea.locator("#status")).to_have_text(placed)
        anna_link = register(anna, url, "Anna Rossi", walk)
        waiting = _(
            "You are on the waiting list, position %(num)d. You move up automatically when "
            "someone withdraws."
        ) % {"num": 1}
        expect(anna.locator("#status")).to_have_text(waiting)
        bea.goto(bea_link)
        bea.get_by_role("button", name=_("Withdraw my registration")).click()
        expect(bea.locator("#status")).to_have_text(_("You have withdrawn."))
        anna.goto(anna_link)
        expect(anna.locator("#status")).to_have_text(placed)
        walk.check(anna, "Anna promoted")

        # the director links a player to last season's profile: the player page plots the rating
        director.goto(f"{url}/desk/cup/profiles")
        walk.check(director, "the desk's profiles")
        mine = f"input[name=player][value='{BONN_13[0]}']"
        director.locator(f"form[action$='/profiles/link']:has({mine}) button").click()
        linked = director.locator(f"a[href='/players/{profile}']")
        expect(linked).to_be_visible()
        public = phone(browser).new_page()
        public.goto(f"{url}/players/{profile}")
        plot = public.locator("figure.rating-plot svg")
        expect(plot).to_be_visible()
        assert plot.get_attribute("role") == "img"
        assert public.locator("figure.rating-plot polyline").count() == 2
        walk.check(public, "the player page with the rating plot")
    walk.assert_clean(at_least=22)
