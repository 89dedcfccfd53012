"""7 Wonders on a phone, one screen per decision (issue 28), in a real browser at 360×740.

A person plays a 7-player game against bots of every level (easy, medium, hard, expert, and the
``random`` and ``heuristic`` bots) to the end; on every turn the document is at most
:data:`BOUND` CSS px tall — with the hand closed and with the chosen card open — and axe-core
finds no serious or critical violation on the seat page. The log shows the last turn; the
replay of that game opens and steps back and forth. The bound holds in German and Italian too,
and a game is played with the keyboard alone (no tap, no click), focus following each update:
those three games against the bots that do not search (the levels ``easy`` and ``medium``).

``AGON_DOC_SHOTS=1`` writes the phone screenshots of docs/online-play.md to docs/img/ (only
then: re-running the tests otherwise leaves the tree as it is).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import ARTIFACTS, app_on, serious, serving
from tests.web.test_play_browser import current_version, phone, shown_version

from playwright.sync_api import Browser, Page, expect  # isort: skip
from playwright.sync_api import Error as PlaywrightError  # isort: skip

pytestmark = pytest.mark.slow
#: Two screens of a 360×740 phone.
BOUND = 1480
DOC_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
DOC_SHOTS = bool(os.environ.get("AGON_DOC_SHOTS"))
#: Long names (German and Italian words are long): the layout must hold them.
NAMES = ["Annemarie", "Bartholomäus", "Costanza", "Dietlinde", "Evangelista", "Friedhelm", "Gu"]
BOTS = ["easy", "medium", "hard", "expert", "random", "heuristic"]
#: The bots of the other games (German, Italian, the keyboard): none that searches. ``hard`` and
#: ``expert`` search for about 5 s of CPU per game; those games check the layout in other
#: languages and the keys, which the bots' level does not change (the board shows the seats'
#: names, not their levels), and the English game plays against every level.
QUICK_BOTS = ["easy", "medium", "random", "heuristic", "easy", "medium"]
WORDS = {
    "en": {"last": "Last turn", "over": "Game over"},
    "de": {"last": "Letzter Zug", "over": "Spielende"},
    "it": {"last": "Ultimo turno", "over": "Fine della partita"},
}


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("play-seven-phone") / "agon.db"
    shutil.copy(migrated_db, db)
    with serving(app_on(db, "play-seven-phone-secret")) as url:
        yield url


def doc_shot(page: Page, name: str) -> None:
    """A viewport screenshot for docs/online-play.md, only when asked (:data:`DOC_SHOTS`)."""
    if DOC_SHOTS:
        DOC_IMG.mkdir(exist_ok=True)
        page.screenshot(path=str(DOC_IMG / f"{name}.png"))


def new_game(page: Page, server: str, seed: str, bots: list[str] = BOTS) -> dict[str, Any]:
    seats = [{"kind": "human", "name": NAMES[0]}] + [
        {"kind": "bot", "bot": b, "name": n} for b, n in zip(bots, NAMES[1:], strict=True)
    ]
    answer = page.request.post(
        f"{server}/api/play", data={"game": "7w", "seats": seats, "seed": seed}
    )
    assert answer.status == 201, answer.text()
    created: dict[str, Any] = answer.json()
    return created


def height(page: Page) -> int:
    h: int = page.evaluate("document.documentElement.scrollHeight")
    return h


def settle(page: Page) -> bool:
    """Wait until the page shows the server's newest board; True when the person may move."""
    while True:
        page.wait_for_selector(".moves-form button.move, #board .end", state="attached")
        if page.locator("#board .end").count():
            return False
        current = current_version(page)
        if current == shown_version(page):
            return True
        page.wait_for_function(
            "v => { const b = document.getElementById('board');"
            " return !!b && Number(b.getAttribute('data-version')) >= v; }",
            arg=current,
        )


