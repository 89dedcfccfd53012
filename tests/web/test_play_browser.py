"""In a real browser (Debian's Chromium, Playwright) on a 360×740 phone: a person creates a game in
the lobby, opens their seat and plays a WHOLE game by tapping the move buttons — 7 Wonders with
three seats against two bots, and One Card Wonder against one bot — until the end screen shows the
score breakdown. A spectator page follows the 7 Wonders game; closing the tab and opening the seat
link again resumes the seat. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.test_browser import TIMEOUT_MS, app_on, serving, shot

from playwright.sync_api import Browser, Page, expect  # isort: skip

pytestmark = pytest.mark.slow
#: The most taps a whole game may take (7 Wonders: 18 turns and a few wonder powers; One Card
#: Wonder: a few decisions per turn until the bot or the person completes a wonder).
MAX_TAPS = {"7w": 40, "ocw": 600}
#: One Card Wonder moves the person prefers (building towards a wonder ends the game sooner).
EAGER = ("stage", "building", "pay", "build")


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("play-browser") / "agon.db"
    shutil.copy(migrated_db, db)
    with serving(app_on(db, "play-browser-secret")) as url:
        yield url


def phone(browser: Browser, lang: str) -> Page:
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale=lang, has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx.new_page()


def create_game(page: Page, server: str, game: str, seats: list[str], name: str) -> str:
    """Fill the lobby (``seats``: ``human``, ``bot:<name>`` or ``empty`` per row) and create the
    game; returns the person's seat link as the created page shows it."""
    page.goto(f"{server}/play")
    page.check(f'input[name=game][value="{game}"]')
    variant = expect(page.locator("#variant"))
    variant.to_be_visible() if game == "ocw" else variant.to_be_hidden()
    rows = page.locator(".seat-row").count()
    for i in range(rows):
        page.select_option(f"#kind-{i}", seats[i] if i < len(seats) else "empty")
    page.fill("#name-0", name)
    page.fill("#seed", f"browser-{game}")
    page.locator("#lobby button[type=submit]").tap()
    expect(page.locator(".seat-links")).to_be_visible()
    link = page.locator(".seat-url").first.input_value()
    assert "/play/" in link and "token=" in link
    return link


def shown_version(page: Page) -> int:
    """The version of the board the page shows."""
    return int(page.locator("#board").get_attribute("data-version") or -1)


def current_version(page: Page) -> int:
    """The version of the game as the server has it now (the board fragment the page swaps in)."""
    version: int = page.evaluate(
        """async () => {
            const url = document.getElementById("play").getAttribute("data-frag");
            const r = await fetch(url, { headers: { "Accept": "text/html" }, cache: "no-store" });
            const m = (await r.text()).match(/id="board"[^>]*data-version="(\\d+)"/);
            return m ? Number(m[1]) : -1;
        }"""
    )
    return version


def choose(page: Page) -> int:
    """The index of the person's move: among the eager moves (else among all), the one with the
    lowest action string — the same choice on the same board, so the game takes one path."""
    moves: list[list[str]] = page.locator(".moves-form button.move").evaluate_all(
        "bs => bs.map(b => [b.className, b.value])"
    )
    eager = [
        i for i, (cls, _) in enumerate(moves) if any(f"move-{k}" in cls.split() for k in EAGER)
    ]
    return min(eager or range(len(moves)), key=lambda i: moves[i][1])


def tap_move(page: Page, index: int) -> None:
    """Tap the person's move number ``index``: a 7 Wonders move sits in its card's disclosure
    (the hand strip), opened first with a tap on the card."""
    button = page.locator(".moves-form button.move").nth(index)
    card = button.evaluate(
        "b => { const d = b.closest('details'); return d && !d.open ? d.id : ''; }"
    )
    if card:
        page.locator(f"#{card} > summary").tap()
    button.tap()


def play_to_the_end(page: Page, game: str) -> int:
    """Play until the end screen; returns the number of taps.

    Deterministic: the person only taps on a settled board — the one the server has now (a push
    may still be on its way after a bot's move) — and then always the same move (:func:`choose`).
    The bots' decisions are seeded by the game's seed and the actions so far, so every run plays
    the same game whatever the timing of the pushes."""
    taps = 0
    while True:
        page.wait_for_selector(".moves-form button.move, #board .end", state="attached")
        if page.locator("#board .end").count():
            return taps
        shown = shown_version(page)
        current = current_version(page)
        if current != shown:  # a newer board is on its way: wait for it, then look again
            page.wait_for_function(
                "v => { const b = document.getElementById('board');"
                " return !!b && Number(b.getAttribute('data-version')) >= v; }",
                arg=current,
            )
            continue
        assert taps < MAX_TAPS[game], f"{game}: no end after {taps} taps"
        board = page.query_selector("#board")
        assert board is not None
        tap_move(page, choose(page))
        taps += 1
        # the page swaps in the new board (the move's answer, or a push after the bots moved)
        page.wait_for_function("el => !el.isConnected", arg=board)


