"""Speed-up per added CPU of a balance run spread over local processes (and optionally Ray).

The workload is a One Card Wonder balance run as ``agon ocw balance --assign random`` plays it
(4 players, heuristic bots, the Python engine: the random-setup mode is Python only), and a 7
Wonders one as ``agon 7w balance --engine python`` plays it (5 heuristic bots).  Each is played
with 1 worker and with 2 (and with ``--ray`` on a private Ray cluster of 2 CPUs); the script
checks that every run returned exactly the records of the single-process run (after one
warm-up run on this process, so loading data files is not charged to the first), and prints wall
time, CPU time (this process plus its worker processes, from ``resource.getrusage``; Ray's
workers are not children and are not counted) and the speed-up ``wall(1) / wall(N)``.

The machine these figures come from is shared and loaded, so the wall-clock speed-up measures
the load as much as agon: read it with the CPU times.

A third workload is a search-bot ladder, CPU-heavy per game (so the pool's and Ray's overhead
per chunk matter little): ``agon 7w ladder --bots ismcts@100,mcts@20,heuristic --players 3``
with iteration budgets (reproducible), checked to give the same table on every configuration.

    .venv/bin/python bench/scale_out.py [ocw_games] [7w_games] [ladder_games] [--ray] [--ladder-only]
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Callable
from typing import Any

from agon.games.ladder import SEVEN_WONDERS_BOTS, parse_entries, run_ladder, seven_wonders_play
from agon.games.one_card_wonder import sim as ocw_sim
from agon.games.one_card_wonder.engine import Variant
from agon.games.seven_wonders import sim as sw_sim


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(run: Callable[[], list[Any]]) -> tuple[list[Any], float, float]:
    wall, cpu = time.perf_counter(), cpu_seconds()
    out = run()
    return out, time.perf_counter() - wall, cpu_seconds() - cpu


def bench(name: str, games: int, play: Callable[[int, str | None], list[Any]], ray: bool) -> None:
    play(1, None)  # warm-up: data files, caches and lazy imports, so the runs compare fairly
    base, wall1, cpu1 = measure(lambda: play(1, None))
    print(f"{name}: {games} games")
    print(f"  1 worker   wall {wall1:7.2f} s  CPU {cpu1:7.2f} s  {games / wall1:7.1f} games/s")
    configs: list[tuple[str, int, str | None]] = [("2 workers", 2, None)]
    if ray:
        configs.append(("Ray 2 CPUs", 2, "local"))
    for label, workers, cluster in configs:
        out, wall, cpu = measure(lambda w=workers, c=cluster: play(w, c))
        same = "same records" if out == base else "RECORDS DIFFER"
        print(
            f"  {label:10} wall {wall:7.2f} s  CPU {cpu:7.2f} s  {games / wall:7.1f} games/s  "
            f"speed-up {wall1 / wall:4.2f}  ({same})"
        )


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    ray = "--ray" in sys.argv
    ocw_games = int(args[0]) if args else 200
    sw_games = int(args[1]) if len(args) > 1 else 100
    ladder_games = int(args[2]) if len(args) > 2 else 0
    ladder_only = "--ladder-only" in sys.argv
    if ray:
        import ray as ray_module

        start = time.perf_counter()
        ray_module.init(
            num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False
        )
        print(f"Ray start-up: {time.perf_counter() - start:.1f} s wall")
    if ladder_games:
        entries = parse_entries("ismcts@100,mcts@20,heuristic", SEVEN_WONDERS_BOTS)
        bench(
            "7 Wonders ladder, ismcts@100 / mcts@20 / heuristic, 3 players, compiled core",
            ladder_games,
            lambda w, c: run_ladder(
                entries,
                seven_wonders_play(),
                players=3,
                games=ladder_games,
                seed="speed",
                workers=w,
                cluster=c,
            ),
            ray,
        )
    if ladder_only:
        if ray:
            ray_module.shutdown()
        return
    variant = Variant(max_turns=3000, random_wonders=True, random_boards=True)
    bench(
        "One Card Wonder, 4 heuristic bots, random setup, Python engine",
        ocw_games,
        lambda w, c: ocw_sim.simulate(
            4, ocw_games, ["heuristic"], 1, variant, "python", workers=w, cluster=c
        ),
        ray,
    )
    spec = sw_sim.Spec(5, ("heuristic",) * 5, 1, "python", rotate=True)
    bench(
        "7 Wonders, 5 heuristic bots, Python engine",
        sw_games,
        lambda w, c: sw_sim.simulate(spec, sw_games, workers=w, cluster=c),
        ray,
    )
    if ray:
        ray_module.shutdown()


if __name__ == "__main__":
    main()
