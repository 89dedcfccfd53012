"""``agon 7w``: score a sheet, play against bots in the terminal, simulate bot matches."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

import click

from agon.commands.ladder import CLUSTER_OPT, WORKERS_OPT
from agon.commands.progress import Tick, progress
from agon.cores import FALLBACK_NOTE
from agon.errors import InvalidInput
from agon.games.botspec import seat_bots
from agon.games.distribute import PROGRESS_STEPS, chunks, cpu_workers
from agon.games.ladder import SEVEN_WONDERS_BOTS
from agon.games.seven_wonders import sim
from agon.games.seven_wonders.bots import Bot, make_bot
from agon.games.seven_wonders.engine import GENERATORS, Action, Game, Generator
from agon.games.seven_wonders.fast import (
    CORE_BOTS,
    SIMULATE_GENERATOR,
    Engine,
    native_available,
    simulate_bots,
)
from agon.games.seven_wonders.scoresheet import FIELDS, score_sheet
from agon.tournament.safeload import load_document


@click.group(name="7w")
def group() -> None:
    """7 Wonders (first edition base game): score sheets, play, simulate."""


@group.command()
@click.argument("cities", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def score(cities: Path, as_json: bool) -> None:
    """Score the cities of a sheet (CITIES.json, seat order)."""
    data = load_document(cities)
    result = score_sheet(data, str(cities))
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    head = ["player", *FIELDS, "total"]
    click.echo("  ".join(f"{h:>10}" for h in head))
    for row in result["scores"]:
        click.echo("  ".join(f"{row[h]!s:>10}" for h in head))


#: ``--bots`` of simulate, balance and play (agon.games.botspec: the same for both games).
BOTS_HELP = (
    "random, heuristic, mcts, ismcts: one name for every seat, one per seat, or a list that repeats "
    "evenly (random,heuristic)."
)


def _bots(
    spec: str, players: int, seed: int, seconds: float, engine: str = "auto"
) -> tuple[list[str], list[Bot]]:
    kinds = seat_bots(spec, players, SEVEN_WONDERS_BOTS)
    bots = [
        make_bot(k, seed * 1000 + p, seconds=seconds, engine=engine) for p, k in enumerate(kinds)
    ]
    return kinds, bots


def _simulate(
    players: int,
    games: int,
    kinds: list[str],
    seed: int,
    seconds: float,
    engine: Engine,
    workers: int,
    cluster: str | None,
    tick: Tick,
    generator: Generator = SIMULATE_GENERATOR,
) -> tuple[str, list[float], list[float], dict[str, list[float]], list[dict[str, int]]]:
    """The games of ``agon 7w simulate``: the engine used, mean score and wins per seat, per
    bot ``[seats played, points, wins]``, and per seat how many games each bot played there;
    ``tick(done)`` as games finish (the same games however they are cut).

    The bots rotate seats game by game, as in ``agon ocw simulate`` and both ``balance``
    commands (docs/cli.md): game ``i`` seats ``kinds[(p + i) % players]`` at seat p
    (:mod:`agon.games.seven_wonders.sim`). When every seat has the same bot, rotating changes
    nothing, and the games run in one batch on the compiled core.
    """
    wins = [0.0] * players
    if workers != 1 or cluster is not None or len(set(kinds)) > 1:
        used = sim.resolve_engine(engine, kinds, seed, games)
        spec = sim.Spec(
            players, tuple(kinds), seed, used, seconds, engine, rotate=True, generator=generator
        )
        records = sim.simulate(
            spec, games, workers=workers, cluster=cluster, on_progress=tick.callback()
        )
        tick(games)
        sums = [0.0] * players
        by_bot: dict[str, list[float]] = {k: [0, 0.0, 0.0] for k in kinds}
        seat_bots: list[dict[str, int]] = [{} for _ in range(players)]
        for r in records:
            for p in range(players):
                seat_bots[p][r.bots[p]] = seat_bots[p].get(r.bots[p], 0) + 1
                sums[p] += r.totals[p]
                wins[p] += r.wins[p]
                row = by_bot[r.bots[p]]
                row[0] += 1
                row[1] += r.totals[p]
                row[2] += r.wins[p]
        search = bool({"mcts", "ismcts"} & set(kinds)) and engine != "python"
        label = "python, search rollouts native" if used == "python" and search else used
        if workers != 1 or cluster is not None:
            where = f"Ray {cluster}" if cluster is not None else f"{cpu_workers(workers)} processes"
            label = f"{label}, {where}"
        return label, [x / games for x in sums], wins, by_bot, seat_bots
    kind = kinds[0]
    if kind in CORE_BOTS:
        totals = [0] * players
        used = engine
        steps = PROGRESS_STEPS if tick.shown else 1  # consecutive seeds: the same games
        for a, b in chunks(games, steps):
            stats = simulate_bots(
                players, b - a, seed + a, kinds, engine=engine, generator=generator
            )
            totals = [x + y for x, y in zip(totals, stats.score_sums, strict=True)]
            wins = [x + y for x, y in zip(wins, stats.wins, strict=True)]
            used = stats.engine
            tick(b)
        return (
            used,
            [x / games for x in totals],
            wins,
            {kind: [players * games, float(sum(totals)), sum(wins)]},
            [{kind: games} for _ in range(players)],
        )
    if engine == "native" and not native_available():
        raise InvalidInput("--engine native: the compiled core is not installed")
    search = bool({"mcts", "ismcts"} & set(kinds)) and engine != "python" and native_available()
    scores: list[list[int]] = [[] for _ in range(players)]
    for g_i in range(games):
        _, bots = _bots(",".join(kinds), players, seed + g_i, seconds, engine)
        game = Game(players, seed + g_i, generator=generator)
        while not game.over:
            game.step_unchecked({p: bots[p].act(game, p) for p in game.to_act()})
        for score in game.scores():
            scores[score.player].append(score.total)
        winners = game.winners()
        for w in winners:
            wins[w] += 1 / len(winners)
        tick(g_i + 1)
    used = "python, search rollouts native" if search else "python"
    points = float(sum(sum(t) for t in scores))
    return (
        used,
        [statistics.fmean(t) for t in scores],
        wins,
        {kind: [players * games, points, sum(wins)]},
        [{kind: games} for _ in range(players)],
    )


@group.command()
@click.option("--players", type=click.IntRange(3, 7), default=5, show_default=True)
@click.option("--games", type=click.IntRange(1), default=10, show_default=True)
@click.option(
    "--bots",
    "bot_spec",
    default="random",
    show_default=True,
    help=BOTS_HELP + "  They rotate seats game by game.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--seconds",
    type=float,
    default=0.5,
    show_default=True,
    help="Search time per move (mcts, ismcts).",
)
@click.option(
    "--engine",
    type=click.Choice(["auto", "python", "native"]),
    default="auto",
    show_default=True,
    help="Random and heuristic bots and the search bot's rollouts: the compiled core "
    "(native), the Python engine, or the core if installed (auto).  Both play the same games.",
)
@click.option(
    "--generator",
    type=click.Choice(GENERATORS),
    default=SIMULATE_GENERATOR,
    show_default=True,
    help="The games' random generator (the deal, wonders, sides and guilds): splitmix is "
    "cheaper to seed; mt, CPython's Mersenne Twister, deals as stored and online games do.",
)
@WORKERS_OPT
@CLUSTER_OPT
@click.option("--json", "as_json", is_flag=True)
def simulate(
    players: int,
    games: int,
    bot_spec: str,
    seed: int,
    seconds: float,
    engine: Engine,
    generator: Generator,
    workers: int,
    cluster: str | None,
    as_json: bool,
) -> None:
    """Play bot-only games and report speed, mean scores and wins per seat and per bot (the
    bots rotate seats game by game, so every bot plays every seat)."""
    if engine == "auto" and not native_available():
        click.echo(FALLBACK_NOTE, err=True)
    kinds, _ = _bots(bot_spec, players, seed, seconds)
    start = time.perf_counter()
    with progress(games, "games", quiet=as_json) as tick:
        used, mean, wins, bots, seat_bots = _simulate(
            players, games, kinds, seed, seconds, engine, workers, cluster, tick, generator
        )
    seconds_used = time.perf_counter() - start
    result: dict[str, Any] = {
        "games": games,
        "players": players,
        "engine": used,
        "seconds": round(seconds_used, 3),
        "games_per_second": round(games / seconds_used, 2),
        "rotate": True,
        "generator": generator,
        "seats": [
            {"seat": p, "mean_score": round(mean[p], 2), "wins": wins[p]} for p in range(players)
        ],
        "bots": {
            k: {
                "seats_played": int(row[0]),
                "mean_score": round(row[1] / row[0], 2),
                "wins": row[2],
            }
            for k, row in bots.items()
        },
        "wins_by_bot": {k: row[2] for k, row in bots.items()},
        "seat_bots": seat_bots,
    }
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(
        f"games {games}  seconds {result['seconds']}  games/s {result['games_per_second']}  "
        f"engine {used}"
    )
    for row in result["seats"]:
        click.echo(f"seat {row['seat']}  mean score {row['mean_score']:>6}  wins {row['wins']:g}")
    for k, row in result["bots"].items():
        click.echo(
            f"{k:<9}  mean score {row['mean_score']:>6}  wins {row['wins']:g} of "
            f"{row['seats_played']} seats"
        )


def _show(game: Game, player: int) -> None:
    obs = game.observation(player)
    click.echo(f"\n== age {obs.age}, turn {obs.turn} ({obs.phase}) ==")
    for p, c in enumerate(obs.cities):
        mark = "*" if p == player else " "
        click.echo(
            f"{mark} seat {p} {c.wonder} {c.side} stages {c.stages_built} coins {c.coins} "
            f"shields {c.shields} military {c.military}: {', '.join(c.cards) or '-'}"
        )
    click.echo(f"your hand: {', '.join(obs.hand)}")


@group.command()
@click.option("--players", type=click.IntRange(3, 7), default=5, show_default=True)
@click.option("--seat", default="human", show_default=True, help="'human' sits at seat 0.")
@click.option(
    "--bots",
    "bot_spec",
    default="heuristic",
    show_default=True,
    help="The other seats' bots: " + BOTS_HELP,
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--seconds", type=float, default=0.5, show_default=True)
def play(players: int, seat: str, bot_spec: str, seed: int, seconds: float) -> None:
    """Play in the terminal against bots (type an action number or its text).

    A possible build typed with a coin split that does not work is paid the cheapest legal way
    (Bonn 2018); an impossible one is refused with the reason.
    """
    if seat != "human":
        raise InvalidInput(f"--seat: only 'human' is supported, got {seat!r}")
    kinds = seat_bots(bot_spec, players - 1, SEVEN_WONDERS_BOTS)
    game = Game(players, seed)
    human = 0
    bots = {
        p: make_bot(kind, seed * 1000 + p, seconds=seconds)
        for p, kind in zip([p for p in range(players) if p != human], kinds, strict=True)
    }
    while not game.over:
        joint: dict[int, Action] = {}
        for p in game.to_act():
            if p != human:
                joint[p] = bots[p].act(game, p)
                continue
            _show(game, p)
            legal = game.legal_actions(p)
            for i, a in enumerate(legal):
                click.echo(f"  {i:>2}. {a}")
            while True:
                answer = click.prompt("your action", type=str).strip()
                try:
                    chosen = legal[int(answer)] if answer.isdigit() else Action.parse(answer)
                except (IndexError, InvalidInput) as exc:
                    click.echo(f"not an action: {exc}")
                    continue
                resolved = game.resolve(p, chosen)
                if resolved is None:
                    click.echo(f"not possible: {chosen}: {game.why_illegal(p, chosen)}")
                    continue
                if resolved != Action(chosen.kind, chosen.card, chosen.left, chosen.right):
                    click.echo(f"that coin split does not work; paid the cheapest way: {resolved}")
                joint[p] = resolved
                break
        game.step(joint)
    click.echo("\n== final scores ==")
    for s in game.scores():
        parts = " ".join(f"{f} {getattr(s, f)}" for f in FIELDS)
        click.echo(f"seat {s.player}: {parts} total {s.total}")
    click.echo(f"winner(s): {', '.join(map(str, game.winners()))}")


@group.command()
@click.option(
    "--bots",
    "bot_spec",
    default="random,heuristic,mcts@50",
    show_default=True,
    help="Ladder entries: random, heuristic, mcts, ismcts; a budget per move as mcts@200 (rounds, "
    "reproducible) or mcts@0.5s (seconds).",
)
@click.option("--players", type=click.IntRange(3, 7), default=3, show_default=True)
@click.option("--games", type=click.IntRange(1, 1_000_000), default=30, show_default=True)
@click.option("--seed", default="ladder", show_default=True)
@click.option("--engine", type=click.Choice(["auto", "python", "native"]), default="auto")
@WORKERS_OPT
@CLUSTER_OPT
@click.option("--json", "as_json", is_flag=True)
def ladder(
    bot_spec: str,
    players: int,
    games: int,
    seed: str,
    engine: str,
    workers: int,
    cluster: str | None,
    as_json: bool,
) -> None:
    """Seeded games between bot kinds, rated (Plackett-Luce) with win rates and 95% CIs."""
    from agon.commands.ladder import ladder_output
    from agon.games.ladder import SEVEN_WONDERS_BOTS, parse_entries, seven_wonders_play

    if engine == "native" and not native_available():
        raise InvalidInput("--engine native: the compiled core is not installed")
    entries = parse_entries(bot_spec, SEVEN_WONDERS_BOTS)
    ladder_output(
        entries,
        seven_wonders_play(engine),
        game="7 Wonders",
        players=players,
        games=games,
        seed=seed,
        as_json=as_json,
        workers=workers,
        cluster=cluster,
    )


@group.command()
@click.option("--players", type=click.IntRange(3, 7), default=5, show_default=True)
@click.option("--games", type=click.IntRange(1, 100_000_000), default=1000, show_default=True)
@click.option(
    "--bots",
    "bot_spec",
    default="heuristic",
    show_default=True,
    help=BOTS_HELP + "  They rotate seats game by game.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--seconds",
    type=float,
    default=0.5,
    show_default=True,
    help="Search time per move (mcts, ismcts).",
)
@click.option("--engine", type=click.Choice(["auto", "python", "native"]), default="auto",
              show_default=True)  # fmt: skip
@WORKERS_OPT
@CLUSTER_OPT
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Also draw the report: FILE.svg or FILE.png (agon-tournaments[plot]).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True)
def balance(
    players: int,
    games: int,
    bot_spec: str,
    seed: int,
    seconds: float,
    engine: str,
    workers: int,
    cluster: str | None,
    plot_file: Path | None,
    as_json: bool,
) -> None:
    """Balance report: win rate and mean margin (points minus the best opponent's), with 95%
    intervals, by wonder, side, board (wonder and side), seat and bot.

    Game i is Game(players, SEED + i): the seed deals the wonders and draws the sides, so no
    choice order confounds them.  The cards and wonders are the base game's (fixed).
    """
    from agon.games.balance import plot, report, text

    kinds, _ = _bots(bot_spec, players, seed, seconds)
    used = sim.resolve_engine(engine, kinds, seed, games)
    spec = sim.Spec(players, tuple(kinds), seed, used, seconds, engine, rotate=True)
    with progress(games, "games", quiet=as_json) as tick:
        records = sim.simulate(
            spec, games, workers=workers, cluster=cluster, on_progress=tick.callback()
        )
    rep = report(sim.outcomes(records), sim.BALANCE_FACTORS)
    title = f"7 Wonders, {players} players, bots {bot_spec}"
    if plot_file is not None:
        plot(rep, plot_file, title, "points")
    if as_json:
        out = {
            **rep.as_json(),
            "game": "7-wonders",
            "seed": seed,
            "bots": bot_spec,
            "engine": used,
            "assign": "random (the seed deals wonders and sides)",
            "margin": "own points minus the best opponent's",
        }
        click.echo(json.dumps(out, indent=2, sort_keys=True))
        return
    click.echo(f"engine {used}; wonders and sides dealt at random by the seed")
    for line in text(rep, title, "points"):
        click.echo(line)
    if plot_file is not None:
        click.echo(f"plot: {plot_file}")
