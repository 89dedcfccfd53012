"""axe-core on every page of the app (issue 28, "Everyone can play"): 0 serious or critical
violations on every GET HTML page — play, public, desk, people, registration, profiles, replay,
series.

The list of pages is the app's own route table: every GET route that is not the JSON API, a
static file or a health probe must have concrete addresses in :data:`PAGES` (filled with a real
tournament, table, game, registration, profile and link), so a new page fails
:func:`test_every_page_route_is_walked` until it is added here — and then it is axe-checked.
Pages are visited anonymously, with a table's PIN, and as the director; a page is checked where it
answers with an HTML document (a fragment that a page swaps in is checked inside its page)."""

from __future__ import annotations

import random
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy.orm import Session

from agon.people.roles import Scope
from agon.services import online, people, profiles, registration, venue
from agon.tournament.wifi import parse_network
from tests.web.conftest import PASSWORD, make_bonn
from tests.web.test_browser import TIMEOUT_MS, app_on, serious, serving
from tests.web.test_layout import BONN, EXAMPLES, LUDO, SECRET, SERIES, _setup, unlock

from playwright.sync_api import APIRequestContext, Browser, Page  # isort: skip

pytestmark = pytest.mark.slow

#: Routes that are no page: the JSON API, files, probes and redirects.
NOT_PAGES = re.compile(r"^/(api/|static|healthz|readyz|metrics|lang/)|\.(pdf|json|js|webmanifest)$")
#: Fragments that a page swaps in (checked inside their page, not as documents).
FRAGMENTS = {
    "/p/{slug}/standings-table",
    "/play/{game_id}/board",
    "/play/{game_id}/watch/board",
    "/desk/{slug}/rounds/{number}/status",
}


def page_routes(app: FastAPI) -> list[str]:
    """Every GET page route of ``app``, read from its route table (included routers too)."""

    def walk(routes: list[Any]) -> Iterator[Any]:
        for r in routes:
            inner = getattr(r, "original_router", None)
            yield from walk(inner.routes) if inner is not None else (r,)

    paths = [
        r.path
        for r in walk(list(app.routes))
        if "GET" in (getattr(r, "methods", None) or ()) and not NOT_PAGES.search(r.path)
    ]
    return sorted(set(paths) - FRAGMENTS)


def play_out(api: APIRequestContext, server: str, gid: str, token: str, cap: int) -> bool:
    """Seat 0 plays at random until the game is over (True) or ``cap`` moves were made."""
    rng = random.Random(7)
    for _ in range(cap):
        deadline = time.monotonic() + 60
        while True:
            state = api.get(f"{server}/api/play/{gid}", params={"token": token}).json()
            if state["to_act"] or state["over"]:
                break
            assert time.monotonic() < deadline, "the bots did not move"
            time.sleep(0.05)
        if state["over"]:
            return True
        answer = api.post(
            f"{server}/api/play/{gid}/act",
            data={
                "token": token,
                "action": rng.choice(state["legal"]),
                "version": state["version"],
            },
        )
        assert answer.status == 200, answer.text()
    return False


def new_game(api: APIRequestContext, server: str, game: str, variant: str, bots: int) -> Any:
    seats = [{"kind": "human", "name": "Bartholomäus Zwirbelmeier"}]
    seats += [{"kind": "bot", "bot": "random"} for _ in range(bots)]
    answer = api.post(
        f"{server}/api/play",
        data={"game": game, "variant": variant, "seats": seats, "seed": f"axe-{game}-{variant}"},
    )
    assert answer.status == 201, answer.text()
    return answer.json()


