"""PettingZoo ``ParallelEnv`` adapter (optional extra ``agon[rl]``: pettingzoo, gymnasium, numpy).

Players act simultaneously, so the parallel API fits: every live agent sends an action each
step.  Action space ``Discrete(5 * C + 1)`` with ``C`` the number of distinct cards:
``kind * C + card`` for kind 0 build, 1 wonder, 2 discard, 3 free (Olympia A), 4 revive
(Halikarnassos), and ``5 * C`` = pass.  A build or stage that needs trading pays the cheapest
way (fewest coins, then less to the left).  The observation is a dict with ``observation``
(an int vector: phase, own hand counts, then each city from the agent's seat clockwise) and
``action_mask``; agents that need not act in a phase (Babylon's seventh card, Halikarnassos'
choice) get a mask with only ``pass``.  Rewards are given at the end: 1 for a win (shared on
ties), else 0; ``infos`` carry the final scores.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from agon.games.seven_wonders.data import cards
from agon.games.seven_wonders.engine import Action, Game

C = len(cards())
KINDS = ("build", "wonder", "discard", "free", "revive")
PASS = len(KINDS) * C
N_ACTIONS = PASS + 1
CITY_FIELDS = 7 + 7 + 3 + 6  # colours, fixed production, science, scalars
OBS_HEAD = 3 + 3 + C  # age, turn, phase one-hot (3), hand counts


def _city_vector(g: Game, p: int) -> list[int]:
    c = g.cities[p]
    return [
        *c.colors,
        *c.fixed,
        *c.science,
        c.coins,
        c.shields,
        c.military,
        c.defeats,
        c.stages_built,
        c.wild,
    ]


class SevenWondersEnv(ParallelEnv):  # type: ignore[misc]
    """7 Wonders for ``players`` agents named ``player_0`` ... in seat order."""

    metadata: ClassVar[dict[str, Any]] = {"name": "agon_seven_wonders_v0", "render_modes": []}

    def __init__(self, players: int = 5, seed: int = 0) -> None:
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

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _legal(self, p: int) -> dict[int, Action]:
        best: dict[int, Action] = {}
        for a in self.game.legal_actions(p):
            code = PASS if a.kind == "pass" else KINDS.index(a.kind) * C + a.card
            b = best.get(code)
            if b is None or (a.left + a.right, a.left) < (b.left + b.right, b.left):
                best[code] = a
        return best

    def _observe(self, p: int) -> dict[str, Any]:
        g = self.game
        head = [g.age, g.turn, *(int(g.phase == ph) for ph in ("main", "seventh", "revive"))]
        hand = [0] * C
        for i in g.hands[p]:
            hand[i] += 1
        body: list[int] = []
        for k in range(self.players):
            body += _city_vector(g, (p + k) % self.players)
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        legal = self._legal(p)
        if legal:
            mask[list(legal)] = 1
        else:
            mask[PASS] = 1
        obs = np.asarray([*head, 0, *hand, *body], dtype=np.int32)
        return {"observation": obs, "action_mask": mask}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._seed = seed
        self.game = Game(self.players, self._seed)
        self.agents = self.possible_agents[:]
        return {a: self._observe(i) for i, a in enumerate(self.agents)}, {
            a: {} for a in self.agents
        }

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        g = self.game
        joint: dict[int, Action] = {}
        for p in g.to_act():
            legal = self._legal(p)
            code = int(actions[self.possible_agents[p]])
            if code not in legal:
                raise ValueError(f"player_{p}: action {code} is masked out")
            joint[p] = legal[code]
        g.step(joint)
        rewards = {a: 0.0 for a in self.agents}
        done = g.over
        infos: dict[str, Any] = {a: {} for a in self.agents}
        if done:
            winners = g.winners()
            for s in g.scores():
                name = self.possible_agents[s.player]
                rewards[name] = 1.0 / len(winners) if s.player in winners else 0.0
                infos[name] = {"score": s.total}
        obs = {a: self._observe(i) for i, a in enumerate(self.agents)}
        terms = {a: done for a in self.agents}
        truncs = {a: False for a in self.agents}
        if done:
            self.agents = []
        return obs, rewards, terms, truncs, infos
