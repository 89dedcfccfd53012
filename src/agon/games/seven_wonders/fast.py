"""Random legal play through the compiled core (``agon.cores.seven_wonders``, compiled when agon is built), the engine as reference.

The compiled core is a C mirror of :mod:`agon.games.seven_wonders.engine` for one job: random
legal play as ``agon 7w simulate --bots random`` plays it.  Game ``i`` of a run with seed ``s``
is ``Game(players, s + i, generator=SIMULATE_GENERATOR)`` with seat ``p`` a ``RandomBot((s + i)
* 1000 + p)``.  The core reimplements CPython's Mersenne Twister and the ``random.Random``
methods the engine uses (the deal of kept games; the heuristic bot's draws), the deal of
``generators.SplitMixRandom`` (simulated games) and the random bot's SplitMix64, so one seed plays
*the same game* in both: same deal, same legal actions in the same
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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from agon.errors import InvalidInput
from agon.games.seven_wonders import core
from agon.games.seven_wonders.bots import make_bot
from agon.games.seven_wonders.core import (
    ActionCode,
    chain_targets,
    decode,
    encode,
    engine_state,
    native,
    native_available,
    rollouts,
    tables,
    to_native,
)
from agon.games.seven_wonders.data import card_by_id
from agon.games.seven_wonders.engine import Game, Generator, Score
from agon.games.seven_wonders.generators import check_generator

if TYPE_CHECKING:
    from agon.cores.seven_wonders import NativeGame

Engine = Literal["auto", "python", "native"]
ScoreRow = tuple[int, int, int, int, int, int, int, int, int, int]

#: Seeds the core takes: game seeds and bot seeds (seed * 1000 + seat) must fit in 64 bits.
SEED_LIMIT = 2**50

#: The generator of the games ``agon 7w simulate`` plays (``Game(..., generator=...)``): such
#: games are not kept, so they deal from SplitMix64, which the core seeds in one store where a
#: Mersenne Twister takes some 1,250 dependent steps (``--generator mt`` deals as stored games).
SIMULATE_GENERATOR: Generator = "splitmix"


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


# ------------------------------------------------------------------ bot play
#: Bots the core plays, by name (the code the core uses for each).
CORE_BOTS = {"random": 0, "heuristic": 1}


def play_bots_python(
    players: int, seed: int, kinds: Sequence[str], generator: Generator = SIMULATE_GENERATOR
) -> tuple[int, list[Score]]:
    """One game in the Python engine as ``agon 7w simulate`` plays it: ``Game(players, seed,
    generator=generator)``, seat ``p`` the bot ``kinds[p]`` seeded ``seed * 1000 + p``; returns
    (decisions, scores)."""
    game = Game(players, seed, generator=generator)
    bots = [make_bot(k, seed * 1000 + p) for p, k in enumerate(kinds)]
    decisions = 0
    while not game.over:
        acting = game.to_act()
        decisions += len(acting)
        game.step_unchecked({p: bots[p].act(game, p) for p in acting})
    return decisions, game.scores()


def play_random_python(
    players: int, seed: int, generator: Generator = SIMULATE_GENERATOR
) -> tuple[int, list[Score]]:
    """One game of random legal play in the Python engine; returns (decisions, scores)."""
    return play_bots_python(players, seed, ["random"] * players, generator)


def play_random_native(
    players: int, seed: int, generator: Generator = SIMULATE_GENERATOR
) -> tuple[int, list[ScoreRow]]:
    """The same game in the compiled core; returns (decisions, score rows as :func:`score_row`).

    Raises:
        InvalidInput: when the core is not installed or the seed is out of its range.
    """
    _check_seed(seed, 1)
    decisions, rows = core.require_native().play_random(players, seed, generator_code(generator))
    return decisions, rows


def generator_code(generator: Generator) -> int:
    """The compiled core's code of a game generator (its index in ``generators.GENERATORS``).

    Raises:
        InvalidInput: for a generator not in ``generators.GENERATORS``.
    """
    return check_generator(generator)


def _check_seed(seed: int, games: int) -> None:
    if not _fits(seed, games):
        raise InvalidInput(f"seed {seed}: the compiled core takes seeds of magnitude < 2**50")


def _fits(seed: int, games: int) -> bool:
    return seed > -SEED_LIMIT and seed + games < SEED_LIMIT


def simulate_bots(
    players: int,
    games: int,
    seed: int,
    kinds: Sequence[str],
    *,
    engine: Engine = "auto",
    generator: Generator = SIMULATE_GENERATOR,
) -> RandomPlayStats:
    """Play ``games`` games (``Game(players, seed + i, generator=generator)``, seat ``p`` the
    bot ``kinds[p]`` seeded ``(seed + i) * 1000 + p``), as ``agon 7w simulate`` does.

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
    code = generator_code(generator)
    in_core = all(k in CORE_BOTS for k in kinds)
    if engine == "native" and not in_core:
        raise InvalidInput(f"bots {list(kinds)}: the compiled core plays {sorted(CORE_BOTS)} only")
    use_native = engine == "native" or (
        engine == "auto" and in_core and core.native_available() and _fits(seed, games)
    )
    if use_native:
        _check_seed(seed, games)
        codes = [CORE_BOTS[k] for k in kinds]
        decisions, sums, wins = core.require_native().simulate_bots(
            players, games, seed, codes, code
        )
        return RandomPlayStats(players, games, decisions, tuple(sums), tuple(wins), "native")
    score_sums = [0] * players
    win_sums = [0.0] * players
    decisions = 0
    for i in range(games):
        made, scores = play_bots_python(players, seed + i, kinds, generator)
        decisions += made
        best = max((s.total, s.treasury) for s in scores)
        winners = [s.player for s in scores if (s.total, s.treasury) == best]
        for s in scores:
            score_sums[s.player] += s.total
        for w in winners:
            win_sums[w] += 1 / len(winners)
    return RandomPlayStats(players, games, decisions, tuple(score_sums), tuple(win_sums), "python")


def simulate_random(
    players: int,
    games: int,
    seed: int,
    *,
    engine: Engine = "auto",
    generator: Generator = SIMULATE_GENERATOR,
) -> RandomPlayStats:
    """:func:`simulate_bots` with random bots in every seat."""
    if not 3 <= players <= 7:
        raise InvalidInput(f"players must be 3..7, got {players}")
    return simulate_bots(
        players, games, seed, ["random"] * players, engine=engine, generator=generator
    )


# ------------------------------------------------------------------ parity helpers
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
    generator: Generator = "mt",
) -> NativeGame:
    """A game in the compiled core set up like ``Game(players, seed, wonders=..., ...,
    generator=generator)``.

    Raises:
        InvalidInput: when the core is not installed, or for unknown names.
    """
    from agon.games.seven_wonders.data import card_by_name, wonder_by_name

    module = core.require_native()
    _check_seed(seed, 1)
    w = [wonder_by_name(n).index for n in wonders] if wonders is not None else None
    s = ["AB".index(x.upper()) for x in sides] if sides is not None else None
    g = [card_by_name(n).index for n in guilds] if guilds is not None else None
    game: NativeGame = module.NativeGame(players, seed, w, s, g, generator_code(generator))
    return game


__all__ = [
    "SIMULATE_GENERATOR",
    "ActionCode",
    "RandomPlayStats",
    "chain_targets",
    "decode",
    "encode",
    "engine_state",
    "generator_code",
    "native",
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
