"""Random legal play through the compiled core (``native/sevenw_core``), the engine as reference.

The compiled core is a C mirror of :mod:`agon.games.seven_wonders.engine` for one job: random
legal play as ``agon 7w simulate --bots random`` plays it.  Game ``i`` of a run with seed ``s``
is ``Game(players, s + i)`` with seat ``p`` a ``RandomBot((s + i) * 1000 + p)``.  The core
reimplements CPython's Mersenne Twister and the ``random.Random`` methods the engine and the
bot use, so one seed plays *the same game* in both: same deal, same legal actions in the same
order at every decision, same choices, same score breakdown.  The tests prove it
(``tests/games/seven_wonders/test_fast.py``): lockstep play comparing every legal-action list
and the whole state after every step, and whole-run statistics, over hypothesis seeds and
player counts and a few hundred fixed seeds.

The card and wonder facts reach the core only through :func:`tables`, built from the same data
files and compiled rules the engine uses (rules as data: the core holds no card facts).

The Python engine stays the public, readable reference; this module falls back to it when the
compiled core is not installed (``engine="auto"``).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Literal

from agon.errors import InvalidInput
from agon.games.seven_wonders.data import age_deck, card_by_id, cards, guilds, wonders
from agon.games.seven_wonders.engine import (
    DISCARD_COINS,
    KINDS,
    MILITARY_WIN,
    Action,
    City,
    Game,
    Score,
)
from agon.games.seven_wonders.rules import Count, Rule, card_rules, stage_rule

if TYPE_CHECKING:
    from sevenw_core import NativeGame

Engine = Literal["auto", "python", "native"]
ActionCode = tuple[int, int, int, int]
ScoreRow = tuple[int, int, int, int, int, int, int, int, int, int]

#: Seeds the core takes: game seeds and bot seeds (seed * 1000 + seat) must fit in 64 bits.
SEED_LIMIT = 2**50


@dataclass(frozen=True, slots=True)
class RandomPlayStats:
    """What a run of random games gives: decisions made, score sums and wins per seat.

    ``wins`` counts a shared win as ``1 / winners``, added up in game order (as the CLI does).
    """

    players: int
    games: int
    decisions: int
    score_sums: tuple[int, ...]
    wins: tuple[float, ...]
    engine: str

    @property
    def mean_scores(self) -> tuple[float, ...]:
        return tuple(s / self.games for s in self.score_sums)


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
        module = importlib.import_module("sevenw_core")
    except ImportError:
        return None
    card_rows, wonder_rows, decks, guild_list = tables()
    module.load_tables(card_rows, wonder_rows, decks, guild_list, MILITARY_WIN, DISCARD_COINS)
    module.load_chain_targets(chain_targets())
    return module


def native_available() -> bool:
    """Whether the compiled core is installed."""
    return native() is not None


def _require_native() -> ModuleType:
    module = native()
    if module is None:
        raise InvalidInput(
            "the compiled 7 Wonders core is not installed (make installs native/sevenw_core)"
        )
    return module


# ------------------------------------------------------------------ bot play
#: Bots the core plays, by name (the code the core uses for each).
CORE_BOTS = {"random": 0, "heuristic": 1}


def play_bots_python(players: int, seed: int, kinds: Sequence[str]) -> tuple[int, list[Score]]:
    """One game in the Python engine as ``agon 7w simulate`` plays it: ``Game(players, seed)``,
    seat ``p`` the bot ``kinds[p]`` seeded ``seed * 1000 + p``; returns (decisions, scores)."""
    from agon.games.seven_wonders.bots import make_bot

    game = Game(players, seed)
    bots = [make_bot(k, seed * 1000 + p) for p, k in enumerate(kinds)]
    decisions = 0
    while not game.over:
        acting = game.to_act()
        decisions += len(acting)
        game.step_unchecked({p: bots[p].act(game, p) for p in acting})
    return decisions, game.scores()


def play_random_python(players: int, seed: int) -> tuple[int, list[Score]]:
    """One game of random legal play in the Python engine; returns (decisions, scores)."""
    return play_bots_python(players, seed, ["random"] * players)


def play_random_native(players: int, seed: int) -> tuple[int, list[ScoreRow]]:
    """The same game in the compiled core; returns (decisions, score rows as :func:`score_row`).

    Raises:
        InvalidInput: when the core is not installed or the seed is out of its range.
    """
    _check_seed(seed, 1)
    decisions, rows = _require_native().play_random(players, seed)
    return decisions, rows


def _check_seed(seed: int, games: int) -> None:
    if not _fits(seed, games):
        raise InvalidInput(f"seed {seed}: the compiled core takes seeds of magnitude < 2**50")


def _fits(seed: int, games: int) -> bool:
    return seed > -SEED_LIMIT and seed + games < SEED_LIMIT


def simulate_bots(
    players: int, games: int, seed: int, kinds: Sequence[str], *, engine: Engine = "auto"
) -> RandomPlayStats:
    """Play ``games`` games (``Game(players, seed + i)``, seat ``p`` the bot ``kinds[p]`` seeded
    ``(seed + i) * 1000 + p``), as ``agon 7w simulate`` does.

    ``engine``: ``native`` (the compiled core, random and heuristic bots only), ``python`` (the
    engine) or ``auto`` (the core when installed and it can, else the engine).  Both give the
    same statistics.

    Raises:
        InvalidInput: for a bad player or game count or bot list, or ``native`` when the core
            is missing, a bot is not in :data:`CORE_BOTS` or the seed is out of its range.
    """
    if not 3 <= players <= 7:
        raise InvalidInput(f"players must be 3..7, got {players}")
    if games < 1:
        raise InvalidInput(f"games must be at least 1, got {games}")
    if len(kinds) != players:
        raise InvalidInput(f"bots: need {players}, got {len(kinds)}")
    in_core = all(k in CORE_BOTS for k in kinds)
    if engine == "native" and not in_core:
        raise InvalidInput(f"bots {list(kinds)}: the compiled core plays {sorted(CORE_BOTS)} only")
    use_native = engine == "native" or (
        engine == "auto" and in_core and native_available() and _fits(seed, games)
    )
    if use_native:
        _check_seed(seed, games)
        codes = [CORE_BOTS[k] for k in kinds]
        decisions, sums, wins = _require_native().simulate_bots(players, games, seed, codes)
        return RandomPlayStats(players, games, decisions, tuple(sums), tuple(wins), "native")
    score_sums = [0] * players
    win_sums = [0.0] * players
    decisions = 0
    for i in range(games):
        made, scores = play_bots_python(players, seed + i, kinds)
        decisions += made
        best = max((s.total, s.treasury) for s in scores)
        winners = [s.player for s in scores if (s.total, s.treasury) == best]
        for s in scores:
            score_sums[s.player] += s.total
        for w in winners:
            win_sums[w] += 1 / len(winners)
    return RandomPlayStats(players, games, decisions, tuple(score_sums), tuple(win_sums), "python")


def simulate_random(
    players: int, games: int, seed: int, *, engine: Engine = "auto"
) -> RandomPlayStats:
    """:func:`simulate_bots` with random bots in every seat."""
    if not 3 <= players <= 7:
        raise InvalidInput(f"players must be 3..7, got {players}")
    return simulate_bots(players, games, seed, ["random"] * players, engine=engine)


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
    rewards: list[float] = _require_native().rollouts(base, player, cands, seed)
    return rewards


def to_native(game: Game) -> NativeGame | None:
    """The game copied into the compiled core, or None (core missing, or a withdrawal)."""
    module = native()
    state = engine_state(game)
    if module is None or state is None:
        return None
    ng: NativeGame = module.import_game(state)
    return ng


# ------------------------------------------------------------------ parity helpers
def encode(action: Action) -> ActionCode:
    """An action as the core's ``(kind, card, left, right)``."""
    return (KINDS.index(action.kind), action.card, action.left, action.right)


