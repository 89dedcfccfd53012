"""``agon round …``: start (seat) a round, show it, close it, seat the final."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import click

from agon.commands._common import (
    actor_option,
    dry_run_option,
    echo_preview,
    open_session,
    resolve,
    tournament_option,
)
from agon.commands._json import echo_json, json_option, jsonable
from agon.commands._read_text import describe_round as describe_round  # re-exported
from agon.services import rounds
from agon.services.auctions import AuctionView, auction_views
from agon.services.public import RoundPublic

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from agon.services.online import OnlineRound


def _latest(slug: str) -> Callable[[Session], str]:
    """Inspect a dry run: the latest round as it would be."""

    def view(session: Session) -> str:
        session.expire_all()
        return describe_round(
            rounds.get_round(session, tournament=slug), auction_seed=auction_seed(session, slug)
        )

    return view


def auction_seed(session: Session, slug: str) -> str | None:
    """The tournament's seed if its ruleset has the wonder auction (to name the openers)."""
    from agon.services.tournaments import get_tournament, tournament_ruleset

    if not tournament_ruleset(session, slug=slug).auction:
        return None
    return get_tournament(session, slug=slug).seed


@click.group("round")
def round_group() -> None:
    """Start, show and close rounds; seat the final."""


@round_group.command("start")
@click.option(
    "--table",
    "tables",
    multiple=True,
    metavar="NAME,NAME,…",
    help="Seat a table by hand (seat order, first seat starts); repeat per table.",
)
@click.option(
    "--seed-by-rating",
    "rating_sources",
    multiple=True,
    metavar="RATINGS.json|EVENT",
    help="Round 1 only: seed by rating — a file from `agon rating --json`, or event files / "
    "tournament slugs rated on the spot; repeat per event.",
)
@click.option(
    "--online",
    is_flag=True,
    help="Play the round online: every table becomes a game in the browser (agon serve), its "
    "result is recorded by the game.",
)
@click.option(
    "--bots",
    is_flag=True,
    help="With --online: a bot takes the seat of a player who is away longer than --grace.",
)
@click.option(
    "--grace",
    type=click.IntRange(0, 240),
    default=5,
    show_default=True,
    metavar="MINUTES",
    help="With --bots: how long a seat waits for its player (never joined, or disconnected).",
)
@click.option(
    "--bot",
    type=click.Choice(["random", "heuristic", "search"]),
    default="heuristic",
    show_default=True,
    help="With --online: the bot that fills seats.",
)
@click.option(
    "--all-bots",
    is_flag=True,
    help="With --online: bots play every seat (a demonstration or a rehearsal).",
)
@dry_run_option
@tournament_option
@actor_option
def start_command(
    tables: tuple[str, ...],
    rating_sources: tuple[str, ...],
    online: bool,
    bots: bool,
    grace: int,
    bot: str,
    all_bots: bool,
    dry_run: bool,
    tournament: str | None,
    actor: str,
) -> None:
    """Seat and start the next round (the ruleset's schedule or Swiss method, or --table);
    with --online its tables are played in the browser.

    With --seed-by-rating, a Swiss round 1 spreads the strongest players over the tables (snake
    order), and the ratings decide the standings (and the final) before the lot.
    """
    from agon.services.preview import dry_run as preview

    if not online and (bots or all_bots):
        raise click.UsageError("--bots and --all-bots go with --online")
    seated = [[n.strip() for n in t.split(",") if n.strip()] for t in tables] if tables else None
    ratings = None
    if rating_sources:
        from agon.commands.ratings import seeding_ratings

        ratings = seeding_ratings(rating_sources)
    options = None
    if online:
        from agon.services.online import OnlineOptions

        options = OnlineOptions(bots=bots, bot=bot, grace_minutes=grace, all_bots=all_bots)
    with open_session() as session:
        slug = resolve(session, tournament)

        def start() -> RoundPublic:
            return rounds.start_round(
                session, tournament=slug, actor=actor, tables=seated, ratings=ratings
            )

        if dry_run:
            shown = preview(session, start, inspect=_latest(slug))
            echo_preview(shown.entries, shown.view)
            if online:
                click.echo("the tables would be played online")
            return
        if options is not None:
            from agon.services import online as online_service

            played = online_service.start_round_online(
                session,
                tournament=slug,
                actor=actor,
                tables=seated,
                options=options,
                ratings=ratings,
            )
            r = rounds.get_round(session, tournament=slug, number=played.round)
            links = describe_online(played)
        else:
            r = start()
            links = ""
        seed = auction_seed(session, slug)
    click.echo(describe_round(r, auction_seed=seed))
    if links:
        click.echo(links)


def describe_online(played: OnlineRound) -> str:
    """The online tables for the director: each table's game (or its auction to come) and how
    its seats are played. Seat links are not printed: they are each player's own."""
    from agon.services.online import watch_path

    o = played.options
    how = (
        "bots play every seat"
        if o.all_bots
        else (
            f"a {o.bot} bot takes a seat after {o.grace_minutes} minutes away"
            if o.bots
            else "no bots"
        )
    )
    lines = [f"  online ({how})"]
    for t in played.tables:
        if t.game is None:
            lines.append(f"  table {t.table}: the game starts when the auction is recorded")
            continue
        bots = [s.player for s in t.seats if s.kind == "bot"]
        if t.recorded:
            lines.append(f"  table {t.table}: game {t.game}, result recorded by the game")
            continue
        lines.append(
            f"  table {t.table}: game {t.game}, watch at {watch_path(t.game)}"
            + (f"; bots for {', '.join(bots)}" if bots and not o.all_bots else "")
        )
    return "\n".join(lines)


