"""7 Wonders registered as an OpenSpiel game: OpenSpiel's own random-simulation test passes, its
MCTS plays a whole game (turn-based conversion), and observations hide the other hands."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from agon.games.seven_wonders.codes import PASS
from agon.games.seven_wonders.data import cards
from agon.games.seven_wonders.openspiel import SHORT_NAME


@pytest.mark.parametrize("players", [3, 5, 7])
def test_openspiel_random_simulation_test(players: int) -> None:
    game = pyspiel.load_game(f"{SHORT_NAME}(players={players})")
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_openspiel_mcts_plays_a_whole_game() -> None:
    game = pyspiel.convert_to_turn_based(pyspiel.load_game(f"{SHORT_NAME}(players=3)"))
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(7)
        else:
            state.apply_action(bot.step(state))
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0) and max(returns) > 0


def test_observations_hide_other_hands_and_deals_follow_the_chance_node() -> None:
    game = pyspiel.load_game(f"{SHORT_NAME}(players=4,deals=5)")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 5
    state.apply_action(2)
    engine = state.engine
    own = state.observation_string(0)
    own_names = {cards()[c].en for c in engine.hands[0]}
    assert all(name in own for name in own_names)
    hidden = {cards()[c].en for p in (1, 2, 3) for c in engine.hands[p]} - own_names
    assert hidden and not any(name in own for name in hidden)
    tensor = np.asarray(state.observation_tensor(0))
    assert tensor.shape == (game.observation_tensor_size(),)
    legal = state.legal_actions(0)
    assert legal and PASS not in legal  # everybody chooses on a main turn
    again = game.new_initial_state()
    again.apply_action(2)
    assert again.engine.hands == engine.hands  # the same deal from the same chance outcome