def decode(code: ActionCode) -> Action:
    """The core's ``(kind, card, left, right)`` as an :class:`Action`."""
    kind, card, left, right = code
    return Action(KINDS[kind], card, left, right)


def score_row(s: Score) -> ScoreRow:
    """A score breakdown as the core reports it (copied guild as card index, -1 for none)."""
    copied = card_by_id(s.copied_guild).index if s.copied_guild is not None else -1
    return (
        s.player,
        s.military,
        s.coins,
        s.wonder,
        s.civilian,
        s.commercial,
        s.guilds,
        s.science,
        s.treasury,
        copied,
    )


def state_of(game: Game) -> tuple[object, ...]:
    """The engine's state in the form of ``NativeGame.state()``, to compare the two."""
    cities = tuple(
        (
            c.wonder.index,
            "AB".index(c.side),
            c.stages_built,
            c.coins,
            tuple(c.cards),
            c.shields,
            c.military,
            c.defeats,
            c.revive_pending,
            c.free_used_age,
            tuple(c.fixed),
            tuple(c.tfixed),
            tuple(c.choices),
            tuple(c.tchoices),
            tuple(c.price_left),
            tuple(c.price_right),
            tuple(c.science),
            c.wild,
        )
        for c in game.cities
    )
    return (
        game.age,
        game.turn,
        game.phase,
        tuple(tuple(h) for h in game.hands),
        tuple(game.discard),
        cities,
    )


def native_game(
    players: int,
    seed: int,
    *,
    wonders: list[str] | None = None,
    sides: str | None = None,
    guilds: list[str] | None = None,
) -> NativeGame:
    """A game in the compiled core set up like ``Game(players, seed, wonders=..., ...)``.

    Raises:
        InvalidInput: when the core is not installed, or for unknown names.
    """
    from agon.games.seven_wonders.data import card_by_name, wonder_by_name

    module = _require_native()
    _check_seed(seed, 1)
    w = [wonder_by_name(n).index for n in wonders] if wonders is not None else None
    s = ["AB".index(x.upper()) for x in sides] if sides is not None else None
    g = [card_by_name(n).index for n in guilds] if guilds is not None else None
    game: NativeGame = module.NativeGame(players, seed, w, s, g)
    return game


__all__ = [
    "RandomPlayStats",
    "decode",
    "encode",
    "native_available",
    "native_game",
    "play_bots_python",
    "play_random_native",
    "play_random_python",
    "rollouts",
    "score_row",
    "simulate_bots",
    "simulate_random",
    "state_of",
    "tables",
    "to_native",
]
