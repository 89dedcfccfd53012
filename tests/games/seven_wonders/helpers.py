"""Compact fixtures: a game with chosen wonders, sides, hands and cities; the search bots' core
and Python paths played side by side."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from agon.games.seven_wonders import core
from agon.games.seven_wonders.bots import Bot, HeuristicBot, RandomBot
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


def core_and_python_alike(
    monkeypatch: pytest.MonkeyPatch,
    make_bot: Callable[[int], Bot],
    searches: Callable[[Bot], int],
    seeds: int,
) -> tuple[int, int]:
    """Play games (3, 5, … players; heuristic and random others, every phase) where at every
    decision one search bot ``make_bot(p)`` asks the core's candidates and a twin asks Python
    (``core.candidates`` patched to ``None``, the path of a core without them): the same
    moves, searches (``searches(bot)``) and draws of the bots' generators. Returns the
    decisions made and how many of them needed no search (a single choice)."""
    decisions = single = 0
    for seed in range(seeds):
        game = Game(3 + 2 * seed, seed)
        others: list[Bot] = [HeuristicBot(p) if p % 2 else RandomBot(p) for p in range(game.n)]
        in_core = [make_bot(p) for p in range(game.n)]
        in_python = [make_bot(p) for p in range(game.n)]
        while not game.over:
            for p in game.to_act():
                got = in_core[p].act(game, p)
                with monkeypatch.context() as m:
                    m.setattr(core, "candidates", lambda *args: None)
                    expected = in_python[p].act(game, p)
                assert got == expected
                assert searches(in_core[p]) == searches(in_python[p])
                assert in_core[p].rng.getstate() == in_python[p].rng.getstate()
                decisions += 1
                single += searches(in_core[p]) == 0
            game.step_unchecked({p: others[p].act(game, p) for p in game.to_act()})
    return decisions, single
