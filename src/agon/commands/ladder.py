"""The ``ladder`` sub-command of ``agon 7w`` and ``agon ocw``: output shared by both games."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

import click

from agon.commands.progress import progress
from agon.games.ladder import Entry, LadderRow, PlayFn, run_ladder

#: The scale-out options of simulate, balance and ladder (both games).
WORKERS_OPT = click.option(
    "--workers",
    type=click.IntRange(0, 1024),
    default=1,
    show_default=True,
    help="Local processes (0: one per CPU); the same results for any number.",
)
CLUSTER_OPT = click.option(
    "--cluster",
    default=None,
    metavar="ADDRESS",
    help="Run on Ray (agon-tournaments[cluster]): HOST:6379, 'auto', or 'local' (a private one with "
    "--workers CPUs).  The same results as one process.",
)


def ladder_output(
    entries: Sequence[Entry],
    play: PlayFn,
    *,
    game: str,
    players: int,
    games: int,
    seed: str,
    as_json: bool,
    workers: int = 1,
    cluster: str | None = None,
) -> None:
    """Run the ladder and print it (a progress bar on a terminal, never when piped or --json)."""
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    with progress(games, "games", quiet=as_json) as tick:
        rows = run_ladder(
            entries,
            play,
            players=players,
            games=games,
            seed=seed,
            on_game=tick,
            workers=workers,
            cluster=cluster,
        )
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    if as_json:
        doc = {
            "game": game,
            "games": games,
            "players": players,
            "seed": seed,
            "ladder": [_row_json(r) for r in rows],
        }
        click.echo(json.dumps(doc, indent=2))
        return
    width = max(len("bot"), *(len(r.entry) for r in rows))
    click.echo(
        f"{game} ladder: {games} games of {players}, seed {seed!r} ({wall:.1f} s, {cpu:.1f} s CPU)"
    )
    click.echo(
        f"{'#':>3}  {'bot':<{width}}  ordinal     mu  sigma  games   win rate (95% CI)  mean rank"
    )
    for i, r in enumerate(rows, start=1):
        click.echo(
            f"{i:>3}  {r.entry:<{width}}  {r.ordinal:>7.2f}  {r.mu:>5.2f}  {r.sigma:>5.2f}  "
            f"{r.games:>5}   {100 * r.win_rate:>5.1f}% ({100 * r.win_low:.0f}–{100 * r.win_high:.0f}%)"
            f"  {r.mean_rank:>9.2f}"
        )


def _row_json(r: LadderRow) -> dict[str, object]:
    return {
        "bot": r.entry,
        "mu": round(r.mu, 6),
        "sigma": round(r.sigma, 6),
        "ordinal": round(r.ordinal, 6),
        "games": r.games,
        "wins": r.wins,
        "win_rate": round(r.win_rate, 6),
        "win_ci95": [round(r.win_low, 6), round(r.win_high, 6)],
        "mean_rank": round(r.mean_rank, 6),
    }
