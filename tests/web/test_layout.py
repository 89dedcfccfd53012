"""Every page fits a 360 px phone in German, Italian and English, and nothing sticks out of its
card; the desk's confirmation pages (round start and close, undo, expel, final) too; the desk's
round page also at 1280 and 1920 px. Measured in a real browser (Debian's
Chromium driven by Playwright). A phone then runs a table's wonder auction (Ludolimpico 2.1).
Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, expect

from agon.services import auctions, results, rounds
from agon.services.schemas import ResultIn
from agon.web.security import table_pin
from tests.web.conftest import PASSWORD, make_bonn
from tests.web.helpers import play_round
from tests.web.test_browser import (
    TIMEOUT_MS,
    app_on,
    english_pieces,
    serving,
    shot,
)

SECRET = "layout-secret"
#: Long names, as people have them: the pages must wrap them, not widen.
BONN = (
    "Maximilian Müller-Lüdenscheidt",
    "Anna-Katharina Oberschwester",
    "Giovanni Battista Pergolesi",
    "Bartholomäus Zwirbelmeier",
    "Li",
    "Friederike von Hohenzollern",
    "Konstantinos Papadopoulos",
    "Ana",
    "Wolfgang Amadeus Mozart",
    "Eleonora d'Arborea",
    "Jan Müller",
    "Jo",
    "Hildegard von Bingen",
)
LUDO = (
    "Alessandra Bianchi",
    "Giuseppe Verdi",
    "Cristoforo Colombo",
    "Bea",
    "Federico Fellini",
    "Sofia Loren",
    "Marcello Mastroianni",
    "Monica Vitti",
)
LANGS = ("de", "it", "en")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SERIES = """name = "Circuito nazionale 7 Wonders 2018 — qualificazioni"
best = 2
qualify = 3
points = [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]

[[events]]
tournament = "bonn"
name = "BONN-SPIELT 2018 — Qualifikation zur Deutschen Meisterschaft"

[[events]]
tournament = "ludo"

