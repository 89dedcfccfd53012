"""7 Wonders: tune the heuristic's weights by self-play, for the ``ismcts`` bot's own moves.

One seat plays the heuristic with the candidate weights, the four others the default heuristic
(the policy every bot plays, and the model the ``ismcts`` search has of the other players), in
``--games`` 5-player games of the compiled core (game ``i`` seeded ``--seed + i``, the tuned
seat ``i % 5``; the same games for every candidate: common random numbers).  The score of a set
of weights is the search's own reward averaged over the games: the margin to the best other seat
in tens of points plus 1 for a win (1/2 for a tie).

Coordinate search: for each weight in turn try it plus and minus its step; keep the better if it
raises the score; after each sweep the steps halve.  Finally both the default and the tuned
weights are scored on ``--games`` fresh games (seeds from ``--check-seed``) with the mean
margin, the win rate and the paired difference's standard error.  Seeded and deterministic:
the same command prints the same weights.

    python bench/tune_heuristic.py --games 200 --sweeps 1

The last lines are the tuned set in the form of ``data/heuristic.toml``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from agon.games.seven_wonders import core
from agon.games.seven_wonders.data import (
    HEURISTIC_FIELDS,
    HeuristicWeights,
    heuristic_weights,
)

PLAYERS = 5


def per_game(weights: list[float], games: int, seed: int) -> list[tuple[float, float, float]]:
    """(reward, margin, win) of the tuned seat in each game: ``games / 5`` games with the
    tuned seat in each seat ``s``, seeded ``seed + s * 10**7 + j``."""
    native = core.require_native()
    blocks = []
    for seat in range(PLAYERS):
        ws: list[list[float] | None] = [None] * PLAYERS
        ws[seat] = weights
        n = len(range(seat, games, PLAYERS))
        blocks.append(native.heuristic_games(PLAYERS, n, seed + seat * 10**7, ws))
    out: list[tuple[float, float, float]] = []
    for i in range(games):
        seat = i % PLAYERS
        res = blocks[seat][i // PLAYERS]
        mine = res[seat]
        best = max(v for q, v in enumerate(res) if q != seat)
        win = 1.0 if mine > best else 0.5 if mine == best else 0.0
        margin = float(mine[0] - best[0])
        out.append((margin / 10 + win, margin, win))
    return out


def score(weights: list[float], games: int, seed: int) -> float:
    return statistics.fmean(r[0] for r in per_game(weights, games, seed))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000, help="games per evaluation")
    ap.add_argument("--seed", type=int, default=1_000_000)
    ap.add_argument("--check-seed", type=int, default=9_000_000)
    ap.add_argument("--sweeps", type=int, default=4)
    ap.add_argument("--step", type=float, default=0.5, help="first step (VP; coin rate: x2)")
    args = ap.parse_args()
    t0 = time.process_time()
    base = heuristic_weights("default").vector()
    names: list[str] = []
    for name in HEURISTIC_FIELDS:
        x = getattr(heuristic_weights("default"), name)
        if isinstance(x, tuple):
            names.extend(f"{name}[{k}]" for k in range(3))
        else:
            names.append(name)
    w = list(base)
    best = score(w, args.games, args.seed)
    print(f"default: score {best:.4f} over {args.games} games", flush=True)
    step = args.step
    for sweep in range(args.sweeps):
        changed = 0
        for k, name in enumerate(names):
            d = step * 2 if name == "coin_rate" else step
            trial_best, trial_w = best, None
            for sign in (1, -1):
                t = list(w)
                t[k] = round(t[k] + sign * d, 4)
                if name == "coin_rate" and t[k] < 1.0:
                    continue
                s = score(t, args.games, args.seed)
                if s > trial_best:
                    trial_best, trial_w = s, t
            if trial_w is not None:
                print(
                    f"sweep {sweep} step {d}: {name} {w[k]} -> {trial_w[k]}: score "
                    f"{best:.4f} -> {trial_best:.4f}",
                    flush=True,
                )
                w, best = trial_w, trial_best
                changed += 1
        print(f"sweep {sweep}: {changed} changes, score {best:.4f}", flush=True)
        step /= 2
    a = per_game(base, args.games, args.check_seed)
    b = per_game(w, args.games, args.check_seed)
    n = len(a)
    for label, col in (("reward", 0), ("margin (VP)", 1), ("wins", 2)):
        diff = [y[col] - x[col] for x, y in zip(a, b, strict=True)]
        print(
            f"check on {n} fresh games, {label}: default {statistics.fmean(x[col] for x in a):.4f}"
            f", tuned {statistics.fmean(y[col] for y in b):.4f}, difference "
            f"{statistics.fmean(diff):+.4f} +- {statistics.stdev(diff) / math.sqrt(n):.4f}"
        )
    print(f"CPU {time.process_time() - t0:.0f} s")
    print("[tuned]")
    tuned = HeuristicWeights.from_vector(w)
    for name in HEURISTIC_FIELDS:
        x = getattr(tuned, name)
        text = "[" + ", ".join(f"{e:g}" for e in x) + "]" if isinstance(x, tuple) else f"{x:g}"
        print(f"{name} = {text}")


if __name__ == "__main__":
    main()
