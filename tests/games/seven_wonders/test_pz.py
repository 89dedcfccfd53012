"""The PettingZoo adapter passes every one of PettingZoo's own environment tests (parallel and
AEC API, seeding, rendering, state, max cycles) and plays to the end."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)

from agon.games.seven_wonders import pz
from agon.games.seven_wonders.pz import N_ACTIONS, PASS, C, SevenWondersEnv


def test_parallel_api_test() -> None:
    parallel_api_test(SevenWondersEnv(players=3, seed=1), num_cycles=40)


def test_parallel_seed_test() -> None:
    parallel_seed_test(lambda: pz.parallel_env(players=3), num_cycles=30)


def test_aec_api_and_seed_tests() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about int32 observations
        api_test(pz.env(players=3), num_cycles=30)
    seed_test(lambda: pz.env(players=3), num_cycles=30)


def test_render_state_and_max_cycles() -> None:
    render_test(lambda render_mode=None: pz.env(players=3, render_mode=render_mode))
    state_test(pz.env(players=3), pz.parallel_env(players=3), num_cycles=10)
    max_cycles_test(pz)
    text = pz.parallel_env(players=3, render_mode="ansi")
    text.reset(seed=2)
    shown = text.render()
    assert isinstance(shown, str) and shown.startswith("age 1, turn 1") and "player_2" in shown
    with pytest.raises(ValueError, match="render_mode"):
        pz.parallel_env(render_mode="rgb_array")


def test_state_is_the_whole_table() -> None:
    env = pz.parallel_env(players=4, seed=5)
    env.reset(seed=5)
    state = env.state()
    assert env.state_space.contains(state)
    hands = state[6 : 6 + 4 * C].reshape(4, C)
    assert [int(h.sum()) for h in hands] == [7, 7, 7, 7]  # every hand, not only one's own
    for p in range(4):
        assert sorted(np.flatnonzero(hands[p]).tolist()) == sorted(set(env.game.hands[p]))


def test_a_masked_action_is_played_as_at_a_table() -> None:
    env = pz.parallel_env(players=3, seed=7)
    obs, _ = env.reset(seed=7)
    mask = obs["player_0"]["action_mask"]
    build_elsewhere = next(c for c in range(C) if c not in env.game.hands[0])  # not in the hand
    assert mask[build_elsewhere] == 0
    before = len(env.game.discard)
    _, _, _, _, infos = env.step({"player_0": build_elsewhere, "player_1": PASS, "player_2": PASS})
    assert infos["player_0"]["illegal"] == build_elsewhere
    assert infos["player_1"]["illegal"] == PASS  # pass is not legal on a main turn
    assert len(env.game.discard) == before + 3  # each replaced by a discard
    mask = env._observe(0)["action_mask"]
    card = env.game.hands[0][0]
    legal_discard = 2 * C + card
    assert mask[legal_discard] == 1
    before = len(env.game.discard)
    env.step({"player_0": PASS, "player_1": legal_discard % C + 2 * C, "player_2": PASS})
    assert len(env.game.discard) == before + 3


def test_masked_random_play_reaches_the_end_with_rewards() -> None:
    env = SevenWondersEnv(players=4, seed=3)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    total_reward = 0.0
    steps = 0
    while env.agents:
        acts = {}
        for agent, o in obs.items():
            mask = o["action_mask"]
            assert mask.shape == (N_ACTIONS,) and mask.sum() >= 1
            acts[agent] = int(rng.choice(np.flatnonzero(mask)))
        obs, rewards, _, _, _ = env.step(acts)
        total_reward += sum(rewards.values())
        steps += 1
    assert total_reward == 1.0
    assert 18 <= steps <= 24
    assert PASS == N_ACTIONS - 1
