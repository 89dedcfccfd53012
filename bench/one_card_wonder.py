"""Speed of the One Card Wonder engine: random legal play, 4 players, one core.

Prints games/s, turns/s and decisions/s (wall clock, and per CPU second of this process),
and how often agon's turn cap (MAX_TURNS) stopped a game without a winner.  Every decision
is chosen uniformly from ``legal_actions()`` and applied with ``apply_unchecked`` (the list
it came from is the legality check).

    .venv/bin/python bench/one_card_wonder.py [games] [players]
"""

from __future__ import annotations

import random
import sys
import time

from agon.games.one_card_wonder.engine import Game, Variant

MAX_TURNS = 3000  # agon's cap; the rulebook has none (random play needs ~330 turns with 4)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    variant = Variant(max_turns=MAX_TURNS)
    rng = random.Random(12345)
    turns = steps = capped = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for seed in range(games):
        g = Game.new(players, seed, variant)
        choice = rng.choice
        while g.stack:
            g.apply_unchecked(choice(g.legal_actions()))
            steps += 1
        turns += g.turn
        capped += g.winner is None
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(f"one_card_wonder: {games} games, {players} players, random legal play, one core")
    print(
        f"  {games / dt:,.1f} games/s   {turns / dt:,.0f} turns/s   {steps / dt:,.0f} decisions/s"
    )
    print(
        f"  per CPU second (this process only; lower wall rates mean a shared, loaded core): "
        f"{games / cpu:,.1f} games/s   {turns / cpu:,.0f} turns/s"
    )
    print(f"  mean {turns / games:.1f} turns/game, {steps / games:.1f} decisions/game")
    print(f"  turn cap {MAX_TURNS}: hit in {capped} of {games} games")
    print("  goal: 2,000 games/s")


if __name__ == "__main__":
    main()
