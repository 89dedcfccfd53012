"""In a real browser (Debian's Chromium, driven by Playwright): a director runs a 13-player
BONN-SPIELT tournament through all four rounds at the desk, in German on a 360×740 screen; at one
table per round the players enter and confirm their result on a phone. At every step the page is
measured (:class:`Walk`): nothing wider than the screen, no English text on a German or Italian
page. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from axe_playwright_python.base import AXE_SCRIPT
from fastapi import FastAPI

from agon.i18n import LOCALE_DIR, translator
from agon.web.app import create_app
from agon.web.settings import WebSettings
from tests.play.server import bound_socket
from tests.web.conftest import BONN_13, PASSWORD, PASSWORD_HASH

#: Debian's chromium-headless-shell: the same Chromium build (the same Blink, V8 and version) as
#: the chromium package, in Chromium's old headless mode, without the full browser's window and
#: display stack. It costs about half the CPU of ``chromium --headless`` for the same pages
#: (docs/dev-measurements.md), and most of a browser test's CPU is the browser's. Outside CI, a
#: machine with only the chromium package runs the tests with that.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
#: The full browser, for what the shell does not do: it answers "denied" to every permission (web
#: notifications: tests/web/test_mine_notify_browser.py).
FULL_CHROMIUM = "/usr/bin/chromium"
CHROMIUM = (
    HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() or os.environ.get("CI") else FULL_CHROMIUM
)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError(
            f"{CHROMIUM} is missing: make test installs Debian's chromium-headless-shell "
            "(tools/system-packages)"
        )
    pytest.skip(
        f"{CHROMIUM} is not installed (apt-get install chromium-headless-shell)",
        allow_module_level=True,
    )

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

# Generous waits: the machine running the suite may be busy (seating round 1 plans all four
# rounds at once, about a second of CPU on an idle core).
TIMEOUT_MS = 90_000
expect.set_options(timeout=TIMEOUT_MS)


@contextmanager
def serving(make_app: Callable[[str], FastAPI]) -> Iterator[str]:
    """Serve ``make_app(url)`` with uvicorn in a thread on a free port of 127.0.0.1; yields the
    base URL, stops the server and releases the app's database afterwards (the browser tests'
    one way to run the web app)."""
    sock = bound_socket()  # the port is ours from the start (tests/play/server.py)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    app = make_app(url)
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield url
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
        sock.close()
        app.state.web.engine.dispose()


def app_on(db: Path, secret: str, **settings: Any) -> Callable[[str], FastAPI]:
    """A ``make_app`` for :func:`serving`: the web app on the SQLite file ``db``. Its pages are
    rendered in the server's process (``render_process=False`` unless ``settings`` say
    otherwise), as the in-process apps of tests/web/conftest.py are: a render process is a
    ``spawn`` that imports the web layer and renders its pages once ahead, about 2–3 s of CPU
    per served app, and renders the same bytes (tests/web/test_renderproc.py tests it)."""

    def make(url: str) -> FastAPI:
        return create_app(
            WebSettings(
                database_url=f"sqlite:///{db}",
                secret_key=secret,
                director_password_hash=PASSWORD_HASH,
                public_url=url,
                **({"render_process": False} | settings),
            )
        )

    return make


@contextmanager
def chromium(executable: str = CHROMIUM) -> Iterator[Browser]:
    """Debian's Chromium, headless, with the browser tests' arguments (:data:`CHROMIUM`, the
    headless shell, unless ``executable`` says otherwise)."""
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser") / "agon.db"
    shutil.copy(migrated_db, db)
    with serving(app_on(db, "browser-secret")) as url:
        yield url


class WorkerChromium:
    """One Chromium (and one Playwright driver) for a whole test process, a pytest-xdist worker:
    lent to one test module at a time (:meth:`lend`, the modules' ``browser`` fixture), which
    opens contexts of its own in it. Starting the driver and the shell costs about 1 s of CPU, and
    a worker used to start them again for every browser module it ran (and again for a module
    whose tests were split between workers).

    While Playwright's sync API is open, its event loop counts as the thread's running loop
    between calls (Playwright marks it so after each call): a later test of another module that
    starts a loop of its own (``asyncio.run``) would fail. So the loop is marked only while a
    module holds the browser; when the module ends, its contexts are closed (its pages stop
    polling their server) and the mark is taken off."""

    def __init__(self) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self._playwright = sync_playwright()
        self._driver = self._playwright.__enter__()
        self._loop = asyncio.get_running_loop()  # Playwright's, marked by the call above
        try:
            self.browser = self._launch()
        except BaseException:
            self._playwright.__exit__(None, None, None)
            raise
        asyncio._set_running_loop(None)

    def _launch(self) -> Browser:
        return self._driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)

    @contextmanager
    def lend(self) -> Iterator[Browser]:
        """The browser for a module; a new one if the last one is gone (crashed)."""
        asyncio._set_running_loop(self._loop)
        try:
            if not self.browser.is_connected():
                self.browser = self._launch()
            yield self.browser
        finally:
            if self.browser.is_connected():
                for context in self.browser.contexts:
                    context.close()
            asyncio._set_running_loop(None)

    def close(self) -> None:
        asyncio._set_running_loop(self._loop)
        try:
            self.browser.close()
        finally:
            self._playwright.__exit__(None, None, None)


#: Set (``AGON_SCREENSHOTS=1 make test``) to save a full-page PNG of every page the browser tests
#: check in test-artifacts/, to look at. Off by default: the PNGs assert nothing and cost a third
#: of the layout tests' CPU.
SCREENSHOTS = bool(os.environ.get("AGON_SCREENSHOTS"))


def shot(page: Page, name: str) -> None:
    """A full-page screenshot ``test-artifacts/NAME.png`` when :data:`SCREENSHOTS` is set."""
    if SCREENSHOTS:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


#: axe-core's source, the copy axe-playwright-python ships (its ``Axe().run`` sends it to the page
#: before every run).
AXE_SOURCE = AXE_SCRIPT
#: axe-core's run as ``Axe().run(page)`` starts it (every rule axe enables by default, details for
#: the violations only), answering only what the tests read: each serious or critical violation's
#: rule and first target. ``Axe().run`` brings back axe's whole answer, every passed and
#: inapplicable rule too (about 45 KB a page): Playwright checks each value of it, field by
#: field, in the test's process (docs/dev-measurements.md).
AXE_SERIOUS = """async () => {
  const found = await axe.run({resultTypes: ['violations']});
  return found.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id}: ${v.nodes.length ? JSON.stringify(v.nodes[0].target) : ''}`);
}"""


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (rule id and first
    target). axe is sent to a document once: a page checked again after its board was swapped
    runs the copy it has (axe keeps no state between runs)."""
    if not page.evaluate("() => typeof window.axe === 'object' && !!window.axe.run"):
        page.evaluate(AXE_SOURCE)
    found: list[str] = page.evaluate(AXE_SERIOUS)
    return found


#: The page's width, every visible element that ends right of the viewport (unless it sits in a
#: scroller: a wide table scrolls inside its box) and the text a person sees.
PAGE_CHECK = """() => {
  const vw = window.innerWidth;
  const out = {width: document.documentElement.scrollWidth, vw: vw, wide: [],
               text: document.body.innerText};
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= vw + 1) continue;
    let scroller = false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') { scroller = true; break; }
    }
    if (!scroller) {
      out.wide.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}` +
        `${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : ''}` +
        ` ends at ${Math.round(r.right)} px`);
    }
  }
  return out;
}"""

#: Placeholders and markup that split a catalogue text into the literal pieces a page shows.
_PIECES = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w+\}|<[^>]*>|\n")


@functools.cache
def english_pieces(lang: str) -> tuple[str, ...]:
    """The English phrases (two words or more, 12+ characters) of every catalogue text that reads
    differently in ``lang``: one of them on a ``lang`` page is English that leaked through."""
    from babel.messages.pofile import read_po

    with (LOCALE_DIR / lang / "LC_MESSAGES" / "agon.po").open("rb") as f:
        catalog = read_po(f)
    pieces: set[str] = set()
    for m in catalog:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for msgid in ids:
            if not msgid or msgid in strings:
                continue
            for piece in _PIECES.split(msgid):
                piece = piece.strip(" .,:;!?()«»“”„…–—-'\"")
                if (
                    len(piece) >= 12
                    and " " in piece
                    and not any(piece in text for text in strings if text)
                ):
                    pieces.add(piece)
    assert len(pieces) > 200  # the catalogue was read
    return tuple(sorted(pieces))


class Walk:
    """A walk's measurements: :meth:`check` at every step, :meth:`assert_clean` at the end (all
    problems of the walk at once, each with its step)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.problems: list[str] = []
        self.steps = 0
        self._ = translator(lang).gettext

    def check(self, page: Page, step: str) -> None:
        """The page as it is now fits its viewport and, in German or Italian, shows no English."""
        self.steps += 1
        page.wait_for_load_state()
        got = page.evaluate(PAGE_CHECK)
        where = f"{step} ({page.url}, {got['vw']} px)"
        if got["width"] > got["vw"]:
            self.problems.append(f"{where}: the page is {got['width']} px wide")
        self.problems += [f"{where}: {w}" for w in got["wide"][:3]]
        if self.lang != "en":
            text = " ".join(got["text"].split())
            self.problems += [
                f"{where}: English text {piece!r}"
                for piece in english_pieces(self.lang)
                if piece in text
            ]

    def assert_clean(self, at_least: int) -> None:
        assert not self.problems, "\n".join(self.problems)
        assert self.steps >= at_least, f"only {self.steps} steps were measured"


