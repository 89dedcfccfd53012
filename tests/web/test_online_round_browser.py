"""In a real browser (Debian's Chromium): a director seats a BONN-SPIELT round online with bots in
every seat; the games are played by the server's bots and the public standings fill by themselves
(issue 12, "a tournament round seated online fills the standings by itself")."""

from __future__ import annotations

from tests.web.conftest import BONN_13, PASSWORD
from tests.web.test_browser import TIMEOUT_MS, Browser, expect, server, shot

__all__ = ["server"]


def test_a_round_seated_online_fills_the_standings_by_itself(server: str, browser: Browser) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    ctx.set_default_timeout(TIMEOUT_MS)
    desk = ctx.new_page()
    desk.goto(f"{server}/desk")
    desk.fill("#password", PASSWORD)
    desk.get_by_role("button", name="Log in").click()
    desk.fill("#name", "Online round (browser)")
    desk.fill("#slug", "online")
    desk.select_option("#ruleset", "bonn-2018")
    desk.fill("#seed", "online-seed")
    desk.get_by_role("button", name="Create tournament").click()
    expect(desk.locator(".flash")).to_contain_text("Tournament created.")
    desk.get_by_text("Register many (CSV)").click()
    desk.fill("#csv_text", "name\n" + "\n".join(BONN_13))
    desk.get_by_role("button", name="Register all").click()
    desk.get_by_role("button", name="Check in everyone registered").click()
    expect(desk.locator(".flash")).to_contain_text("Checked in: 13")
    desk.check('input[name="online"]')
    desk.check('input[name="all_bots"]')
    desk.get_by_role("button", name="Seat by the ruleset and start").click(timeout=180_000)
    # the confirmation step (a dry run) says the tables would be played online
    expect(desk.locator("#preview")).to_contain_text("The tables would be played online.")
    desk.get_by_role("button", name="Yes, start the round").click(timeout=180_000)
    expect(desk.locator(".flash")).to_contain_text("Round 1 started.")
    expect(desk.locator("#online")).to_contain_text("Played online")
    expect(desk.locator("#online")).to_contain_text("a bot plays")
    shot(desk, "desk-online-round")

    public = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    public.set_default_timeout(TIMEOUT_MS)
    page = public.new_page()
    page.goto(f"{server}/p/online")
    rows = page.locator("table.standings tbody tr:not(.narrow)")
    # nobody types anything: the bots play, each game's end journals its result, the page's
    # own refresh shows the standings filling
    expect(rows.locator("td:nth-last-child(2)")).to_have_text(["1"] * 13, timeout=180_000)
    shot(page, "public-online-standings")
    desk.reload()
    expect(desk.locator("#status")).to_contain_text("confirmed: 3")
    desk.get_by_role("button", name="Close the round").click()
    desk.get_by_role("button", name="Yes, close the round").click()  # the confirmation step
    expect(desk.locator(".flash")).to_contain_text("Round 1 closed.")
    ctx.close()
    public.close()
