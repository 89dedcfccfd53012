"""Bots: legal, seeded (deterministic), and the heuristic clearly beats random play."""

from __future__ import annotations

import pytest

from agon.errors import InvalidInput
from agon.games.seven_wonders.bots import HeuristicBot, MctsBot, RandomBot, make_bot, play_game
from agon.games.seven_wonders.engine import Game


def test_heuristic_beats_random_players() -> None:
    wins = 0
    for s in range(6):
        bots = [HeuristicBot(s)] + [RandomBot(10 * s + p) for p in range(1, 4)]
        g = play_game(Game(4, 100 + s), list(bots))
        wins += 0 in g.winners()
    assert wins >= 5


def test_bots_are_deterministic_for_a_seed() -> None:
    runs = []
    for _ in range(2):
        g = play_game(Game(3, 9), [make_bot(k, 3) for k in ("random", "heuristic", "heuristic")])
        runs.append(g.log)
    assert runs[0] == runs[1]


def test_mcts_returns_a_legal_action_each_phase() -> None:
    g = Game(3, 4, wonders=["Babylon", "Halikarnassos", "Olympia"], sides="BAA")
    bot = MctsBot(1, seconds=0.0, rounds=1, width=3)
    others = [HeuristicBot(2), HeuristicBot(3)]
    steps = 0
    while not g.over and steps < 8:
        joint = {}
        for p in g.to_act():
            joint[p] = bot.act(g, p) if p == 0 else others[p - 1].act(g, p)
            assert g.is_legal(p, joint[p])
        g.step(joint)
        steps += 1
    assert steps == 8


def test_unknown_bot_name() -> None:
    with pytest.raises(InvalidInput, match="alphazero"):
        make_bot("alphazero", 1)