def _people_data(app: FastAPI) -> dict[str, str]:
    """A registration, a profile and one-time links: their real tokens."""
    with app.state.web.sessions() as s:
        assert isinstance(s, Session)
        make_bonn(s, slug="reg", names=LUDO)
        registration.open_registration(
            s, tournament="reg", capacity=20, deadline=None, fee_note="10 €", actor="t"
        )
        mine = registration.register(s, tournament="reg", name="Kai Uwe", email="kai@example.org")
        profile = profiles.create_profile(s, name="Giuseppe Verdi")
        invite = people.create_invite(
            s,
            email="dora@club.test",
            role="director",
            scope=Scope.TOURNAMENT,
            target="reg",
            invited_by="Olga",
        )
        accepted = people.create_invite(
            s,
            email="olga@club.test",
            role="director",
            scope=Scope.TOURNAMENT,
            target="reg",
            invited_by="Olga",
        )
        people.accept_invite(s, token=accepted, name="Olga", password="a long pass phrase 1")
        reset = people.create_reset(s, email="olga@club.test")
        make_bonn(s, slug="onl", names=BONN)
        online.start_round_online(
            s,
            tournament="onl",
            actor="t",
            tables=[list(BONN[:5]), list(BONN[5:9]), list(BONN[9:])],
            host=app.state.online_host,
        )
        s.rollback()
        # the venue's Wi-Fi: its QR code on the seat-link cards and the desk's Venue Wi-Fi page
        venue.set_wifi(
            s, tournament="onl", network=parse_network(ssid="Bonn", password="Tische-2018")
        )
        return {"me": mine.token, "profile": profile.id, "invite": invite, "reset": reset}


