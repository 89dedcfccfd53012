"""The PettingZoo adapter passes PettingZoo's own parallel API test and plays to the end."""

from __future__ import annotations

import numpy as np
from pettingzoo.test import parallel_api_test

from agon.games.seven_wonders.pz import N_ACTIONS, PASS, SevenWondersEnv


def test_parallel_api_test() -> None:
    parallel_api_test(SevenWondersEnv(players=3, seed=1), num_cycles=40)


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