def phone_enters_and_confirms(
    browser: Browser, url: str, pin: str, number: int, walk: Walk
) -> None:
    """The players of a table: open the sheet's URL, type the PIN, fill the pad, each confirms."""
    _ = walk._
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, locale=walk.lang, has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    phone = ctx.new_page()
    phone.goto(url)
    expect(phone.locator("h1")).to_be_visible()
    walk.check(phone, f"round {number}: the table's PIN page")
    phone.fill("#pin", pin)
    phone.get_by_role("button", name=_("Open the table")).tap()
    expect(phone.locator('fieldset[data-seat="1"]')).to_be_visible()
    seats = phone.locator("fieldset[data-seat]").count()
    assert seats in (4, 5)
    # seat 1 uses the score pad; the page adds up and computes science from the symbols
    phone.locator('fieldset[data-seat="1"] summary').tap()
    walk.check(phone, f"round {number}: the table's sheet, score pad open")
    pad = {"military": 5, "treasury": 3, "wonder": 10, "civilian": 12, "commercial": 4, "guilds": 6}
    for cat, value in pad.items():
        phone.fill(f"#{cat}-1", str(value))
    phone.fill("#gear-1", "2")
    phone.fill("#compass-1", "1")
    phone.fill("#tablet-1", "1")
    phone.fill("#wild-1", "1")  # best: a third gear, 9 + 1 + 1 + 7 = 18
    expect(phone.locator("#science-1")).to_have_value("18")
    expect(phone.locator("#vp-1")).to_have_value(str(sum(pad.values()) + 18))
    phone.fill("#coins-1", "4")
    for k in range(2, seats + 1):
        phone.fill(f"#vp-{k}", str(35 + 4 * k + number))
        phone.fill(f"#coins-{k}", str(k))
    if number == 1:
        shot(phone, "phone-score-pad")
    phone.get_by_role("button", name=_("Save result")).tap()
    expect(phone.locator(".flash")).to_contain_text(
        _("Result saved. Now every player confirms it.")
    )
    walk.check(phone, f"round {number}: the table's sheet, saved")
    for _seat in range(seats):
        phone.get_by_role("button", name=re.compile(confirm_as(walk))).first.tap()
        expect(phone.locator(".flash")).to_contain_text(_("Confirmed: %s").split("%s")[0])
    expect(phone.get_by_text(_("This table is done. Thank you!"))).to_be_visible()
    walk.check(phone, f"round {number}: the table, confirmed")
    if number == 1:
        shot(phone, "phone-confirmed")
    ctx.close()


