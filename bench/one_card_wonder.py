"""Speed of One Card Wonder random legal play, 4 players, one core: the Python engine and the
compiled core (agon.cores.one_card_wonder), on the same games.

Games are seeded as ``agon ocw simulate --bots random``: a master ``random.Random(SEED)``
gives each game's seed (``getrandbits(31)``), seat s chooses uniformly from the legal actions
with ``random.Random(game_seed * 100 + s)``.  So both engines play the same games, and the
script checks that they did (winner, turns and decisions of every game the Python engine
played).  Rates are per CPU second of this process (``time.process_time``): the machine is
shared and loaded, so wall-clock rates would measure the load; wall-clock figures are printed
alongside.

    .venv/bin/python bench/one_card_wonder.py [python_games] [native_games] [players]
"""

from __future__ import annotations

import random
import sys
import time

from agon.games.one_card_wonder import native
from agon.games.one_card_wonder.bots import RandomBot
from agon.games.one_card_wonder.engine import Game, Variant

MAX_TURNS = 3000  # agon's cap; the rulebook has none (random play needs ~330 turns with 4)
SEED = 12345
GOAL = 2000.0  # games per second on one core (issue 7)


def python_games(players: int, games: int) -> list[tuple[int, int, int, int]]:
    """(game seed, winner or -1, turns, decisions) per game on the Python engine."""
    variant = Variant(max_turns=MAX_TURNS)
    master = random.Random(SEED)
    out = []
    for _ in range(games):
        seed = master.getrandbits(31)
        g = Game.new(players, seed, variant)
        bots = [RandomBot(seed * 100 + s) for s in range(players)]
        decisions = 0
        while not g.over:
            g.apply_unchecked(bots[g.current_player()].choose(g))
            decisions += 1
        out.append((seed, -1 if g.winner is None else g.winner, g.turn, decisions))
    return out


def report(name: str, rows: list[tuple[int, int, int, int]], cpu: float, wall: float) -> float:
    games = len(rows)
    turns = sum(r[2] for r in rows)
    steps = sum(r[3] for r in rows)
    capped = sum(r[1] < 0 for r in rows)
    print(
        f"  {name:14} {games:6} games  {games / cpu:9,.1f} games/s  {turns / cpu:11,.0f} turns/s"
        f"  {steps / cpu:12,.0f} decisions/s   (wall clock: {games / wall:,.1f} games/s)"
    )
    print(
        f"  {'':14} mean {turns / games:.1f} turns, {steps / games:.1f} decisions per game; "
        f"turn cap {MAX_TURNS} hit in {capped} of {games}"
    )
    return games / cpu


def main() -> None:
    n_py = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    n_nat = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    players = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    print(
        f"one_card_wonder: random legal play, {players} players, one core; "
        "rates per CPU second of this process"
    )
    t0, c0 = time.perf_counter(), time.process_time()
    py = python_games(players, n_py)
    report("python engine", py, time.process_time() - c0, time.perf_counter() - t0)

    core = native.core()
    if core is None:
        print("  compiled core: not installed (agon was built without a C compiler)")
        return
    import agon.cores.one_card_wonder as agon_ocw_native

    t0, c0 = time.perf_counter(), time.process_time()
    raw = agon_ocw_native.simulate_random(core, players, n_nat, SEED, max_turns=MAX_TURNS)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    rows = [(int(r[0]), r[1], r[2], r[3]) for r in raw]
    rate = report("compiled core", rows, cpu, wall)
    same = rows[: len(py)] == py[: len(rows)]
    print(
        f"  parity: the {min(len(py), len(rows))} games both played are "
        f"{'identical (seed, winner, turns, decisions)' if same else 'DIFFERENT'}"
    )
    print(f"  goal: {GOAL:,.0f} games/s per CPU second: {'reached' if rate >= GOAL else 'missed'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