@round_group.command("collect")
@tournament_option
@actor_option
def collect_command(tournament: str | None, actor: str) -> None:
    """Bring the online tables up to date: record the results of finished games, start games
    whose auction is over, hand seats of absent players to bots, apply the round clock.
    (agon serve does this by itself every few seconds.)"""
    from agon.services import online as online_service

    with open_session() as session:
        slug = resolve(session, tournament)
        report = online_service.sweep(session, tournament=slug, actor=actor)
    for number, table in report.games:
        click.echo(f"round {number}, table {table}: game started")
    for number in report.time_up:
        click.echo(f"round {number}: time is up, the games finish their age")
    for number, table, player in report.bots:
        click.echo(f"round {number}, table {table}: a bot plays for {player}")
    for number, table in report.results:
        click.echo(f"round {number}, table {table}: result recorded from the game")
    if not report:
        click.echo("nothing to do")


@round_group.command("show")
@click.argument("number", type=int, required=False)
@tournament_option
@json_option
def show_command(number: int | None, tournament: str | None, as_json: bool) -> None:
    """Show round NUMBER (default: the latest) with seats, draws, results and versions."""
    with open_session() as session:
        slug = resolve(session, tournament)
        r = rounds.get_round(session, tournament=slug, number=number)
        views = auction_views(session, tournament=slug, rnd=r)
        seed = auction_seed(session, slug)
        from agon.services.online import online_round

        played = online_round(session, tournament=slug, number=r.number)
    if as_json:
        doc = round_json(slug, r, auctions=views)
        doc["online"] = None if played is None else jsonable(played)
        echo_json(doc)
        return
    click.echo(describe_round(r, auction_seed=seed, auctions=views))
    if played is not None:
        click.echo(describe_online(played))


def round_json(
    slug: str, r: RoundPublic, *, auctions: Mapping[int, AuctionView | None] | None = None
) -> dict[str, object]:
    """A round for ``--json`` (docs/cli.md): its fields (tables with seats, state, version and
    results), and with ``auctions`` each table's auction under way (or null)."""
    doc: dict[str, object] = {"tournament": slug, **jsonable(r)}
    if auctions is not None:
        doc["auctions"] = {str(t.number): jsonable(auctions.get(t.number)) for t in r.tables}
    return doc


@round_group.command("close")
@click.argument("number", type=int, required=False)
@dry_run_option
@tournament_option
@actor_option
def close_command(number: int | None, dry_run: bool, tournament: str | None, actor: str) -> None:
    """Close round NUMBER (default: the latest); refused while a table is open or pending."""
    from agon.services.preview import Preview
    from agon.services.preview import dry_run as preview

    with open_session() as session:
        slug = resolve(session, tournament)
        if dry_run:
            shown: Preview[str] = preview(
                session,
                lambda: rounds.close_round(session, tournament=slug, actor=actor, number=number),
            )
            closing = [e.payload["number"] for e in shown.entries]
            echo_preview(shown.entries, "".join(f"round {n} would be closed" for n in closing))
            return
        r = rounds.close_round(session, tournament=slug, actor=actor, number=number)
    click.echo(f"round {r.number} closed")


@round_group.command("final")
@click.option("--absent", multiple=True, metavar="NAME", help="A finalist who is not there.")
@dry_run_option
@tournament_option
@actor_option
def final_command(
    absent: tuple[str, ...], dry_run: bool, tournament: str | None, actor: str
) -> None:
    """Seat the final: the best of the standings, absent finalists replaced by the next."""
    from agon.services.preview import dry_run as preview

    with open_session() as session:
        slug = resolve(session, tournament)
        if dry_run:
            shown = preview(
                session,
                lambda: rounds.start_final(session, tournament=slug, actor=actor, absent=absent),
                inspect=_latest(slug),
            )
            echo_preview(shown.entries, shown.view)
            return
        r = rounds.start_final(session, tournament=slug, actor=actor, absent=absent)
        seed = auction_seed(session, slug)
    click.echo(describe_round(r, auction_seed=seed))


@round_group.command("auction")
@click.option("-r", "--round", "round_number", type=int, required=True, help="Round number.")
@click.option("--table", "table", type=int, required=True, help="Table number.")
@click.argument("actions", nargs=-1, required=True, metavar="ACTION…")
@tournament_option
@actor_option
def auction_command(
    round_number: int, table: int, actions: tuple[str, ...], tournament: str | None, actor: str
) -> None:
    """Record a table's wonder auction (Ludolimpico 2.1): "Anna opens babylon 2", "Ben raises 3",
    "Clara passes", … in order, to the end."""
    from agon.services import results

    with open_session() as session:
        t = results.record_auction(
            session,
            tournament=resolve(session, tournament),
            round_number=round_number,
            table=table,
            actions=actions,
            actor=actor,
        )
    click.echo(
        f"round {round_number}, table {table}: auction recorded ({len(t.auction or ())} actions)"
    )
