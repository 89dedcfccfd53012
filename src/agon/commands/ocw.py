"""``agon ocw``: play One Card Wonder in the terminal, simulate bot games, balance report,
check content files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from agon.commands import ocw_terminal as terminal
from agon.commands.ladder import CLUSTER_OPT, WORKERS_OPT
from agon.commands.progress import progress
from agon.cores import FALLBACK_NOTE
from agon.errors import InvalidInput
from agon.games.botspec import seat_bots
from agon.games.one_card_wonder.bots import BOTS, make_bot
from agon.games.one_card_wonder.content import load_content
from agon.games.one_card_wonder.engine import Action, Game, Variant
from agon.games.one_card_wonder.sim import (
    BALANCE_FACTORS,
    ENGINES,
    outcomes,
    resolve_engine,
    simulate,
    summary,
)


def _variant(variant: tuple[str, ...], max_turns: int | None) -> Variant:
    known = {"trade", "two-card", "leaders"}
    bad = [v for v in variant if v not in known]
    if bad:
        raise InvalidInput(f"--variant {bad[0]!r}: unknown (known: {', '.join(sorted(known))})")
    return Variant(
        trade="trade" in variant,
        two_card="two-card" in variant,
        leaders="leaders" in variant,
        max_turns=max_turns,
    )


def _bots(text: str, seats: int) -> list[str]:
    return seat_bots(text, seats, tuple(BOTS))


#: ``--bots`` of simulate, balance and play (agon.games.botspec: the same for both games).
BOTS_HELP = (
    "random, heuristic, search, ismcts, ismctsh: one name for every seat, one per seat, or a list "
    "that repeats evenly (random,heuristic)."
)


VARIANT_OPT = click.option(
    "--variant",
    multiple=True,
    help="trade, two-card, leaders (repeatable).",
)
ENGINE_OPT = click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default="auto",
    show_default=True,
    help="auto: the compiled core when installed (the same games, much faster).",
)


@click.group(name="ocw")
def group() -> None:
    """One Card Wonder (Einkartenwunder): play, simulate, balance."""


@group.command()
@click.option("--players", type=int, default=4, show_default=True)
@click.option("--games", type=int, default=100, show_default=True)
@click.option("--bots", default="random", show_default=True,
              help=BOTS_HELP + "  They rotate seats game by game.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--max-turns", type=int, default=3000, show_default=True,
              help="agon's cap: a game stops without winner after this many turns.")  # fmt: skip
@VARIANT_OPT
@ENGINE_OPT
@WORKERS_OPT
@CLUSTER_OPT
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def simulate_cmd(
    players: int, games: int, bots: str, seed: int, max_turns: int, variant: tuple[str, ...],
    engine: str, workers: int, cluster: str | None, as_json: bool,
) -> None:  # fmt: skip
    """Simulate games between bots and print who won."""
    from agon.games.one_card_wonder import native  # the compiled core, loaded on demand

    if engine == "auto" and not native.available():
        click.echo(FALLBACK_NOTE, err=True)
    with progress(games, "games", quiet=as_json) as tick:
        records = simulate(
            players, games, _bots(bots, players), seed, _variant(variant, max_turns), engine,
            workers=workers, cluster=cluster, on_progress=tick.callback(),
        )  # fmt: skip
    s = summary(records)
    if as_json:
        seat_bots: list[dict[str, int]] = [{} for _ in range(players)]
        for record in records:
            for seat, bot in enumerate(record.bots):
                seat_bots[seat][bot] = seat_bots[seat].get(bot, 0) + 1
        s["rotate"] = True
        s["seat_bots"] = seat_bots  # how many games each bot played at each seat (docs/cli.md)
        click.echo(json.dumps(s, indent=2, sort_keys=True))
        return
    click.echo(f"{s['games']} games, {players} players, mean {s['mean_turns']} turns, "
               f"{s['capped']} stopped at the {max_turns}-turn cap")  # fmt: skip
    for name, row in s["by_bot"].items():
        click.echo(
            f"  {name:10} {row['wins']:5} wins of {row['played']:5} seats ({row['win_rate']:.1%})"
        )


group.add_command(simulate_cmd, name="simulate")


@group.command()
@click.option("--players", type=int, default=4, show_default=True)
@click.option("--games", type=click.IntRange(1, 100_000_000), default=400, show_default=True)
@click.option("--bots", default="heuristic", show_default=True,
              help=BOTS_HELP + "  They rotate seats game by game.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--max-turns", type=int, default=3000, show_default=True)
@VARIANT_OPT
@click.option(
    "--assign",
    type=click.Choice(["choose", "random"]),
    default="choose",
    show_default=True,
    help="choose: the bots choose wonders and boards as the rules say; random: each seat is "
    "dealt a display wonder and one of its two boards at random (no choice-order bias; "
    "played by the Python engine).",
)
@click.option(
    "--content",
    "content_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="A designer's content directory (rules/wonders/boards/leaders.toml; see 'ocw check').",
)
@ENGINE_OPT
@WORKERS_OPT
@CLUSTER_OPT
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Also draw the report: FILE.svg or FILE.png (agon-tournaments[plot]).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True)
def balance(
    players: int, games: int, bots: str, seed: int, max_turns: int, variant: tuple[str, ...],
    assign: str, content_dir: Path | None, engine: str, workers: int, cluster: str | None,
    plot_file: Path | None, as_json: bool,
) -> None:  # fmt: skip
    """Balance report: win rate and mean stage-progress margin, with 95% intervals, by wonder,
    board, leader, seat and bot over simulated games."""
    from dataclasses import replace

    from agon.games.balance import plot, report, text

    random_setup = assign == "random"
    variant_ = replace(
        _variant(variant, max_turns), random_wonders=random_setup, random_boards=random_setup
    )
    names = _bots(bots, players)
    content = load_content(content_dir) if content_dir is not None else load_content()
    used = resolve_engine(engine, players, names, variant_, content)
    with progress(games, "games", quiet=as_json) as tick:
        records = simulate(
            players, games, names, seed, variant_, engine, content_dir=content_dir,
            workers=workers, cluster=cluster, on_progress=tick.callback(),
        )  # fmt: skip
    rep = report(outcomes(records, content), BALANCE_FACTORS)
    title = f"One Card Wonder, {players} players, bots {bots}, {assign} setup"
    if plot_file is not None:
        plot(rep, plot_file, title, "stage progress points")
    if as_json:
        out = {
            **rep.as_json(),
            "game": "one-card-wonder",
            "seed": seed,
            "bots": bots,
            "assign": assign,
            "engine": used,
            "variant": sorted(variant),
            "max_turns": max_turns,
            "margin": "own stage progress minus the best opponent's, percentage points",
        }
        click.echo(json.dumps(out, indent=2, sort_keys=True))
        return
    click.echo(f"engine {used}")
    for line in text(rep, title, "stage progress points"):
        click.echo(line)
    if plot_file is not None:
        click.echo(f"plot: {plot_file}")


@group.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (docs/cli.md).")
def check(directory: Path, as_json: bool) -> None:
    """Validate a content directory (rules/wonders/boards/leaders.toml)."""
    c = load_content(directory)
    if as_json:
        doc = {
            "directory": str(directory),
            "ok": True,
            "wonders": [w.id for w in c.wonders],
            "boards": [b.id for b in c.boards],
            "leaders": [leader.id for leader in c.leaders],
        }
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    click.echo(f"ok: {len(c.wonders)} wonders, {len(c.boards)} boards, {len(c.leaders)} leaders")


def _ask(game: Game, seat: int, cause: str) -> tuple[str, Action | None]:
    """One decision of the human at ``seat``: shows what it is for and the options and reads
    an answer.  Returns ("act", action), ("back", None), ("table", None) or (reason, None)."""
    legal = game.legal_actions()
    click.echo(terminal.prompt(game, seat, cause))
    click.echo("  options: " + "  ".join(f"[{i}] {a}" for i, a in enumerate(legal)))
    answer = click.prompt("action (number, text, 'back' or 'table')", default="0").strip()
    if answer in (terminal.BACK, "table"):
        return answer, None
    if answer.isdigit():
        if int(answer) >= len(legal):
            return f"not possible: no option {answer} (0..{len(legal) - 1})", None
        return "act", legal[int(answer)]
    reason = terminal.why_not(game, seat, answer)
    if reason:
        return f"not possible: {answer}: {reason}", None
    return "act", Action.parse(answer)


@group.command()
@click.option("--players", type=int, default=3, show_default=True)
@click.option("--bots", default="heuristic", show_default=True,
              help="The other seats' bots: " + BOTS_HELP)  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 starts).")
@VARIANT_OPT
def play(players: int, bots: str, seed: int, seat: int, variant: tuple[str, ...]) -> None:
    """Play against bots in the terminal: type an action's number or its text.

    Every decision says what it is for (a payment names the stage or building, a take the
    effect); 'table' shows the table again; 'back' undoes your last choice while no other
    player has acted and nothing was drawn since.  With --variant trade the players not on
    turn may offer each other one unit for one unit before each turn.
    """
    if not 0 <= seat < players:
        raise InvalidInput(f"--seat {seat}: seats are 0..{players - 1}")
    names = _bots(bots, players - 1)
    game = Game.new(players, seed, _variant(variant, None))
    others: dict[int, Any] = {}
    it = iter(names)
    for s in range(players):
        if s != seat:
            others[s] = make_bot(next(it), seed * 100 + s)
    shown_turn = -1
    undo: list[Game] = []  # the game before each of the human's own undoable choices
    cause = ""
    while not game.over:
        who = game.current_player()
        states = terminal.leader_states(game)
        before = game.clone()
        if who != seat:
            undo.clear()
            a = others[who].choose(game)
            if not terminal.quiet(game) or a.verb != "pass":
                click.echo(f"seat {who}: {a}")
            game.apply(a)
        else:
            if game.stack[-1][0] == "turn" and game.turn != shown_turn:
                click.echo(terminal.table(game, seat))  # the whole table at each own turn
                shown_turn = game.turn
            what, chosen = _ask(game, seat, cause)
            if chosen is None:
                if what == terminal.BACK and undo:
                    game = undo.pop()
                    click.echo("back: your last choice is undone")
                elif what == terminal.BACK:
                    click.echo("back: nothing to undo (another player acted or something was "
                               "drawn since)")  # fmt: skip
                elif what == "table":
                    click.echo(terminal.table(game, seat))
                else:
                    click.echo(what)
                continue
            rng = game.rng.getstate()
            game.apply(chosen)
            if game.rng.getstate() == rng:
                undo.append(before)
            else:
                undo.clear()  # something was drawn: no going back past it
            cause = terminal.cause_of(before, game, seat, chosen) or cause
        for line in terminal.announce(states, game, seat):
            click.echo(line)
        if game.stack and game.stack[-1][0] in ("turn", "trade"):
            cause = ""
    click.echo(terminal.table(game, seat))
    if game.winner is None:
        click.echo("no winner")
    else:
        click.echo("you win!" if game.winner == seat else f"seat {game.winner} wins")


@group.command()
@click.option(
    "--bots",
    "bot_spec",
    default="random,heuristic,search",
    show_default=True,
    help="Ladder entries: random, heuristic, search, ismcts, ismctsh; search@16 searches 16 worlds "
    "per move, ismcts@300 300 iterations, ismcts@0.5s half a second.",
)
@click.option("--players", type=click.IntRange(2, 6), default=3, show_default=True)
@click.option("--games", type=click.IntRange(1, 1_000_000), default=30, show_default=True)
@click.option("--seed", default="ladder", show_default=True)
@click.option("--variant", multiple=True, help="trade, two-card, leaders (repeatable).")
@click.option("--max-turns", type=click.IntRange(1, 100_000), default=None)
@WORKERS_OPT
@CLUSTER_OPT
@click.option("--json", "as_json", is_flag=True)
def ladder(
    bot_spec: str,
    players: int,
    games: int,
    seed: str,
    variant: tuple[str, ...],
    max_turns: int | None,
    workers: int,
    cluster: str | None,
    as_json: bool,
) -> None:
    """Seeded games between bot kinds, rated (Plackett-Luce) with win rates and 95% CIs."""
    from agon.commands.ladder import ladder_output
    from agon.games.ladder import ONE_CARD_WONDER_BOTS, one_card_wonder_play, parse_entries

    entries = parse_entries(bot_spec, ONE_CARD_WONDER_BOTS)
    ladder_output(
        entries,
        one_card_wonder_play(_variant(variant, max_turns)),
        game="One Card Wonder",
        players=players,
        games=games,
        seed=seed,
        as_json=as_json,
        workers=workers,
        cluster=cluster,
    )
