"""``agon rating`` and ``agon series``: ratings and series standings across events.

An event is named by the path of an event file, or by the slug of a tournament in the database
(``AGON_DATABASE_URL``); a series file names its events the same way (``file`` or ``tournament``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from agon.errors import InvalidInput
from agon.tournament.event import Event, load_event
from agon.tournament.ruleset import Ruleset


def _from_database(slugs: Sequence[str]) -> dict[str, tuple[Event, Ruleset]]:
    """The tournaments ``slugs`` from the database, as events with their rulesets."""
    if not slugs:
        return {}
    from agon.commands._common import open_session
    from agon.services.core import get_tournament_row, ruleset_of
    from agon.services.exchange import event_of

    out = {}
    with open_session() as session:
        for slug in slugs:
            row = get_tournament_row(session, slug)
            out[slug] = (event_of(session, tournament=slug), ruleset_of(row))
    return out


def load_events(
    names: Sequence[str], *, base_dir: Path | None = None
) -> list[tuple[Event, Ruleset]]:
    """Each name as an event file when such a file exists (or it looks like one), else as the
    slug of a tournament in the database."""

    def path_of(name: str) -> Path | None:
        path = Path(name) if base_dir is None else base_dir / name
        if path.suffix.lower() in (".json", ".yaml", ".yml") or path.exists():
            return path
        return None

    slugs = [n for n in names if path_of(n) is None]
    stored = _from_database(slugs)
    return [load_event(p) if (p := path_of(n)) is not None else stored[n] for n in names]


def seeding_ratings(sources: Sequence[str]) -> dict[str, float]:
    """The ordinals to seed a tournament by: one ratings file as ``agon rating --json`` prints it
    (``{"ratings": [{"player", "ordinal", …}]}``), or EVENT... rated on the spot.

    Raises:
        InvalidInput: a ratings file of the wrong shape, or a ratings file among other sources.
    """
    from agon.profiles.profiles import PROFILE_ID
    from agon.ratings import rate_events
    from agon.services.rounds import PROFILE_KEY
    from agon.tournament.safeload import load_document

    docs = []
    for name in sources:
        path = Path(name)
        if path.suffix.lower() == ".json" and path.is_file():
            doc = load_document(path)
            if isinstance(doc, dict) and "ratings" in doc and "players" not in doc:
                docs.append((path, doc))
    if not docs:
        rated = rate_events(load_events(sources)).ratings
        by_name = {str(r.player): r.ordinal for r in rated}
        by_profile = {
            f"{PROFILE_KEY}{r.player.profile}": r.ordinal for r in rated if r.player.profile
        }
        return by_name | by_profile
    if len(sources) > 1:
        raise InvalidInput(
            f"{docs[0][0]}: a ratings file seeds alone; give either one ratings file or events"
        )
    path, doc = docs[0]
    rows = doc["ratings"]
    out: dict[str, float] = {}
    if not isinstance(rows, list):
        raise InvalidInput(f"{path}: field 'ratings' must be a list of players")
    for i, row in enumerate(rows, start=1):
        player = row.get("player") if isinstance(row, dict) else None
        ordinal = row.get("ordinal") if isinstance(row, dict) else None
        if (
            not isinstance(player, str)
            or not isinstance(ordinal, int | float)
            or isinstance(ordinal, bool)
            or not math.isfinite(ordinal)
            or abs(ordinal) > 1e6
        ):
            raise InvalidInput(
                f"{path}: ratings[{i}]: needs 'player' (a name) and 'ordinal' (a number within ±1e6)"
            )
        if player in out:
            raise InvalidInput(f"{path}: ratings[{i}]: player {player!r} is listed twice")
        out[player] = float(ordinal)
        profile = row.get("profile")
        if profile is not None:
            if not isinstance(profile, str) or not PROFILE_ID.match(profile):
                raise InvalidInput(f"{path}: ratings[{i}]: 'profile' must be a profile's id")
            out[f"{PROFILE_KEY}{profile}"] = float(ordinal)
    return out


@click.command("rating")
@click.argument("events", nargs=-1, required=True, metavar="EVENT...")
@click.option("--json", "as_json", is_flag=True, help="Print the ratings as JSON.")
@click.option("--history", "history_of", metavar="PLAYER", help="Show one player's games.")
@click.option("--top", type=click.IntRange(1, 100_000), help="Show only the first N players.")
def rating_command(
    events: tuple[str, ...], as_json: bool, history_of: str | None, top: int | None
) -> None:
    """Rate players over EVENT... in the order given (Plackett–Luce, openskill).

    EVENT is an event file, or the slug of a tournament in the database. Every table is one game;
    its seats are ranked by the event's ruleset, equal seats tie. Players are the same person
    across events when name and tag agree. The list is ordered by ordinal = mu - 3 sigma.
    """
    from agon.ratings import rate_events

    result = rate_events(load_events(events))
    rows = result.ratings[:top] if top else result.ratings
    history = None
    if history_of is not None:
        who = result.find(history_of)
        history = [
            {
                "event": step.game.event,
                "round": step.game.round,
                "table": step.game.table,
                "final": step.game.final,
                "rank": step.rank,
                "players": len(step.game.ranks),
                "mu_before": round(step.mu_before, 6),
                "mu": round(step.mu, 6),
                "sigma": round(step.sigma, 6),
            }
            for step in result.history[who]
        ]
    if as_json:
        doc: dict[str, Any] = {"ratings": [r.as_json() for r in rows]}
        if history is not None:
            doc["history"] = {"player": history_of, "games": history}
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    if history is not None:
        click.echo(f"{history_of}: {len(history)} games")
        for h in history:
            final = " (final)" if h["final"] else ""
            click.echo(
                f"  {h['event']}, round {h['round']}{final}, table {h['table']}: "
                f"rank {h['rank']} of {h['players']}, mu {h['mu_before']:.2f} -> {h['mu']:.2f} "
                f"(sigma {h['sigma']:.2f})"
            )
        return
    width = max([len("player"), *(len(str(r.player)) for r in rows)])
    click.echo(f"{'#':>4}  {'player':<{width}}  {'ordinal':>7}  {'mu':>6}  {'sigma':>5}  games")
    for i, r in enumerate(rows, start=1):
        click.echo(
            f"{i:>4}  {r.player!s:<{width}}  {r.ordinal:>7.2f}  {r.mu:>6.2f}  {r.sigma:>5.2f}  "
            f"{r.games:>5}"
        )


@click.command("series")
@click.argument("series_file", metavar="SERIES.toml", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the series standings as JSON.")
def series_command(series_file: str, as_json: bool) -> None:
    """The standings of a series: points per place in each event, best k of n counted,
    qualification spots, tie-breaks — with the reason for every place."""
    from contextlib import nullcontext

    from agon.series import describe, reason
    from agon.services.series import needs_database, read_series, series_standings

    path = Path(series_file)
    series = read_series(path)
    if needs_database(series):
        from agon.commands._common import open_session

        opened: Any = open_session()
    else:
        opened = nullcontext(None)
    with opened as session:
        rows = series_standings(session, path=path, series=series).rows
    if as_json:
        doc = {"series": describe(series), "standings": [row.as_json() for row in rows]}
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    counted = f"best {series.best} of {len(series.events)}" if series.best else "every event"
    click.echo(f"{series.name} — {len(series.events)} events, {counted} counted")
    width = max([len("player"), *(len(str(r.player)) for r in rows)])
    for row in rows:
        mark = "Q" if row.qualified else " "
        per_event = ", ".join(
            f"{e.event} {e.place}. ({_fmt(e.points)}{'' if e.counted else ', not counted'})"
            for e in row.events
        )
        click.echo(
            f"{row.rank:>4} {mark} {row.player!s:<{width}}  {_fmt(row.points):>6}  {per_event}"
            f"  — {reason(row)}"
        )
    if series.qualify:
        click.echo(f"Q: qualified (the first {series.qualify})")


def _fmt(value: Any) -> str:
    from fractions import Fraction

    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"
