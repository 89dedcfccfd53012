"""PettingZoo ``ParallelEnv`` adapter (optional extra ``agon-tournaments[rl]``: pettingzoo, gymnasium, numpy).

Players act simultaneously, so the parallel API fits: every live agent sends an action each
step.  Action space ``Discrete(5 * C + 1)`` with ``C`` the number of distinct cards:
``kind * C + card`` for kind 0 build, 1 wonder, 2 discard, 3 free (Olympia A), 4 revive
(Halikarnassos), and ``5 * C`` = pass.  A build or stage that needs trading pays the cheapest
way (fewest coins, then less to the left).  The observation is a dict with ``observation``
(an int vector: phase, own hand counts, then each city from the agent's seat clockwise) and
``action_mask``; agents that need not act in a phase (Babylon's seventh card, Halikarnassos'
choice) get a mask with only ``pass``.  Rewards are given at the end: 1 for a win (shared on
ties), else 0; ``infos`` carry the final scores.

An action the mask forbids is not an error (PettingZoo's seed tests sample unmasked actions): as
at a tournament table, an impossible play becomes a discard (Bonn 2018: a play that is not
possible by the rules is discarded): of the named card when it is in the hand, else of the hand's
first card in code order; in a phase without discards, the first legal action in code order.
``infos[agent]["illegal"]`` names the code that was replaced.

Factories as PettingZoo expects them: :func:`parallel_env` and :func:`env` (the AEC form).
``render_mode`` ``"ansi"`` returns the table as text, ``"human"`` prints it; ``state()`` is the
whole table (every city and every hand) for centralised critics; ``max_cycles`` truncates.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from agon.games.seven_wonders.codes import (
    CITY_FIELDS,
    KINDS,
    N_ACTIONS,
    OBS_HEAD,
    PASS,
    C,
    legal_codes,
    observation_vector,
    state_vector,
    table_action,
)
from agon.games.seven_wonders.engine import Action, Game

__all__ = ["KINDS", "N_ACTIONS", "PASS", "C", "SevenWondersEnv", "env", "parallel_env"]


class SevenWondersEnv(ParallelEnv):  # type: ignore[misc]
    """7 Wonders for ``players`` agents named ``player_0`` ... in seat order."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "agon_seven_wonders_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        players: int = 5,
        seed: int = 0,
        render_mode: str | None = None,
        max_cycles: int | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: use one of human, ansi")
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.cycles = 0
        self.players = players
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self._seed = seed
        self.game = Game(players, seed)
        size = OBS_HEAD + CITY_FIELDS * players
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-100, 1000, shape=(size,), dtype=np.int32),
                "action_mask": spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(N_ACTIONS)
        state_size = OBS_HEAD + C * (players - 1) + CITY_FIELDS * players
        self.state_space = spaces.Box(-100, 1000, shape=(state_size,), dtype=np.int32)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _legal(self, p: int) -> dict[int, Action]:
        return legal_codes(self.game, p)

    def _observe(self, p: int) -> dict[str, Any]:
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        legal = self._legal(p)
        if legal:
            mask[list(legal)] = 1
        else:
            mask[PASS] = 1
        obs = np.asarray(observation_vector(self.game, p), dtype=np.int32)
        return {"observation": obs, "action_mask": mask}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._seed = seed
        self.game = Game(self.players, self._seed)
        self.agents = self.possible_agents[:]
        self.cycles = 0
        return {a: self._observe(i) for i, a in enumerate(self.agents)}, {
            a: {} for a in self.agents
        }

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        g = self.game
        joint: dict[int, Action] = {}
        infos: dict[str, Any] = {a: {} for a in self.agents}
        for p in g.to_act():
            legal = self._legal(p)
            name = self.possible_agents[p]
            code = int(actions[name])
            played, replaced = table_action(legal, code)
            if replaced:
                infos[name]["illegal"] = code
            code = played
            joint[p] = legal[code]
        g.step(joint)
        self.cycles += 1
        rewards = {a: 0.0 for a in self.agents}
        done = g.over
        if done:
            winners = g.winners()
            for s in g.scores():
                name = self.possible_agents[s.player]
                rewards[name] = 1.0 / len(winners) if s.player in winners else 0.0
                infos[name] = {"score": s.total}
        obs = {a: self._observe(i) for i, a in enumerate(self.agents)}
        terms = {a: done for a in self.agents}
        cut = not done and self.max_cycles is not None and self.cycles >= self.max_cycles
        truncs = {a: cut for a in self.agents}
        if done or cut:
            self.agents = []
        if self.render_mode == "human":
            print(self.render_text())
        return obs, rewards, terms, truncs, infos

    def state(self) -> Any:
        """The whole table: age, turn, phase, every hand (seat order), every city."""
        return np.asarray(state_vector(self.game), dtype=np.int32)

    def render_text(self) -> str:
        """The table as text: age, turn and each city's coins, military and wonder stages."""
        g = self.game
        lines = [f"age {g.age}, turn {g.turn}, phase {g.phase}" + (" (over)" if g.over else "")]
        for p in range(self.players):
            c = g.cities[p]
            lines.append(
                f"  player_{p}: {len(g.hands[p])} cards in hand, {c.coins} coins, "
                f"{c.shields} shields, military {c.military}, stages {c.stages_built}"
            )
        return "\n".join(lines)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.render_text()
        if self.render_mode == "human":
            print(self.render_text())
        return None

    def close(self) -> None:
        """Nothing to release (no window, no files)."""


def parallel_env(**kwargs: Any) -> SevenWondersEnv:
    """The parallel environment (PettingZoo's factory convention)."""
    return SevenWondersEnv(**kwargs)


def raw_env(**kwargs: Any) -> AECEnv:
    """The AEC form of the parallel environment."""
    return parallel_to_aec(parallel_env(**kwargs))


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment (PettingZoo's factory convention)."""
    return raw_env(**kwargs)
