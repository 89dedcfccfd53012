"""7 Wonders bot games one record per game, playable in chunks (local processes or Ray), and the
games as balance outcomes (:mod:`agon.games.balance`).

Game ``i`` of a run with seed ``s`` is ``Game(players, s + i)`` (as ``agon 7w simulate`` plays
it): the seed deals the wonders and draws each board's side (``Game`` picks them with its own
random generator), so wonders and sides are *assigned at random* already — no player chooses,
and the balance report needs no random-assignment mode.  Seat ``p`` is played by the bot
``kinds[(p + shift) % players]`` seeded ``(s + i) * 1000 + p``, where ``shift`` is ``i %
players`` when the bots rotate (the balance report: every bot plays every seat) and 0 otherwise
(``agon 7w simulate``).  The card and wonder data are fixed (the first edition's base game,
from the package's data files): there is no ``--content`` for 7 Wonders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agon.errors import InvalidInput
from agon.games.balance import GameOutcome, SeatOutcome
from agon.games.distribute import run_chunks
from agon.games.seven_wonders import core
from agon.games.seven_wonders.bots import make_bot
from agon.games.seven_wonders.engine import Game, Generator
from agon.games.seven_wonders.fast import CORE_BOTS, SEED_LIMIT, generator_code


@dataclass(frozen=True, slots=True)
class Spec:
    """What a worker needs to play games ``start..stop-1`` of a run."""

    players: int
    kinds: tuple[str, ...]
    seed: int
    engine: str  # "native" (random and heuristic bots on the compiled core) or "python"
    seconds: float = 0.5  # the search bot's time per move
    bot_engine: str = "auto"  # the search bot's rollouts
    rotate: bool = False
    generator: Generator = "mt"  # the games' generator (``agon 7w simulate``: "splitmix")


@dataclass(frozen=True, slots=True)
class Record:
    """One game: seed, bots, wonders and sides by seat, totals, wins (1/k when k share it)."""

    seed: int
    bots: tuple[str, ...]
    wonders: tuple[str, ...]
    sides: tuple[str, ...]
    totals: tuple[int, ...]
    wins: tuple[float, ...]
    decisions: int


def resolve_engine(engine: str, kinds: Sequence[str], seed: int, games: int) -> str:
    """``native`` or ``python`` for ``engine`` auto/native/python.

    Raises:
        InvalidInput: ``native`` when the core is missing, a bot is not in the core, or the
            seeds are out of its range.
    """
    if engine not in ("auto", "python", "native"):
        raise InvalidInput(f"--engine {engine!r}: unknown (auto, python, native)")
    in_core = all(k in CORE_BOTS for k in kinds)
    fits = seed > -SEED_LIMIT and seed + games < SEED_LIMIT
    if engine == "native":
        if not core.native_available():
            raise InvalidInput("--engine native: the compiled core is not installed")
        if not in_core:
            raise InvalidInput(f"--engine native: the compiled core plays {sorted(CORE_BOTS)} only")
        if not fits:
            raise InvalidInput(f"seed {seed}: the compiled core takes seeds of magnitude < 2**50")
        return "native"
    if engine == "auto" and in_core and fits and core.native_available():
        return "native"
    return "python"


def play_range(spec: Spec, start: int, stop: int) -> list[Record]:
    """Games ``start..stop-1`` of the run ``spec`` (each a function of the seed and its index)."""
    out = []
    for i in range(start, stop):
        seed = spec.seed + i
        shift = i % spec.players if spec.rotate else 0
        kinds = list(spec.kinds[shift:] + spec.kinds[:shift])
        game = Game(spec.players, seed, generator=spec.generator)
        wonders = tuple(c.wonder.en for c in game.cities)
        sides = tuple(c.side for c in game.cities)
        if spec.engine == "native":
            decisions, sums, wins = core.require_native().simulate_bots(
                spec.players, 1, seed, [CORE_BOTS[k] for k in kinds], generator_code(spec.generator)
            )
            out.append(
                Record(seed, tuple(kinds), wonders, sides, tuple(sums), tuple(wins), int(decisions))
            )
            continue
        bots = [
            make_bot(k, seed * 1000 + p, seconds=spec.seconds, engine=spec.bot_engine)
            for p, k in enumerate(kinds)
        ]
        decisions = 0
        while not game.over:
            acting = game.to_act()
            decisions += len(acting)
            game.step_unchecked({p: bots[p].act(game, p) for p in acting})
        totals = tuple(s.total for s in sorted(game.scores(), key=lambda s: s.player))
        winners = game.winners()
        wins = tuple(1 / len(winners) if p in winners else 0.0 for p in range(spec.players))
        out.append(Record(seed, tuple(kinds), wonders, sides, totals, wins, decisions))
    return out


def simulate(
    spec: Spec,
    games: int,
    *,
    workers: int = 1,
    cluster: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[Record]:
    """The run's records in game order, on this process, ``workers`` processes or Ray
    (``on_progress(done)`` as games finish: :func:`agon.games.distribute.run_chunks`)."""
    return run_chunks(
        play_range, spec, games, workers=workers, cluster=cluster, on_progress=on_progress
    )


#: The factors of a 7 Wonders balance report: ``board`` is wonder and side (``Rhodos B``).
#: The base game has no leaders.
BALANCE_FACTORS = ("wonder", "side", "board", "seat", "bot")


def outcomes(records: Sequence[Record]) -> list[GameOutcome]:
    """The games as balance outcomes: win share, margin = own points minus the best
    opponent's (positive for the winner, 0 in a tie on points)."""
    out = []
    for r in records:
        seats = []
        for p in range(len(r.bots)):
            best_other = max(t for q, t in enumerate(r.totals) if q != p)
            factors = (
                ("wonder", r.wonders[p]),
                ("side", r.sides[p]),
                ("board", f"{r.wonders[p]} {r.sides[p]}"),
                ("seat", str(p)),
                ("bot", r.bots[p]),
            )
            seats.append(SeatOutcome(factors, r.wins[p], float(r.totals[p] - best_other)))
        out.append(GameOutcome(tuple(seats)))
    return out
