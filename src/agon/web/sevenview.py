"""The 7 Wonders seat page, phone first (issue 28): one screen per decision.

Pure, like :mod:`agon.web.playview` (whose records it extends): a card's kind named and iconed
(never its colour alone), its cost and effects as icons of the page's own SVG sprite
(``static/play-icons.svg``), the payments of a move in words ("2 coins to the left for clay"),
the production bar (what a city produces, choices shown as such, what each neighbour sells and
its price after the city's discounts) and a running VP estimate — all from the public city views
the play service hands out, rebuilt with the engine's own :class:`~agon.games.seven_wonders.state.City`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from agon.errors import InvalidInput
from agon.games.seven_wonders import data as sw
from agon.games.seven_wonders.engine import Action as SwAction
from agon.games.seven_wonders.scoring import score_city
from agon.games.seven_wonders.state import City
from agon.i18n import N_, translator
from agon.web.playview import SW_RESOURCES, HandCard, sw_effect_text

#: A card's kind by its colour: named and iconed on every card (the colour alone tells nothing to
#: a reader who cannot tell the colours apart).
KINDS: dict[str, str] = {
    "brown": N_("Raw material"),
    "grey": N_("Manufactured good"),
    "blue": N_("Civic building"),
    "yellow": N_("Commercial building"),
    "red": N_("Military building"),
    "green": N_("Science building"),
    "purple": N_("Guild"),
}
SIDES: dict[str, str] = {"left": N_("to the left"), "right": N_("to the right")}
#: How many ways of using a city's either/or production are tried to word a payment.
_MAX_ASSIGNMENTS = 512


def _t(lang: str, message: str) -> str:
    return translator(lang).gettext(message)


def icon(name: str, label: str, n: int | None = None) -> dict[str, Any]:
    """One icon of the sprite (``#i-NAME``) with what it says in words (its accessible name)."""
    return {"icon": name, "label": label, "n": n}


def effect_icons(effect: sw.Effect, lang: str) -> list[dict[str, Any]]:
    """A card's or stage's effect as icons; every icon carries the effect's words."""
    words = sw_effect_text(effect, lang)
    kind, args = effect.kind, effect.args
    if kind == "produce":
        n = int(args[0]) if len(args) == 2 else 1
        return [icon(f"res-{args[-1]}", words, n if n > 1 else None)]
    if kind in ("choice", "choice_untradable"):
        return [icon(f"res-{r}", words) for r in args[0].split("|")]
    if kind == "vp":
        return [icon("vp", words, int(args[0]))]
    if kind == "shields":
        return [icon("shield", words, int(args[0]))]
    if kind == "coins":
        return [icon("coin", words, int(args[0]))]
    if kind == "science":
        return [icon(f"sci-{args[0]}", words)]
    if kind == "trade":
        return [icon(f"trade-{args[1]}", words)]
    if kind == "coins_per":
        return [icon("coin", words, int(args[2]))]
    if kind == "vp_per":
        return [icon("vp", words, int(args[2]))]
    return [icon("power", words)]


def cost_icons(cost: Sequence[int], coins: int, lang: str) -> list[dict[str, Any]]:
    """A cost as icons (coins first), each with its words."""
    out = []
    if coins:
        words = translator(lang).ngettext("%(num)d coin", "%(num)d coins", coins)
        out.append(icon("coin", words % {"num": coins}, coins))
    for r, n in zip(sw.RESOURCES, cost, strict=True):
        if n:
            name = _t(lang, SW_RESOURCES[r])
            out.append(icon(f"res-{r}", f"{n}×{name}" if n > 1 else name, n if n > 1 else None))
    return out


def compact_card(card: sw.Card, lang: str) -> dict[str, Any]:
    """What a card of the hand strip shows: kind (named and iconed), cost and effects as icons,
    chain marks (free with / makes free)."""
    chains_to = [c for c in sw.cards() if card.id in c.chain_from]
    return {
        "kind": _t(lang, KINDS[card.color]),
        "kind_icon": f"kind-{card.color}",
        "cost_icons": cost_icons(card.cost, card.coins, lang),
        "effect_icons": [i for e in card.effects for i in effect_icons(e, lang)],
        "chain_free": bool(card.chain_from),
        "chain_to": bool(chains_to),
    }


def rebuild(city: Mapping[str, Any]) -> City:
    """The engine's city of a public city view (its cards and stages, coins and military)."""
    w = sw.wonder_by_name(str(city["wonder"]))
    c = City(w, str(city.get("side") or "A"))
    for name in city.get("cards", ()):
        c.add_card(sw.card_by_id(str(name)).index)
    for _ in range(min(int(city.get("stages_built", 0)), len(c.stages))):
        c.add_stage()
    c.coins = int(city.get("coins", 0))
    c.military = int(city.get("military", 0))
    c.defeats = int(city.get("defeats", 0))
    return c


def _goods(fixed: Sequence[int], choices: Sequence[int], lang: str) -> dict[str, Any]:
    """A production as icons: the fixed units, then each either/or card as one choice."""
    units: list[dict[str, Any]] = [
        {
            "icons": [icon(f"res-{r}", _t(lang, SW_RESOURCES[r]), n if n > 1 else None)],
            "choice": None,
        }
        for r, n in zip(sw.RESOURCES, fixed, strict=True)
        if n
    ]
    for mask in choices:
        names = [sw.RESOURCES[r] for r in range(7) if mask >> r & 1]
        label = " / ".join(_t(lang, SW_RESOURCES[r]) for r in names)
        units.append({"icons": [icon(f"res-{r}", label) for r in names], "choice": label})
    return {"units": units}


def production(me: City, left: City, right: City, lang: str) -> dict[str, Any]:
    """The production bar: mine (everything, either/or shown as such) and what each neighbour
    sells (its tradable production) at its price to me after my discounts."""
    out = {"mine": _goods(me.fixed, me.choices, lang)}
    for side, other, prices in (("left", left, me.price_left), ("right", right, me.price_right)):
        goods = _goods(other.tfixed, other.tchoices, lang)
        sold = {r for r in range(7) if other.tfixed[r]}
        sold |= {r for mask in other.tchoices for r in range(7) if mask >> r & 1}
        cheap = sorted(r for r in sold if prices[r] == 1)
        out[side] = {
            **goods,
            "prices": [
                {
                    "price": p,
                    "res": [
                        icon(f"res-{sw.RESOURCES[r]}", _t(lang, SW_RESOURCES[sw.RESOURCES[r]]))
                        for r in sorted(sold)
                        if prices[r] == p
                    ],
                }
                for p in (1, 2)
                if any(prices[r] == p for r in sold)
            ],
            "discount": bool(cheap),
        }
    return out


def vp_estimate(me: City, left: City, right: City) -> int:
    """The points the city would score if the game ended now (the score pad's sum)."""
    return score_city(0, me, left, right).total


def _bought(
    cost: Sequence[int], me: City, left: City, right: City
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Ways of buying what ``cost`` lacks: (units from the left, units from the right) per
    resource, after the city's own production (its either/or cards each way)."""
    ways: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    options = [[r for r in range(7) if mask >> r & 1] for mask in me.choices]
    cap_l = [left.tfixed[r] + sum(1 for m in left.tchoices if m >> r & 1) for r in range(7)]
    cap_r = [right.tfixed[r] + sum(1 for m in right.tchoices if m >> r & 1) for r in range(7)]
    for picks in itertools.islice(itertools.product(*options), _MAX_ASSIGNMENTS):
        own = list(me.fixed)
        for r in picks:
            own[r] += 1
        missing = [max(0, cost[r] - own[r]) for r in range(7)]
        splits = [
            [(k, m - k) for k in range(m + 1) if k <= cap_l[r] and m - k <= cap_r[r]]
            for r, m in enumerate(missing)
        ]
        for split in itertools.islice(itertools.product(*splits), _MAX_ASSIGNMENTS):
            ways.append((tuple(s[0] for s in split), tuple(s[1] for s in split)))
    return ways


def payment_words(action: str, hand_city: tuple[City, City, City], lang: str) -> str | None:
    """A build's or wonder stage's payment in words: *2 coins to the left for clay, 1 coin to
    the right for glass*; ``None`` when nothing is paid to the neighbours."""
    try:
        a = SwAction.parse(action)
    except InvalidInput:
        return None
    if a.kind not in ("build", "wonder") or not (a.left or a.right):
        return None
    me, left, right = hand_city
    if a.kind == "build":
        cost: Sequence[int] = sw.cards()[a.card].cost
    else:
        cost = me.stages[me.stages_built].cost if me.stages_built < len(me.stages) else (0,) * 7
    t = translator(lang)
    match = None
    for units_l, units_r in _bought(cost, me, left, right):
        pay_l = sum(me.price_left[r] * n for r, n in enumerate(units_l))
        pay_r = sum(me.price_right[r] * n for r, n in enumerate(units_r))
        if (pay_l, pay_r) == (a.left, a.right):
            match = (units_l, units_r)
            break
    parts = []
    for side, coins, units in (
        ("left", a.left, match[0] if match else None),
        ("right", a.right, match[1] if match else None),
    ):
        if not coins:
            continue
        money = t.ngettext("%(num)d coin", "%(num)d coins", coins) % {"num": coins}
        what = ""
        if units:
            what = ", ".join(
                (f"{n}×" if n > 1 else "") + t.gettext(SW_RESOURCES[sw.RESOURCES[r]])
                for r, n in enumerate(units)
                if n
            )
        if what:
            parts.append(
                t.gettext(N_("%(coins)s %(side)s for %(what)s"))
                % {"coins": money, "side": t.gettext(SIDES[side]), "what": what}
            )
        else:
            parts.append(
                t.gettext(N_("%(coins)s %(side)s"))
                % {"coins": money, "side": t.gettext(SIDES[side])}
            )
    return ", ".join(parts)


def seat_extras(view: Mapping[str, Any], seat: int, lang: str) -> dict[str, Any]:
    """What the phone seat page adds for ``seat``: the production bar, the VP estimate of every
    city, and the engine cities (for the payments in words)."""
    cities = list(view["cities"])
    n = len(cities)
    built = [rebuild(c) for c in cities]
    left_of = [int(c.get("left", (i + 1) % n)) for i, c in enumerate(cities)]
    right_of = [int(c.get("right", (i - 1) % n)) for i, c in enumerate(cities)]
    me, left, right = built[seat], built[left_of[seat]], built[right_of[seat]]
    vp = [vp_estimate(built[i], built[left_of[i]], built[right_of[i]]) for i in range(n)]
    return {
        "production": production(me, left, right, lang),
        "vp": vp,
        "rows": [city_icons(built[i], vp[i], lang) for i in range(n)],
        "engine": (me, left, right),
    }


def city_icons(city: City, vp: int, lang: str) -> list[dict[str, Any]]:
    """A city as one row of icons: wonder stages built, coins, shields, VP estimate, and its
    cards counted by kind (each named)."""
    t = translator(lang).gettext
    built, stages = city.stages_built, len(city.stages)
    out = [
        icon("stage", t(N_("wonder stages built: %(n)d of %(of)d")) % {"n": built, "of": stages}),
        icon("coin", t(N_("Coins: %(n)d")) % {"n": city.coins}, city.coins),
        icon("shield", t(N_("Shields: %(n)d")) % {"n": city.shields}, city.shields),
        icon("vp", t(N_("VP estimate: %(n)d")) % {"n": vp}, vp),
    ]
    out[0]["n"] = f"{built}/{stages}"
    for color, count in zip(sw.COLORS, city.colors, strict=True):
        if count:
            out.append(icon(f"kind-{color}", f"{count} × {t(KINDS[color])}", count))
    return out


def dress_hand(cards: Sequence[HandCard], extras: Mapping[str, Any], lang: str) -> None:
    """Give each card of the hand strip its compact face and each paid move its payment in
    words (in place)."""
    t = translator(lang).gettext
    verbs = {"build": t(N_("Build")), "wonder": t(N_("Wonder stage"))}
    for h in cards:
        h.card["compact"] = compact_card(sw.card_by_id(h.card["id"]), lang)
        for m in h.moves:
            words = payment_words(m.action, extras["engine"], lang) if m.kind in verbs else None
            if words:
                m.label = t(N_("%(move)s · pay %(payment)s")) % {
                    "move": verbs[m.kind],
                    "payment": words,
                }
