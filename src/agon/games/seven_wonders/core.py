"""The bridge to the compiled 7 Wonders core (``agon.cores.seven_wonders``, compiled when agon is built).

Builds the core's tables from the data files and the compiled rules (the core holds no card
facts), loads the core when it is installed, and copies an engine state into it.  The search
bot (:mod:`agon.games.seven_wonders.bots`) and the simulations (:mod:`.fast`) use it; it imports
neither of them, so the modules form no import circle.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING

from agon.errors import InvalidInput
from agon.games.seven_wonders.data import (
    age_deck,
    card_by_id,
    cards,
    guilds,
    heuristic_weights,
    wonders,
)
from agon.games.seven_wonders.engine import (
    DISCARD_COINS,
    KINDS,
    MILITARY_WIN,
    Action,
    City,
    Game,
)
from agon.games.seven_wonders.rules import Count, Rule, card_rules, stage_rule

if TYPE_CHECKING:
    from agon.cores.seven_wonders import NativeGame

ActionCode = tuple[int, int, int, int]


# ------------------------------------------------------------------ tables for the core
def _mask(resources: tuple[int, ...]) -> int:
    m = 0
    for r in resources:
        m |= 1 << r
    return m


def _counts_row(counts: tuple[Count, ...], where: str) -> list[int]:
    if len(counts) > 2:
        raise InvalidInput(f"{where}: the compiled core takes at most 2 counts per effect kind")
    row = [len(counts)]
    for k in range(2):
        if k < len(counts):
            c = counts[k]
            if len(c.what) > 4:
                raise InvalidInput(f"{where}: the compiled core counts at most 4 things")
            row += [len(c.what), *c.what, *[0] * (4 - len(c.what))]
            row += [int(c.self_), int(c.neighbours), c.n]
        else:
            row += [0] * 8
    return row


def _rule_row(rule: Rule, where: str) -> list[int]:
    """A compiled rule as the 55 ints the core reads (layout in ``_core.pyx``)."""
    row = [rule.color, *rule.fixed, rule.choice, int(rule.choice_tradable), rule.shields]
    row += [rule.science, rule.science_any, rule.vp, rule.coins]
    row += [_mask(rule.trade_left), _mask(rule.trade_right)]
    row += [int(rule.play_seventh), int(rule.build_from_discard)]
    row += [int(rule.free_build_per_age), int(rule.copy_guild)]
    row += _counts_row(rule.coins_per, where) + _counts_row(rule.vp_per, where)
    return row


@cache
def tables() -> tuple[list[list[int]], list[list[int]], list[list[int]], list[int]]:
    """The card, wonder, deck and guild tables of the core, from the data files.

    Raises:
        InvalidInput: for data the core's fixed-size records cannot hold.
    """
    card_rows: list[list[int]] = []
    for c, rule in zip(cards(), card_rules(), strict=True):
        chain = sorted({card_by_id(cid).building for cid in c.chain_from})
        if len(chain) > 3:
            raise InvalidInput(f"card {c.id!r}: the compiled core takes at most 3 chain sources")
        row = [c.building, c.coins, *c.cost, len(chain), *chain, *[0] * (3 - len(chain))]
        card_rows.append(row + _rule_row(rule, f"card {c.id!r}"))
    wonder_rows: list[list[int]] = []
    for w in wonders():
        row = [w.resource, len(w.a), len(w.b)]
        for stage in (*w.a, *w.b):
            row += [*stage.cost, *_rule_row(stage_rule(stage), f"wonder {w.id!r}")]
        wonder_rows.append(row)
    decks = [[c.index for c in age_deck(age, k)] for age in (1, 2, 3) for k in range(3, 8)]
    return card_rows, wonder_rows, decks, [g.index for g in guilds()]


def chain_targets() -> list[int]:
    """Per card index: how many cards name it in their ``chain_from`` (the heuristic's bonus)."""
    by_id: dict[str, int] = {}
    for c in cards():
        for prev in c.chain_from:
            by_id[prev] = by_id.get(prev, 0) + 1
    return [by_id.get(c.id, 0) for c in cards()]


@cache
def native() -> ModuleType | None:
    """The compiled core with the tables loaded, or None when it is not installed."""
    try:
        module = importlib.import_module("agon.cores.seven_wonders")
    except ImportError:
        return None
    card_rows, wonder_rows, decks, guild_list = tables()
    module.load_tables(card_rows, wonder_rows, decks, guild_list, MILITARY_WIN, DISCARD_COINS)
    module.load_chain_targets(chain_targets())
    module.load_heuristic(heuristic_weights("default").vector())
    return module


def native_available() -> bool:
    """Whether the compiled core is installed."""
    return native() is not None


def require_native() -> ModuleType:
    module = native()
    if module is None:
        raise InvalidInput(
            "the compiled 7 Wonders core is not installed (agon was built without a C compiler)"
        )
    return module


# ------------------------------------------------------------------ engine state
def _city_state(c: City) -> tuple[object, ...]:
    return (
        c.wonder.index,
        "AB".index(c.side),
        c.stages_built,
        c.coins,
        list(c.cards),
        list(c.colors),
        list(c.fixed),
        list(c.tfixed),
        list(c.choices),
        list(c.tchoices),
        list(c.price_left),
        list(c.price_right),
        c.shields,
        list(c.science),
        c.wild,
        c.military,
        c.defeats,
        c.blue_vp,
        c.wonder_vp,
        int(c.free_build),
        c.free_used_age,
        int(c.seventh),
        int(c.copy_guild),
        c.revive_pending,
    )


def engine_state(game: Game) -> tuple[object, ...] | None:
    """The engine's full state for :func:`to_native` (None for a game with a withdrawal)."""
    if any(game.withdrawn):
        return None
    cities = [_city_state(c) for c in game.cities]
    mt = game.rng.getstate()[1]
    phase = ("main", "seventh", "revive", "over").index(game.phase)
    hands = [list(h) for h in game.hands]
    return (
        game.n,
        game.age,
        game.turn,
        phase,
        int(game.revive_end_of_age),
        list(game.guild_draw),
        list(mt),
        hands,
        list(game.discard),
        cities,
        [_city_state(c) for c in game.before6],
        list(game.income6),
    )


def rollouts(base: NativeGame, player: int, cands: list[ActionCode], seed: int) -> list[float]:
    """One round of ``MctsBot`` in the core: the reward of each candidate (see ``bots``)."""
    rewards: list[float] = require_native().rollouts(base, player, cands, seed)
    return rewards


def rollouts_summed(
    base: NativeGame, player: int, cands: list[ActionCode], seeds: list[int]
) -> list[float]:
    """Rounds of ``MctsBot`` in the core, one per seed: each candidate's rewards summed round
    after round from 0.0 (as :func:`rollouts` seed by seed, which a compiled core without
    ``rollouts_summed`` is called with: an older build, such as a benchmark's ``--before``)."""
    module = require_native()
    summed = getattr(module, "rollouts_summed", None)
    if summed is not None:
        totals: list[float] = summed(base, player, cands, seeds)
        return totals
    totals = [0.0] * len(cands)
    for seed in seeds:
        for i, r in enumerate(module.rollouts(base, player, cands, seed)):
            totals[i] += r
    return totals


def candidates(base: NativeGame, player: int, width: int) -> list[ActionCode] | None:
    """The ``width`` best actions of ``player`` by the default heuristic, cheapest payment
    each, best first (ties: ``legal_actions``' order), from the core's ``search_candidates``
    (``s_candidates``: the same as ``MctsBot``'s and ``IsmctsBot``'s candidates in Python);
    None with a compiled core that has no such hook (an older build, such as a benchmark's
    ``--before``)."""
    found = getattr(require_native(), "search_candidates", None)
    if found is None:
        return None
    codes: list[ActionCode] = found(base, player, width)
    return codes


def to_native(game: Game) -> NativeGame | None:
    """The game copied into the compiled core, or None (core missing, or a withdrawal)."""
    module = native()
    state = engine_state(game)
    if module is None or state is None:
        return None
    ng: NativeGame = module.import_game(state)
    return ng


def encode(action: Action) -> ActionCode:
    """An action as the core's ``(kind, card, left, right)``."""
    return (KINDS.index(action.kind), action.card, action.left, action.right)


def decode(code: ActionCode) -> Action:
    """The core's ``(kind, card, left, right)`` as an :class:`Action`."""
    kind, card, left, right = code
    return Action(KINDS[kind], card, left, right)


__all__ = [
    "ActionCode",
    "chain_targets",
    "decode",
    "encode",
    "engine_state",
    "native",
    "native_available",
    "require_native",
    "rollouts",
    "tables",
    "to_native",
]
