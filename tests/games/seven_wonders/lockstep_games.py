"""Games set up alike in the Python engine and the compiled core, for the lockstep parity tests
of the bots' picks (test_fast_pick, test_fast_heuristic, test_search_candidates)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from agon.games.seven_wonders import fast
from agon.games.seven_wonders.bots import HeuristicBot
from agon.games.seven_wonders.data import wonders
from agon.games.seven_wonders.engine import Game


def setups(count: int) -> list[tuple[int, Game, object]]:
    """``count`` games set up alike in both engines: every wonder and side in turn (the seventh
    card, revivals, free builds), and drawn ones."""
    names = [w.en for w in wonders()]
    out: list[tuple[int, Game, object]] = []
    for seed in range(count):
        players = 3 + seed % 5
        if seed % 2:
            out.append((seed, Game(players, seed), fast.native_game(players, seed)))
        else:
            boards = [names[(seed // 2 + k) % 7] for k in range(players)]
            sides = "".join("AB"[(seed // 14 + k) % 2] for k in range(players))
            game = Game(players, seed, wonders=boards, sides=sides)
            out.append((seed, game, fast.native_game(players, seed, wonders=boards, sides=sides)))
    return out


def decisions(seed: int, game: Game, ng: object) -> Iterator[list[int]]:
    """Play ``game`` and its core twin ``ng`` to the end, the heuristic's and random moves mixed
    (from ``seed``); before every step, yield the seats to act, both engines at that state."""
    mover = random.Random(seed)
    heur = [HeuristicBot(seed * 100 + p) for p in range(game.n)]
    while not game.over:
        acting = game.to_act()
        yield acting
        joint = {
            p: heur[p].act(game, p) if mover.random() < 0.6 else mover.choice(game.legal_actions(p))
            for p in acting
        }
        game.step_unchecked(joint)
        ng.step({p: fast.encode(a) for p, a in joint.items()})  # type: ignore[attr-defined]
