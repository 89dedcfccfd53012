"""7 Wonders engine benchmark: random legal play (5 players, one core) and bot win rates.

Random legal play is measured twice, in the Python engine and in the compiled core
(``agon.cores.seven_wonders``, compiled when agon is built); both play the same games (seat ``p`` of game ``i`` is
``RandomBot((seed + i) * 1000 + p)``, as ``agon 7w simulate --bots random``).

Prints what it measured.  Speed is CPU time of this process (``time.process_time``) after a
warm-up, so other load on the machine distorts it less than wall time would; it is still one
run on a shared machine, not a controlled measurement.

    python bench/seven_wonders.py [--games 20000] [--python-games 1000] [--mcts-games 5]
"""

from __future__ import annotations

import argparse
import math
import time

from agon.games.seven_wonders.bots import HeuristicBot, MctsBot, RandomBot, play_game
from agon.games.seven_wonders.engine import Game
from agon.games.seven_wonders.fast import (
    Engine,
    native_available,
    simulate_bots,
    simulate_random,
)


def random_games(n: int, seed: int, engine: Engine) -> tuple[int, int, float]:
    """Play ``n`` random 5-player games (as ``agon 7w simulate --bots random``) with ``engine``.

    Returns (games, decisions, CPU seconds).
    """
    t0 = time.process_time()
    stats = simulate_random(5, n, seed, engine=engine)
    return stats.games, stats.decisions, time.process_time() - t0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def match(
    kind: str, games: int, seconds: float, seed: int, engine: Engine = "auto"
) -> tuple[float, float, int, int]:
    """One ``kind`` bot against four heuristic bots; the seat rotates.

    Returns (wins, mean seconds per decision of the tested bot, decisions, search rounds).
    """
    wins = 0.0
    spent = 0.0
    decisions = 0
    rounds = 0
    for i in range(games):
        seat = i % 5
        bots: list[HeuristicBot | MctsBot | RandomBot] = [
            HeuristicBot(seed + 100 * i + p) for p in range(5)
        ]
        bots[seat] = (
            MctsBot(seed + i, seconds=seconds, engine=engine)
            if kind == "mcts"
            else RandomBot(seed + i)
        )
        g = Game(5, seed + i)
        while not g.over:
            joint = {}
            for p in g.to_act():
                t = time.perf_counter()
                joint[p] = bots[p].act(g, p)
                if p == seat:
                    spent += time.perf_counter() - t
                    decisions += 1
                    rounds += getattr(bots[p], "last_rounds", 0)
            g.step_unchecked(joint)
        winners = g.winners()
        if seat in winners:
            wins += 1 / len(winners)
    return wins, spent / max(decisions, 1), decisions, rounds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20_000, help="games for the compiled core")
    ap.add_argument("--python-games", type=int, default=1000)
    ap.add_argument("--mcts-games", type=int, default=5)
    ap.add_argument("--mcts-seconds", type=float, default=0.5)
    ap.add_argument("--mcts-engine", choices=["auto", "python", "native"], default="auto")
    ap.add_argument("--heuristic-games", type=int, default=100)
    args = ap.parse_args()

    print("CPU time of this process (time.process_time); the machine may be shared and loaded")
    random_games(200, 10_000, "python")  # warm the payment caches
    games, decisions, dt = random_games(args.python_games, 0, "python")
    print(f"random play, 5 players, Python engine: {games} games in {dt:.2f} s CPU")
    print(f"  {games / dt:.0f} games/s, {decisions / dt:.0f} decisions/s")
    if native_available():
        py = simulate_random(5, 200, 0, engine="python")
        nat = simulate_random(5, 200, 0, engine="native")
        same = (py.decisions, py.score_sums, py.wins) == (nat.decisions, nat.score_sums, nat.wins)
        print(f"  same decisions, score sums and wins on 200 games in both: {same}")
        games, decisions, dt = random_games(args.games, 0, "native")
        print(f"random play, 5 players, compiled core: {games} games in {dt:.2f} s CPU")
        print(
            f"  {games / dt:.0f} games/s, {decisions / dt:.0f} decisions/s per CPU second "
            f"(goal, issue 13: >= 20000 games per CPU second: {'met' if games / dt >= 20_000 else 'NOT met'})"
        )
    else:
        print("compiled core not installed (agon was built without a C compiler)")

    if args.heuristic_games:
        t0 = time.process_time()
        for s in range(args.heuristic_games):
            play_game(Game(5, s), [HeuristicBot(10 * s + p) for p in range(5)])
        dt = time.process_time() - t0
        print(f"heuristic self-play, Python engine: {args.heuristic_games / dt:.1f} games/s")
        if native_available():
            t0 = time.process_time()
            simulate_bots(5, 10 * args.heuristic_games, 0, ["heuristic"] * 5, engine="native")
            dt = time.process_time() - t0
            print(
                f"heuristic self-play, compiled core: {10 * args.heuristic_games / dt:.0f} games/s"
            )

        wins, _, _, _ = match("random", args.heuristic_games, 0.0, 1)
        lo, hi = wilson(wins, args.heuristic_games)
        print(
            f"random vs 4 heuristic: {wins:g}/{args.heuristic_games} wins "
            f"({wins / args.heuristic_games:.0%}, 95% CI {lo:.0%}-{hi:.0%})"
        )
    if args.mcts_games:
        engine = args.mcts_engine
        wins, per_move, n, rounds = match("mcts", args.mcts_games, args.mcts_seconds, 5000, engine)
        lo, hi = wilson(wins, args.mcts_games)
        print(
            f"mcts ({args.mcts_seconds} s/move, rollouts {engine}) vs 4 heuristic: "
            f"{wins:g}/{args.mcts_games} wins "
            f"({wins / args.mcts_games:.0%}, 95% CI {lo:.0%}-{hi:.0%}; chance is 20%), "
            f"{per_move:.2f} s per move (wall) over {n} moves, {rounds / max(n, 1):.0f} "
            "rounds per move (goal: >= 40% at < 1 s/move)"
        )


if __name__ == "__main__":
    main()
