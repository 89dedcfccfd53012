"""Bots: random, a rule-based heuristic, and determinized Monte Carlo tree search.

Every bot is seeded explicitly.  A bot receives the whole :class:`Game` for speed but uses only
what its player can see: the search bot re-deals the other players' hands at random before
each simulation (determinization) and reseeds the future decks.
"""

from __future__ import annotations

import math
import random
import time
from typing import Protocol

from agon.errors import InvalidInput
from agon.games.seven_wonders import core
from agon.games.seven_wonders.data import cards
from agon.games.seven_wonders.engine import MILITARY_WIN, Action, City, Game, count_vp
from agon.games.seven_wonders.rules import (
    BLUE,
    BROWN,
    GREEN,
    GREY,
    PURPLE,
    RED,
    YELLOW,
    Count,
    card_rules,
    science_points,
    stage_rule,
)


class Bot(Protocol):
    """Chooses an action for ``player`` (who must be in ``game.to_act()``)."""

    name: str

    def act(self, game: Game, player: int) -> Action: ...


class RandomBot:
    """Uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Game, player: int) -> Action:
        return self.rng.choice(game.legal_actions(player))


def _chain_targets() -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards():
        for prev in c.chain_from:
            out[prev] = out.get(prev, 0) + 1
    return out


_CHAINS = _chain_targets()


def _science(c: City, extra: int = -1, wild: int = 0) -> int:
    s = list(c.science)
    if extra >= 0:
        s[extra] += 1
    return science_points((s[0], s[1], s[2]), c.wild + wild)


def action_value(game: Game, player: int, a: Action) -> float:
    """A quick estimate of what an action is worth in VP (the heuristic bot's rule table).

    Weights: resources are worth most in age I and nothing in age III; a shield is worth the
    victory token it would win against a neighbour; science counts its marginal points plus
    a bonus for future sets in ages I-II; coins are worth a third of a VP (treasury rate).
    """
    me = game.cities[player]
    age = game.age
    pay = a.left + a.right
    if a.kind == "pass":
        return 0.0
    if a.kind in ("discard", "forfeit"):
        return 1.0 + (1.0 if me.coins < 2 else 0.0)
    if a.kind == "wonder":
        rule = stage_rule(me.stages[me.stages_built])
        v = rule.vp + rule.coins / 3 + 2.0 * rule.shields + 1.0
        v += 4.0 * rule.science_any + (3.0 if rule.choice else 0.0)
        if rule.play_seventh or rule.build_from_discard or rule.free_build_per_age:
            v += 5.0 if age < 3 else 3.0
        if rule.copy_guild:
            v += 6.0
        if rule.trade_left:
            v += 3.0 if age < 3 else 1.0
        return v - pay / 3
    card = cards()[a.card]
    rule = card_rules()[a.card]
    left, right = game.cities[game.left[player]], game.cities[game.right[player]]
    v = float(rule.vp)
    color = rule.color
    if color in (BROWN, GREY):
        fresh = sum(1 for r, n in enumerate(rule.fixed) if n and me.fixed[r] == 0)
        if rule.choice:
            fresh += 1
        v += (3.5, 1.5, 0.0)[age - 1] * fresh + (0.5, 0.3, 0.0)[age - 1] * sum(rule.fixed)
    elif color == YELLOW:
        v += rule.coins / 3
        for cnt in rule.coins_per:
            v += _estimate(cnt, me, left, right) / 3
        for cnt in rule.vp_per:
            v += _estimate(cnt, me, left, right)
        if rule.trade_left or rule.trade_right:
            v += (2.0, 1.0, 0.0)[age - 1]
        if rule.choice:
            v += (2.5, 1.5, 0.0)[age - 1]
    elif color == RED:
        for other in (left, right):
            if me.shields <= other.shields < me.shields + rule.shields:
                v += MILITARY_WIN[age - 1] + 1
            elif me.shields + rule.shields == other.shields:
                v += 1.0
        v += 0.3 * rule.shields
    elif color == GREEN:
        v += _science(me, rule.science) - _science(me) + (2.0, 1.0, 0.0)[age - 1]
    elif color == PURPLE:
        for cnt in rule.vp_per:
            v += _estimate(cnt, me, left, right)
        if rule.science_any:
            v += _science(me, wild=1) - _science(me)
    if color == BLUE:
        v += 0.5
    v += (1.2, 0.8, 0.0)[age - 1] * _CHAINS.get(card.id, 0)
    coin_cost = card.coins if a.kind == "build" else 0
    return v - (pay + coin_cost) / 3


def _estimate(cnt: Count, me: City, left: City, right: City) -> float:
    return float(count_vp(cnt, me, left, right))


class HeuristicBot:
    """Plays the action with the best :func:`action_value` (ties broken by the seeded rng)."""

    name = "heuristic"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Game, player: int) -> Action:
        best: Action | None = None
        best_v = -math.inf
        for a in game.legal_actions(player):
            v = action_value(game, player, a) + self.rng.random() * 1e-3
            if v > best_v:
                best, best_v = a, v
        assert best is not None
        return best


def _cheapest(actions: list[Action]) -> list[Action]:
    """One action per (kind, card): the cheapest payment (ties: less to the left)."""
    best: dict[tuple[str, int], Action] = {}
    for a in actions:
        key = (a.kind, a.card)
        b = best.get(key)
        if b is None or (a.left + a.right, a.left) < (b.left + b.right, b.left):
            best[key] = a
    return list(best.values())


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
        self.policy = HeuristicBot(seed + 1)
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
            self.policy.rng.seed(seed)
            joint = {q: self.policy.act(sim, q) for q in sim.to_act() if q != player}
            joint[player] = cand
            sim.step_unchecked(joint)
            while not sim.over:
                sim.step_unchecked({q: self.policy.act(sim, q) for q in sim.to_act()})
            out.append(self._reward(sim, player))
        return out

    def act(self, game: Game, player: int) -> Action:
        legal = _cheapest(game.legal_actions(player))
        self.last_rounds = 0
        if len(legal) == 1:
            return legal[0]
        prior = {a: action_value(game, player, a) for a in legal}
        cands = sorted(legal, key=lambda a: -prior[a])[: self.width]
        total = [0.0] * len(cands)
        deadline = time.perf_counter() + self.seconds
        base = None
        if self.engine != "python":
            base = core.to_native(game)
            if base is None and self.engine == "native":
                raise InvalidInput("mcts: the compiled core is not installed or cannot take game")
            codes = [core.encode(c) for c in cands]
        done = 0
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
        # The heuristic's favourite wins ties (a small prior, in VP per round).
        best = max(range(len(cands)), key=lambda i: total[i] / done + 0.2 * (i == 0))
        return cands[best]


def make_bot(kind: str, seed: int, *, seconds: float = 0.5, engine: str = "auto") -> Bot:
    """A bot by name: ``random``, ``heuristic`` or ``mcts`` (``engine``: see :class:`MctsBot`).

    Raises:
        InvalidInput: for an unknown name.
    """
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    if kind == "mcts":
        return MctsBot(seed, seconds=seconds, engine=engine)
    raise InvalidInput(f"unknown bot {kind!r} (random, heuristic, mcts)")


def play_game(game: Game, bots: list[Bot]) -> Game:
    """Play ``game`` to the end with one bot per seat; returns the finished game."""
    while not game.over:
        game.step_unchecked({p: bots[p].act(game, p) for p in game.to_act()})
    return game


__all__ = ["Bot", "HeuristicBot", "MctsBot", "RandomBot", "action_value", "make_bot", "play_game"]
