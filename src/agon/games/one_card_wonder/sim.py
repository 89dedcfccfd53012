"""Simulations: many seeded games between bots (on one process, local processes or Ray), and
the games as balance outcomes (:mod:`agon.games.balance`)."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agon.errors import InvalidInput
from agon.games.balance import GameOutcome, SeatOutcome
from agon.games.distribute import run_chunks
from agon.games.one_card_wonder.bots import make_bot
from agon.games.one_card_wonder.content import Content, default_content, load_content
from agon.games.one_card_wonder.engine import Game, GameRecord, Variant, check_setup


def play_game(
    players: int, bots: list[str], seed: int, variant: Variant, content: Content | None = None
) -> GameRecord:
    """Play one game; seat s is played by ``bots[s]``, seeded from ``seed``."""
    game = Game.new(players, seed, variant, content)
    seats = [make_bot(name, seed * 100 + s) for s, name in enumerate(bots)]
    while not game.over:
        game.apply_unchecked(seats[game.current_player()].choose(game))
    return GameRecord(
        seed=seed,
        winner=game.winner,
        turns=game.turn,
        bots=tuple(bots),
        wonders=tuple(tuple(w.id for w in p.wonders) for p in game.players),
        boards=tuple(p.board.id if p.board else "" for p in game.players),
        leaders=tuple(p.leader.id if p.leader else None for p in game.players),
        stages=tuple(sum(b.bit_count() for b in p.built) for p in game.players),
    )


ENGINES = ("auto", "python", "native")


def game_seeds(seed: int, start: int, stop: int) -> list[int]:
    """The seeds of games ``start..stop-1`` of a run: the ``k``-th ``getrandbits(31)`` of
    ``random.Random(seed)`` (each draw takes one 32-bit word, so the first ``start`` are
    skipped in one step).  A function of (seed, k) only, so any chunking gives the same games.

    >>> import random
    >>> r = random.Random(7)
    >>> [r.getrandbits(31) for _ in range(5)][2:] == game_seeds(7, 2, 5)
    True
    """
    rng = random.Random(seed)
    if start:
        rng.getrandbits(32 * start)
    return [rng.getrandbits(31) for _ in range(stop - start)]


@dataclass(frozen=True, slots=True)
class SimSpec:
    """Everything a worker needs to play games ``start..stop-1`` of a run (picklable:
    content travels as its directory)."""

    players: int
    bots: tuple[str, ...]
    seed: int
    variant: Variant
    engine: str = "python"
    content_dir: str | None = None


_CONTENT: dict[str | None, Content] = {}


def _content(directory: str | None) -> Content:
    if directory is None:
        return default_content()
    if directory not in _CONTENT:
        _CONTENT[directory] = load_content(Path(directory))
    return _CONTENT[directory]


def play_range(spec: SimSpec, start: int, stop: int) -> list[GameRecord]:
    """Games ``start..stop-1`` of a run: game ``k`` has seed ``game_seeds(seed, k, k+1)`` and
    the bots rotated by ``k % players`` seats."""
    content = _content(spec.content_dir)
    bots = list(spec.bots)
    native_core = None
    if spec.engine == "native":
        from agon.games.one_card_wonder import native

        native_core = native
    out = []
    for k, gseed in zip(range(start, stop), game_seeds(spec.seed, start, stop), strict=True):
        shift = k % spec.players
        order = bots[shift:] + bots[:shift]
        if native_core is not None:
            out.append(native_core.play_game(spec.players, order, gseed, spec.variant, content))
        else:
            out.append(play_game(spec.players, order, gseed, spec.variant, content))
    return out


def resolve_engine(
    engine: str, players: int, bots: list[str], variant: Variant, content: Content
) -> str:
    """``python`` or ``native``: which engine plays a run asked for with ``engine``.

    Raises:
        InvalidInput: an unknown engine, or ``native`` where the compiled core cannot serve.
    """
    if engine not in ENGINES:
        raise InvalidInput(f"engine {engine!r}: unknown (known: {', '.join(ENGINES)})")
    if engine == "python":
        return "python"
    from agon.games.one_card_wonder import native  # the compiled core, loaded on demand

    if native.can_play(players, bots, variant, content):
        return "native"
    if engine == "native":
        raise InvalidInput(
            "engine 'native': the compiled core is not built into this agon (no C compiler "
            "at build time) or cannot play this content or mode (random wonders/boards are "
            "Python only)"
        )
    return "python"


def simulate(
    players: int,
    games: int,
    bots: list[str],
    seed: int,
    variant: Variant,
    engine: str = "python",
    *,
    content_dir: Path | None = None,
    workers: int = 1,
    cluster: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """``games`` games; the seats' bots rotate so every bot plays every seat.  A shorter list
    of bots repeats (``random,heuristic`` for 4 players: r h r h).

    ``engine="python"`` (the default) plays on the Python engine; ``"auto"`` (the command
    line's default) on the compiled core if it is installed and can play the content and mode
    (:mod:`agon.games.one_card_wonder.native`: the same games and records, 40 to 70 times
    faster); ``"native"`` requires the compiled core.  ``workers``/``cluster`` spread the games
    over local processes or a Ray cluster (:mod:`agon.games.distribute`): the same records;
    ``on_progress(done)`` is told the games done as they finish.

    Raises:
        InvalidInput: wrong number of bot names, unknown engine, or ``engine="native"`` where
            the compiled core cannot serve (not installed, unsupported content).
    """
    if not bots or len(bots) > players or players % len(bots):
        raise InvalidInput(
            f"bots: {len(bots)} names for {players} players (give one per seat, or a list "
            "that repeats evenly)"
        )
    where = None if content_dir is None else str(content_dir.resolve())  # workers' cwd differs
    content = _content(where)
    check_setup(players, variant, content)
    bots = bots * (players // len(bots))
    used = resolve_engine(engine, players, bots, variant, content)
    spec = SimSpec(players, tuple(bots), seed, variant, used, where)
    return run_chunks(
        play_range, spec, games, workers=workers, cluster=cluster, on_progress=on_progress
    )


def summary(records: list[GameRecord]) -> dict[str, Any]:
    """Wins per bot, per seat, per wonder and per board (as rates), turns and cap hits."""
    games = len(records)
    by_bot: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_seat: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    by_wonder: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_board: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    capped = 0
    for r in records:
        if r.winner is None:
            capped += 1
        for s, bot in enumerate(r.bots):
            won = int(r.winner == s)
            by_bot[bot][0] += won
            by_bot[bot][1] += 1
            by_seat[s][0] += won
            by_seat[s][1] += 1
            for w in r.wonders[s]:
                by_wonder[w][0] += won
                by_wonder[w][1] += 1
            by_board[r.boards[s]][0] += won
            by_board[r.boards[s]][1] += 1

    def rates(d: dict[Any, list[int]]) -> dict[str, dict[str, float | int]]:
        return {
            str(k): {
                "wins": v[0],
                "played": v[1],
                "win_rate": round(v[0] / v[1], 4) if v[1] else 0.0,
            }
            for k, v in sorted(d.items(), key=lambda kv: str(kv[0]))
        }

    turns = [r.turns for r in records]
    return {
        "games": games,
        "capped": capped,
        "mean_turns": round(sum(turns) / games, 1) if games else 0.0,
        "max_turns": max(turns, default=0),
        "by_bot": rates(by_bot),
        "by_seat": rates(by_seat),
        "by_wonder": rates(by_wonder),
        "by_board": rates(by_board),
    }


#: The factors of a One Card Wonder balance report (``leader`` only with the Leaders variant).
BALANCE_FACTORS = ("wonder", "board", "leader", "seat", "bot")


def progress(record: GameRecord, content: Content) -> list[float]:
    """Each seat's share of its wonders' stages completed at the end, in percent (100 for the
    winner: finishing the wonder wins; Two Card Wonder counts both wonders' stages)."""
    sizes = {w.id: len(w.stages) for w in content.wonders}
    out = []
    for s, done in enumerate(record.stages):
        total = sum(sizes[w] for w in record.wonders[s])
        out.append(100.0 * done / total if total else 0.0)
    return out


def outcomes(records: list[GameRecord], content: Content) -> list[GameOutcome]:
    """The games as balance outcomes: win 1/0; margin = own stage progress minus the best
    opponent's, in percentage points (the winner's lead, everyone else's gap); a game capped
    without a winner is not finished."""
    out = []
    for r in records:
        prog = progress(r, content)
        seats = []
        for s in range(len(r.bots)):
            best_other = max((p for q, p in enumerate(prog) if q != s), default=0.0)
            factors = [("wonder", "+".join(r.wonders[s])), ("board", r.boards[s])]
            if r.leaders[s] is not None:
                factors.append(("leader", str(r.leaders[s])))
            factors += [("seat", str(s)), ("bot", r.bots[s])]
            seats.append(SeatOutcome(tuple(factors), float(r.winner == s), prog[s] - best_other))
        out.append(GameOutcome(tuple(seats), finished=r.winner is not None))
    return out
