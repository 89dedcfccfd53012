"""The rule-based heuristic bot: every legal action valued by the points and prospects it brings
(:func:`action_value`, weights from the game data).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Protocol

from agon.games.seven_wonders.data import (
    HeuristicWeights,
    cards,
    heuristic_weights,
)
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


def _chain_targets() -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards():
        for prev in c.chain_from:
            out[prev] = out.get(prev, 0) + 1
    return out


_CHAINS = _chain_targets()
_DEFAULT_W = heuristic_weights("default")


def _science(c: City, extra: int = -1, wild: int = 0) -> int:
    s = list(c.science)
    if extra >= 0:
        s[extra] += 1
    return science_points((s[0], s[1], s[2]), c.wild + wild)


def action_value(game: Game, player: int, a: Action, w: HeuristicWeights | None = None) -> float:
    """A quick estimate of what an action is worth in VP (the heuristic bot's rule table).

    Weights (``w``, default: ``data/heuristic.toml``'s ``default``, the heuristic every bot
    plays): resources are worth most in age I and nothing in age III; a shield is worth the
    victory token it would win against a neighbour; science counts its marginal points plus
    a bonus for future sets in ages I-II; coins are worth a third of a VP (treasury rate).
    """
    if w is None:
        w = _DEFAULT_W
    me = game.cities[player]
    age = game.age
    pay = a.left + a.right
    rate = w.coin_rate
    if a.kind == "pass":
        return 0.0
    if a.kind in ("discard", "forfeit"):
        return w.discard + (w.discard_poor if me.coins < 2 else 0.0)
    if a.kind == "wonder":
        rule = stage_rule(me.stages[me.stages_built])
        v = rule.vp + rule.coins / rate + w.wonder_shield * rule.shields + w.wonder
        v += w.wonder_science * rule.science_any + (w.wonder_choice if rule.choice else 0.0)
        if rule.play_seventh or rule.build_from_discard or rule.free_build_per_age:
            v += w.wonder_special[age - 1]
        if rule.copy_guild:
            v += w.wonder_copy_guild
        if rule.trade_left:
            v += w.wonder_trade[age - 1]
        return v - pay / rate
    card = cards()[a.card]
    rule = card_rules()[a.card]
    left, right = game.cities[game.left[player]], game.cities[game.right[player]]
    v = float(rule.vp)
    color = rule.color
    if color in (BROWN, GREY):
        fresh = sum(1 for r, n in enumerate(rule.fixed) if n and me.fixed[r] == 0)
        if rule.choice:
            fresh += 1
        v += w.resource_new[age - 1] * fresh + w.resource_unit[age - 1] * sum(rule.fixed)
    elif color == YELLOW:
        v += rule.coins / rate
        for cnt in rule.coins_per:
            v += _estimate(cnt, me, left, right) / rate
        for cnt in rule.vp_per:
            v += _estimate(cnt, me, left, right)
        if rule.trade_left or rule.trade_right:
            v += w.trade_bonus[age - 1]
        if rule.choice:
            v += w.choice_bonus[age - 1]
    elif color == RED:
        for other in (left, right):
            if me.shields <= other.shields < me.shields + rule.shields:
                v += MILITARY_WIN[age - 1] + w.military_win
            elif me.shields + rule.shields == other.shields:
                v += w.military_tie
        v += w.military_shield * rule.shields
    elif color == GREEN:
        v += _science(me, rule.science) - _science(me) + w.science_bonus[age - 1]
    elif color == PURPLE:
        for cnt in rule.vp_per:
            v += _estimate(cnt, me, left, right)
        if rule.science_any:
            v += _science(me, wild=1) - _science(me)
    if color == BLUE:
        v += w.blue_bonus
    v += w.chain_bonus[age - 1] * _CHAINS.get(card.id, 0)
    coin_cost = card.coins if a.kind == "build" else 0
    return v - (pay + coin_cost) / rate


def _estimate(cnt: Count, me: City, left: City, right: City) -> float:
    return float(count_vp(cnt, me, left, right))


class HeuristicBot:
    """Plays the action with the best :func:`action_value` (ties broken by the seeded rng).

    ``noise`` (in VP) is the most the rng adds to a value: the default only breaks ties; a
    larger one (the search bot's play-outs) picks at random among nearly equal actions.
    ``weights``: the heuristic's weights (None: the default, which every bot plays)."""

    name = "heuristic"

    def __init__(
        self, seed: int, noise: float = 1e-3, weights: HeuristicWeights | None = None
    ) -> None:
        self.rng = random.Random(seed)
        self.noise = noise
        self.weights = weights

    def act(self, game: Game, player: int) -> Action:
        return _best_action(game, player, self.weights, self.rng, self.noise)

    def act_among(self, game: Game, player: int, legal: Sequence[Action]) -> Action:
        """:meth:`act` given ``game.legal_actions(player)`` (a caller that has the list already:
        the same choice, without listing them again)."""
        return _best_action(game, player, self.weights, self.rng, self.noise, legal)


class Draws(Protocol):
    """A generator of floats in ``[0, 1)``: ``random.Random`` or ``bots.base.SplitMix64``."""

    def random(self) -> float: ...


def _best_action(
    game: Game,
    player: int,
    w: HeuristicWeights | None,
    rng: Draws,
    noise: float,
    legal: Sequence[Action] | None = None,
) -> Action:
    """The legal action with the best :func:`action_value` under ``w`` plus
    ``rng.random() * noise`` (one draw per legal action, in order; the first best wins)."""
    best: Action | None = None
    best_v = -math.inf
    for a in game.legal_actions(player) if legal is None else legal:
        v = action_value(game, player, a, w) + rng.random() * noise
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