@pytest.fixture(scope="module")
def served(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("axe") / "agon.db"
    shutil.copy(migrated_db, db)
    series = db.parent / "circuito.toml"
    series.write_text(SERIES.format(example=EXAMPLES / "bonn-2018-sample.json"), encoding="utf-8")
    box: dict[str, Any] = {}

    def make(url: str) -> FastAPI:
        app = app_on(db, SECRET, series_files=(str(series),))(url)
        _setup(app)
        box["app"], box["data"] = app, _people_data(app)
        return app

    with serving(make) as url:
        yield url, box["app"], box["data"]


def pages(page: Page, server: str, data: dict[str, str]) -> dict[str, list[str]]:
    """Concrete addresses for every page route: games are made (and played out) here."""
    api = page.request
    seven = new_game(api, server, "7w", "base", 2)
    done = new_game(api, server, "7w", "base", 2)
    assert play_out(api, server, done["game_id"], done["seats"][0]["token"], 400)
    ocw = new_game(api, server, "ocw", "leaders", 2)
    ocw_done = new_game(api, server, "ocw", "base", 1)
    ocw_over = play_out(api, server, ocw_done["game_id"], ocw_done["seats"][0]["token"], 600)
    seat_urls = [seven["seats"][0]["url"], ocw["seats"][0]["url"]]
    seat_urls += [done["seats"][0]["url"]] + ([ocw_done["seats"][0]["url"]] if ocw_over else [])
    finished = [done["game_id"]] + ([ocw_done["game_id"]] if ocw_over else [])
    return {
        "/": ["/"],
        "/people": ["/people"],
        "/people/invite/{token}": [f"/people/invite/{data['invite']}", "/people/invite/bad"],
        "/people/reset/{token}": [f"/people/reset/{data['reset']}", "/people/reset/bad"],
        "/p/{slug}": ["/p/bonn", "/p/ludo", "/p/done", "/p/nope"],
        "/p/{slug}/seat": ["/p/bonn/seat?name=M%C3%BCller", "/p/bonn/seat"],
        "/p/{slug}/rounds": ["/p/bonn/rounds"],
        "/p/{slug}/rounds/{number}": ["/p/bonn/rounds/1", "/p/ludo/rounds/1"],
        "/p/{slug}/chart": ["/p/bonn/chart", "/p/done/chart"],
        "/p/{slug}/clock": ["/p/bonn/clock"],
        "/series": ["/series"],
        "/series/{name}": ["/series/circuito"],
        "/register/{slug}": ["/register/reg"],
        "/register/{slug}/me/{token}": [f"/register/reg/me/{data['me']}"],
        "/desk/{slug}/registration": ["/desk/reg/registration"],
        "/desk/{slug}/venue": ["/desk/onl/venue", "/desk/bonn/venue"],
        "/desk/login": ["/desk/login"],
        "/desk/link/{token:path}": ["/desk/link/no-such-link"],
        "/desk": ["/desk"],
        "/desk/{slug}": ["/desk/bonn", "/desk/ludo", "/desk/done"],
        "/desk/{slug}/rounds/{number}": ["/desk/bonn/rounds/1", "/desk/ludo/rounds/1"],
        "/desk/{slug}/rounds/{number}/seat-links": ["/desk/onl/rounds/1/seat-links"],
        "/desk/{slug}/journal": ["/desk/bonn/journal"],
        "/players/{profile}": [f"/players/{data['profile']}"],
        "/desk/{slug}/profiles": ["/desk/bonn/profiles"],
        "/t/{slug}/r{number}/t{table}": ["/t/bonn/r1/t1", "/t/ludo/r1/t1"],
        "/play/mine": ["/play/mine"],
        "/play": ["/play"],
        "/play/{game_id}": seat_urls,
        "/play/{game_id}/watch": [f"/play/{g['game_id']}/watch" for g in (seven, ocw, done)],
        "/play/{game_id}/replay": [f"/play/{g}/replay" for g in finished]
        + [f"/play/{g}/replay?seat=0&step=3" for g in finished],
    }


def check(page: Page, url: str, checked: set[str]) -> list[str]:
    """axe on ``url`` if it answers with an HTML document; its serious and critical findings."""
    answer = page.goto(url)
    assert answer is not None and answer.status < 500, url
    if "text/html" not in answer.headers.get("content-type", ""):
        return []
    if answer.status == 200:  # an error page is checked too, but reaches no route
        checked.add(url)
    return [f"{url}: {v}" for v in serious(page)]


def test_every_page_route_is_walked(served: Any) -> None:
    """The walk below covers every page of the route table (a new page must be added)."""
    _server, app, _data = served
    routes = page_routes(app)
    assert len(routes) >= 30, routes
    missing = set(routes) - set(PAGE_ROUTES)
    assert not missing, f"pages without addresses in test_axe_pages.pages(): {sorted(missing)}"


#: The route patterns :func:`pages` fills (kept in step with it by the test above).
PAGE_ROUTES = (
    "/",
    "/people",
    "/people/invite/{token}",
    "/people/reset/{token}",
    "/p/{slug}",
    "/p/{slug}/seat",
    "/p/{slug}/rounds",
    "/p/{slug}/rounds/{number}",
    "/p/{slug}/chart",
    "/p/{slug}/clock",
    "/series",
    "/series/{name}",
    "/register/{slug}",
    "/register/{slug}/me/{token}",
    "/desk/{slug}/registration",
    "/desk/{slug}/venue",
    "/desk/login",
    "/desk/link/{token:path}",
    "/desk",
    "/desk/{slug}",
    "/desk/{slug}/rounds/{number}",
    "/desk/{slug}/rounds/{number}/seat-links",
    "/desk/{slug}/journal",
    "/players/{profile}",
    "/desk/{slug}/profiles",
    "/t/{slug}/r{number}/t{table}",
    "/play/mine",
    "/play",
    "/play/{game_id}",
    "/play/{game_id}/watch",
    "/play/{game_id}/replay",
)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_axe_finds_no_serious_violation_on_any_page(
    served: Any, browser: Browser, lang: str
) -> None:
    server, _app, data = served
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale=lang)
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    page.goto(f"{server}/lang/{lang}?next=/")
    urls = pages(page, server, data)
    assert set(urls) == set(PAGE_ROUTES)
    problems: list[str] = []
    checked: set[str] = set()
    # anonymous: the public, play, registration, profile and link pages (and the desk's login)
    for route, addresses in urls.items():
        if route.startswith("/desk") and route != "/desk/login":
            continue
        for url in addresses:
            problems += check(page, server + url, checked)
    # a table's phone, unlocked with its PIN
    for slug in ("bonn", "ludo"):
        unlock(page, server, slug, 1)
        problems += check(page, f"{server}/t/{slug}/r1/t1", checked)
    # the director: the desk and the people's pages
    page.goto(f"{server}/desk/login")
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").first.click()
    page.wait_for_url(re.compile(r"/desk"))
    for route, addresses in urls.items():
        if route.startswith(("/desk", "/people")) and route != "/desk/login":
            for url in addresses:
                problems += check(page, server + url, checked)
    ctx.close()
    reached = {r for r, addresses in urls.items() if any(server + u in checked for u in addresses)}
    print(f"\naxe ({lang}): {len(checked)} pages of {len(reached)} routes checked")
    print("\n".join(sorted(checked)))
    assert not problems, "\n".join(problems)
    unreached = set(PAGE_ROUTES) - reached - UNREACHED
    assert not unreached, f"no page answered with HTML for {sorted(unreached)}"


#: Page routes that never answer 200 with a page: a desk login link logs in and redirects to the
#: desk (its refusal page, for a used or unknown link, is checked).
UNREACHED = {"/desk/link/{token:path}"}
