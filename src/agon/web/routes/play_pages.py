"""The browser faces of online play (issue 12): the lobby, a seat's table, the spectator view.

Thin: every page asks the online game service (:mod:`agon.play`) for the state a seat may see
and hands it to :mod:`agon.web.playview`, which turns it into words and cards in the reader's
language. Moves are posted as forms (CSRF-checked) with the page's version; ``static/play.js``
posts them without reloading and swaps in the fresh board, and follows the game's server-sent
events (``/api/play/{id}/events``) so every change reaches the page at once.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response

from agon.errors import AgonError, InvalidInput, NotFound
from agon.i18n import N_
from agon.play import clocks
from agon.play.adapters import SEATS
from agon.play.seeds import check_chosen_seed
from agon.web import playgate
from agon.web.deps import LangDep, StateDep, client_key
from agon.web.endview import end_of_state
from agon.web.errors import status_of
from agon.web.playclock import turn_clock
from agon.web.storyview import story_context
from agon.web.tableview import table_context
from agon.web.templating import error_text, flash, render, tr

router = APIRouter(include_in_schema=False)

#: Lobby rows: the most seats a game takes (7 Wonders: 7).
MAX_SEATS = 7
#: The bots the lobby offers: the levels first (docs/bots.md, "Levels"), then the bots by name.
BOTS = ("easy", "medium", "hard", "expert", "random", "heuristic", "search", "mcts", "ismcts")
BOT_LABELS = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
    "random": N_("random"),
    "heuristic": N_("heuristic"),
    "search": N_("search"),
    "mcts": N_("Monte Carlo search"),
    "ismcts": N_("information-set tree search"),
}
#: The per-turn clocks the lobby offers (their seconds are data: :mod:`agon.play.clocks`).
CLOCK_LABELS = {"relaxed": N_("relaxed"), "normal": N_("normal"), "fast": N_("fast")}
#: "Bots move at a natural pace": seconds before each bot move appears.
NATURAL_DELAY = 1.5
GAMES = {"7w": N_("7 Wonders"), "ocw": N_("One Card Wonder")}
VARIANTS = {
    "base": N_("base game"),
    "trade": N_("trade variant"),
    "two-card": N_("Two Card Wonder"),
    "leaders": N_("Leaders expansion"),
}
#: A seat's connection as the table shows it.
PRESENCE = {"online": N_("connected"), "offline": N_("not connected"), "bot": N_("bot")}
#: The longest seat name and seed the lobby takes (as ``POST /api/play`` does).
MAX_NAME = 60
MAX_SEED = 200


def _is_fetch(request: Request) -> bool:
    return request.headers.get("x-requested-with") == "fetch"


def _default_form() -> dict[str, Any]:
    seats = [{"kind": "human", "name": ""}, {"kind": "bot:heuristic", "name": ""}]
    seats += [{"kind": "bot:heuristic", "name": ""}]
    seats += [{"kind": "empty", "name": ""} for _ in range(MAX_SEATS - len(seats))]
    return {"game": "7w", "variant": "base", "seed": "", "seats": seats, "clock": "", "delay": ""}


def _lobby(request: Request, lang: str, form: dict[str, Any], error: str | None = None) -> Response:
    return render(
        request,
        "play/lobby.html",
        lang,
        status_code=422 if error else 200,
        form=form,
        error=error,
        games=[(k, tr(lang, v)) for k, v in GAMES.items()],
        variants=[(k, tr(lang, v)) for k, v in VARIANTS.items()],
        bots=[(b, tr(lang, BOT_LABELS[b])) for b in BOTS],
        clocks=[
            (name, tr(lang, CLOCK_LABELS.get(name, name)), round(seconds))
            for name, seconds in clocks.clocks().items()
        ],
        max_name=MAX_NAME,
        max_seed=MAX_SEED,
    )


@router.get("/play", response_class=HTMLResponse)
def lobby(request: Request, lang: LangDep) -> Response:
    """Pick a game, seat people and bots; a seed only for one person against bots."""
    return _lobby(request, lang, _default_form())


def _typed(form: Any) -> dict[str, Any]:
    """The lobby form as typed (to show it again after a refusal: nothing is cut here; a value
    that is too long is refused by :func:`_form_request`)."""

    def text(key: str, default: str = "") -> str:
        value = form.get(key, default)
        return value.strip() if isinstance(value, str) else default

    game = text("game", "7w")
    return {
        "game": game,
        "variant": text("variant", "base") if game == "ocw" else "base",
        "seed": text("seed"),
        "clock": text("clock"),
        "delay": text("delay"),
        "seats": [
            {"kind": text(f"kind-{i}", "empty"), "name": text(f"name-{i}")}
            for i in range(MAX_SEATS)
        ],
    }


def _form_request(typed: dict[str, Any], lang: str) -> dict[str, Any]:
    """The lobby form as the body of ``POST /api/play``.

    Raises:
        InvalidInput: an unknown game, variant or seat kind; no person; a seat count the game
            (or its variant) does not take; a seed for a game with two or more people — in the
            reader's language.
    """
    game, variant = typed["game"], typed["variant"]
    if game not in GAMES:
        raise InvalidInput(f"unknown game {game!r}", msgid=N_("Choose a game from the list."))
    if variant not in VARIANTS:
        raise InvalidInput(
            f"unknown variant {variant!r}", msgid=N_("Choose a variant from the list.")
        )
    if len(typed["seed"]) > MAX_SEED:
        raise InvalidInput(
            f"seed: more than {MAX_SEED} characters",
            msgid=N_("The seed has at most %(max)d characters."),
            params={"max": MAX_SEED},
        )
    seats: list[dict[str, Any]] = []
    for i, row in enumerate(typed["seats"]):
        kind, name = row["kind"], row["name"]
        if kind == "empty":
            continue
        if len(name) > MAX_NAME:
            raise InvalidInput(
                f"seat {i + 1}: a name of more than {MAX_NAME} characters",
                msgid=N_("Seat %(n)d: a name has at most %(max)d characters."),
                params={"n": i + 1, "max": MAX_NAME},
            )
        if kind == "human":
            seats.append(
                {"kind": "human", "name": name or tr(lang, N_("Seat %(n)d")) % {"n": i + 1}}
            )
        elif kind.startswith("bot:") and kind[4:] in BOTS:
            seat: dict[str, Any] = {"kind": "bot", "bot": kind[4:]}
            if name:
                seat["name"] = name
            seats.append(seat)
        else:
            raise InvalidInput(
                f"seat {i + 1}: unknown kind {kind!r}",
                msgid=N_("Seat %(n)d: choose a person, a bot or nobody from the list."),
                params={"n": i + 1},
            )
    if not any(s["kind"] == "human" for s in seats):
        raise InvalidInput(
            "seat at least one person",
            msgid=N_("Seat at least one person (a game of bots only is a simulation)."),
        )
    low, high = SEATS[game]
    if variant == "two-card":
        high = min(high, 4)
    elif variant == "trade":
        low = max(low, 4)
    if not low <= len(seats) <= high:
        raise InvalidInput(
            f"{game} {variant}: {low} to {high} seats, got {len(seats)}",
            msgid=N_("This game takes %(low)d to %(high)d seats; %(n)d are filled."),
            params={"low": low, "high": high, "n": len(seats)},
        )
    # empty: the server draws the seed; a chosen one only for one person against bots
    seed = typed["seed"] or None
    check_chosen_seed((s["kind"] for s in seats), seed)
    clock = typed.get("clock") or None
    if clock is not None and clock not in clocks.clocks():
        raise InvalidInput(f"unknown clock {clock!r}", msgid=N_("Choose a clock from the list."))
    delay = NATURAL_DELAY if typed.get("delay") else 0.0
    return {
        "game": game,
        "variant": variant,
        "seed": seed,
        "seats": seats,
        "clock": clock,
        "bot_delay": delay,
    }


@router.post("/play", response_class=HTMLResponse)
async def create(request: Request, state: StateDep, lang: LangDep) -> Response:
    """Create the game (the service behind ``POST /api/play``) and show every seat link."""
    typed = _typed(await request.form())
    try:
        body = _form_request(typed, lang)
    except InvalidInput as exc:
        return _lobby(request, lang, typed, error_text(exc, lang))
    try:
        created = await playgate.create(request, body, client=client_key(request, state), lang=lang)
    except AgonError as exc:
        return _lobby(request, lang, typed, error_text(exc, lang))
    seats = created["seats"]
    own = next((s["url"] for s in seats if s.get("kind") == "human"), None)
    base = str(request.base_url).rstrip("/")
    return render(
        request,
        "play/created.html",
        lang,
        status_code=201,
        game_id=created["game_id"],
        seats=seats,
        base_url=base,
        own_url=own,
    )


def _title(lang: str, state: dict[str, Any]) -> tuple[str, str | None]:
    view = state.get("view", {})
    game = str(view.get("game") or state.get("game") or "7w")
    variant = view.get("variant")
    label = tr(lang, GAMES.get(game, game))
    vlabel = tr(lang, VARIANTS[variant]) if game == "ocw" and variant in VARIANTS else None
    return label, vlabel


async def _board_context(
    request: Request, lang: str, game_id: str, token: str | None, state: dict[str, Any]
) -> dict[str, Any]:
    view = state.get("view", {})
    game = str(view.get("game") or state.get("game") or "7w")
    title, variant = _title(lang, state)
    t = table_context(state, lang, game)
    turns = await playgate.story(request, game_id)
    return {
        "t": t,
        "story": story_context(turns, t["names"], lang, upto=int(state.get("version") or 0)),
        "end": end_of_state(state, lang, game),
        "replay_url": f"/play/{quote(game_id, safe='')}/replay",
        "version": state.get("version", 0),
        "game_id": game_id,
        "token": token or "",
        "watch": token is None,
        "title": title,
        "variant": variant,
        "seed_sha256": state.get("seed_sha256"),
        "seed": state.get("seed"),  # only once the game is over
        "turn_clock": turn_clock(state, t["names"], request.app.state.clock()),
        **await _tournament_table(
            request, lang, game_id, t["names"], view.get("kinds"), own_seat(token, state)
        ),
    }


def own_seat(token: str | None, state: dict[str, Any]) -> int | None:
    """The seat whose page this is (opened with its token), or None (the spectator's view)."""
    seat = state.get("seat")
    return seat if token and isinstance(seat, int) and not isinstance(seat, bool) else None


async def _tournament_table(
    request: Request,
    lang: str,
    game_id: str,
    names: list[str],
    kinds: Any,
    own: int | None = None,
) -> dict[str, Any]:
    """A tournament table's extras: the round clock, and who is at the table — per seat its
    name and whether its player is connected (a seat's page open), or that a bot plays it.

    The seat ``own`` is the page's own: connected, the page showing it is its client (its stream
    connects only once the page has loaded, so the first paint would say otherwise)."""
    connected, clock = await playgate.table_extras(request, game_id, len(names))
    if connected is None:
        return {"presence": None, "round_clock": None}
    if not isinstance(kinds, list) or len(kinds) != len(names):
        kinds = ["human"] * len(names)
    out = []
    for seat, (name, kind, here) in enumerate(zip(names, kinds, connected, strict=True)):
        state = "bot" if kind == "bot" else "online" if here or seat == own else "offline"
        out.append({"name": name, "state": state, "label": tr(lang, PRESENCE[state])})
    return {"presence": out, "round_clock": clock}


@router.get("/play/{game_id}", response_class=HTMLResponse)
async def table_page(request: Request, game_id: str, lang: LangDep, token: str = "") -> Response:
    """A seat's table (the seat link): resumes the seat whenever it is opened again. Without a
    token: the spectator view."""
    if not token:
        return RedirectResponse(f"/play/{quote(game_id, safe='')}/watch", status_code=303)
    seat_state = await playgate.seat_state(request, game_id, token, lang)
    ctx = await _board_context(request, lang, game_id, token, seat_state)
    return render(
        request,
        "play/table.html",
        lang,
        frag_url=f"/play/{quote(game_id, safe='')}/board?token={quote(token, safe='')}",
        events_url=playgate.events_url(game_id, token),
        message=None,
        **ctx,
    )


@router.get("/play/{game_id}/board", response_class=HTMLResponse)
async def board_fragment(
    request: Request, game_id: str, lang: LangDep, token: str = ""
) -> Response:
    """The live part of the table page (``play.js`` swaps it in after a push or a move)."""
    seat_state = await playgate.seat_state(request, game_id, token, lang)
    ctx = await _board_context(request, lang, game_id, token, seat_state)
    return render(request, "play/_board.html", lang, **ctx)


@router.get("/play/{game_id}/watch", response_class=HTMLResponse)
async def watch_page(request: Request, game_id: str, lang: LangDep) -> Response:
    """The spectator/projector view: public information only (no hand, no seat's secrets)."""
    public = await playgate.public_state(request, game_id)
    ctx = await _board_context(request, lang, game_id, None, public)
    return render(
        request,
        "play/table.html",
        lang,
        frag_url=f"/play/{quote(game_id, safe='')}/watch/board",
        events_url=playgate.events_url(game_id, None),
        message=None,
        **ctx,
    )


@router.get("/play/{game_id}/watch/board", response_class=HTMLResponse)
async def watch_fragment(request: Request, game_id: str, lang: LangDep) -> Response:
    public = await playgate.public_state(request, game_id)
    ctx = await _board_context(request, lang, game_id, None, public)
    return render(request, "play/_board.html", lang, **ctx)


@router.post("/play/{game_id}/act", response_class=HTMLResponse)
async def act(
    request: Request,
    game_id: str,
    lang: LangDep,
    token: Annotated[str, Form(max_length=200)] = "",
    action: Annotated[str, Form(max_length=200)] = "",
    version: Annotated[int, Form(ge=0, le=2**62)] = 0,
) -> Response:
    """A move: the action and the page's version. A stale version answers 409 (the page then
    fetches the new state), an illegal move 422 with the reason in the reader's language."""
    back = f"/play/{quote(game_id, safe='')}?token={quote(token, safe='')}"
    try:
        new_state = await playgate.act(request, game_id, token, action, version, lang)
    except NotFound:
        raise
    except AgonError as exc:
        status = 422 if isinstance(exc, InvalidInput) else status_of(exc)
        if status == 409:
            message = tr(lang, N_("The game moved on meanwhile: here is the new state."))
        else:
            reason = (
                error_text(exc, lang)
                if exc.msgid
                else tr(lang, N_("it is not one of your legal moves now"))
            )
            message = tr(lang, N_("This move is not possible: %(reason)s")) % {"reason": reason}
        if _is_fetch(request):
            return PlainTextResponse(message, status_code=status)
        flash(request, message, "error")
        return RedirectResponse(back, status_code=303)
    if _is_fetch(request):
        ctx = await _board_context(request, lang, game_id, token, new_state)
        return render(request, "play/_board.html", lang, **ctx)
    return RedirectResponse(back, status_code=303)
