"""7 Wonders: how often the heuristic predicts the move of an ``mcts`` bot (a diagnostic).

Plays ``--games`` 5-player games of five ``mcts`` bots (``--rounds`` rounds per move; game
``g`` seeded ``Random(f"imit{g}")``) and records every searched decision.  For a set of heuristic
weights, the agreement is the share of decisions where the heuristic's best action has the
``mcts`` bot's kind and card.  Reports the agreement of the ``default`` and ``tuned`` sets, then
fits the weights to the even decisions (coordinate search on the agreement, steps 0.5, 0.25,
0.125) and reports the fitted set's agreement on the odd ones: can a re-weighted heuristic model
the ``mcts`` opponents better than the heuristic they start from?

    python bench/heuristic_vs_mcts.py --games 2 --sweeps 1
"""

from __future__ import annotations

import argparse
import random
import time

from agon.cores.seven_wonders import NativeGame
from agon.games.seven_wonders import core
from agon.games.seven_wonders.bots import MctsBot
from agon.games.seven_wonders.data import heuristic_weights
from agon.games.seven_wonders.engine import Game

Decision = tuple[NativeGame, int, tuple[int, int], int, list[tuple[int, int]]]


def decisions(games: int, rounds: int) -> list[Decision]:
    out: list[Decision] = []
    for g in range(games):
        seed = random.Random(f"imit{g}").getrandbits(31)
        bots = [MctsBot(seed * 1000 + p, rounds=rounds) for p in range(5)]
        game = Game(5, seed)
        while not game.over:
            joint = {}
            for p in game.to_act():
                a = bots[p].act(game, p)
                joint[p] = a
                ng = core.to_native(game)
                if bots[p].last_rounds and ng is not None:
                    code = core.encode(a)
                    legal = [(c[0], c[1]) for c in ng.legal(p)]
                    out.append((ng, p, (code[0], code[1]), seed + p, legal))
            game.step_unchecked(joint)
    return out


def agreement(data: list[Decision], weights: list[float]) -> float:
    native = core.require_native()
    hit = 0
    for ng, p, chosen, seed, legal in data:
        values, _ = native.heuristic_values(ng, p, seed, weights)
        best = max(range(len(values)), key=lambda j: values[j])
        hit += legal[best] == chosen
    return hit / len(data)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("--sweeps", type=int, default=3)
    args = ap.parse_args()
    t0 = time.process_time()
    data = decisions(args.games, args.rounds)
    train, test = data[::2], data[1::2]
    default = heuristic_weights("default").vector()
    tuned = heuristic_weights("tuned").vector()
    print(f"{len(data)} decisions of mcts@{args.rounds} in {args.games} games")
    print(
        f"default: agreement {agreement(train, default):.3f} (fit half), "
        f"{agreement(test, default):.3f} (check half)"
    )
    print(f"tuned: agreement {agreement(test, tuned):.3f} (check half)", flush=True)
    w, best, step = list(default), agreement(train, default), 0.5
    for _ in range(args.sweeps):
        for k in range(len(w)):
            for sign in (1, -1):
                t = list(w)
                t[k] = round(t[k] + sign * (2 * step if k == 18 else step), 4)
                if k == 18 and t[k] < 1:  # the coin rate
                    continue
                s = agreement(train, t)
                if s > best:
                    w, best = t, s
                    break
        step /= 2
    print(f"fitted: agreement {best:.3f} (fit half), {agreement(test, w):.3f} (check half)")
    print(f"weights {w}")
    print(f"CPU {time.process_time() - t0:.0f} s")


if __name__ == "__main__":
    main()
