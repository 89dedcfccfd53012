"""Determinized Monte Carlo search over the player's own actions (one ply, flat): the other
hands re-dealt at random before each simulation, the future decks reseeded.
"""

from __future__ import annotations

import random
import time

from agon.errors import InvalidInput
from agon.games.seven_wonders import core
from agon.games.seven_wonders.bots.base import SplitMix64
from agon.games.seven_wonders.bots.heuristic import (
    HeuristicBot,
    _best_action,
    _cheapest,
    action_value,
)
from agon.games.seven_wonders.engine import Action, Game


class MctsBot:
    """Determinized Monte Carlo search over the player's own actions (one ply, flat).

    Each round deals the hands the player cannot see at random among the other players (sizes
    kept) and reseeds the future decks; every candidate action is then played in that same
    determinization (common random numbers, so candidates are compared on equal deals) while
    the other players, and afterwards everybody, follow the heuristic to the end of the game.
    Candidates are the ``width`` best actions by the heuristic (cheapest payment each); the
    reward is the final margin to the best opponent plus a bonus for winning.  Rounds repeat
    until the time is used (at least one round).

    The simulations run in the compiled core (``agon.cores.seven_wonders``, compiled when agon is built) when it is installed:
    the same games, rewards and choices as in the Python engine (parity tests), many more
    rounds in the same time.

    Args:
        seed: the bot's own randomness.
        seconds: thinking time per decision.
        rounds: optional fixed number of determinizations (for reproducible tests).
        width: candidate actions searched.
        engine: ``auto`` (the compiled core when installed), ``python`` or ``native``.
    """

    name = "mcts"

    def __init__(
        self,
        seed: int,
        seconds: float = 0.5,
        rounds: int | None = None,
        width: int = 5,
        engine: str = "auto",
    ) -> None:
        if seconds <= 0 and rounds is None:
            raise InvalidInput("mcts: needs seconds > 0 or a number of rounds")
        if engine not in ("auto", "python", "native"):
            raise InvalidInput(f"mcts: engine must be auto, python or native, got {engine!r}")
        self.rng = random.Random(seed)
        self.seconds = seconds
        self.rounds = rounds
        self.width = width
        self.engine = engine
        self.policy = HeuristicBot(seed + 1)  # its weights and noise; reseeded every round
        #: determinizations searched by the last :meth:`act` (0 when there was one choice)
        self.last_rounds = 0

    def _determinize(self, sim: Game, player: int, rng: random.Random) -> None:
        others = [q for q in sim.ring if q != player and sim.hands[q]]
        pool = [c for q in others for c in sim.hands[q]]
        rng.shuffle(pool)
        k = 0
        for q in others:
            n = len(sim.hands[q])
            sim.hands[q] = pool[k : k + n]
            k += n
        sim.rng = random.Random(rng.getrandbits(64))

    @staticmethod
    def _reward(sim: Game, player: int) -> float:
        scores = {s.player: s.total for s in sim.scores()}
        mine = scores[player]
        best_other = max(v for q, v in scores.items() if q != player)
        margin = mine - best_other
        return margin + (10.0 if margin > 0 else 5.0 if margin == 0 else 0.0)

    def simulate_round(
        self, game: Game, player: int, cands: list[Action], seed: int
    ) -> list[float]:
        """The reward of every candidate on one determinization (``seed``), in Python."""
        out = []
        for cand in cands:
            sim = game.clone()
            rng = random.Random(seed)
            self._determinize(sim, player, rng)
            policy = SplitMix64(seed)  # the heuristic's noise (the deals: Mersenne Twisters)
            w, noise = self.policy.weights, self.policy.noise
            joint = {q: _best_action(sim, q, w, policy, noise) for q in sim.to_act() if q != player}
            joint[player] = cand
            sim.step_unchecked(joint)
            while not sim.over:
                sim.step_unchecked(
                    {q: _best_action(sim, q, w, policy, noise) for q in sim.to_act()}
                )
            out.append(self._reward(sim, player))
        return out

    def act(self, game: Game, player: int) -> Action:
        self.last_rounds = 0
        base = core.to_native(game) if self.engine != "python" else None
        # the candidates ranked in the core (one more than needed tells a single choice)
        found = None if base is None else core.candidates(base, player, max(self.width, 2))
        if found is not None:
            if len(found) == 1:
                return core.decode(found[0])
            codes = found[: self.width]
            cands = [core.decode(c) for c in codes]
        else:
            legal = _cheapest(game.legal_actions(player))
            if len(legal) == 1:
                return legal[0]
            prior = {a: action_value(game, player, a) for a in legal}
            cands = sorted(legal, key=lambda a: -prior[a])[: self.width]
            if base is None and self.engine == "native":
                raise InvalidInput("mcts: the compiled core is not installed or cannot take game")
            codes = [core.encode(c) for c in cands]
        total = [0.0] * len(cands)
        deadline = time.perf_counter() + self.seconds
        done = 0
        if base is not None and self.rounds is not None and self.rounds > 0:
            # a fixed budget: all the rounds in one call of the core (the same seeds and sums)
            seeds = [self.rng.getrandbits(64) for _ in range(self.rounds)]
            total = core.rollouts_summed(base, player, codes, seeds)
            done = self.rounds
        while True:
            if self.rounds is not None and done >= self.rounds:
                break
            if self.rounds is None and done and time.perf_counter() > deadline:
                break
            seed = self.rng.getrandbits(64)
            if base is not None:
                rewards = core.rollouts(base, player, codes, seed)
            else:
                rewards = self.simulate_round(game, player, cands, seed)
            for i, r in enumerate(rewards):
                total[i] += r
            done += 1
        self.last_rounds = done
        return cands[self._best(total, done)]

    @staticmethod
    def _best(total: list[float], done: int) -> int:
        """The candidate with the best mean reward over ``done`` rounds; the heuristic's
        favourite wins ties (a small prior, in VP per round)."""
        return max(range(len(total)), key=lambda i: total[i] / done + 0.2 * (i == 0))
