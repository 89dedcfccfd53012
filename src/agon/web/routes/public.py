"""The public face (no login, read-only): standings, where do I sit, results, rank chart, clock.

Every page here reads through a read-only session; pages that phones poll are cached until the
tournament's journal grows (:class:`agon.web.state.VersionedCache`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Hashable
from functools import partial
from importlib import resources
from typing import Annotated, Any, cast
from urllib.parse import urlsplit

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from agon.errors import IllegalAction
from agon.i18n import LANGUAGES, N_
from agon.services import exchange, online, rounds, tournaments
from agon.services.core import get_tournament_row, ruleset_of
from agon.store.db import database_fault
from agon.web import floor, views
from agon.web.deps import LANG_COOKIE, LangDep, ReaderDep, StateDep, client_key, language
from agon.web.limits import RoundPath
from agon.web.pagecache import PAGE, TABLE, CachedPage, page_response
from agon.web.renderproc import child_state
from agon.web.security import player_code, tokens_match
from agon.web.state import PageState, Renderer, WebState, journal_version
from agon.web.templating import environment, render, render_kept, tr

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def index(request: Request, session: ReaderDep, lang: LangDep) -> Response:
    listed = tournaments.list_tournaments(session)
    return render(request, "index.html", lang, tournaments=listed)


def safe_path(target: str) -> bool:
    """Is ``target`` a path on this site (not ``//host`` nor ``/\\host``, which browsers follow)?"""
    return (
        target.startswith("/")
        and not urlsplit(target).netloc
        and "//" not in target
        and "\\" not in target
    )


@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> Response:
    """Remember the chosen language in a cookie and go back to the page (same site only)."""
    target = next if safe_path(next) else "/"
    response = RedirectResponse(target, status_code=303)
    if code in LANGUAGES:
        response.set_cookie(LANG_COOKIE, code, max_age=365 * 86400, samesite="lax")
    return response


def _standings_fragment(
    state: PageState, session: Session, slug: str, lang: str, *, preloaded: bool = False
) -> str:
    version = journal_version(session, slug)

    def make() -> str:
        view = views.standings_view(
            session, tournament=slug, lang=lang, keepers=state.standings, preloaded=preloaded
        )
        return environment(lang).get_template("public/_standings_table.html").render(view=view)

    return state.cache.get_or_make(("standings-html", slug, lang), version, make)


def _page_bytes(state: PageState, session: Session, kind: str, slug: str, lang: str) -> bytes:
    """The kept page ``kind`` (the standings page or its table) of ``slug`` in ``lang``, rendered
    for every reader (:func:`agon.web.templating.render_kept`)."""
    if kind == TABLE:
        tournaments.get_tournament(session, slug=slug)  # NotFound: 404
        return _standings_fragment(state, session, slug, lang).encode()
    # the players, rounds, tables and results in a few queries, held for the whole page (the
    # standings, the status and the final walk them again; else a query per table each time);
    # the standings computed once for the table, the status and the podium alike
    _loaded = views.preload(session, slug)
    with exchange.shared_standings(session, state.standings):
        return render_kept(
            "public/standings.html",
            lang,
            path=f"/p/{slug}",
            **_standings_context(state, session, slug, lang),
        ).encode()


def _standings_context(state: PageState, session: Session, slug: str, lang: str) -> dict[str, Any]:
    t = tournaments.get_tournament(session, slug=slug)
    ruleset = ruleset_of(get_tournament_row(session, slug))
    try:
        podium = exchange.final_ranking(session, tournament=slug)
    except IllegalAction:
        podium = None
    return {
        "t": t,
        "ruleset_title": ruleset.title_in(lang),
        "table_html": _standings_fragment(state, session, slug, lang, preloaded=True),
        "podium": podium,
        "finished": views.finished_view(session, tournament=slug, lang=lang),
    }


async def _cached(state: WebState, kind: str, slug: str, lang: str) -> CachedPage:
    """A page kept per journal version: served from memory in the event loop when it is fresh;
    the version check and any rendering run in the thread pool (they touch the database).
    A fresh page is usually answered before it gets here (:class:`agon.web.pagecache.CachedPages`),
    and rendered before it is asked for (:func:`prerender`)."""
    key = (kind, slug, lang)
    version = state.versions.get(slug)
    if version is not None:
        hit = state.cache.peek(key, version)
        if isinstance(hit, CachedPage):
            return hit

    def compute() -> CachedPage:
        current = state.version(slug)
        if state.renderer is not None:  # phones read it: the writes will render it apart
            state.renderer.prepare(render_apart, [key])
        with state.readers() as session:
            return state.cache.get_or_make(
                key, current, lambda: CachedPage.of(_page_bytes(state, session, kind, slug, lang))
            )

    return await run_in_threadpool(compute)


def prerender(state: WebState, versions: dict[str, int]) -> None:
    """Render again the kept pages of the tournaments a commit changed (``versions``: their new
    journal versions), before the app trusts those versions (:func:`agon.web.state.watch_commits`).

    Runs in the thread that committed (a write's worker thread), so the phones' reads keep being
    answered from memory meanwhile — the previous version until the new one is ready — and never
    wait for a page to be rendered. Only the pages read since the previous change are rendered
    (a language nobody reads is left until somebody does). A failure leaves the page to the
    route (rendered on the next read), never fails the write.

    One change is rendered at a time (``state.prerendering``): the version refresher, which may
    see the change in the database while the write is rendering it, waits and then finds the
    pages done (a page kept from that version or a later one is not rendered again)."""
    for slug, version in versions.items():
        try:
            with state.prerendering:
                wanted = state.cache.take_read(partial(_is_kept, slug=slug), older_than=version)
                if not wanted:
                    continue
                if state.renderer is not None and _rendered_apart(state, state.renderer, wanted):
                    continue
                with state.readers() as session:
                    current = journal_version(session, slug)
                    for key in wanted:
                        _keep(state, session, key, current)
        except Exception as exc:  # the route renders it on the next read
            fault = database_fault(exc) or _away(exc)
            if fault is None:
                logging.getLogger("agon.web").exception("rendering %s ahead failed", slug)
            else:  # the database is away (the outage is answered and logged elsewhere)
                logging.getLogger("agon.web").warning("rendering %s ahead: %s", slug, fault)


class DatabaseAway(RuntimeError):
    """The render process could not use the database (its one line, :func:`database_fault`)."""


def _away(exc: BaseException) -> str | None:
    return str(exc) if isinstance(exc, DatabaseAway) else None


def _rendered_apart(state: WebState, renderer: Renderer, wanted: list[Hashable]) -> bool:
    """Were the pages ``wanted`` (of one tournament) rendered by the render process and kept?
    The writing thread waits for it without holding the interpreter lock
    (:mod:`agon.web.renderproc`); ``False``: not running now, render them here."""
    keys = [cast(tuple[str, str, str], key) for key in wanted]  # _is_kept's keys
    done = renderer.call(render_apart, keys)
    if done is None:
        return False
    version, bodies = done
    for key, body in zip(wanted, bodies, strict=True):
        state.cache.get_or_make(key, version, partial(CachedPage.of, body), ahead=True)
    return True


def render_apart(keys: list[tuple[str, str, str]]) -> tuple[int, list[bytes]]:
    """In the render process: the kept pages ``keys`` (kind, slug, language; one tournament) as
    of the tournament's current version, and that version. A failure comes back as one
    ``RuntimeError`` naming it (an exception the server could not unpickle would break the
    process pool)."""
    state = child_state()
    slug = keys[0][1]
    try:
        with state.readers() as session:
            version = journal_version(session, slug)
            pages = [_page_bytes(state, session, kind, slug, lang) for kind, _s, lang in keys]
    except Exception as exc:
        fault = database_fault(exc)
        if fault is not None:
            raise DatabaseAway(fault) from None
        raise RuntimeError(f"rendering {slug} in the render process failed: {exc!r}") from None
    return version, pages


def refresh_versions(state: WebState, slugs: list[str]) -> None:
    """Ask the database for the versions of ``slugs`` (the tournaments read lately) before the
    memo stops trusting them, so the phones' reads never have to; a change made by another
    process (``agon result …``) is rendered here, then trusted (:func:`prerender`)."""
    read_at = time.monotonic()
    with state.readers() as session:
        found = {slug: journal_version(session, slug) for slug in slugs}
    changed = {
        slug: version
        for slug, version in found.items()
        if version > (state.versions.known(slug) or 0)
    }
    if changed:
        prerender(state, changed)
    for slug, version in found.items():
        state.versions.advance(slug, version, read_at=read_at)


def _keep(state: WebState, session: Session, key: Hashable, version: int) -> None:
    kind, slug, lang = cast(tuple[str, str, str], key)  # one of _is_kept's keys
    state.cache.get_or_make(
        key,
        version,
        lambda: CachedPage.of(_page_bytes(state, session, kind, slug, lang)),
        ahead=True,
    )


def _is_kept(key: object, slug: str) -> bool:
    return isinstance(key, tuple) and len(key) == 3 and key[0] in (PAGE, TABLE) and key[1] == slug


@router.get("/p/{slug}", response_class=HTMLResponse)
async def standings_page(request: Request, slug: str, state: StateDep, lang: LangDep) -> Response:
    """The standings page, the one every phone polls: kept whole until the journal grows."""
    if "flash" in request.session:
        with state.readers() as session:
            return await run_in_threadpool(_standings_page, request, state, session, slug, lang)
    return page_response(request, await _cached(state, PAGE, slug, lang), lang)


def _standings_page(
    request: Request, state: WebState, session: Session, slug: str, lang: str
) -> HTMLResponse:
    """The standings page for one reader (with the messages to show them once)."""
    _loaded = views.preload(session, slug)
    with exchange.shared_standings(session, state.standings):
        return render(
            request, "public/standings.html", lang, **_standings_context(state, session, slug, lang)
        )


@router.get("/p/{slug}/standings-table", response_class=HTMLResponse)
async def standings_fragment(
    request: Request, slug: str, state: StateDep, lang: LangDep
) -> Response:
    """The standings table alone (htmx refreshes it every few seconds)."""
    return page_response(request, await _cached(state, TABLE, slug, lang), lang)


PLAYER_KEY = "players"
MAX_PLAYERS_REMEMBERED = 8


def known_player(request: Request, slug: str) -> str | None:
    """The player this browser proved to be (with their code) in tournament ``slug``."""
    remembered = request.session.get(PLAYER_KEY, {})
    if not isinstance(remembered, dict):
        return None
    name = remembered.get(slug)
    return name if isinstance(name, str) else None


def check_player_code(request: Request, state: WebState, slug: str, player: str, code: str) -> bool:
    """Does ``code`` belong to ``player``? Wrong tries are counted per client and player (the
    PIN brake); a right one makes this browser that player's for the tournament."""
    client = client_key(request, state)
    key = f"{client}|code|{slug}|{player}"
    if not state.pin_limiter.reserve(key, address=client):
        raise HTTPException(
            429,
            detail=tr(
                language(request),
                N_("Too many wrong codes; wait ten minutes, or ask the director."),
            ),
        )
    if not tokens_match(player_code(state.secret_key, slug, player), code.strip()):
        return False
    state.pin_limiter.succeeded(key, address=client)
    remembered = request.session.get(PLAYER_KEY, {})
    kept = (
        {k: v for k, v in remembered.items() if k != slug} if isinstance(remembered, dict) else {}
    )
    kept = dict(list(kept.items())[-(MAX_PLAYERS_REMEMBERED - 1) :])
    request.session[PLAYER_KEY] = {**kept, slug: player}
    return True


@router.get("/p/{slug}/seat", response_class=HTMLResponse)
def where_do_i_sit(
    request: Request,
    slug: str,
    session: ReaderDep,
    state: StateDep,
    lang: LangDep,
    name: Annotated[str, Query(max_length=100)] = "",
    code: Annotated[str, Query(max_length=12)] = "",
) -> Response:
    """Where do I sit? By name, for everybody; a player who gives their code (from the director)
    also gets the seat link of their online table — shown to that browser only."""
    t = tournaments.get_tournament(session, slug=slug)
    auction = ruleset_of(get_tournament_row(session, slug)).auction
    found = views.find_seat(session, tournament=slug, query=name, auction=auction)
    latest = views.latest_round(session, tournament=slug)
    wrong_code = False
    exact = [s.player for s in found if s.player.casefold() == name.strip().casefold()]
    if code.strip() and exact:
        wrong_code = not check_player_code(request, state, slug, exact[0], code)
    elif code.strip():
        wrong_code = True
    me = known_player(request, slug)
    link = online.seat_link(session, tournament=slug, player=me) if me else None
    return render(
        request,
        "public/seat.html",
        lang,
        t=t,
        name=name,
        found=found,
        latest=latest,
        me=me,
        seat_link=link,
        wrong_code=wrong_code,
    )


@router.get("/p/{slug}/rounds", response_class=HTMLResponse)
def rounds_page(request: Request, slug: str, session: ReaderDep, lang: LangDep) -> Response:
    t = tournaments.get_tournament(session, slug=slug)
    listed = rounds.list_rounds(session, tournament=slug)
    if listed:
        return RedirectResponse(f"/p/{slug}/rounds/{listed[-1].number}", status_code=303)
    return render(
        request, "public/round.html", lang, t=t, rnd=None, numbers=[], auction=False, scored={}
    )


@router.get("/p/{slug}/rounds/{number}", response_class=HTMLResponse)
def round_page(
    request: Request, slug: str, number: RoundPath, session: ReaderDep, lang: LangDep
) -> Response:
    t = tournaments.get_tournament(session, slug=slug)
    rnd = views.round_or_404(session, tournament=slug, number=number)
    numbers = [r.number for r in rounds.list_rounds(session, tournament=slug)]
    ruleset = ruleset_of(get_tournament_row(session, slug))
    return render(
        request,
        "public/round.html",
        lang,
        t=t,
        rnd=rnd,
        numbers=numbers,
        auction=ruleset.auction,
        scored=views.round_results(rnd, ruleset, lang),
    )


@router.get("/p/{slug}/chart", response_class=HTMLResponse)
def chart_page(
    request: Request,
    slug: str,
    state: StateDep,
    session: ReaderDep,
    lang: LangDep,
    player: Annotated[str, Query(max_length=100)] = "",
) -> Response:
    t = tournaments.get_tournament(session, slug=slug)
    version = journal_version(session, slug)
    history = state.cache.get_or_make(
        ("ranks", slug), version, lambda: views.rank_history(session, tournament=slug)
    )
    chart = views.rank_chart(history, highlight=player)
    return render(request, "public/chart.html", lang, t=t, chart=chart, player=player)


@router.get("/p/{slug}/clock", response_class=HTMLResponse)
def projector(
    request: Request, slug: str, state: StateDep, session: ReaderDep, lang: LangDep
) -> Response:
    """The projector view: the round clock, big, and the top of the standings."""
    t = tournaments.get_tournament(session, slug=slug)
    ruleset = ruleset_of(get_tournament_row(session, slug))
    latest = views.latest_round(session, tournament=slug)
    clock = None
    if latest is not None:
        clock = floor.clock(
            session,
            tournament=slug,
            round_number=latest.number,
            default_minutes=t.round_minutes,
        )
    fragment = request.query_params.get("fragment") == "1"
    return render(
        request,
        "public/_clock.html" if fragment else "public/clock.html",
        lang,
        t=t,
        latest=latest,
        clock=clock,
        finish_age=ruleset.time_up == "finish-age",
        table_html=_standings_fragment(state, session, slug, lang),
    )


# --- the installable web app of the table and public pages (issue 29) -------------------------

#: The web app manifest: the table page and "Where do I sit?" installed on a phone's home screen.
MANIFEST = {
    "name": "agon",
    "short_name": "agon",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "background_color": "#ffffff",
    "theme_color": "#1d4e89",
    "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"}],
}


@router.get("/manifest.webmanifest", include_in_schema=False)
def manifest() -> Response:
    return JSONResponse(MANIFEST, media_type="application/manifest+json")


@router.get("/sw.js", include_in_schema=False)
def service_worker() -> Response:
    """The service worker (``static/sw.js``), served at the root: its scope covers the table
    pages (``/t/…``) and the public pages (``/p/…``). Never cached by the browser's HTTP cache,
    so a new version is picked up at the next visit."""
    body = resources.files("agon.web").joinpath("static/sw.js").read_text(encoding="utf-8")
    return Response(
        body,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )
