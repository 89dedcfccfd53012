"""What the online-play pages show: a seat's state (the JSON of ``GET /api/play/{id}``) turned
into plain records for the templates, with every word in the reader's language.

Cards, wonders, boards and leaders are drawn from the games' own data files (names in en/de/it,
colour, cost, effects, chains); nothing is copied artwork.  The functions are pure: they take the
state the play service hands out for one seat (or the public state for a spectator) and return
dicts; they never see another seat's hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from agon.errors import InvalidInput
from agon.games.one_card_wonder import content as ocw_content
from agon.games.one_card_wonder.engine import Action as OcwAction
from agon.games.seven_wonders import data as sw
from agon.games.seven_wonders.engine import Action as SwAction
from agon.i18n import N_, SCORE_CATEGORIES, translator
from agon.web.ocwdraw import storage_drawing, wonder_drawing
from agon.web.ocwnews import interruption, news

# --- vocabulary ------------------------------------------------------------------------------

#: 7 Wonders resources (data.RESOURCES order).
SW_RESOURCES: dict[str, str] = {
    "wood": N_("wood"),
    "stone": N_("stone"),
    "clay": N_("clay"),
    "ore": N_("ore"),
    "glass": N_("glass"),
    "loom": N_("loom"),
    "papyrus": N_("papyrus"),
}
SCIENCE_SYMBOLS: dict[str, str] = {
    "compass": N_("compass"),
    "gear": N_("gear"),
    "tablet": N_("tablet"),
    "any": N_("any science symbol"),
}
#: Card colours, as the things ``coins_per``/``vp_per`` count.
COLOR_CARDS: dict[str, str] = {
    "brown": N_("brown card"),
    "grey": N_("grey card"),
    "blue": N_("blue card"),
    "yellow": N_("yellow card"),
    "red": N_("red card"),
    "green": N_("green card"),
    "purple": N_("purple card"),
    "stage": N_("wonder stage"),
    "defeat": N_("defeat token"),
}
SCOPES: dict[str, str] = {
    "self": N_("in your city"),
    "neighbours": N_("in both neighbouring cities"),
    "self+neighbours": N_("in your city and both neighbouring cities"),
}
#: One Card Wonder items (resources and the coin).
OCW_ITEMS: dict[str, str] = {
    "knowledge": N_("knowledge"),
    "wood": N_("wood"),
    "clay": N_("clay"),
    "stone": N_("stone"),
    "iron": N_("iron"),
    "coin": N_("coin"),
    "nothing": N_("nothing"),
}
OCW_LETTERS: dict[str, str] = {
    "K": "knowledge",
    "W": "wood",
    "C": "clay",
    "S": "stone",
    "I": "iron",
    "$": "coin",
}
LEADER_STATES: dict[str, str] = {
    "hidden": N_("hidden"),
    "revealed": N_("revealed"),
    "defeated": N_("defeated"),
    "used": N_("used"),
}
PHASES: dict[str, str] = {
    "sides": N_("choose your wonder's side"),
    "main": N_("choose a card"),
    "seventh": N_("Babylon: play the seventh card"),
    "revive": N_("Halikarnassos: build from the discard pile"),
    "over": N_("game over"),
}


def _t(lang: str, message: str) -> str:
    return translator(lang).gettext(message)


def _name(record: Any, lang: str) -> str:
    """A data record's name in ``lang`` (records carry ``en``/``de``/``it`` or ``names``)."""
    names = getattr(record, "names", record)
    value = getattr(names, lang, None) or names.en
    return str(value)


# --- 7 Wonders cards -------------------------------------------------------------------------


def sw_effect_text(effect: sw.Effect, lang: str) -> str:
    """One effect of a 7 Wonders card or wonder stage in words.

    >>> sw_effect_text(sw.parse_effect("vp 3", "doc"), "en")
    '3 VP'
    """
    t = translator(lang).gettext
    kind, args = effect.kind, effect.args
    if kind == "produce":
        n = int(args[0]) if len(args) == 2 else 1
        return t(N_("produces %(n)d × %(what)s")) % {"n": n, "what": t(SW_RESOURCES[args[-1]])}
    if kind in ("choice", "choice_untradable"):
        what = " / ".join(t(SW_RESOURCES[r]) for r in args[0].split("|"))
        if kind == "choice_untradable":
            return t(N_("produces one of %(what)s (not for sale)")) % {"what": what}
        return t(N_("produces one of %(what)s")) % {"what": what}
    if kind == "vp":
        return t(N_("%(n)s VP")) % {"n": args[0]}
    if kind == "shields":
        return t(N_("%(n)s shields")) % {"n": args[0]}
    if kind == "coins":
        n = int(args[0])
        return translator(lang).ngettext("%(num)d coin", "%(num)d coins", n) % {"num": n}
    if kind == "science":
        return t(N_("science: %(symbol)s")) % {"symbol": t(SCIENCE_SYMBOLS[args[0]])}
    if kind == "trade":
        goods = t(N_("raw materials")) if args[0] == "raw" else t(N_("manufactured goods"))
        side = {
            "left": t(N_("from the left neighbour")),
            "right": t(N_("from the right neighbour")),
            "both": t(N_("from both neighbours")),
        }[args[1]]
        return t(N_("buy %(goods)s for 1 coin %(side)s")) % {"goods": goods, "side": side}
    if kind in ("coins_per", "vp_per"):
        what = " + ".join(t(COLOR_CARDS[w]) for w in args[0].split("+"))
        values = {"n": args[2], "what": what, "scope": t(SCOPES[args[1]])}
        if kind == "coins_per":
            return t(N_("%(n)s coins per %(what)s %(scope)s")) % values
        return t(N_("%(n)s VP per %(what)s %(scope)s")) % values
    if kind == "play_seventh":
        return t(N_("may also play the seventh card of each age"))
    if kind == "build_from_discard":
        return t(N_("build a card of the discard pile for free"))
    if kind == "free_build_per_age":
        return t(N_("build one card for free once per age"))
    if kind == "copy_guild":
        return t(N_("copy a guild of a neighbour at the end"))
    return str(effect)


def chip(res: str, n: int, label: str, lang: str) -> dict[str, Any]:
    """One chip of a cost: ``text`` is what it reads — a number of coins in words with the
    language's plural (``1 coin``, ``2 Münzen``), ``2×clay`` for two of a resource, ``clay`` for
    one; ``label`` (its title) names the thing alone."""
    if res == "coin":
        text = translator(lang).ngettext("%(num)d coin", "%(num)d coins", n) % {"num": n}
    else:
        text = f"{n}×{label}" if n > 1 else label
    return {"res": res, "n": n, "label": label, "text": text}


def sw_cost(cost: Sequence[int], coins: int, lang: str) -> list[dict[str, Any]]:
    """A cost as resource chips: ``[{"res": "clay", "n": 2, "label": "clay", "text": "2×clay"},
    ...]`` (:func:`chip`), the coins first."""
    t = translator(lang).gettext
    out = [
        chip(r, n, t(SW_RESOURCES[r]), lang) for r, n in zip(sw.RESOURCES, cost, strict=True) if n
    ]
    if coins:
        out.insert(0, chip("coin", coins, t(N_("coins")), lang))
    return out


@cache
def _chains_to() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for c in sw.cards():
        for prev in c.chain_from:
            out.setdefault(prev, []).append(c.id)
    return {k: tuple(v) for k, v in out.items()}


def sw_card(card: sw.Card, lang: str) -> dict[str, Any]:
    """A 7 Wonders card for the templates: name, colour, age, cost, effects and chains."""
    return {
        "id": card.id,
        "name": _name(card, lang),
        "color": card.color,
        "age": card.age,
        "cost": sw_cost(card.cost, card.coins, lang),
        "effects": [sw_effect_text(e, lang) for e in card.effects],
        "chain_from": [_name(sw.card_by_id(c), lang) for c in card.chain_from],
        "chains_to": [_name(sw.card_by_id(c), lang) for c in _chains_to().get(card.id, ())],
    }


def _sw_lookup(name: str) -> sw.Card:
    """The card of a view's card id (``glassworks_2`` is age II's), else of its name."""
    try:
        return sw.card_by_id(name)
    except InvalidInput:
        return sw.card_by_name(name)


def sw_card_named(name: str, lang: str) -> dict[str, Any]:
    """The card of an engine's card id or name."""
    return sw_card(_sw_lookup(name), lang)


def sw_wonder(name: str, side: str | None, built: int, lang: str) -> dict[str, Any]:
    """A wonder board: name, side, starting resource and the stages (built ones marked);
    ``side`` ``None``: not chosen yet, or hidden (no stages)."""
    w = sw.wonder_by_name(name)
    t = translator(lang).gettext
    return {
        "id": w.id,
        "name": _name(w, lang),
        "side": "?" if side is None else side.upper(),
        "resource": t(SW_RESOURCES[sw.RESOURCES[w.resource]]),
        "resource_id": sw.RESOURCES[w.resource],
        "stages": [
            {
                "number": i + 1,
                "built": i < built,
                "cost": sw_cost(st.cost, 0, lang),
                "effects": [sw_effect_text(e, lang) for e in st.effects],
            }
            for i, st in enumerate(w.side(side) if side is not None else ())
        ],
    }


def sw_side_choice(name: str, legal: Sequence[str], lang: str) -> list[dict[str, Any]]:
    """The two sides of the seat's wonder to choose from (Bonn 2018: the players choose), each
    with its stages and, while the seat still chooses, its button (``side A``/``side B``)."""
    t = translator(lang).gettext
    return [
        {
            "wonder": sw_wonder(name, side, 0, lang),
            "move": Move(f"side {side}", t(N_("Play side %(side)s")) % {"side": side}, "side")
            if f"side {side}" in legal
            else None,
        }
        for side in ("A", "B")
    ]


# --- 7 Wonders moves -------------------------------------------------------------------------


@dataclass(slots=True)
class Move:
    """One legal action as a button: the engine's action text and its label."""

    action: str
    label: str
    kind: str
    cost: int = 0


@dataclass(slots=True)
class HandCard:
    card: dict[str, Any]
    moves: list[Move] = field(default_factory=list)


def _payment_label(lang: str, left: int, right: int) -> str:
    t = translator(lang).gettext
    if not left and not right:
        return t(N_("no coins to neighbours"))
    parts = []
    if left:
        parts.append(t(N_("%(n)d to the left")) % {"n": left})
    if right:
        parts.append(t(N_("%(n)d to the right")) % {"n": right})
    return t(N_("pay %(what)s")) % {"what": ", ".join(parts)}


def sw_moves(hand: Sequence[str], legal: Sequence[str], lang: str) -> dict[str, Any]:
    """Group a seat's legal 7 Wonders actions by the card they use.

    Returns ``{"hand": [HandCard...], "revive": [HandCard...], "other": [Move...]}``: every
    legal action appears exactly once, as a button with its payment in words.
    """
    t = translator(lang).gettext
    by_card: dict[str, HandCard] = {}
    order: list[str] = []
    for name in hand:
        c = _sw_lookup(name)
        if c.id not in by_card:
            by_card[c.id] = HandCard(sw_card(c, lang))
            order.append(c.id)
    revive: dict[str, HandCard] = {}
    other: list[Move] = []
    for text in legal:
        try:
            a = SwAction.parse(text)
        except InvalidInput:
            other.append(Move(text, text, "other"))
            continue
        if a.kind == "pass":
            other.append(Move(text, t(N_("Pass: build nothing from the discard pile")), "pass"))
            continue
        card = sw.cards()[a.card]
        pay = a.left + a.right
        if a.kind == "build":
            label = t(N_("Build")) + " · " + _payment_label(lang, a.left, a.right)
        elif a.kind == "wonder":
            label = t(N_("Wonder stage")) + " · " + _payment_label(lang, a.left, a.right)
        elif a.kind == "discard":
            label = t(N_("Discard for 3 coins"))
        elif a.kind == "free":
            label = t(N_("Build for free (Olympia)"))
        elif a.kind == "revive":
            revive.setdefault(card.id, HandCard(sw_card(card, lang))).moves.append(
                Move(text, t(N_("Build for free (Halikarnassos)")), "revive")
            )
            continue
        else:
            label = text
        target = by_card.get(card.id)
        if target is None:  # the same building under another id (Loom of age I and II)
            target = next(
                (h for h in by_card.values() if sw.card_by_id(h.card["id"]).en == card.en), None
            )
        if target is None:
            other.append(Move(text, f"{_name(card, lang)}: {label}", a.kind, pay))
        else:
            target.moves.append(Move(text, label, a.kind, pay))
    kind_order = {"free": 0, "build": 1, "wonder": 2, "discard": 3}
    for h in by_card.values():
        h.moves.sort(key=lambda m: (kind_order.get(m.kind, 9), m.cost))
    return {
        "hand": [by_card[i] for i in order],
        "revive": list(revive.values()),
        "other": other,
    }