def chosen_move(page: Page) -> tuple[str, str] | None:
    """The person's move (the same on the same board: one path per seed): a wonder stage if
    any, else a build, else a discard — the lowest action text; and its card's disclosure id."""
    moves: list[list[str]] = page.locator(".moves-form button.move").evaluate_all(
        "bs => bs.map(b => [b.className, b.value,"
        " b.closest('details') ? b.closest('details').id : ''])"
    )
    for kind in ("move-wonder", "move-build", "move-free", "move-revive", ""):
        hits = sorted((v, d) for cls, v, d in moves if kind in cls.split() or not kind)
        if hits:
            return hits[0]
    return None  # the board was swapped meanwhile (a push): look again


def play_by_taps(page: Page, lang: str, turns: int | None = None) -> list[int]:
    """Tap through the game (or ``turns`` of it); returns the page's height at every turn (the
    larger of the closed hand and the chosen card open; the end screen is not a turn)."""
    heights: list[int] = []
    while settle(page) and (turns is None or len(heights) < turns):
        closed = height(page)
        picked = chosen_move(page)
        if picked is None:
            continue
        action, card = picked
        if card and not page.locator(f"#{card}").evaluate("d => d.open"):
            page.locator(f"#{card} > summary").tap()
        button = page.locator(f'.moves-form button.move[value="{action}"]')
        expect(button).to_be_visible()
        heights.append(max(closed, height(page)))
        if lang == "en" and len(heights) == 8:  # age II: a card open, the last turn above
            try:
                button.scroll_into_view_if_needed()
            except PlaywrightError:  # a push swapped the board meanwhile: this turn again
                heights.pop()
                continue
            doc_shot(page, "play-7w-phone-move")
            assert serious(page) == []  # a card open, the last turn and the production bar
        if heights[-1] > BOUND:
            print(parts(page))
            page.screenshot(
                path=str(ARTIFACTS / f"play-7w-phone-too-tall-{lang}.png"), full_page=True
            )
        assert heights[-1] <= BOUND, (lang, len(heights), heights[-1])
        board = page.query_selector("#board")
        button.tap()
        page.wait_for_function("el => !el.isConnected", arg=board)
        assert len(heights) < 40, "no end after 40 moves"
    return heights


def parts(page: Page) -> list[tuple[str, int]]:
    """The heights of the page's parts (to tell what grew when the bound is not met)."""
    found: list[tuple[str, int]] = page.evaluate(
        """() => [...document.querySelectorAll('body > *, #play > *, #board > *, #board > * > *')]
            .map(e => [e.tagName + '.' + e.className + '#' + e.id,
                       Math.round(e.getBoundingClientRect().height)])"""
    )
    return found


def test_a_seven_player_game_against_every_level_fits_two_screens_on_every_turn(
    server: str, browser: Browser
) -> None:
    page = phone(browser, "en")
    game = new_game(page, server, "phone-en")
    page.goto(f"{server}{game['seats'][0]['url']}&lang=en")
    expect(page.locator(".hand .hcard")).to_have_count(7)
    # a card's kind is named (not only its colour), its moves appear when it is opened
    first = page.locator(".hand .hcard").first
    kind = first.locator(".hcard-top .ico .vh").first.inner_text()
    assert kind in (
        "Raw material",
        "Manufactured good",
        "Civic building",
        "Commercial building",
        "Military building",
        "Science building",
        "Guild",
    )
    expect(first.locator(".move-discard")).to_be_hidden()
    first.locator("summary").tap()
    expect(first.locator(".move-discard")).to_be_visible()
    # the production bar: mine, and what each neighbour sells at which price
    bar = page.locator(".prodbar")
    expect(bar.locator(".prod-left")).to_contain_text(NAMES[1])
    expect(bar.locator(".prod-right")).to_contain_text("2 coins each")
    expect(page.locator(".city-row")).to_have_count(7)
    assert serious(page) == []
    doc_shot(page, "play-7w-phone-hand")
    first.locator("summary").tap()
    heights = play_by_taps(page, "en")
    print(
        f"\nen: {len(heights)} turns, height max {max(heights)} px, bound {BOUND}: "
        f"{'met' if max(heights) <= BOUND else 'not met'}; every turn: {heights}"
    )
    assert len(heights) >= 18
    end = page.locator("#board .end")
    expect(end.locator(".winner")).to_be_visible()
    assert max(heights) <= BOUND
    # the log shows the last turn (the game's last: age III's)
    story = page.locator("details.story")
    story.locator("summary").tap()
    expect(story.locator(".story-turn").first).to_contain_text("Age III, turn 6")
    # the replay: opened at the last move, stepped back and forth
    end.get_by_role("link", name="Watch the replay, move by move").tap()
    page.wait_for_selector("#replay-step")
    m = re.search(r"(\d+) of (\d+)", page.locator("#replay-step").inner_text())
    assert m and m.group(1) == m.group(2)
    steps = int(m.group(2))
    page.locator("#replay-prev").tap()
    page.wait_for_url(re.compile(rf"step={steps - 1}\b"))
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(rf"step={steps - 2}\b"))
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(rf"step={steps - 1}\b"))
    page.context.close()


