"""The end screen of an online game (issue 28): the winner and the ranks first, then the score
categories as a compact table that fits a 360 px phone (one row per player, the categories as
short column heads explained below it), and a bar chart drawn on the server as SVG.

7 Wonders ranks by points, then by coins in the treasury (the rulebook's tie-break): when it
decides a rank, a sentence says so. One Card Wonder has no points: the winner is who completed
a wonder first, the others rank by the wonders they completed. Pure: the final scores and the
cities' coins in, plain records for the template out.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from agon.errors import InvalidInput
from agon.games.seven_wonders import data as sw
from agon.i18n import N_, SCORE_CATEGORIES, translator

#: 7 Wonders' seven categories: result key, full label, short column head, bar colour.
SEVEN: tuple[tuple[str, str, str, str], ...] = (
    ("military", SCORE_CATEGORIES["military"], N_("Mil"), "#c0392b"),
    ("coins", SCORE_CATEGORIES["treasury"], N_("Coin"), "#b7950b"),
    ("wonder", SCORE_CATEGORIES["wonder"], N_("Won"), "#6e6e6e"),
    ("civilian", SCORE_CATEGORIES["civilian"], N_("Civ"), "#2471a3"),
    ("commercial", SCORE_CATEGORIES["commercial"], N_("Com"), "#d68910"),
    ("guilds", SCORE_CATEGORIES["guilds"], N_("Gld"), "#7d3c98"),
    ("science", SCORE_CATEGORIES["science"], N_("Sci"), "#1e8449"),
)
OCW: tuple[tuple[str, str, str, str], ...] = (
    ("stages", N_("Wonders completed"), N_("Won"), "#6e6e6e"),
    ("buildings", N_("Buildings"), N_("Bld"), "#2471a3"),
    ("coins", N_("Coins"), N_("Coin"), "#b7950b"),
)
#: The chart's geometry (SVG user units; the SVG scales to its box).
BAR_H, GAP, CHART_W = 14, 6, 300


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def ranking(
    scores: Sequence[Mapping[str, Any]], coins: Sequence[int] | None, game: str
) -> list[tuple[int, int]]:
    """``(rank, seat)`` best first: 7 Wonders by points then coins (equal in both: a shared
    rank); One Card Wonder the winner first, then by wonders completed."""
    money = list(coins) if coins is not None and len(coins) == len(scores) else [0] * len(scores)
    if game == "ocw":
        keys = [(0 if s.get("winner") else 1, -_int(s.get("stages"))) for s in scores]
    else:
        keys = [(-_int(s.get("total")), -money[i]) for i, s in enumerate(scores)]
    order = sorted(range(len(scores)), key=lambda i: (keys[i], i))
    out: list[tuple[int, int]] = []
    for pos, seat in enumerate(order):
        rank = out[-1][0] if out and keys[out[-1][1]] == keys[seat] else pos + 1
        out.append((rank, seat))
    return out


def _tie_breaks(
    order: list[tuple[int, int]], scores: Sequence[Mapping[str, Any]], coins: list[int], lang: str
) -> list[str]:
    """Sentences for the ranks the coins decided (equal points, different coins) and the ranks
    shared (equal points and coins)."""
    t = translator(lang).gettext
    out = []
    for (rank_a, a), (rank_b, b) in itertools.pairwise(order):
        if _int(scores[a].get("total")) != _int(scores[b].get("total")):
            continue
        names = {"player": scores[a].get("player"), "other": scores[b].get("player")}
        points = _int(scores[a].get("total"))
        if rank_a == rank_b:
            out.append(
                t(
                    N_(
                        "%(player)s and %(other)s have %(points)d points and %(coins)d coins "
                        "each: they share the rank."
                    )
                )
                % {**names, "points": points, "coins": coins[a]}
            )
        else:
            out.append(
                t(
                    N_(
                        "%(player)s and %(other)s both have %(points)d points: %(player)s ranks "
                        "ahead with more coins (%(mine)d to %(theirs)d)."
                    )
                )
                % {**names, "points": points, "mine": coins[a], "theirs": coins[b]}
            )
    return out


def _chart(
    rows: list[dict[str, Any]], cats: Sequence[tuple[str, str, str, str]], lang: str
) -> dict[str, Any]:
    """The stacked bar chart: per player a bar of its positive points by category (military
    losses below zero are left out of the bar, the table shows them)."""
    t = translator(lang).gettext
    most = max([sum(max(0, v) for v in r["points"]) for r in rows] + [1])
    scale = (CHART_W - 40) / most
    bars = []
    for k, r in enumerate(rows):
        y = k * (BAR_H * 2 + GAP) + BAR_H
        x = 0.0
        parts = []
        for (key, label, _short, colour), value in zip(cats, r["points"], strict=True):
            if value > 0:
                w = value * scale
                parts.append(
                    {
                        "x": round(x, 1),
                        "w": round(w, 1),
                        "colour": colour,
                        "key": key,
                        "title": f"{t(label)}: {value}",
                    }
                )
                x += w
        bars.append(
            {
                "name": r["name"],
                "y": y,
                "label_y": y - 4,
                "parts": parts,
                "total": r["total"],
                "total_x": round(x + 4, 1),
            }
        )
    height = len(rows) * (BAR_H * 2 + GAP)
    summary = "; ".join(f"{r['name']}: {r['total']}" for r in rows)
    return {
        "width": CHART_W,
        "height": height,
        "bars": bars,
        "legend": [{"key": c[0], "label": t(c[1])} for c in cats],
        "desc": t(N_("Points per player, by category: %(summary)s")) % {"summary": summary},
    }


def _total(s: Mapping[str, Any], game: str, lang: str) -> int | str:
    if game == "ocw":
        return translator(lang).gettext(N_("winner")) if s.get("winner") else "–"
    return _int(s.get("total"))


def _card_name(card_id: str, lang: str) -> str:
    try:
        c = sw.card_by_id(card_id)
    except InvalidInput:
        return card_id
    return str(getattr(c, lang, None) or c.en)


def end_screen(
    scores: Sequence[Mapping[str, Any]],
    lang: str,
    game: str = "7w",
    coins: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The end screen's records: ``winners`` (names), ``ranks`` (rank, name, total, coins),
    ``tie_breaks`` (sentences), ``table`` (heads, rows best first, legend) and ``chart``."""
    t = translator(lang).gettext
    cats = OCW if game == "ocw" else SEVEN
    money = list(coins) if coins is not None and len(coins) == len(scores) else [0] * len(scores)
    order = ranking(scores, money, game)
    rows: list[dict[str, Any]] = []
    for rank, seat in order:
        s = scores[seat]
        rows.append(
            {
                "rank": rank,
                "seat": seat,
                "name": str(s.get("player", seat + 1)),
                "points": [_int(s.get(key)) for key, *_ in cats],
                "total": _total(s, game, lang),
                "coins": money[seat] if coins is not None else None,
            }
        )
    winners = [
        str(scores[seat].get("player", seat + 1))
        for rank, seat in order
        if rank == 1 and (game != "ocw" or scores[seat].get("winner"))
    ]
    return {
        "winners": winners,
        "rows": rows,
        "heads": [{"short": t(c[2]), "label": t(c[1])} for c in cats],
        "total_label": t(N_("Winner")) if game == "ocw" else t(N_("Total")),
        "tie_breaks": _tie_breaks(order, scores, money, lang) if game != "ocw" else [],
        "chart": _chart(rows, cats, lang),
        "copied": [
            (str(scores[seat].get("player")), _card_name(str(scores[seat]["copied_guild"]), lang))
            for _rank, seat in order
            if scores[seat].get("copied_guild")
        ],
    }


def end_of_state(state: Mapping[str, Any], lang: str, game: str) -> dict[str, Any] | None:
    """The end screen of a finished game's state (``GET /api/play/{id}``); ``None`` before."""
    scores = state.get("scores")
    if not state.get("over") or not isinstance(scores, list) or not scores:
        return None
    coins = None
    cities = state.get("view", {}).get("cities")
    if game == "7w" and isinstance(cities, list) and len(cities) == len(scores):
        coins = [_int(c.get("coins")) for c in cities]
    return end_screen(scores, lang, game, coins)
