"""7 Wonders search bots: CPU time per play-out of ``ismcts`` (compiled and Python) and per
rollout of ``mcts``, on the same positions.

The positions are those of seat 0 in heuristic games (5 players by default) at every
``--every``-th decision.  Each bot searches a fixed budget (``ismcts@N`` play-outs,
``mcts@N/5`` rounds of 5 rollouts), so both do the same number of games-to-the-end; the time is
CPU time of this process (``time.process_time``), which other load on the machine distorts
less than wall time.  One run on a shared machine, not a controlled measurement.

``--before REF`` also builds the compiled core of the git revision ``REF`` (see
``bench/seven_wonders.py``) and runs the compiled bots on it and on the installed core,
alternating in ``--rounds`` rounds, on the same positions with the same seeds: the play-outs
per CPU second of each, the ratio after/before (goal, issue 30: >= 2x for ``mcts`` and
``ismcts``: "met"/"not met") and whether both chose the very same moves.

    python bench/ismcts.py [--players 5] [--playouts 600] [--games 2] [--python-playouts 30]
        [--before REF [--rounds 3]]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from agon.games.seven_wonders import core
from agon.games.seven_wonders.bots import HeuristicBot, IsmctsBot, MctsBot
from agon.games.seven_wonders.engine import Action, Game
from agon.games.seven_wonders.fast import native_available
from seven_wonders import core_at, where  # bench/seven_wonders.py (this folder)

GOAL_RATIO = 2.0  # issue 30: search-bot play-outs per CPU second, >= 2x before, in one run


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


def on_core(
    module: ModuleType, bot: IsmctsBot | MctsBot, games: list[Game]
) -> tuple[float, int, list[Action]]:
    """:func:`per_playout` with the compiled core ``module`` (and the moves chosen)."""
    installed = core.native
    core.native = lambda: module  # type: ignore[assignment]  # the bots ask core.native()
    try:
        moves = []
        cpu = 0.0
        done = 0
        for g in games:  # as per_playout, keeping the moves
            if isinstance(bot, IsmctsBot):
                bot.knowledge.observe(g, 0)
            t = time.process_time()
            moves.append(bot.act(g, 0))
            cpu += time.process_time() - t
            done += (
                bot.last_iterations if isinstance(bot, IsmctsBot) else bot.last_rounds * bot.width
            )
        return cpu / max(done, 1), done, moves
    finally:
        core.native = installed  # type: ignore[method-assign]


def compare(
    name: str, make: Callable[[], IsmctsBot | MctsBot], games: list[Game], before: ModuleType
) -> None:
    """The bot ``make()`` on the core of ``--before`` and on the installed one, alternating."""
    after = core.require_native()
    rounds: list[float] = []
    rate = {"before": 0.0, "after": 0.0}
    same = True
    for _ in range(ROUNDS):
        sec_b, done_b, moves_b = on_core(before, make(), games)
        sec_a, done_a, moves_a = on_core(after, make(), games)
        rounds.append(sec_b / sec_a)
        rate["before"] += 1 / sec_b / ROUNDS
        rate["after"] += 1 / sec_a / ROUNDS
        same = same and moves_a == moves_b and done_a == done_b
    ratio = statistics.median(rounds)
    if same or splitmix_policy(before):
        moves_note = f"the very same moves: {same}"
    else:
        # REF's search bots drew their play-out policy's noise from Mersenne Twisters:
        # other play-outs, other moves (this checkout's core and Python engine agree: the tests)
        moves_note = "other play-outs by design (REF's search policy draws from a Mersenne Twister)"
    print(
        f"{name:18} before {rate['before']:8.0f}, after {rate['after']:8.0f} play-outs per CPU "
        f"second; after/before: median of {ROUNDS} rounds {ratio:.2f}x (goal >= {GOAL_RATIO:g}x: "
        f"{'met' if ratio >= GOAL_RATIO else 'not met'}); {moves_note}"
    )


def splitmix_policy(module: ModuleType) -> bool:
    """Whether the core ``module``'s search policy draws from SplitMix64 (as this checkout's)."""
    try:
        module.sm_draws(0, 1, floats=True)
    except (AttributeError, TypeError):
        return False
    return True


ROUNDS = 3


def main() -> None:
    global ROUNDS
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--playouts", type=int, default=600)
    ap.add_argument("--python-playouts", type=int, default=30)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--before", metavar="REF", help="also time the core of this git revision")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds with --before")
    args = ap.parse_args()
    ROUNDS = args.rounds
    print(f"CPU time of this process; {where()}")
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
    if args.before and native_available():
        with tempfile.TemporaryDirectory() as tmp:
            before = core_at(args.before, Path(tmp))
            compare(
                "ismcts, compiled", lambda: IsmctsBot(1, iterations=args.playouts), games, before
            )
            compare("mcts, compiled", lambda: MctsBot(1, rounds=args.playouts // 5), games, before)
    print(where())


if __name__ == "__main__":
    main()