def confirm_as(walk: Walk) -> str:
    """A pattern for the buttons "Confirm as NAME" in the walk's language."""
    before, after = walk._("Confirm as %(player)s").split("%(player)s")
    return f"^{re.escape(before)}.*{re.escape(after)}$"


def test_director_runs_bonn_through_four_rounds(server: str, browser: Browser) -> None:
    """The whole Bonn day at the desk in German on a 360 px phone; the public pages in Italian;
    every step measured (:class:`Walk`). (English at 1280 and 1920 px: tests/web/test_layout.py.)"""
    walk, public_walk = Walk("de"), Walk("it")
    _ = walk._
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE")
    ctx.set_default_timeout(TIMEOUT_MS)
    desk = ctx.new_page()
    desk.goto(f"{server}/desk")
    walk.check(desk, "login")
    desk.fill("#password", PASSWORD)
    desk.get_by_role("button", name=_("Log in")).click()
    walk.check(desk, "the desk, no tournament yet")
    desk.fill("#name", "BONN-SPIELT (browser)")
    desk.fill("#slug", "bonn")
    desk.select_option("#ruleset", "bonn-2018")
    desk.fill("#seed", "browser-seed")
    desk.get_by_role("button", name=_("Create tournament")).click()
    expect(desk.locator(".flash")).to_contain_text(_("Tournament created."))
    walk.check(desk, "tournament created")
    desk.get_by_text(_("Register many (CSV)")).click()
    desk.fill("#csv_text", "name\n" + "\n".join(BONN_13))
    desk.get_by_role("button", name=_("Register all")).click()
    expect(desk.locator(".flash")).to_contain_text(_("Players registered: %d") % 13)
    walk.check(desk, "13 registered")
    desk.get_by_role("button", name=_("Check in everyone registered")).click()
    expect(desk.locator(".flash")).to_contain_text(_("Checked in: %s") % 13)
    walk.check(desk, "13 checked in")

    for number in (1, 2, 3, 4):
        # Round 1 plans all four rounds at once: seconds of search on a quiet machine (hard draws
        # for 13 players take ~9 s CPU), far longer on a loaded CI machine.
        desk.get_by_role("button", name=_("Seat by the ruleset and start")).click(timeout=180_000)
        # the confirmation step: the seating it would make, nothing done yet
        expect(desk.locator("h1")).to_have_text(_("Start the round?"))
        expect(desk.locator("#preview")).to_contain_text(
            _("Round %(round)d started") % {"round": number}
        )
        walk.check(desk, f"round {number}: start, the confirmation")
        desk.get_by_role("button", name=_("Yes, start the round")).click(timeout=180_000)
        expect(desk.locator(".flash")).to_contain_text(_("Round %d started.") % number)
        walk.check(desk, f"round {number}: started")
        cards = desk.locator("section.table-card")
        assert sorted(cards.nth(i).locator("tbody tr").count() for i in range(3)) == [4, 4, 5]
        if number == 1:
            desk.get_by_role("button", name=_("Start the clock")).click()
            walk.check(desk, "round 1: the clock runs")
            shot(desk, "desk-round")
        # table 1: the players, on a phone
        pin = desk.locator("#table-1 .pin").inner_text()
        link = desk.locator("#table-1 a").first.get_attribute("href")
        assert link is not None and link.endswith(f"/r{number}/t1")
        phone_enters_and_confirms(browser, link, pin, number, walk)
        # tables 2 and 3: the director types the signed paper sheets
        for table in (2, 3):
            card = desk.locator(f"#table-{table}")
            rows = card.locator("tbody tr").count()
            for k in range(1, rows + 1):
                card.locator(f'input[name="vp-{k}"]').fill(str(30 + 5 * k + table + number))
                card.locator(f'input[name="coins-{k}"]').fill(str(k % 3))
            card.locator('input[name="confirm"]').check()
            card.get_by_role("button", name=_("Save result")).click()
            expect(desk.locator(".flash")).to_contain_text(_("Table %d saved.") % table)
            walk.check(desk, f"round {number}: table {table} saved")
        desk.reload()
        expect(desk.locator("#status")).to_contain_text(f"{_('confirmed')}: 3")
        desk.get_by_role("button", name=_("Close the round")).click()
        expect(desk.locator("#preview")).to_contain_text(
            _("Round %(round)d closed") % {"round": number}
        )
        walk.check(desk, f"round {number}: close, the confirmation")
        desk.get_by_role("button", name=_("Yes, close the round")).click()
        expect(desk.locator(".flash")).to_contain_text(_("Round %d closed.") % number)
        walk.check(desk, f"round {number}: closed")

    expect(desk.get_by_text(_("Start round %(num)d") % {"num": 5})).to_have_count(0)
    public = browser.new_context(viewport={"width": 360, "height": 740}, locale="it-IT")
    public.set_default_timeout(TIMEOUT_MS)
    page = public.new_page()
    page.goto(f"{server}/p/bonn")
    expect(page.locator("p.caption")).to_contain_text("dopo 4 turni")
    rows = page.locator("table.standings tbody tr:not(.narrow)")
    expect(rows).to_have_count(13)
    games = [rows.nth(i).locator("td").nth(-2).inner_text() for i in range(13)]
    assert games == ["4"] * 13
    public_walk.check(page, "the standings")
    shot(page, "phone-standings")
    page.goto(f"{server}/p/bonn/seat?name=player+c")
    expect(page.locator(".seat-card")).to_have_count(1)
    public_walk.check(page, "where Player C sits")
    page.goto(f"{server}/p/bonn/chart?player=Player+A")
    assert page.locator("svg.chart polyline").count() == 13
    public_walk.check(page, "the rank chart")
    shot(page, "phone-rank-chart")
    projector = ctx.new_page()
    projector.goto(f"{server}/p/bonn/clock")
    expect(projector.locator(".clock-round")).to_contain_text(_("Round %(num)d") % {"num": 4})
    walk.check(projector, "the projector's clock")
    shot(projector, "projector")
    for url in ("/desk", "/desk/bonn", "/desk/bonn/rounds/4", "/desk/bonn/journal"):
        desk.goto(f"{server}{url}")
        walk.check(desk, f"the finished tournament: {url}")
    for url in ("/p/bonn/rounds/4", "/p/bonn/clock"):
        page.goto(f"{server}{url}")
        public_walk.check(page, f"the finished tournament: {url}")
    shot(page, "phone-projector")
    ctx.close()
    public.close()
    walk.assert_clean(at_least=40)
    public_walk.assert_clean(at_least=5)


