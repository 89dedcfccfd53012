"""``agon auction``: run a wonder auction (Ludolimpico 2015, 2.1) interactively or from a script.

Actions are read one per line in their text form (``Anna opens babylon 2``, ``Ben raises 3``,
``Clara passes``); at a prompt the name may be left out (``raises 3``, ``pass``). A script stops
at the first illegal line (exit code 2); at an interactive prompt the refusal is printed and the
same player is asked again.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from agon.errors import AgonError, IllegalAction, InvalidInput
from agon.tournament.auction import Auction, AuctionAction
from agon.tournament.draws import draw_wonders

_SHORT = {
    "open": "opens",
    "opens": "opens",
    "raise": "raises",
    "raises": "raises",
    "pass": "passes",
    "passes": "passes",
}


def parse_line(auction: Auction, line: str) -> AuctionAction:
    """Parse a full action, or a short one (``raises 3``) for the player to act."""
    words = line.split()
    if words and words[0] in _SHORT and auction.to_act is not None:
        line = " ".join([auction.to_act, _SHORT[words[0]], *words[1:]])
    return AuctionAction.parse(line)


def _state(auction: Auction) -> str:
    lot = auction.lot
    if auction.to_act is None:
        return "auction finished"
    if lot is None:
        return f"{auction.to_act} opens: choose one of {', '.join(auction.available())} and bid"
    return (
        f"{lot.wonder}: {lot.leader} bids {lot.bid}; {auction.to_act} raises "
        f"(at least {lot.bid + 1}) or passes"
    )


#: The most an auction script may hold (a table's auction is a few dozen short lines).
SCRIPT_BYTES = 1024 * 1024


@click.command("auction")
@click.option("--players", required=True, help="Comma-separated names in clockwise seat order.")
@click.option("--wonders", help="Comma-separated wonder ids of the draw (else drawn from --seed).")
@click.option("--seed", required=True, help="Tournament seed (draws the opener and the wonders).")
@click.option("--round", "round_number", type=int, default=1, show_default=True)
@click.option(
    "--draw-size",
    type=int,
    help="Wonders in the round's draw (largest table + 1); default players + 1.",
)
@click.option("--label", default="", help="Table label, e.g. 'round 1 table 2' (seeds the opener).")
@click.option(
    "--script",
    type=click.Path(dir_okay=False, path_type=Path, allow_dash=True),
    help="File of actions, one per line ('-' for standard input).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def auction_command(
    players: str,
    wonders: str | None,
    seed: str,
    round_number: int,
    draw_size: int | None,
    label: str,
    script: Path | None,
    as_json: bool,
) -> None:
    """Run the wonder auction of one table and print who got which wonder for how many VP."""
    names = [p.strip() for p in players.split(",") if p.strip()]
    if wonders:
        drawn = tuple(w.strip() for w in wonders.split(",") if w.strip())
    else:
        drawn = draw_wonders(seed, round_number, draw_size or len(names) + 1)
    auction = Auction(names, drawn, seed=seed, label=label)
    if not as_json:
        click.echo(f"wonders: {', '.join(auction.wonders)}; {auction.first_opener} opens first")
    interactive = script is None and sys.stdin.isatty()
    if interactive:
        while not auction.finished:
            line = click.prompt(_state(auction))
            try:
                auction.apply(parse_line(auction, line))
            except AgonError as exc:
                click.echo(f"refused: {exc}")
    else:
        from agon.tournament.safeload import read_stream, read_text

        if script is None or str(script) == "-":
            stdin = sys.stdin.buffer
            text = read_stream(
                stdin, origin="standard input", what="auction script", limit=SCRIPT_BYTES
            )
        else:
            text = read_text(script, what="auction script", limit=SCRIPT_BYTES)
        lines = text.splitlines()
        for number, line in enumerate(lines, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                action = parse_line(auction, line)
                auction.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(f"line {number}: {exc}") from None
            except InvalidInput as exc:
                raise InvalidInput(f"line {number}: {exc}") from None
            if not as_json:
                click.echo(str(action))
        if not auction.finished:
            raise InvalidInput(f"the script ends before the auction does: {_state(auction)}")
    results = auction.results()
    if as_json:
        doc = {
            "wonders": list(auction.wonders),
            "opener": auction.first_opener,
            "actions": [str(a) for a in auction.history],
            "results": {p: {"wonder": w, "bid": b} for p, (w, b) in results.items()},
        }
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
    else:
        for name in names:
            wonder, bid = results[name]
            click.echo(f"{name}: {wonder}, bid {bid}")
