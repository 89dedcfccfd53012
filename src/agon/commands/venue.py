"""``agon venue``: the venue's Wi-Fi network of a tournament, for the phones at the tables.

Other tools rely on these exact forms::

    agon venue wifi [-t SLUG] --ssid NAME [--password-file FILE] [--security WPA|WEP|nopass]
                    [--hidden]
    agon venue show [-t SLUG] [--json]
    agon venue clear [-t SLUG]

The network is printed on the table cards and on the desk's seat-link cards as a QR code a phone
joins with one scan. It stays in this database (:mod:`agon.services.venue`): never exported,
never synced, never on a public page. Bad input is one line and exit code 2.
"""

from __future__ import annotations

from pathlib import Path

import click

from agon.commands._common import open_session, resolve, tournament_option
from agon.commands._json import echo_json, json_option
from agon.errors import InvalidInput
from agon.tournament.wifi import SECURITIES

#: The most a password file may hold.
PASSWORD_FILE_BYTES = 4096


def read_wifi_password(path: Path | None) -> str | None:
    """The Wi-Fi password on the first line of FILE (``None`` without a file)."""
    if path is None:
        return None
    from agon.tournament.safeload import read_text

    lines = read_text(path, what="Wi-Fi password file", limit=PASSWORD_FILE_BYTES).splitlines()
    if not lines or not lines[0]:
        raise InvalidInput(f"{path}: the password file is empty (the first line is the password)")
    return lines[0]


@click.group("venue")
def venue_group() -> None:
    """The venue's Wi-Fi network for the phones (printed as a QR code)."""


@venue_group.command("wifi")
@tournament_option
@click.option("--ssid", required=True, metavar="NAME", help="The network's name.")
@click.option(
    "--password-file",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="The password, the first line of FILE (without it: an open network).",
)
@click.option(
    "--security",
    type=click.Choice(SECURITIES, case_sensitive=False),
    help="WPA (the default with a password), WEP, or nopass (an open network).",
)
@click.option("--hidden", is_flag=True, help="The network does not announce its name.")
def wifi_cmd(
    tournament: str | None,
    ssid: str,
    password_file: Path | None,
    security: str | None,
    hidden: bool,
) -> None:
    """Set the venue's Wi-Fi network of the tournament."""
    from agon.services import venue
    from agon.tournament.wifi import parse_network

    network = parse_network(
        ssid=ssid, password=read_wifi_password(password_file), security=security, hidden=hidden
    )
    with open_session() as session:
        slug = resolve(session, tournament)
        venue.set_wifi(session, tournament=slug, network=network)
    shown = "open, no password" if network.password is None else network.security
    click.echo(f"venue Wi-Fi of {slug}: {network.ssid} ({shown}{', hidden' if hidden else ''})")


@venue_group.command("show")
@tournament_option
@json_option
def show_cmd(tournament: str | None, as_json: bool) -> None:
    """Show the venue's Wi-Fi network of the tournament."""
    from agon.services import venue

    with open_session() as session:
        slug = resolve(session, tournament)
        network = venue.get_wifi(session, tournament=slug)
    if as_json:
        echo_json({"tournament": slug, "wifi": network.to_json() if network else None})
    elif network is None:
        click.echo(f"{slug}: no venue Wi-Fi set (agon venue wifi --ssid NAME)")
    else:
        click.echo(f"network:  {network.ssid}")
        click.echo(f"security: {network.security}{' (hidden)' if network.hidden else ''}")
        click.echo(f"password: {network.password if network.password else '(none)'}")


@venue_group.command("clear")
@tournament_option
def clear_cmd(tournament: str | None) -> None:
    """Forget the venue's Wi-Fi network of the tournament."""
    from agon.services import venue

    with open_session() as session:
        slug = resolve(session, tournament)
        had = venue.clear_wifi(session, tournament=slug)
    click.echo(f"venue Wi-Fi of {slug}: {'forgotten' if had else 'none was set'}")