def test_the_lobby_offers_a_seed_only_to_one_person_against_bots(
    server: str, browser: Browser
) -> None:
    page = phone(browser, "en")
    page.goto(f"{server}/lang/en?next=/play")
    expect(page.locator("#seed")).to_be_visible()
    expect(page.locator("#seed-rule")).to_contain_text("gets a seed the server draws")
    page.select_option("#kind-1", "human")  # two people: the server draws the seed
    expect(page.locator("#seed")).to_be_hidden()
    page.select_option("#kind-1", "bot:random")
    expect(page.locator("#seed")).to_be_visible()


def test_a_person_plays_a_whole_7_wonders_game_against_two_bots(
    server: str, browser: Browser
) -> None:
    page = phone(browser, "en")
    page.goto(f"{server}/lang/en?next=/play")
    link = create_game(page, server, "7w", ["human", "bot:heuristic", "bot:random"], "Ann")
    page.locator("#open-own").tap()
    expect(page.locator("h1")).to_contain_text("7 Wonders")
    expect(page.locator(".you")).to_contain_text("Ann")
    # the hand: seven cards drawn from the card data, each with its moves and payments
    expect(page.locator(".hand .hcard")).to_have_count(7)
    assert page.locator(".hand .hcard .move-discard").count() == 7
    expect(page.locator(".city-title")).to_have_count(3)  # own city and both neighbours
    assert page.locator(".stat").filter(has_text="Hands pass left").count() == 1
    shot(page, "play-7w-start")
    watcher = phone(browser, "de")
    watcher.goto(link.split("?")[0] + "/watch?lang=de")
    expect(watcher.locator(".city")).to_have_count(3)
    assert watcher.locator(".hand").count() == 0  # nobody's hand on the projector
    # one move, then the tab is closed and the link opened again: the seat resumes
    tap_move(page, 0)
    page.wait_for_selector(".moves-form button.move, .waiting-note", state="attached")
    page.context.close()
    page = phone(browser, "en")
    page.goto(link + "&lang=en")
    expect(page.locator(".you")).to_contain_text("Ann")
    taps = 1 + play_to_the_end(page, "7w")
    assert taps >= 18  # six turns in each of three ages
    pad = page.locator("#board .end .score-pad")
    expect(pad).to_be_visible()
    for category in ("Military conflicts", "Wonder", "Civilian structures", "Scientific"):
        expect(pad).to_contain_text(category)
    assert pad.locator("tbody th.pname").count() == 3  # one row per player, ranked
    totals = pad.locator("tbody td.total").all_inner_texts()
    assert len(totals) == 3 and all(re.fullmatch(r"-?\d+", t.strip()) for t in totals)
    shot(page, "play-7w-end")
    # the spectator saw the game end too (pushed, or fetched on its next poll)
    expect(watcher.locator("#board .end")).to_be_visible()
    expect(watcher.locator(".score-pad")).to_contain_text("Militärische Konflikte")
    watcher.context.close()
    page.context.close()


def test_a_person_plays_a_whole_one_card_wonder_game_against_a_bot(
    server: str, browser: Browser
) -> None:
    page = phone(browser, "it")
    page.goto(f"{server}/lang/it?next=/play")
    create_game(page, server, "ocw", ["human", "bot:heuristic"], "Bea")
    page.locator("#open-own").tap()
    expect(page.locator("h1")).to_contain_text("One Card Wonder")
    expect(page.locator(".ocw-player")).to_have_count(2)
    shot(page, "play-ocw-start")
    taps = play_to_the_end(page, "ocw")
    assert taps > 0
    print(f"One Card Wonder: {taps} taps")  # the same number in every run (deterministic choices)
    end = page.locator("#board .end")
    expect(end).to_contain_text("Fine della partita")
    expect(end.locator(".winner")).to_be_visible()
    expect(end.locator(".score-pad")).to_contain_text("Meraviglie completate")
    assert end.locator(".score-pad tbody th.pname").count() == 2  # one row per player
    shot(page, "play-ocw-end")
    page.context.close()


def test_the_page_fetches_the_board_once_per_new_version_and_not_after_its_own_move(
    server: str, browser: Browser
) -> None:
    """Every push names its version; the page fetches the board only for a version newer than
    the one it shows — not on connecting, and not for the push of its own move, whose answer
    already showed that version (before, every push fetched the board)."""
    page = phone(browser, "en")
    api = page.request
    created = api.post(
        f"{server}/api/play",
        data={"game": "7w", "seats": [{"kind": "human"}] * 3},
    ).json()
    gid, seats = created["game_id"], created["seats"]
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/board" in r.url else None)

    def other_acts(seat: int) -> None:
        token = seats[seat]["token"]
        state = api.get(f"{server}/api/play/{gid}", params={"token": token}).json()
        answer = api.post(
            f"{server}/api/play/{gid}/act",
            data={"token": token, "action": state["legal"][0], "version": state["version"]},
        )
        assert answer.status == 200

    def shows(version: int) -> None:
        expect(page.locator("#board")).to_have_attribute("data-version", str(version))

    page.goto(f"{server}{seats[0]['url']}&lang=en")
    shows(0)
    other_acts(1)
    shows(1)
    other_acts(2)
    shows(2)
    tap_move(page, 0)  # the turn resolves: version 3
    shows(3)
    other_acts(1)
    shows(4)
    assert len(fetched) == 3, fetched  # versions 1, 2 and 4
    page.context.close()