[[events]]
file = "{example}"
"""


def _setup(app: Any) -> None:
    """Bonn: round 1 with a confirmed, a pending and a disputed table. Ludolimpico: round 1 with
    one auction under way and one finished with results. A second Bonn event, finished (four
    closed rounds): its pages name the winner and the podium (long names). For the confirmation
    pages: a Ludolimpico event ready for round 1 (start), a Bonn round whose tables are all
    confirmed (close), a Ludolimpico event after three closed rounds (final)."""
    with app.state.web.sessions() as s:
        make_bonn(s, slug="done", names=BONN)
        for number in range(1, 5):
            rounds.start_round(s, tournament="done", actor="t")
            play_round(s, "done", number)
            rounds.close_round(s, tournament="done", number=number, actor="t")
        s.rollback()
        make_bonn(s, slug="ready", names=BONN)
        rounds.start_round(
            s,
            tournament="ready",
            actor="t",
            tables=[list(BONN[:5]), list(BONN[5:9]), list(BONN[9:])],
        )
        play_round(s, "ready", 1)
        make_bonn(s, slug="ludonew", names=LUDO, ruleset="ludolimpico-2015")
        make_bonn(s, slug="ludofin", names=LUDO, ruleset="ludolimpico-2015")
        for number in (1, 2, 3):
            rounds.start_round(
                s, tournament="ludofin", actor="t", tables=[list(LUDO[:4]), list(LUDO[4:])]
            )
            play_round(s, "ludofin", number, base=30 + number)
            rounds.close_round(s, tournament="ludofin", number=number, actor="t")
        s.rollback()
        make_bonn(s, slug="bonn", names=BONN)
        tables = [list(BONN[:5]), list(BONN[5:9]), list(BONN[9:])]
        rounds.start_round(s, tournament="bonn", actor="t", tables=tables)
        for number, seats in enumerate(tables, start=1):
            results.enter_result(
                s,
                tournament="bonn",
                round_number=1,
                table=number,
                results=[ResultIn(player=p, vp=40 + k, coins=k) for k, p in enumerate(seats)],
                actor="t",
            )
        results.confirm_result(s, tournament="bonn", round_number=1, table=1, actor="t")
        s.rollback()
        make_bonn(s, slug="ludo", names=LUDO, ruleset="ludolimpico-2015")
        rounds.start_round(s, tournament="ludo", actor="t")
        for table in (1, 2):
            for _ in range(3 if table == 1 else 100):
                v = auctions.auction_view(s, tournament="ludo", round_number=1, table=table)
                s.rollback()
                assert v is not None
                if v.finished:
                    break
                assert v.to_act is not None
                move = f"{v.to_act} opens {v.available[0]} 0" if v.opening else f"{v.to_act} passes"
                auctions.act(
                    s, tournament="ludo", round_number=1, table=table, action=move, actor="t"
                )
        seats = rounds.get_round(s, tournament="ludo", number=1).tables[1].seats
        results.enter_result(
            s,
            tournament="ludo",
            round_number=1,
            table=2,
            results=[ResultIn(player=p, vp=50 - k, coins=k) for k, p in enumerate(seats)],
            actor="t",
        )
        s.rollback()


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("layout") / "agon.db"
    shutil.copy(migrated_db, db)
    series = db.parent / "circuito.toml"  # the two live tournaments (long names) and a file
    series.write_text(SERIES.format(example=EXAMPLES / "bonn-2018-sample.json"), encoding="utf-8")

    def make(url: str) -> FastAPI:
        app = app_on(db, SECRET, series_files=(str(series),))(url)
        _setup(app)
        return app

    with serving(make) as url:
        yield url


#: Open every <details> and measure: the page's width, and every visible element that ends to the
#: right of its card (table cards, fieldsets, seat cards, panels), unless it sits in a scroller.
MEASURE = """() => {
  document.querySelectorAll('details').forEach(d => d.open = true);
  const out = {width: document.documentElement.scrollWidth, sticking: []};
  for (const card of document.querySelectorAll('.table-card, fieldset, .seat-card, .auction, .city, .pcard, .hcard, .city-row, .prodbar')) {
    const edge = card.getBoundingClientRect().right + 1;
    for (const el of card.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      let scroller = false;
      for (let a = el.parentElement; a && a !== card; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') { scroller = true; break; }
      }
      if (!scroller && r.right > edge) {
        out.sticking.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}` +
          `${el.getAttribute('name') ? '[' + el.getAttribute('name') + ']' : ''}` +
          ` ends at ${Math.round(r.right)} px, its card at ${Math.round(edge - 1)} px`);
      }
    }
  }
  return out;
}"""


def measure(page: Page, url: str, width: int, name: str, lang: str = "en") -> list[str]:
    """What sticks out at ``url``; on a German or Italian page also any English catalogue text
    (:func:`tests.web.test_browser.english_pieces`)."""
    response = page.goto(url)
    assert response is not None and response.status < 500, url
    return measure_here(page, url, width, name, lang)


def measure_here(page: Page, url: str, width: int, name: str, lang: str = "en") -> list[str]:
    """:func:`measure` on the page as it is (one reached by a form, not by its address)."""
    got = page.evaluate(MEASURE)
    problems = [f"{url} at {width} px: {s}" for s in got["sticking"][:3]]
    if lang != "en":
        text = " ".join(page.inner_text("body").split())
        problems += [f"{url}: English text {p!r}" for p in english_pieces(lang) if p in text]
    if got["width"] > width:
        problems.insert(0, f"{url} at {width} px: the page is {got['width']} px wide")
    shot(page, f"layout-{name}")
    return problems


def unlock(page: Page, server: str, slug: str, table: int) -> None:
    page.goto(f"{server}/t/{slug}/r1/t{table}")
    page.fill("#pin", table_pin(SECRET, slug, 1, table))
    page.locator("form button[type=submit]").first.click()
    expect(page.locator("h1")).to_be_visible()


PUBLIC = (
    "/",
    "/p/bonn",
    "/p/bonn/seat?name=M%C3%BCller",
    "/p/bonn/rounds",
    "/p/bonn/rounds/1",
    "/p/bonn/chart",
    "/p/bonn/clock",
    "/p/ludo",
    "/p/ludo/rounds/1",
    "/p/nope",
    "/p/done",
    "/series",
    "/series/circuito",
    "/t/bonn/r1/t2",  # the PIN page, before unlocking
)
DESK = (
    "/desk",
    "/desk/bonn",
    "/desk/bonn/rounds/1",
    "/desk/bonn/journal",
    "/desk/ludo",
    "/desk/ludo/rounds/1",
    "/desk/done",
)
TABLES = (("bonn", 1), ("bonn", 2), ("bonn", 3), ("ludo", 1), ("ludo", 2))


def with_lang(url: str, lang: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}lang={lang}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_fits_a_phone(server: str, browser: Browser, lang: str) -> None:
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale=lang, has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    problems: list[str] = []
    page.goto(with_lang(f"{server}/desk/login", lang))
    problems += measure(page, with_lang(f"{server}/desk/login", lang), 360, f"login-{lang}", lang)
    for url in PUBLIC:
        name = url.strip("/").replace("/", "-").split("?")[0] or "start"
        problems += measure(page, with_lang(server + url, lang), 360, f"{name}-{lang}", lang)
    for slug, table in TABLES:
        unlock(page, server, slug, table)
        url = with_lang(f"{server}/t/{slug}/r1/t{table}", lang)
        problems += measure(page, url, 360, f"table-{slug}-{table}-{lang}", lang)
    page.goto(f"{server}/desk/login")
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").first.click()
    for url in DESK:
        name = url.strip("/").replace("/", "-")
        problems += measure(page, with_lang(server + url, lang), 360, f"{name}-{lang}", lang)
    for slug, step, data in CONFIRM:
        problems += confirmation(page, server, slug, step, data, lang)
    ctx.close()
    assert not problems, "\n".join(problems)


#: The desk's confirmation steps (tournament, step, the form's fields): each page is measured.
CONFIRM = (
    ("ludonew", "start", {"mode": "auto"}),
    ("ready", "close", {"round": "1"}),
    ("bonn", "undo", {}),
    (
        "bonn",
        "drop",
        {"player": BONN[0], "kind": "expel", "reason": "2.5 " + "lange Begründung " * 8},
    ),
    ("ludofin", "final", {}),
)

#: Post a desk form as its button does (the page's CSRF token), to reach a confirmation page.
SUBMIT = """([action, fields]) => {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = action;
  fields.csrf_token = document.querySelector('input[name=csrf_token]').value;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden'; input.name = name; input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}"""


def confirmation(
    page: Page, server: str, slug: str, step: str, data: dict[str, str], lang: str
) -> list[str]:
    """The confirmation page of ``step`` (a dry run: nothing changes), measured."""
    page.goto(with_lang(f"{server}/desk/{slug}", lang))
    url = with_lang(f"{server}/desk/{slug}/confirm/{step}", lang)
    with page.expect_navigation() as navigation:
        page.evaluate(SUBMIT, [url, data])
    response = navigation.value
    assert response is not None and response.status == 200, (url, page.content()[:2000])
    expect(page.locator("#preview")).to_be_visible()
    return measure_here(page, url, 360, f"confirm-{slug}-{step}-{lang}", lang)


#: The desk's screens: its round page is measured at each width.
DESK_WIDTHS = (1280, 1920)


def test_desk_round_page_fits_its_cards(server: str, browser: Browser) -> None:
    """Each page is loaded once and measured at every width of :data:`DESK_WIDTHS`, the window
    resized in between: the page lays itself out again for the new width (its CSS; no script of
    the desk reads the window's width), as a new load at that width would."""
    ctx = browser.new_context(viewport={"width": DESK_WIDTHS[0], "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    page.goto(f"{server}/desk/login")
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").first.click()
    problems: list[str] = []
    for lang in LANGS:
        for slug in ("bonn", "ludo"):
            url = with_lang(f"{server}/desk/{slug}/rounds/1", lang)
            for k, width in enumerate(DESK_WIDTHS):
                page.set_viewport_size({"width": width, "height": 900})
                name = f"desk-{slug}-round-{width}-{lang}"
                problems += (
                    measure(page, url, width, name)
                    if k == 0
                    else measure_here(page, url, width, name)
                )
    ctx.close()
    assert not problems, "\n".join(problems)


def test_back_from_a_refusal_keeps_what_was_typed(server: str, browser: Browser) -> None:
    """A refused correction on the desk: *Back* on the error page brings the form back as typed."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    page.goto(f"{server}/desk/login")
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").first.click()
    page.goto(f"{server}/desk/bonn/rounds/1?lang=en")
    card = page.locator("#table-3")
    card.locator('input[name="vp-1"]').fill("77")
    card.locator('input[name="version"]').first.evaluate("el => el.value = '1'")  # someone else's
    card.get_by_role("button", name="Save correction").click()
    expect(page.locator(".flash.error")).to_contain_text("changed meanwhile")
    page.get_by_role("link", name="Back").click()
    expect(page.locator('#table-3 input[name="vp-1"]')).to_have_value("77")
    ctx.close()


def phone(browser: Browser, server: str, lang: str) -> Page:
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale=lang, has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    page.goto(f"{server}/lang/{lang}?next=/")
    unlock(page, server, "ludo", 1)
    return page


def test_phones_run_the_auction(server: str, browser: Browser) -> None:
    """Two players' phones at table 1 (Italian): one bids, the other's page is then stale and its
    raise is refused with the typed bid kept; the phone then runs the auction to its end."""
    mine, theirs = phone(browser, server, "it"), phone(browser, server, "it")
    expect(mine.locator(".auction .turn")).to_contain_text("Tocca a:")
    assert "(per sorteggio)" in mine.locator(".auction").inner_text()
    expect(theirs.get_by_role("button", name="Passo")).to_be_visible()
    theirs.get_by_role("button", name="Passo").tap()
    expect(theirs.locator(".flash")).to_contain_text("Registrato:")
    mine.fill(".auction input[name=bid]", "5")
    mine.get_by_role("button", name="Rilancio").tap()
    expect(mine.locator(".auction .flash.error")).to_contain_text("L'asta è andata avanti")
    shot(mine, "phone-auction-refused")
    if mine.locator(".auction input[name=bid]").count():
        expect(mine.locator(".auction input[name=bid]")).to_have_value("5")  # kept as typed
    for _ in range(40):
        if mine.get_by_text("L'asta è finita: ogni giocatore ha una meraviglia.").count():
            break
        if mine.get_by_role("button", name="Apri").count():
            mine.get_by_role("button", name="Apri").tap()
        else:
            mine.get_by_role("button", name="Passo").tap()
        expect(mine.locator(".flash").first).to_be_visible()
    expect(mine.get_by_text("L'asta è finita: ogni giocatore ha una meraviglia.")).to_be_visible()
    expect(mine.locator('fieldset[data-seat="1"]')).to_be_visible()  # now the result
    shot(mine, "phone-auction-done")
    width = mine.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the auction page is {width} px wide"


def _play_urls(page: Page, server: str) -> list[tuple[str, str]]:
    """A 7 Wonders game (5 seats, long names) and One Card Wonder games (leaders, Two Card
    Wonder), created through ``POST /api/play``: (name, url) of the lobby, seats and spectators."""
    urls = [("play-lobby", "/play"), ("play-mine", "/play/mine")]
    games = [
        ("7w", "base", ["Maximilian Müller-Lüdenscheidt", "Anna-Katharina Oberschwester"], 3),
        ("ocw", "leaders", ["Bartholomäus Zwirbelmeier"], 1),
        ("ocw", "two-card", ["Friederike von Hohenzollern"], 1),
    ]
    for game, variant, people, bots in games:
        seats = [{"kind": "human", "name": n} for n in people]
        seats += [{"kind": "bot", "bot": "random"} for _ in range(bots)]
        answer = page.request.post(
            f"{server}/api/play",
            data={"game": game, "variant": variant, "seats": seats}
            | ({"seed": "layout"} if len(people) == 1 else {})
            | ({"clock": "relaxed"} if game == "7w" else {}),  # the turn clock's line too
        )
        assert answer.status == 201, answer.text()
        body = answer.json()
        urls.append((f"play-{game}-{variant}-seat", str(body["seats"][0]["url"])))
        urls.append((f"play-{game}-{variant}-watch", f"/play/{body['game_id']}/watch"))
    return urls


@pytest.mark.parametrize("lang", LANGS)
def test_play_pages_fit_a_phone(server: str, browser: Browser, lang: str) -> None:
    """The lobby, a seat's table and the spectator view of both games at 360 px."""
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale=lang, has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    problems: list[str] = []
    for name, url in _play_urls(page, server):
        problems += measure(page, with_lang(server + url, lang), 360, f"{name}-{lang}", lang)
    ctx.close()
    assert not problems, "\n".join(problems)
