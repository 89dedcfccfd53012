"""``agon play``: online games in the database (issue 26).

``agon play export GAME_ID -o FILE`` writes a finished game as a file anyone can check with
``agon verify FILE``: its setup, its seed (revealed now that it is over) and the seed's SHA-256
(published while it ran), its log and its final scores (:mod:`agon.play.gamefile`). A game that
still runs is refused (exit code 3): its seed is nobody's to know yet.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from agon.commands._common import open_session


@click.group("play")
def play_group() -> None:
    """Online games: export a finished game for 'agon verify'."""


@play_group.command("export")
@click.argument("game_id")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file (default: standard output).",
)
def export_command(game_id: str, output: Path | None) -> None:
    """Write finished game GAME_ID (setup, revealed seed, log, scores) as JSON."""
    from agon.play.gamefile import export_game

    with open_session() as session:
        doc = export_game(session, game_id)
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(f"wrote {output}")
