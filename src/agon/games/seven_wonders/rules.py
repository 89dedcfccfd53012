"""Card and stage effects compiled from the data files into flat records the engine applies.

Effects are looked up by name (``data.EFFECT_KINDS``) and turned into fields of
:class:`Rule`; nothing is evaluated from text at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from agon.games.seven_wonders.data import (
    COLOR_INDEX,
    RAW,
    RES_INDEX,
    SCIENCE,
    Effect,
    Stage,
    cards,
)

BROWN, GREY, BLUE, YELLOW, RED, GREEN, PURPLE = range(7)

#: What a ``coins_per`` / ``vp_per`` effect counts: colours, or -1 wonder stages, -2 defeats.
STAGE, DEFEAT = -1, -2


@dataclass(frozen=True, slots=True)
class Count:
    """``n`` per counted thing in ``scope`` ("self", "neighbours", "self+neighbours")."""

    what: tuple[int, ...]
    self_: bool
    neighbours: bool
    n: int


@dataclass(frozen=True, slots=True)
class Rule:
    """The compiled effects of one card or wonder stage."""

    color: int
    fixed: tuple[int, ...]
    choice: int
    choice_tradable: bool
    shields: int
    science: int
    science_any: int
    vp: int
    coins: int
    coins_per: tuple[Count, ...]
    vp_per: tuple[Count, ...]
    trade_left: tuple[int, ...]
    trade_right: tuple[int, ...]
    play_seventh: bool
    build_from_discard: bool
    free_build_per_age: bool
    copy_guild: bool


def _count(args: tuple[str, ...]) -> Count:
    what, scope, n = args
    things = tuple(
        STAGE if w == "stage" else DEFEAT if w == "defeat" else COLOR_INDEX[w]
        for w in what.split("+")
    )
    return Count(things, "self" in scope, "neighbours" in scope, int(n))


def compile_effects(effects: tuple[Effect, ...], color: int) -> Rule:
    """Fold a list of named effects into one :class:`Rule`."""
    fixed = [0] * 7
    choice = 0
    choice_tradable = False
    shields = science_any = vp = coins = 0
    science = -1
    coins_per: list[Count] = []
    vp_per: list[Count] = []
    trade_left: list[int] = []
    trade_right: list[int] = []
    flags = {"play_seventh": False, "build_from_discard": False}
    flags.update(free_build_per_age=False, copy_guild=False)
    for e in effects:
        k, a = e.kind, e.args
        if k == "produce":
            fixed[RES_INDEX[a[-1]]] += int(a[0]) if len(a) == 2 else 1
        elif k in ("choice", "choice_untradable"):
            for r in a[0].split("|"):
                choice |= 1 << RES_INDEX[r]
            choice_tradable = k == "choice" and color == BROWN
        elif k == "shields":
            shields += int(a[0])
        elif k == "vp":
            vp += int(a[0])
        elif k == "coins":
            coins += int(a[0])
        elif k == "science":
            if a[0] == "any":
                science_any += 1
            else:
                science = SCIENCE.index(a[0])
        elif k == "trade":
            goods = sorted(RAW) if a[0] == "raw" else [4, 5, 6]
            if a[1] in ("left", "both"):
                trade_left.extend(goods)
            if a[1] in ("right", "both"):
                trade_right.extend(goods)
        elif k == "coins_per":
            coins_per.append(_count(a))
        elif k == "vp_per":
            vp_per.append(_count(a))
        else:
            flags[k] = True
    return Rule(
        color=color,
        fixed=tuple(fixed),
        choice=choice,
        choice_tradable=choice_tradable,
        shields=shields,
        science=science,
        science_any=science_any,
        vp=vp,
        coins=coins,
        coins_per=tuple(coins_per),
        vp_per=tuple(vp_per),
        trade_left=tuple(trade_left),
        trade_right=tuple(trade_right),
        play_seventh=flags["play_seventh"],
        build_from_discard=flags["build_from_discard"],
        free_build_per_age=flags["free_build_per_age"],
        copy_guild=flags["copy_guild"],
    )


@cache
def card_rules() -> tuple[Rule, ...]:
    """The compiled rule of every card, by card index."""
    return tuple(compile_effects(c.effects, COLOR_INDEX[c.color]) for c in cards())


@cache
def stage_rule(stage: Stage) -> Rule:
    """The compiled rule of a wonder stage (colour -1: a stage is no card)."""
    return compile_effects(stage.effects, -1)


def science_points(counts: tuple[int, int, int], wild: int) -> int:
    """Science VP with the best use of ``wild`` any-symbol effects.

    Each symbol scores its count squared; each set of three different symbols scores 7
    (rulebook, "Scientific structures").

    >>> science_points((1, 1, 1), 0), science_points((2, 1, 0), 1), science_points((0, 0, 0), 2)
    (10, 13, 4)
    """
    best = 0

    def rec(c: list[int], w: int) -> None:
        nonlocal best
        if w == 0:
            best = max(best, c[0] ** 2 + c[1] ** 2 + c[2] ** 2 + 7 * min(c))
            return
        for i in range(3):
            c[i] += 1
            rec(c, w - 1)
            c[i] -= 1

    rec(list(counts), wild)
    return best
