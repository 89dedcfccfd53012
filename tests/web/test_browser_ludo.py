"""In a real browser (Debian's Chromium, driven by Playwright): a director runs a 17-player
Ludolimpico 2015 tournament at the desk — registration with fees, three Swiss rounds with the wonder
auction recorded from the paper, a withdrawal after round 1, a player who leaves during a game in
round 2 (2.5), the final with an absent finalist, the podium and the standings. Every round start,
status change and the final go through the desk's confirmation step. The desk speaks Italian on a
360×740 screen, and every step is measured (:class:`tests.web.test_browser.Walk`): nothing wider
than the screen, no English text. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from agon.services import rounds
from agon.store.db import Settings, make_engine, make_session_factory
from agon.tournament.auction import Auction
from tests.web.conftest import PASSWORD
from tests.web.test_browser import (
    CHROMIUM,
    TIMEOUT_MS,
    Walk,
    app_on,
    serving,
    shot,
)

if not Path(CHROMIUM).exists():  # test_browser skips the module then; so do we
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)


from playwright.sync_api import Browser, Page, expect

NAMES = [
    "Giulia Rossi", "Luca Bianchi", "Marta", "Piero", "Carlo", "Sara", "Dario", "Elena", "Franco",
    "Irene", "Nico", "Olga", "Paolo", "Rita", "Teo", "Ugo", "Vera",
]  # fmt: skip
SEED = "browser-ludo"


@pytest.fixture(scope="module")
def ludo_server(
    migrated_db: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("browser-ludo") / "agon.db"
    shutil.copy(migrated_db, db)
    with serving(app_on(db, "browser-secret")) as url:
        yield url, db


def _round(db: Path, number: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """The seats of each table and the round's wonders, read from the database (as a director
    reads the seating from the page)."""
    engine = make_engine(Settings(f"sqlite:///{db}"))
    try:
        with make_session_factory(engine)() as session:
            rnd = rounds.get_round(session, tournament="ludo", number=number)
            return tuple(t.seats for t in rnd.tables), tuple(rnd.wonders)
    finally:
        engine.dispose()


def _auction(
    seats: tuple[str, ...], wonders: tuple[str, ...], label: str, rng: random.Random
) -> str:
    """A legal auction as the paper shows it: whoever is to act opens a wonder for 0–2 VP or
    raises by one now and then, else passes (built with the domain's own Auction)."""
    actions: list[str] = []
    auction = Auction.replay(seats, wonders, [], seed=SEED, label=label)
    while not auction.finished:
        who = auction.to_act
        if auction.lot is None:
            line = f"{who} opens {rng.choice(auction.available())} {rng.randint(0, 2)}"
        elif rng.random() < 0.25:
            line = f"{who} raises {auction.lot.bid + 1}"  # type: ignore[union-attr]
        else:
            line = f"{who} passes"
        try:
            auction = Auction.replay(seats, wonders, [*actions, line], seed=SEED, label=label)
        except ValueError:
            line = f"{who} passes"
            auction = Auction.replay(seats, wonders, [*actions, line], seed=SEED, label=label)
        actions.append(line)
    return "\n".join(actions)


def _play_round(
    desk: Page,
    db: Path,
    number: int,
    rng: random.Random,
    walk: Walk,
    *,
    left: str | None = None,
) -> None:
    """Record every table's auction from the paper and enter its results (confirmed)."""
    _ = walk._
    seats_by_table, wonders = _round(db, number)
    for t, seats in enumerate(seats_by_table, start=1):
        card = desk.locator(f"#table-{t}")
        card.get_by_text(_("Record the whole auction from paper")).click()
        if t == 1:
            walk.check(desk, f"round {number}: the auction from paper, open")
        script = _auction(seats, wonders, f"round {number} table {t}", rng)
        card.locator(f"#auction-text-{t}").fill(script)
        card.get_by_role("button", name=_("Record the auction")).click()
        expect(desk.locator(".flash")).to_be_visible()
        walk.check(desk, f"round {number}: table {t}'s auction recorded")
        card = desk.locator(f"#table-{t}")
        for k, name in enumerate(seats, start=1):
            if name == left:
                card.locator(f'input[name="left-{k}"]').check()
            else:
                card.locator(f'input[name="vp-{k}"]').fill(str(rng.randint(35, 65)))
        card.locator('input[name="confirm"]').check()
        card.get_by_role("button", name=_("Save result")).click()
        expect(desk.locator(".flash")).to_contain_text(_("Table %d saved.") % t)
        walk.check(desk, f"round {number}: table {t} saved")


def _confirm(desk: Page, walk: Walk, question: str, button: str) -> None:
    """The desk's confirmation step: measured, then confirmed."""
    _ = walk._
    expect(desk.locator("h1")).to_have_text(_(question))
    expect(desk.locator("#preview")).to_contain_text(_("Nothing has been changed yet."))
    walk.check(desk, f"the confirmation {question!r}")
    desk.get_by_role("button", name=_(button)).click(timeout=180_000)
    walk.check(desk, f"confirmed: {button!r}")


def test_director_runs_ludolimpico_with_17_players(
    ludo_server: tuple[str, Path], browser: Browser
) -> None:
    server, db = ludo_server
    rng = random.Random(2015)
    walk = Walk("it")
    _ = walk._
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="it-IT")
    ctx.set_default_timeout(TIMEOUT_MS)
    desk = ctx.new_page()
    desk.goto(f"{server}/desk")
    walk.check(desk, "login")
    desk.fill("#password", PASSWORD)
    desk.get_by_role("button", name=_("Log in")).click()
    desk.fill("#name", "Ludolimpico (browser)")
    desk.fill("#slug", "ludo")
    desk.select_option("#ruleset", "ludolimpico-2015")
    desk.fill("#seed", SEED)
    desk.get_by_role("button", name=_("Create tournament")).click()
    expect(desk.locator(".flash")).to_contain_text(_("Tournament created."))
    walk.check(desk, "tournament created")
    desk.get_by_text(_("Register many (CSV)")).click()
    csv = "name,fee_paid\n" + "\n".join(f"{n},{'no' if n == 'Vera' else 'yes'}" for n in NAMES)
    desk.fill("#csv_text", csv)
    desk.get_by_role("button", name=_("Register all")).click()
    expect(desk.locator(".flash")).to_contain_text(_("Players registered: %d") % 17)
    desk.get_by_role("button", name=_("Check in everyone registered")).click()
    expect(desk.locator(".flash")).to_contain_text(
        _("Checked in: %(num)d; the entry fee is still due for: %(players)s")
        % {"num": 16, "players": "Vera"}
    )
    walk.check(desk, "16 checked in, Vera's fee due")
    vera = desk.locator("tr", has_text="Vera")
    vera.get_by_role("button", name=_("mark paid")).click()
    desk.get_by_role("button", name=_("Check in everyone registered")).click()
    expect(desk.locator(".flash")).to_contain_text(_("Checked in: %s") % 1)
    walk.check(desk, "17 checked in")

    for number in (1, 2, 3):
        desk.get_by_role("button", name=_("Seat by the ruleset and start")).click()
        _confirm(desk, walk, "Start the round?", "Yes, start the round")
        expect(desk.locator(".flash")).to_contain_text(_("Round %d started.") % number)
        seats_by_table, _wonders = _round(db, number)
        players = sum(len(s) for s in seats_by_table)
        assert players == (17 if number == 1 else 16)
        assert all(len(s) in (4, 5) for s in seats_by_table)
        if number == 1:
            shot(desk, "ludo-desk-round")
        # round 2: the first player of table 2 leaves during the game (Ludolimpico 2.5)
        left = seats_by_table[1][0] if number == 2 else None
        _play_round(desk, db, number, rng, walk, left=left)
        desk.reload()
        expect(desk.locator("#status")).to_contain_text(f"{_('confirmed')}: {len(seats_by_table)}")
        desk.get_by_role("button", name=_("Close the round")).click()
        _confirm(desk, walk, "Close the round?", "Yes, close the round")
        expect(desk.locator(".flash")).to_contain_text(_("Round %d closed.") % number)
        if number == 1:  # Marta withdraws after round 1
            marta = desk.locator("tr", has_text="Marta")
            marta.get_by_text(_("More")).click()
            marta.locator('select[name="kind"]').nth(1).select_option("withdraw")
            marta.get_by_role("button", name=_("Apply")).click()
            expect(desk.locator("#preview")).to_contain_text(
                _("%(player)s withdrew") % {"player": "Marta"}
            )
            _confirm(desk, walk, "Change this player's status?", "Yes, change the status")
            expect(desk.locator(".flash")).to_contain_text(_("Status changed: %s") % "Marta")
        if number == 2:
            leaver = left

    # the final: the best five, the 2nd is absent and the 6th plays
    absent = desk.locator('input[name^="absent:"]').nth(1)
    absent_name = (absent.get_attribute("name") or "").removeprefix("absent:")
    absent.check()
    desk.get_by_role("button", name=_("Start the final")).click()
    expect(desk.locator("#preview")).to_contain_text(_("The final started"))
    shot(desk, "ludo-confirm-final")
    _confirm(desk, walk, "Start the final?", "Yes, start the final")
    expect(desk.locator(".flash")).to_contain_text(_("The final has started."))
    (finalists,), _wonders = _round(db, 4)
    assert absent_name not in finalists and len(finalists) == 5
    _play_round(desk, db, 4, rng, walk)
    for url in ("/desk/ludo", "/desk/ludo/journal"):
        desk.goto(f"{server}{url}")
        walk.check(desk, f"the finished tournament: {url}")

    public = browser.new_context(viewport={"width": 360, "height": 740}, locale="it-IT")
    public.set_default_timeout(TIMEOUT_MS)
    page = public.new_page()
    page.goto(f"{server}/p/ludo")
    expect(page.locator(".medal-gold")).to_have_count(1)
    rows = page.locator("table.standings tbody tr:not(.narrow)")
    expect(rows).to_have_count(17)
    expect(page.locator("table.standings")).to_contain_text(
        f"{leaver} ha lasciato la partita durante il turno 2"
    )
    walk.check(page, "the podium and the standings")
    shot(page, "ludo-phone-standings")
    ctx.close()
    public.close()
    walk.assert_clean(at_least=50)
