"""Compact fixtures: a game with chosen wonders, sides, hands and cities."""

from __future__ import annotations

from collections.abc import Sequence

from agon.games.seven_wonders.data import card_by_id
from agon.games.seven_wonders.engine import Action, Game, Policy


def idx(cid: str) -> int:
    return card_by_id(cid).index


def make_game(
    wonders: Sequence[str],
    sides: Sequence[str] | None = None,
    *,
    hands: Sequence[Sequence[str]] | None = None,
    cities: Sequence[Sequence[str]] | None = None,
    coins: Sequence[int] | None = None,
    policy: Policy | str = Policy.CASUAL,
    seed: int = 7,
) -> Game:
    """A fresh game (age I, turn 1) with the given hands, built cards and coins."""
    n = len(wonders)
    g = Game(n, seed, wonders=wonders, sides=sides or ["A"] * n, policy=policy)
    if hands is not None:
        g.hands = [[idx(c) for c in h] for h in hands]
    for p, built in enumerate(cities or []):
        for c in built:
            g.cities[p].add_card(idx(c))
    for p, c in enumerate(coins or []):
        g.cities[p].coins = c
    return g


def a(text: str) -> Action:
    return Action.parse(text)


def discard_all(g: Game, **chosen: str) -> dict[int, Action]:
    """Everyone discards their first card except the players given as p0="build ..."."""
    out: dict[int, Action] = {}
    for p in g.to_act():
        key = f"p{p}"
        out[p] = a(chosen[key]) if key in chosen else Action("discard", g.hands[p][0])
    return out
