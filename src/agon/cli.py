"""The ``agon`` command: a thin face over the domain and service layers.

Sub-commands live next to what they drive and are loaded lazily from :data:`SUBCOMMANDS`, so
``agon --help`` stays fast and each capability owns its own command module.  Every
:class:`agon.errors.AgonError` becomes one line on stderr and exit code 2.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from agon import __version__
from agon.errors import AgonError, InvalidInput
from agon.extras import missing_extra_message

#: command name -> "module:attribute" of a click command or group.
SUBCOMMANDS: dict[str, str] = {
    "standings": "agon.commands.standings:standings_command",
    "validate": "agon.commands.standings:validate_command",
    "print": "agon.commands.printing:group",
    "7w": "agon.games.seven_wonders.cli:group",
    "serve": "agon.web.cli:serve",
    "schedule": "agon.commands.schedule:schedule_command",
    "verify": "agon.commands.verify:verify_command",
    "auction": "agon.commands.auction:auction_command",
    "tournament": "agon.commands.tournament:tournament_group",
    "player": "agon.commands.player:player_group",
    "round": "agon.commands.round:round_group",
    "result": "agon.commands.results:result_group",
    "export": "agon.commands.tournament:export_command",
    "import": "agon.commands.tournament:import_command",
    "db": "agon.commands.db:db_group",
    "ocw": "agon.games.one_card_wonder.cli:group",
    "rating": "agon.commands.ratings:rating_command",
    "series": "agon.commands.ratings:series_command",
}


class LazyGroup(click.Group):
    """A click group whose sub-commands are imported only when used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *SUBCOMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:  # its pip extra is not installed
            message = missing_extra_message(exc, [cmd_name])
            if message is None:
                raise
            return _needs_extra(cmd_name, message)
        command = getattr(module, attr)
        assert isinstance(command, click.Command)
        return command


def _needs_extra(name: str, message: str) -> click.Command:
    """A stand-in for a command whose extra is missing: listed in ``agon --help``, and any use
    of it prints the one line naming the pip command (exit code 2)."""

    def refuse(args: tuple[str, ...]) -> None:
        raise InvalidInput(message)

    return click.Command(
        name,
        callback=refuse,
        params=[click.Argument(["args"], nargs=-1, type=click.UNPROCESSED)],
        context_settings={"ignore_unknown_options": True},
        add_help_option=False,
        short_help=f"(needs {message.partition(': ')[2]})",
    )


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="agon")
def cli() -> None:
    """Run 7 Wonders-family tournaments and play the games by the rules."""


def main(argv: list[str] | None = None) -> Any:
    """Entry point of the console script: maps input errors to one line and exit code 2."""
    try:
        return cli.main(args=argv, prog_name="agon", standalone_mode=False)
    except AgonError as exc:
        click.echo(f"agon: error: {exc}", err=True)
        sys.exit(2)
    except ModuleNotFoundError as exc:  # an optional part (pip extra) is not installed
        message = missing_extra_message(exc, sys.argv[1:] if argv is None else argv)
        if message is None:
            raise
        click.echo(f"agon: error: {message}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("agon: aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