def test_the_walks_measure_sees_english_and_overflow(browser: Browser) -> None:
    """The walks' check is not blind: on a German page it reports an English sentence of the
    catalogue and an element wider than the 360 px screen, and nothing on a page without them."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    page = ctx.new_page()
    walk = Walk("de")
    page.set_content(f"<p>{walk._('Check in everyone registered')}</p><p>Anna, Ben</p>")
    walk.check(page, "clean")
    assert walk.problems == []
    page.set_content("<p>Check in everyone registered</p><div style='width: 500px'>breit</div>")
    walk.check(page, "dirty")
    ctx.close()
    assert any("English text 'Check in everyone registered'" in p for p in walk.problems)
    assert any("the page is 508 px wide" in p for p in walk.problems)
    assert any("div ends at 508 px" in p for p in walk.problems), walk.problems


def test_the_served_apps_render_their_pages_in_the_server_process(
    tmp_path: Path, migrated_db: Path
) -> None:
    """No render process for the apps the browser tests serve (unless a test asks for one)."""
    db = tmp_path / "agon.db"
    shutil.copy(migrated_db, db)
    for settings, wanted in (({}, False), ({"render_process": True}, True)):
        app = app_on(db, "browser-secret", **settings)("http://127.0.0.1:9")
        try:
            assert (app.state.web.renderer is not None) is wanted
        finally:
            app.state.web.engine.dispose()


def test_the_browser_tests_launch_debians_headless_shell() -> None:
    """The browser tests run in chromium-headless-shell, which make test installs: the full
    browser's ``--headless`` costs about twice the CPU for the same pages (docs/dev-measurements.md)."""
    packages = (Path(__file__).resolve().parents[2] / "tools" / "system-packages").read_text()
    assert f"need chromium-headless-shell test -x {HEADLESS_SHELL}" in packages
    assert f"need chromium test -x {FULL_CHROMIUM}" in packages  # for web notifications
    if os.environ.get("CI") or Path(HEADLESS_SHELL).exists():
        assert CHROMIUM == HEADLESS_SHELL
