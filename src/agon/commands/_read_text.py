"""What the director's read commands print, without click: a round (``agon round show``), the
standings table of a stored tournament (``agon tournament standings``). The click commands and the fast reads of :mod:`agon.commands.fast_reads`
print through these same functions, so their output is the same byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `agon tournament standings` imports none of the round's modules, nor
    # `agon round show` the standings' (issue 30)
    from fractions import Fraction

    from agon.services.auctions import AuctionView
    from agon.services.public import RoundPublic
    from agon.tournament.standings import Standings


def _first_opener(r: RoundPublic, table: int, seats: tuple[str, ...], seed: str) -> str | None:
    """Who opens the table's auction (Ludolimpico 2.1), drawn from the seed; ``None`` if the
    table cannot hold one (a name that cannot be written in actions, too few wonders)."""
    from agon.errors import AgonError
    from agon.tournament.auction import Auction

    try:
        return Auction(seats, r.wonders, seed=seed, label=f"round {r.number} table {table}").to_act
    except AgonError:
        return None


def describe_round(
    r: RoundPublic,
    *,
    auction_seed: str | None = None,
    auctions: Mapping[int, AuctionView | None] | None = None,
) -> str:
    """A round for the director: draws, how it was seated, then per table its state and version,
    each seat with its player and wonder, the guilds in play there, results and auction.

    Bonn 2018: seat k plays the round's k-th drawn wonder ("in der gezogenen Reihenfolge") and a
    table of k players uses the first k + 2 guilds of the central draw; with an auction
    (Ludolimpico 2.1: give the tournament's seed as ``auction_seed``) the wonders are the
    table's to win, so a seat shows one only once won, and the table names who opens; with
    ``auctions`` (the auctions under way) it shows whose turn it is and the legal moves.
    """
    auction, seed = auction_seed is not None, auction_seed
    title = "final" if r.final else f"round {r.number}"
    lines = [f"{title} ({r.status})"]
    if r.wonders:
        lines.append("  wonders: " + ", ".join(r.wonders))
    if r.sides:
        lines.append("  sides: " + ", ".join(f"{w} {s}" for w, s in sorted(r.sides.items())))
    if r.info.get("method") == "schedule":
        report = r.info.get("report")
        planned = r.info.get("planned_in_round")
        line = f"  seated by the pre-planned schedule (planned in round {planned})"
        if report:
            line += (
                f": {report['repeats']} repeat encounters (lower bound {report['lower_bound']}), "
                f"{report['neighbour_repeats']} repeated neighbours"
            )
        lines.append(line)
        lines.extend(f"    note: {note}" for note in (report or {}).get("notes", []))
    elif r.info.get("method") == "swiss":
        lines.append("  seated Swiss, by the standings")
    elif r.info.get("method") == "swiss-rating":
        lines.append("  seated Swiss by rating: the strongest spread over the tables (snake order)")
    seed_ratings = r.info.get("seed_ratings")
    if seed_ratings:
        best = sorted(seed_ratings.items(), key=lambda kv: (-kv[1], kv[0]))
        lines.append(
            f"  seeding ratings ({len(best)} rated, the others count 0): "
            + ", ".join(f"{name} {value:.2f}" for name, value in best)
        )
    for absent, replacement in (r.info.get("replaced") or {}).items():
        lines.append(f"  {replacement} replaces absent finalist {absent}")
    for t in r.tables:
        lines.append(f"  table {t.number} [{t.state}, version {t.version}]: " + ", ".join(t.seats))
        results = {res.player: res for res in t.results}
        for k, player in enumerate(t.seats):
            res = results.get(player)
            wonder = res.wonder if res and res.wonder else None
            if wonder is None and not auction and k < len(r.wonders):
                wonder = r.wonders[k]
            side = (res.side if res else None) or (r.sides or {}).get(wonder or "")
            played = f": {wonder}{' ' + side if side else ''}" if wonder else ""
            starts = " (starts)" if k == 0 else ""
            lines.append(f"    seat {k + 1}{starts} {player}{played}")
        if r.guilds:
            from agon.tournament.draws import guilds_for_table

            lines.append(
                "    guilds: " + ", ".join(guilds_for_table(tuple(r.guilds), len(t.seats)))
            )
        for res in t.results:
            mark = "✓" if res.confirmed else "·"
            extra = f" bid {res.bid}" if res.bid else ""
            wonder = f" {res.wonder}{(' ' + res.side) if res.side else ''}" if res.wonder else ""
            score = (
                "left during the game (no score)" if res.left else f"{res.vp} VP, {res.coins} coins"
            )
            lines.append(f"    {mark} {res.player}: {score}{extra}{wonder}")
        view = (auctions or {}).get(t.number)
        if view is not None and not t.results:
            lines.extend("    " + line for line in view.summary())
        elif t.auction:
            lines.append("    auction: " + "; ".join(t.auction))
        elif auction and seed is not None and not t.results:
            opener = _first_opener(r, t.number, t.seats, seed)
            if opener:
                from agon.services.auctions import opener_line

                lines.append("    " + opener_line(opener))
        lines.extend(f"    warning: {w}" for w in t.warnings)
    return "\n".join(lines)


def standings_table(standings: Standings, title: str) -> str:
    """A readable table: rank, player, points, each tie-break, games, and what decided the place."""
    rows = standings.rows
    criteria = list(rows[0].tiebreaks) if rows else []
    columns = [
        [str(row.rank) for row in rows],
        [row.player for row in rows],
        _texts([row.totals.points for row in rows], "points"),
        *(_texts([row.tiebreaks[c] for row in rows], c) for c in criteria),
        [str(row.totals.games) for row in rows],
        [row.decided_by or "" for row in rows],
    ]
    notes = [f"{row.player}: {note}" for row in rows for note in row.notes]
    return layout(title, criteria, columns, notes)


def _texts(values: list[Fraction | int], criterion: str) -> list[str]:
    """Each value of one criterion as :func:`format_value` writes it; a fraction object that
    recurs (equal points are one object) is formatted once."""
    from agon.tournament.standings import format_value

    shown: dict[int, str] = {}
    out = []
    for v in values:
        if type(v) is int:
            out.append(str(v))
            continue
        text = shown.get(id(v))
        if text is None:
            text = shown[id(v)] = format_value(v, criterion)
        out.append(text)
    return out


def layout(title: str, criteria: list[str], columns: list[list[str]], notes: list[str]) -> str:
    """The table under ``title``: a header, a rule, one line per row (numbers right-aligned,
    text left-aligned, as rjust/ljust would pad), then the notes."""
    header = ["#", "player", "points", *criteria, "games", "decided by"]
    n = len(columns[0])
    widths = [
        max(len(h), *map(len, col)) if n else len(h) for h, col in zip(header, columns, strict=True)
    ]
    numeric = {0, 2, *range(3, 3 + len(criteria) + 1)}
    # one format per line (right-aligned numbers, left-aligned text), as rjust/ljust would pad
    template = "  ".join(f"{{:{'>' if i in numeric else '<'}{w}}}" for i, w in enumerate(widths))

    def fmt(cells: Iterable[str]) -> str:
        return template.format(*cells).rstrip()

    out = [
        title,
        fmt(header),
        fmt(["-" * w for w in widths]),
        *map(fmt, zip(*columns, strict=True)),
    ]
    if notes:
        out += ["", *notes]
    return "\n".join(out)