@pytest.mark.parametrize("lang", ["de", "it"])
def test_the_bound_holds_in_german_and_italian_to_the_end(
    server: str, browser: Browser, lang: str
) -> None:
    """The whole game in each other language too, the bound on every turn."""
    page = phone(browser, lang)
    game = new_game(page, server, f"phone-{lang}", QUICK_BOTS)
    page.goto(f"{server}{game['seats'][0]['url']}&lang={lang}")
    heights = play_by_taps(page, lang)
    print(
        f"\n{lang}: {len(heights)} turns, height max {max(heights)} px, bound {BOUND}: "
        f"{'met' if max(heights) <= BOUND else 'not met'}; every turn: {heights}"
    )
    assert len(heights) >= 18 and max(heights) <= BOUND
    expect(page.locator("#board .end")).to_contain_text(WORDS[lang]["over"])
    page.context.close()


def test_a_whole_game_with_the_keyboard_alone(server: str, browser: Browser) -> None:
    """No tap, no click: Tab to a card, Enter opens it, Tab to its move, Enter plays it; after
    each update focus is back on the hand (never on the page's top), and the news is said
    politely."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="en")
    page = ctx.new_page()
    game = new_game(page, server, "phone-keys", QUICK_BOTS)
    page.goto(f"{server}{game['seats'][0]['url']}&lang=en")
    expect(page.locator("#play-news")).to_have_attribute("aria-live", "polite")
    moves = 0
    while settle(page):
        focused = page.evaluate("document.activeElement.id")
        if moves:  # after an update focus is on the hand's heading
            assert focused == "hand-title", (moves, focused)
            page.keyboard.press("Tab")  # the first card of the hand
        else:  # from the page's top, Tab by Tab: the hand comes before the cities
            for _ in range(40):
                page.keyboard.press("Tab")
                if page.evaluate("!!document.activeElement.closest('.hand')"):
                    break
        assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")  # its first move
        # a bot's push may swap the board between two keys (more than once on a loaded
        # machine): keys again, from where the swap left the focus
        for _ in range(12):
            if page.evaluate("document.activeElement.classList.contains('move')"):
                break
            if page.evaluate(
                "document.activeElement.tagName === 'SUMMARY'"
                " && !document.activeElement.parentElement.open"
            ):
                page.keyboard.press("Enter")  # a card closed by the swap: open it again
            page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.classList.contains('move')"), (
            moves,
            page.evaluate(
                "(e => `${e.tagName}#${e.id}.${e.className} in `"
                " + (e.closest('[id]') || {}).id)(document.activeElement)"
            ),
        )
        board = page.query_selector("#board")
        page.keyboard.press("Enter")
        page.wait_for_function("el => !el.isConnected", arg=board)
        moves += 1
        assert moves < 40
    assert moves >= 18
    expect(page.locator("#board .end .winner")).to_be_visible()
    expect(page.locator("#play-news")).to_contain_text("Game over")
    ctx.close()
