"""Simulations: many seeded games between bots, and the balance report (win rate by wonder and
by building board)."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from agon.errors import InvalidInput
from agon.games.one_card_wonder.bots import make_bot
from agon.games.one_card_wonder.engine import Game, GameRecord, Variant


def play_game(players: int, bots: list[str], seed: int, variant: Variant) -> GameRecord:
    """Play one game; seat s is played by ``bots[s]``, seeded from ``seed``."""
    game = Game.new(players, seed, variant)
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
    )


ENGINES = ("auto", "python", "native")


def simulate(
    players: int,
    games: int,
    bots: list[str],
    seed: int,
    variant: Variant,
    engine: str = "python",
) -> list[GameRecord]:
    """``games`` games; the seats' bots rotate so every bot plays every seat.  A shorter list
    of bots repeats (``random,heuristic`` for 4 players: r h r h).

    ``engine="python"`` (the default) plays on the Python engine; ``"auto"`` (the command
    line's default) on the compiled core if it is installed
    (:mod:`agon.games.one_card_wonder.native`: the same games and records, 40 to 70 times
    faster); ``"native"`` requires the compiled core.

    Raises:
        InvalidInput: wrong number of bot names, unknown engine, or ``engine="native"`` where
            the compiled core cannot serve (not installed, unsupported content).
    """
    if not bots or len(bots) > players or players % len(bots):
        raise InvalidInput(
            f"bots: {len(bots)} names for {players} players (give one per seat, or a list "
            "that repeats evenly)"
        )
    if engine not in ENGINES:
        raise InvalidInput(f"engine {engine!r}: unknown (known: {', '.join(ENGINES)})")
    bots = bots * (players // len(bots))
    if engine != "python":
        from agon.games.one_card_wonder import native  # the compiled core, loaded on demand

        fast = native.simulate(players, games, bots, seed, variant)
        if fast is not None:
            return fast
        if engine == "native":
            raise InvalidInput(
                "engine 'native': the compiled core is not built into this agon (no C "
                "compiler at build time) or cannot play this content"
            )
    rng = random.Random(seed)
    out = []
    for k in range(games):
        shift = k % players
        order = bots[shift:] + bots[:shift]
        out.append(play_game(players, order, rng.getrandbits(31), variant))
    return out


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
