"""``agon print``: PDF printouts of an event file — standings, seating lists, table cards, score sheets.

Until the seating code plans rounds, the tables of a round come from the event file, which records
the seat order of every table: that is how a director re-prints a round's sheets or cards.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from agon.errors import InvalidInput
from agon.i18n import LANGUAGES
from agon.printing import render
from agon.printing.model import RecordedRound, round_from_event
from agon.tournament.event import Event, load_event
from agon.tournament.ruleset import Ruleset
from agon.tournament.standings import compute_standings

_event_arg = click.argument("event_file", type=click.Path(dir_okay=False, path_type=Path))
_lang_opt = click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default="en",
    show_default=True,
    help="Language of the printout.",
)
_out_opt = click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the PDF (default: a name made from the printout and round).",
)
_html_opt = click.option(
    "--html", "as_html", is_flag=True, help="Write the HTML the PDF is made from instead."
)
_round_opt = click.option(
    "--round",
    "round_number",
    type=click.IntRange(min=1),
    required=True,
    help="Round number (1-based).",
)


def _write(html: str, output: Path, as_html: bool) -> None:
    if as_html:
        output.write_text(html, encoding="utf-8")
    else:
        output.write_bytes(render.to_pdf(html))
    click.echo(f"wrote {output}")


def _default(output: Path | None, stem: str, as_html: bool) -> Path:
    return output or Path(f"{stem}.{'html' if as_html else 'pdf'}")


def _load_round(event_file: Path, number: int) -> tuple[Event, Ruleset, RecordedRound]:
    event, ruleset = load_event(event_file)
    return event, ruleset, round_from_event(event, number)


@click.group("print")
def group() -> None:
    """PDF printouts (A4) of an event file, in English, German or Italian."""


@group.command("standings")
@_event_arg
@_lang_opt
@_out_opt
@_html_opt
def standings_cmd(event_file: Path, lang: str, output: Path | None, as_html: bool) -> None:
    """Print the standings of EVENT_FILE with what decided every place."""
    event, ruleset = load_event(event_file)
    html = render.standings_html(event, compute_standings(event, ruleset), lang=lang)
    _write(html, _default(output, "standings", as_html), as_html)


@group.command("seating")
@_event_arg
@_round_opt
@click.option(
    "--by",
    type=click.Choice(["name", "table"]),
    default="name",
    show_default=True,
    help="Alphabetical by player, or table by table.",
)
@_lang_opt
@_out_opt
@_html_opt
def seating_cmd(
    event_file: Path, round_number: int, by: str, lang: str, output: Path | None, as_html: bool
) -> None:
    """Print the seating list of a round (players with table and seat)."""
    event, ruleset, plan = _load_round(event_file, round_number)
    make: Callable[..., str] = (
        render.seating_by_name_html if by == "name" else render.seating_by_table_html
    )
    html = make(event, ruleset, plan, lang=lang)
    _write(html, _default(output, f"seating-round{round_number}-by-{by}", as_html), as_html)


@group.command("cards")
@_event_arg
@_round_opt
@click.option(
    "--wifi",
    "wifi_ssid",
    metavar="SSID",
    help="Print the venue's Wi-Fi network on each card, as a QR code the phones join with.",
)
@click.option(
    "--wifi-password-file",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="The network's WPA password, the first line of FILE (without it: an open network).",
)
@_lang_opt
@_out_opt
@_html_opt
def cards_cmd(
    event_file: Path,
    round_number: int,
    wifi_ssid: str | None,
    wifi_password_file: Path | None,
    lang: str,
    output: Path | None,
    as_html: bool,
) -> None:
    """Print a card per table: seats, drawn wonders and sides, guilds in play (and the Wi-Fi)."""
    from agon.commands.venue import read_wifi_password
    from agon.tournament.wifi import parse_network

    if wifi_password_file is not None and wifi_ssid is None:
        raise InvalidInput("--wifi-password-file needs --wifi SSID")
    wifi = None
    if wifi_ssid is not None:
        wifi = parse_network(ssid=wifi_ssid, password=read_wifi_password(wifi_password_file))
    event, ruleset, plan = _load_round(event_file, round_number)
    html = render.table_cards_html(event, ruleset, plan, lang=lang, wifi=wifi)
    _write(html, _default(output, f"table-cards-round{round_number}", as_html), as_html)


@group.command("sheets")
@_event_arg
@_round_opt
@click.option(
    "--url-base",
    metavar="URL",
    help="Print each table's result page URL/r<round>/t<table> as a QR code with a PIN.",
)
@click.option(
    "--seed",
    metavar="S",
    help="Secret the table PINs derive from (default: the event's seed); same seed, same PINs.",
)
@_lang_opt
@_out_opt
@_html_opt
def sheets_cmd(
    event_file: Path,
    round_number: int,
    url_base: str | None,
    seed: str | None,
    lang: str,
    output: Path | None,
    as_html: bool,
) -> None:
    """Print score sheets for a round, one page per table, like the paper score pad."""
    event, ruleset, plan = _load_round(event_file, round_number)
    links = None
    if url_base:
        links = render.links_for(plan, url_base=url_base, seed=seed or event.seed)
    html = render.score_sheets_html(event, ruleset, plan, lang=lang, links=links)
    _write(html, _default(output, f"score-sheets-round{round_number}", as_html), as_html)
