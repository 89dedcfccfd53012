"""7 Wonders search bots: CPU time per play-out of ``ismcts`` (compiled and Python) and per
rollout of ``mcts``, on the same positions.

The positions are those of seat 0 in heuristic games (5 players by default) at every
``--every``-th decision.  Each bot searches a fixed budget (``ismcts@N`` play-outs,
``mcts@N/5`` rounds of 5 rollouts), so both do the same number of games-to-the-end; the time is
CPU time of this process (``time.process_time``), which other load on the machine distorts
less than wall time.  One run on a shared machine, not a controlled measurement.

    python bench/ismcts.py [--players 5] [--playouts 600] [--games 2] [--python-playouts 30]
"""

from __future__ import annotations

import argparse
import time

from agon.games.seven_wonders.bots import HeuristicBot, IsmctsBot, MctsBot
from agon.games.seven_wonders.engine import Game
from agon.games.seven_wonders.fast import native_available


def positions(players: int, games: int, every: int) -> list[Game]:
    out = []
    for s in range(games):
        g = Game(players, 500 + s)
        heur = [HeuristicBot(p) for p in range(players)]
        k = 0
        while not g.over:
            if 0 in g.to_act() and g.phase == "main":
                if k % every == 0:
                    out.append(g.clone())
                k += 1
            g.step({p: heur[p].act(g, p) for p in g.to_act()})
    return out


def per_playout(bot: IsmctsBot | MctsBot, games: list[Game]) -> tuple[float, int]:
    """(CPU seconds per play-out, play-outs) over the positions."""
    cpu = 0.0
    done = 0
    for g in games:
        if isinstance(bot, IsmctsBot):
            bot.knowledge.observe(g, 0)
        t = time.process_time()
        bot.act(g, 0)
        cpu += time.process_time() - t
        done += bot.last_iterations if isinstance(bot, IsmctsBot) else bot.last_rounds * bot.width
    return cpu / max(done, 1), done


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--playouts", type=int, default=600)
    ap.add_argument("--python-playouts", type=int, default=30)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--every", type=int, default=3)
    args = ap.parse_args()
    games = positions(args.players, args.games, args.every)
    print(f"{len(games)} positions, {args.players} players")
    rows = []
    if native_available():
        rows.append(("ismcts, compiled", IsmctsBot(1, iterations=args.playouts)))
        rows.append(("mcts, compiled", MctsBot(1, rounds=args.playouts // 5)))
    rows.append(("ismcts, Python", IsmctsBot(1, iterations=args.python_playouts, engine="python")))
    for name, bot in rows:
        sec, done = per_playout(bot, games)
        print(f"{name:18} {done:7d} play-outs  {sec * 1e6:8.1f} µs CPU each")


if __name__ == "__main__":
    main()
