"""7 Wonders ``ismcts``: screen settings of the search against a fixed field, paired by game.

Game ``g`` (from ``--start``) is a 5-player game with seed ``Random(f"screen{g}")`` and the
``ismcts`` bot in seat ``g % 5``; the other four seats are ``mcts`` bots with ``--rounds``
rounds per move, or heuristic bots (``--field heuristic``).  Every variant plays the same
games, so the difference to the first variant (the bot's defaults, ``{}``) is taken game by
game: the mean difference in the margin to the best other seat (VP) and in wins, each with
its standard error.  Budgets are fixed play-outs per move (``--iterations``), so the figures do
not depend on the machine or its load and repeat exactly.

    python bench/ismcts_tune.py --games 60 --iterations 300 --rounds 60 \\
        '{}' '{"width": 4}' '{"noise": 1.0}' '{"margin_scale": 40}' '{"exploration": 0.3}'

Prints one JSON line per variant (with the CPU seconds of its games, summed over workers);
``--dump FILE`` appends every variant's per-game results (win, margin, rank, CPU seconds), so
screens of other games (``--start``) can be pooled afterwards.  The knob ``"oracle_pool": 1``
is a diagnostic, not a setting of the bot: the ``ismcts`` bot re-deals like ``mcts``, from the
actual cards of the other hands (shuffled among them) — what perfect knowledge of the pool of
hidden cards would be worth.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from multiprocessing import Pool

from agon.games.seven_wonders.bots import Bot, HeuristicBot, IsmctsBot, MctsBot
from agon.games.seven_wonders.engine import Game

Job = tuple[int, dict[str, float], int, str, int]


def play(job: Job) -> tuple[float, int, int, float]:
    """(win: 1, 1/2 or 0; margin to the best other seat; rank) of the ``ismcts`` seat, and the
    game's CPU seconds."""
    cpu = time.process_time()
    g, knobs, iterations, field, rounds = job
    seed = random.Random(f"screen{g}").getrandbits(31)
    seat = g % 5
    bots: list[Bot] = []
    for p in range(5):
        s = seed * 1000 + p
        if p == seat:
            kw = dict(knobs)
            # diagnostic only: re-deal like ``mcts`` from the actual cards of the other hands
            oracle = bool(kw.pop("oracle_pool", 0))
            bot = IsmctsBot(s, iterations=iterations, **kw)  # type: ignore[arg-type]
            if oracle:
                bot.knowledge.constraints = lambda game, player: None  # type: ignore[method-assign]
            bots.append(bot)
        elif field == "mcts":
            bots.append(MctsBot(s, rounds=rounds))
        else:
            bots.append(HeuristicBot(s))
    game = Game(5, seed)
    while not game.over:
        game.step_unchecked({p: bots[p].act(game, p) for p in game.to_act()})
    keys = {s.player: (s.total, s.treasury) for s in game.scores()}
    mine = keys[seat]
    best = max(v for q, v in keys.items() if q != seat)
    win = 1.0 if mine > best else 0.5 if mine == best else 0.0
    rank = 1 + sum(1 for v in keys.values() if v > mine)
    return win, mine[0] - best[0], rank, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", nargs="+", help="JSON keyword arguments of IsmctsBot; first: base")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--field", choices=("mcts", "heuristic"), default="mcts")
    ap.add_argument("--rounds", type=int, default=60, help="rounds per move of each mcts bot")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dump", help="append every variant's per-game results to this file")
    args = ap.parse_args()
    games = range(args.start, args.start + args.games)
    base: list[tuple[float, int, int, float]] | None = None
    with Pool(args.workers) as pool:
        for text in args.variants:
            knobs = json.loads(text)
            t0 = time.perf_counter()
            jobs = [(g, knobs, args.iterations, args.field, args.rounds) for g in games]
            res = pool.map(play, jobs, chunksize=1)
            if args.dump:
                with open(args.dump, "a") as f:
                    f.write(json.dumps({"variant": knobs, "start": args.start, "res": res}) + "\n")
            n = len(res)
            out: dict[str, object] = {
                "variant": knobs,
                "games": n,
                "wins": sum(r[0] for r in res),
                "mean_margin": round(statistics.mean(r[1] for r in res), 2),
                "mean_rank": round(statistics.mean(r[2] for r in res), 2),
                "wall_s": round(time.perf_counter() - t0),
                "cpu_s": round(sum(r[3] for r in res), 1),
            }
            if base is None:
                base = res
            elif n > 1:
                dm = [r[1] - b[1] for r, b in zip(res, base, strict=True)]
                dw = [r[0] - b[0] for r, b in zip(res, base, strict=True)]
                out["d_margin"] = round(statistics.mean(dm), 2)
                out["d_margin_se"] = round(statistics.stdev(dm) / math.sqrt(n), 2)
                out["d_wins"] = round(statistics.mean(dw), 3)
                out["d_wins_se"] = round(statistics.stdev(dw) / math.sqrt(n), 3)
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