def sw_city(city: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """A city (the engine's public city view) with its cards grouped by colour."""
    cards_by_color: dict[str, list[dict[str, Any]]] = {c: [] for c in sw.COLORS}
    for name in city.get("cards", ()):
        card = sw_card_named(str(name), lang)
        cards_by_color[card["color"]].append(card)
    return {
        "wonder": sw_wonder(
            str(city["wonder"]),
            None if city.get("side", "A") is None else str(city.get("side", "A")),
            int(city.get("stages_built", 0)),
            lang,
        ),
        "coins": int(city.get("coins", 0)),
        "shields": int(city.get("shields", 0)),
        "military": int(city.get("military", 0)),
        "defeats": int(city.get("defeats", 0)),
        "withdrawn": bool(city.get("withdrawn", False)),
        "colors": [(c, cards) for c, cards in cards_by_color.items() if cards],
        "count": sum(len(v) for v in cards_by_color.values()),
    }


def pass_direction(age: int) -> str:
    """Hands pass to the left in ages I and III, to the right in age II (rulebook)."""
    return "right" if age == 2 else "left"


#: The score pad's rows per game: result key -> label. 7 Wonders' ``coins`` are the treasury's
#: points (1 VP per 3 coins, the pad's order); One Card Wonder has no points, only who won.
SCORE_ROWS: dict[str, dict[str, str]] = {
    "7w": {
        "military": SCORE_CATEGORIES["military"],
        "coins": SCORE_CATEGORIES["treasury"],
        "wonder": SCORE_CATEGORIES["wonder"],
        "civilian": SCORE_CATEGORIES["civilian"],
        "commercial": SCORE_CATEGORIES["commercial"],
        "guilds": SCORE_CATEGORIES["guilds"],
        "science": SCORE_CATEGORIES["science"],
    },
    "ocw": {
        "stages": N_("Wonders completed"),
        "buildings": N_("Buildings"),
        "coins": N_("Coins"),
    },
}


def score_rows(scores: Sequence[Mapping[str, Any]], lang: str, game: str = "7w") -> dict[str, Any]:
    """The end-of-game score pad: one column per player, one row per category, and the total
    (One Card Wonder: the winner instead of a total)."""
    t = translator(lang).gettext
    labels = SCORE_ROWS.get(game, SCORE_ROWS["7w"])
    rows = [
        (t(label), [s.get(k, "") for s in scores])
        for k, label in labels.items()
        if any(k in s for s in scores)
    ]
    if game == "ocw":
        totals = [t(N_("winner")) if s.get("winner") else "–" for s in scores]
    else:
        totals = [s.get("total", "") for s in scores]
    return {
        "players": [str(s.get("player", s.get("name", s.get("seat", "")))) for s in scores],
        "rows": rows,
        "totals": totals,
        "total_label": t(N_("Winner")) if game == "ocw" else t(N_("Total")),
        "copied": [
            _name(sw.card_by_id(str(s["copied_guild"])), lang) if s.get("copied_guild") else None
            for s in scores
        ],
    }


# --- One Card Wonder -------------------------------------------------------------------------


def ocw_cost(text: str, lang: str) -> list[dict[str, Any]]:
    """A One Card Wonder cost (``"SSJ$"``) as chips; ``J`` is a joker (any resource or a coin)."""
    t = translator(lang).gettext
    counts: dict[str, int] = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    out = []
    for ch, n in counts.items():
        if ch == "J":
            out.append(chip("joker", n, t(N_("any")), lang))
        elif ch in OCW_LETTERS:
            item = OCW_LETTERS[ch]
            out.append(chip(item, n, t(OCW_ITEMS[item]), lang))
    return out


def _building_text(text: str, lang: str) -> str:
    """The data's effect text: German before `` / ``, English after (Italian reads English)."""
    if " / " in text:
        de, en = text.split(" / ", 1)
        return de if lang == "de" else en
    return text


def ocw_building(b: ocw_content.Building, lang: str) -> dict[str, Any]:
    return {
        "id": b.id,
        "name": _name(b, lang),
        "cost": ocw_cost(str(b.cost), lang),
        "text": _building_text(b.text, lang),
    }


@cache
def _ocw_buildings() -> dict[str, ocw_content.Building]:
    c = ocw_content.default_content()
    out = {b.id: b for w in c.wonders for b in w.buildings}
    out.update({b.id: b for board in c.boards for b in board.buildings})
    return out


def ocw_wonder(wid: str, built: Sequence[str], lang: str) -> dict[str, Any]:
    """A wonder card: its stages with arrows (``after``), costs and which are built."""
    w = ocw_content.default_content().wonder(wid)
    done = set(built)
    stages = [
        {
            "id": st.id,
            "built": st.id in done,
            "cost": ocw_cost(str(st.cost), lang),
            "after": list(st.after),
        }
        for st in w.stages
    ]
    return {
        "id": w.id,
        "name": _name(w, lang),
        "place": w.place,
        "level": w.level,
        "stages": stages,
        "drawing": wonder_drawing(stages, _name(w, lang), lang),
        "buildings": [ocw_building(b, lang) for b in w.buildings],
        "complete": len(done) == len(w.stages),
    }


def ocw_board(bid: str, lang: str) -> dict[str, Any]:
    for b in ocw_content.default_content().boards:
        if b.id == bid:
            return {
                "id": b.id,
                "name": _name(b, lang),
                "buildings": [ocw_building(x, lang) for x in b.buildings],
            }
    raise InvalidInput(f"unknown board {bid!r}")


def ocw_leader(lid: str, lang: str) -> dict[str, Any]:
    for le in ocw_content.default_content().leaders:
        if le.id == lid:
            return {
                "id": le.id,
                "name": _name(le, lang),
                "text": le.text,
                "defeat": ocw_cost(str(le.defeat), lang),
            }
    raise InvalidInput(f"unknown leader {lid!r}")


OCW_VERBS: dict[str, str] = {
    "produce": N_("Produce"),
    "subsidy": N_("Subsidy"),
    "build": N_("Build"),
    "sell": N_("Sell"),
    "new": N_("New action"),
    "leader": N_("Leader"),
    "reveal": N_("Reveal your leader"),
    "pass": N_("Pass"),
    "stop": N_("Stop"),
    "done": N_("Done"),
    "accept": N_("Accept"),
    "decline": N_("Decline"),
    "return": N_("Return to the bag"),
    "supply": N_("To the supply"),
    "pay": N_("Pay"),
    "take": N_("Take"),
    "discard": N_("Discard"),
    "tribute": N_("Tribute"),
    "kind": N_("Kind"),
    "destroy": N_("Destroy"),
    "place": N_("Place"),
    "wonder": N_("Choose wonder"),
    "board": N_("Choose board"),
    "stage": N_("Build stage"),
    "building": N_("Build"),
    "offer": N_("Offer"),
}


def ocw_move(text: str, lang: str, names: Sequence[str] = ()) -> Move:
    """One legal One Card Wonder action as a labelled button."""
    t = translator(lang).gettext
    try:
        a = OcwAction.parse(text)
    except InvalidInput:
        return Move(text, text, "other")
    verb = t(OCW_VERBS.get(a.verb, a.verb))
    words: list[str] = []
    c = ocw_content.default_content()
    for arg in a.args:
        if arg in OCW_ITEMS:
            words.append(t(OCW_ITEMS[arg]))
        elif a.verb == "wonder":
            words.append(_name(c.wonder(arg), lang))
        elif a.verb == "board":
            words.append(ocw_board(arg, lang)["name"])
        elif a.verb == "stage" and ":" in arg:
            wid, sid = arg.split(":", 1)
            words.append(f"{_name(c.wonder(wid), lang)} {sid}")
        elif arg in _ocw_buildings():
            words.append(_name(_ocw_buildings()[arg], lang))
        elif a.verb == "offer" and arg.isdigit():
            seat = int(arg)
            words.append(names[seat] if seat < len(names) else f"#{seat + 1}")
        elif arg == "for":
            words.append("→")
        else:
            words.append(arg)
    label = verb + (": " + " ".join(words) if words else "")
    return Move(text, label, a.verb)


def ocw_item_counts(counts: Mapping[str, int], lang: str) -> list[dict[str, Any]]:
    t = translator(lang).gettext
    return [
        chip(k, int(v), t(OCW_ITEMS.get(k, k)), lang) for k, v in counts.items() if k in OCW_ITEMS
    ]


def _built_stages(w: Mapping[str, Any]) -> list[str]:
    """The built stage ids of a wonder: the engine lists them (``built``), the service's view marks
    each stage (``stages[i].built``)."""
    if "stages" in w:
        return [str(st["id"]) for st in w["stages"] if st.get("built")]
    return [str(x) for x in w.get("built", ())]


def ocw_player(p: Mapping[str, Any], lang: str, *, name: str, me: bool) -> dict[str, Any]:
    """One player's tableau: board, wonders, storage, buildings, leader (hidden stays hidden)."""
    t = translator(lang).gettext
    leader = p.get("leader")
    state = str(p.get("leader_state", "hidden"))
    leader_view: dict[str, Any] | None = None
    if leader and leader != "hidden":
        leader_view = ocw_leader(str(leader), lang)
    buildings = [
        _name(_ocw_buildings()[b], lang) if b in _ocw_buildings() else str(b)
        for b in p.get("buildings", ())
    ]
    storage = dict(p.get("storage", {}))
    return {
        "seat": int(p.get("seat", 0)),
        "name": name,
        "me": me,
        "board": ocw_board(str(p["board"]), lang) if p.get("board") else None,
        "board_options": [ocw_board(str(b), lang) for b in p.get("board_options") or ()],
        "wonders": [
            {
                **ocw_wonder(str(w["id"]), _built_stages(w), lang),
                "rebuild_first": w.get("rebuild_first"),
            }
            for w in p.get("wonders", ())
        ],
        "storage": ocw_item_counts(storage, lang),
        "storage_drawing": storage_drawing(ocw_item_counts(storage, lang), lang),
        "coins": int(storage.get("coin", 0)),
        "stored": sum(int(v) for k, v in storage.items() if k != "coin"),
        "buildings": buildings,
        "tokens_left": p.get("tokens_left"),
        "has_leader": leader is not None,
        "leader": leader_view,
        "leader_state": t(LEADER_STATES.get(state, state)),
    }


# --- whole tables ------------------------------------------------------------------------------


def _names(state: Mapping[str, Any], n: int, lang: str) -> list[str]:
    given = state.get("names") or state.get("view", {}).get("names")
    if isinstance(given, list) and len(given) == n:
        return [str(x) for x in given]
    t = translator(lang).gettext
    return [t(N_("Seat %(n)d")) % {"n": i + 1} for i in range(n)]


def _chosen(state: Mapping[str, Any], n: int) -> list[bool | None] | None:
    """Who has chosen this turn (never what): per seat True/False, None for a seat that does not
    act now; None when the state does not tell."""
    view = state.get("view", {})
    cities = view.get("cities")
    if isinstance(cities, list) and cities and "chosen" in cities[0]:
        return [
            bool(c.get("chosen")) if c.get("to_act", True) or c.get("chosen") else None
            for c in cities
        ]
    waiting = view.get("waiting_for")
    if isinstance(waiting, list):
        return [i not in waiting for i in range(n)]
    return None


def seven_table(state: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Everything the 7 Wonders table shows to one seat (``state["seat"]``) or a spectator."""
    t = translator(lang).gettext
    view = state["view"]
    cities = list(view["cities"])
    n = len(cities)
    seat = state.get("seat")
    names = _names(state, n, lang)
    age = int(view.get("age", 1))
    legal = list(state.get("legal") or ())
    ctx: dict[str, Any] = {
        "game": "7w",
        "n": n,
        "names": names,
        "age": age,
        "turn": int(view.get("turn", 1)),
        "phase": t(PHASES.get(str(view.get("phase")), str(view.get("phase", "")))),
        "pass_left": pass_direction(age) == "left",
        "discard_size": view.get("discard_size"),
        "chosen": _chosen(state, n),
        "cities": [sw_city(c, lang) for c in cities],
        "seat": seat,
        "over": bool(state.get("over")),
        "to_act": bool(state.get("to_act")),
        "pad": score_rows(state["scores"], lang) if state.get("scores") else None,
        "last_age": int(view.get("last_age") or 3),
        "extras": None,
    }
    if seat is not None:
        left, right = (seat + 1) % n, (seat - 1) % n
        ctx["me"] = ctx["cities"][seat]
        ctx["left"], ctx["right"] = left, right
        ctx["others"] = [i for i in range(n) if i not in (seat, left, right)]
        hand = list(view.get("hand") or ())
        ctx["side_choice"] = None
        if view.get("phase") == "sides":
            ctx["side_choice"] = sw_side_choice(str(cities[seat]["wonder"]), legal, lang)
            legal = []
        ctx["moves"] = sw_moves(hand, legal if ctx["to_act"] else [], lang)
    return ctx  # the phone page's extras: agon.web.tableview (agon.web.sevenview builds on this)


def ocw_table(state: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Everything the One Card Wonder table shows to one seat or a spectator."""
    view = state["view"]
    players = list(view["players"])
    n = len(players)
    seat = state.get("seat")
    names = _names(state, n, lang)
    legal = list(state.get("legal") or ())
    to_move = view.get("to_move")
    display = [
        {
            **ocw_wonder(str(d["wonder"]), (), lang),
            "resources": ocw_item_counts(
                {
                    r: list(d.get("resources", ())).count(r)
                    for r in dict.fromkeys(d.get("resources", ()))
                },
                lang,
            ),
            "taken_by": names[d["taken_by"]] if isinstance(d.get("taken_by"), int) else None,
        }
        for d in view.get("display") or ()
    ]
    table: dict[str, Any] = {
        "game": "ocw",
        "n": n,
        "names": names,
        "seat": seat,
        "turn": view.get("turn"),
        "on_turn": names[view["on_turn"]]
        if isinstance(view.get("on_turn"), int) and 0 <= view["on_turn"] < n
        else None,
        "to_move": names[to_move] if isinstance(to_move, int) and 0 <= to_move < n else None,
        "bag": ocw_item_counts(dict(view.get("bag", {})), lang),
        "bag_total": sum(int(v) for v in dict(view.get("bag", {})).values()),
        "supply": ocw_item_counts(dict(view.get("supply", {})), lang),
        "bank": view.get("coins"),
        "display": display,
        "players": [
            ocw_player(p, lang, name=names[i], me=(i == seat)) for i, p in enumerate(players)
        ],
        "winner": names[view["winner"]] if isinstance(view.get("winner"), int) else None,
        "over": bool(state.get("over")),
        "to_act": bool(state.get("to_act")),
        "moves": [ocw_move(a, lang, names) for a in legal] if state.get("to_act") else [],
        "pad": score_rows(state["scores"], lang, "ocw") if state.get("scores") else None,
        "variant": view.get("variant") or state.get("variant"),
        "interruption": interruption(players, names, to_move, lambda lid: ocw_leader(lid, lang)),
    }
    table["news"] = news(table, lang)
    return table
