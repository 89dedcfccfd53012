"""Train a profile-instrumented 7 Wonders core: ``python tools/train_seven_wonders_core.py SO``.

``python tools/train_seven_wonders_core.py --compare PLAIN NEW`` instead checks that the module
``NEW`` (the profile-guided build) plays the very same games and chooses the very same moves as
``PLAIN`` (exit status 1 and the first difference when not).

``SO`` is the core compiled with gcc's ``-fprofile-generate`` (``hatch_build.py`` does that
after the plain build, for ``make``'s editable install only); this script loads it beside the
installed agon (whose data files give it its tables), runs the workloads below on it, and
exits, so that the module writes its profile (``.gcda``) for the ``-fprofile-use`` rebuild.

The workloads are the core's hot paths: random play (both deal generators, 3, 5 and 7 players),
the compiled heuristic bots, and the search bots (``ismcts@300`` and ``mcts@60x5``) at the
positions of seat 0 in heuristic games.  Everything is seeded, with other seeds than the
benches' (bench/seven_wonders.py plays seeds from 0, bench/ismcts.py searches positions of
games 500 + s with bot seed 1), so that the benches do not time their own training set.  About
five seconds of CPU on the instrumented module.

Exit status 0 when every workload ran; any error is printed and the status is 1 (the build then
keeps the plain module).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from agon.games.seven_wonders import core
from agon.games.seven_wonders.bots import HeuristicBot, IsmctsBot, MctsBot
from agon.games.seven_wonders.data import heuristic_weights
from agon.games.seven_wonders.engine import DISCARD_COINS, MILITARY_WIN, Game
from agon.games.seven_wonders.fast import generator_code
from agon.games.seven_wonders.generators import Generator

SEED = 9_000_000  # far from the benches' seeds (0.., 500.., 10_000..)


def load(so: Path) -> ModuleType:
    """The compiled core at ``so``, its tables loaded from agon's data files."""
    spec = importlib.util.spec_from_file_location("_core", so)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {so}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cards, wonders, decks, guilds = core.tables()
    module.load_tables(cards, wonders, decks, guilds, MILITARY_WIN, DISCARD_COINS)
    module.load_chain_targets(core.chain_targets())
    module.load_heuristic(heuristic_weights("default").vector())
    return module


def positions(players: int, games: int, every: int) -> list[Game]:
    """Seat 0's positions in the main phase of heuristic games (Python engine), every
    ``every``-th decision, in games ``SEED + s``."""
    out = []
    for s in range(games):
        g = Game(players, SEED + s)
        heur = [HeuristicBot(SEED + 10 * s + p) for p in range(players)]
        k = 0
        while not g.over:
            if 0 in g.to_act() and g.phase == "main":
                if k % every == 0:
                    out.append(g.clone())
                k += 1
            g.step({p: heur[p].act(g, p) for p in g.to_act()})
    return out


def train(module: ModuleType) -> None:
    generators: tuple[Generator, ...] = ("splitmix", "mt")
    for generator in generators:
        code = generator_code(generator)
        module.simulate_random(5, 3000, SEED, code)
        module.simulate_random(3, 500, SEED + 10_000, code)
        module.simulate_random(7, 300, SEED + 20_000, code)
        module.simulate_bots(5, 40, SEED + 30_000, [1, 0, 1, 0, 1], code)
    installed = core.native
    core.native = lambda: module  # type: ignore[assignment]  # the bots ask core.native()
    try:
        for players in (5, 3):
            for g in positions(players, 1, 3):
                ismcts = IsmctsBot(SEED + 1, iterations=300)
                ismcts.knowledge.observe(g, 0)
                ismcts.act(g, 0)
                MctsBot(SEED + 1, rounds=60).act(g, 0)
    finally:
        core.native = installed


def plays(module: ModuleType) -> list[object]:
    """What ``module`` plays on a few seeded workloads (for ``--compare``)."""
    out: list[object] = []
    generators: tuple[Generator, ...] = ("splitmix", "mt")
    for generator in generators:
        code = generator_code(generator)
        out.append(module.simulate_random(5, 300, SEED + 40_000, code))
        out.append(module.simulate_random(3, 100, SEED + 50_000, code))
        out.append(module.simulate_bots(4, 10, SEED + 60_000, [1, 0, 1, 1], code))
    installed = core.native
    core.native = lambda: module  # type: ignore[assignment]
    try:
        for g in positions(5, 1, 5)[:4]:
            ismcts = IsmctsBot(SEED + 2, iterations=100)
            ismcts.knowledge.observe(g, 0)
            mcts = MctsBot(SEED + 2, rounds=20)
            out.append((ismcts.act(g, 0), ismcts.last_iterations, mcts.act(g, 0), mcts.last_rounds))
    finally:
        core.native = installed
    return out


def compare(plain: ModuleType, new: ModuleType) -> int:
    for i, (a, b) in enumerate(zip(plays(plain), plays(new), strict=True)):
        if a != b:
            print(f"the builds differ on workload {i}: {a!r} != {b!r}", file=sys.stderr)
            return 1
    return 0


def main() -> int:
    args = sys.argv[1:]
    if not (len(args) == 1 or (len(args) == 3 and args[0] == "--compare")):
        print((__doc__ or "").splitlines()[0], file=sys.stderr)
        return 2
    try:
        if args[0] == "--compare":
            return compare(load(Path(args[1])), load(Path(args[2])))
        train(load(Path(args[0])))
    except Exception as e:  # any failure means: keep the plain module
        print(f"training failed: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
