"""The standings of a big event file, fast: one pass over the decoded document.

``agon standings FILE`` on 10,000 players x 10 rounds spent most of its time building an
:class:`~agon.tournament.event.Result` object per seat (100,000 of them), scoring them, then
walking them again for the lot's digest. :func:`quick_standings` reads the common shape of an
event file — every seat exactly ``player``, ``vp`` and optionally ``coins`` and ``bid``, all
within the ruleset's limits, every table of an allowed size — straight from the decoded JSON into
the tuples that scoring and the digest read, and computes the same standings as
:func:`~agon.tournament.event.load_event` followed by
:func:`~agon.tournament.standings.compute_standings` (a property test compares the two).

Anything else (a wrong field, a player who left, a score-pad breakdown, a number out of range)
makes it hand the document to the full reader, which names the problem exactly as before or
reads the rarer fields: the fast path decides nothing the full reader would decide differently.

:func:`standings_columns` goes one step further for ``agon standings FILE`` (issue 30): the
compiled core reads, scores, sums, digests and orders in one pass and hands back the columns
the printed table shows, without a :class:`~agon.tournament.standings.Totals` or
:class:`~agon.tournament.standings.StandingRow` per player; ``None`` where it does not apply
(no compiled core, virtual seats, seeding ratings, a chain it does not know), and the caller
then computes the :class:`~agon.tournament.standings.Standings` as above. A property test
compares the printed tables of both.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from math import lcm
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agon.errors import InvalidInput
from agon.tournament.event import (
    _FAST_RESULT_KEYS,
    _ROUND_KEYS,
    _TABLE_KEYS,
    _EventReader,
    _Header,
    check_against_ruleset,
    parse_event,
    read_event_data,
)
from agon.tournament.limits import NUMBER_MAX
from agon.tournament.quick_table import new_pass
from agon.tournament.ruleset import Ruleset, load_ruleset
from agon.tournament.safeload import MAX_BYTES, MAX_DEPTH, MAX_NODES

if TYPE_CHECKING:
    from agon.tournament.ruleset_facts import PassRules
    from agon.tournament.standings import Standings

#: One seat as the digest reads it: (player, VP, coins, bid, left).
_Seat = tuple[str, int, int, int, bool]
_PLAYER = itemgetter(0)


@dataclass(frozen=True, slots=True)
class StandingsColumns:
    """The standings as the columns of the printed table, best first: names, rank points
    (times ``scale``), each shown tie-break's values (shares as the nearest float, sums as
    ints), games, and the criterion that placed each row below the one above (``None`` first).
    Ranks run 1..n. Made by :func:`standings_columns`."""

    name: str
    rounds: int
    ruleset: Ruleset
    players: list[str]
    points: list[int]
    scale: int
    tiebreaks: dict[str, list[float] | list[int]]
    games: list[int]
    decided_by: list[str | None]


@dataclass(frozen=True, slots=True)
class EventStandings:
    """An event file's name, number of rounds, ruleset and standings."""

    name: str
    rounds: int
    ruleset: Ruleset
    standings: Standings


def standings_of_file(path: str | Path) -> EventStandings:
    """The standings of the event file ``path``, as ``load_event`` + ``compute_standings``.

    Raises:
        InvalidInput: exactly as :func:`~agon.tournament.event.load_event` does.
    """
    from agon.tournament.standings import compute_standings

    path = Path(path)
    data = read_event_data(path)
    quick = quick_standings(data, origin=str(path), base_dir=path.parent)
    if quick is not None:
        return quick
    event = parse_event(data, origin=str(path))
    ruleset = _ruleset(event.ruleset_ref, path.parent, str(path))
    check_against_ruleset(event, ruleset, origin=str(path))
    return EventStandings(event.name, len(event.rounds), ruleset, compute_standings(event, ruleset))


def standings_columns(
    data: Any, *, origin: str = "<event>", base_dir: Path | None = None
) -> StandingsColumns | None:
    """The standings of the decoded event document ``data`` as the printed table's columns, by
    the compiled core in one pass; ``None`` where the one pass does not apply (see the module's
    docstring: then :func:`standings_of_file`'s way gives the standings).

    Raises:
        InvalidInput: a problem of the header, as :func:`quick_standings` names it.
    """
    started = _start_pass(data, origin, base_dir)
    if started is None:
        return None
    head, ruleset, chain, one = started
    h = hashlib.sha256(b"agon-results-v1")
    reader = _EventReader(origin)
    for r, rd in enumerate(head.rounds_data, start=1):
        final = _round_head(rd, r, reader)
        if final is None:
            return None
        got = one.add_round(rd["tables"], r, not final)
        if got is None:
            return None
        h.update(got)
    return _columns(head.name, len(head.rounds_data), head.seed, h, ruleset, chain, one)


def standings_columns_of_bytes(
    raw: bytes, *, origin: str = "<event>", base_dir: Path | None = None
) -> StandingsColumns | None:
    """:func:`standings_columns` of an event file's bytes, read by the compiled core straight
    from the JSON text (no dict per seat); ``None`` where it declines: anything but plain JSON of
    the common shape within :mod:`agon.tournament.safeload`'s caps, or where
    :func:`standings_columns` would give ``None``. What it reads, it reads as ``json.loads``
    and the safe loader would (a property test compares the two).

    Raises:
        InvalidInput: a problem of the header, as :func:`quick_standings` names it.
    """
    core = _core()
    if core is None or len(raw) > MAX_BYTES:
        return None
    scan = core.JsonScan(raw, MAX_NODES, MAX_DEPTH)
    data = scan.head()
    if data is None:
        return None
    data["rounds"] = []  # read below, from the bytes
    started = _start_pass(data, origin, base_dir)
    if started is None:
        return None
    head, ruleset, chain, one = started
    one.max_tables = NUMBER_MAX
    digests = one.read_rounds(scan)
    if digests is None or len(digests) > NUMBER_MAX:
        return None
    h = hashlib.sha256(b"agon-results-v1")
    for got in digests:
        h.update(got)
    return _columns(head.name, len(digests), head.seed, h, ruleset, chain, one)


def _start_pass(
    data: Any, origin: str, base_dir: Path | None
) -> tuple[_Header, Ruleset, tuple[str, ...], Any] | None:
    """The checked header, the ruleset, the standings chain and a new ``EventPass`` of the
    compiled core; ``None`` where the one pass does not apply."""
    core = _core()
    if core is None:
        return None
    head = _EventReader(origin).header(data)
    if data.get("seed_ratings", {}) != {}:
        return None  # ratings (or a wrong field): the Python ordering's, or the full reader's
    try:
        ruleset = _ruleset(head.ruleset, base_dir, origin)
    except InvalidInput:
        return None
    rules = pass_rules(ruleset)
    one = new_pass(core, [p.name for p in head.players], rules)
    return None if one is None else (head, ruleset, rules[10], one)


def pass_rules(ruleset: Ruleset) -> PassRules:
    """What the compiled one pass needs of ``ruleset``
    (:data:`agon.tournament.ruleset_facts.PassRules`; the built-in rulesets' are kept in
    :mod:`agon.tournament.ruleset_facts`)."""
    chain = ("points", *ruleset.standings_tie_breakers)
    if "lot" not in chain:
        chain = (*chain, "lot")
    breakers = tuple(b for b in ruleset.game_tie_breakers if b != "real-before-virtual")
    points_by_k: dict[int, tuple[int, ...]] = {}
    for k in ruleset.table_sizes:
        if k >= ruleset.virtual_fill_to:
            try:
                points_by_k[k] = ruleset.rank_points(k)
            except InvalidInput:
                continue  # scored in Python, which names the problem
    most = max(ruleset.places_at(size) for size in ruleset.table_sizes)
    limits = ruleset.limits
    return (
        ruleset.title_in("en"),
        ruleset.placing_score == "vp-minus-bid",
        breakers,
        points_by_k,
        lcm(*range(1, most + 1)),  # scoring.rank_points_scale
        tuple(ruleset.table_sizes),
        limits.vp_min,
        limits.vp_max,
        limits.coins_max,
        limits.bid_max,
        chain,
        tuple(c for c in ruleset.standings_tie_breakers if c != "lot"),
    )


def _columns(
    name: str,
    rounds: int,
    seed: str,
    digest: Any,
    ruleset: Ruleset,
    chain: tuple[str, ...],
    one: Any,
) -> StandingsColumns | None:
    """The columns of the pass ``one`` over every round (``digest``: the results' SHA-256)."""
    if not one.exact():
        return None
    lot = f"agon-lot\x00{seed}|results:{digest.hexdigest()}\x00".encode()
    ranked, decided = one.order(chain, lot)
    names = one.names_list()
    pts, _, _, vp, coins, bids, games = zip(*one.result(), strict=True) if names else ((),) * 7
    by_bid = ruleset.placing_score == "vp-minus-bid"
    sums: dict[str, Any] = {
        "share": one.share_floats(),
        "vp": vp,
        "coins": coins,
        "pp": [v - b for v, b in zip(vp, bids, strict=True)] if by_bid else vp,
    }
    shown = [c for c in ruleset.standings_tie_breakers if c != "lot"]
    return StandingsColumns(
        name=name,
        rounds=rounds,
        ruleset=ruleset,
        players=[names[i] for i in ranked],
        points=[pts[i] for i in ranked],
        scale=one.points_scale_value(),
        tiebreaks={
            c: [pts[i] for i in ranked] if c == "points" else [sums[c][i] for i in ranked]
            for c in shown
        },
        games=[games[i] for i in ranked],
        decided_by=[None if d < 0 else chain[d] for d in decided],
    )


def _core() -> Any:
    """The compiled standings core, or ``None`` (imported here: the Python standings, with their
    fractions, are not needed for the one pass)."""
    try:
        import agon.cores.standings as core
    except ImportError:
        return None
    return core


def _round_head(rd: Any, r: int, reader: _EventReader) -> bool | None:
    """A round's fields but its tables, as :func:`_seats` checks them: whether it is the final,
    or ``None`` where the fast path does not read it."""
    if type(rd) is not dict or not rd.keys() <= _ROUND_KEYS:
        return None
    tables_data = rd.get("tables")
    if type(tables_data) is not list or len(tables_data) > NUMBER_MAX:
        return None
    try:  # the draws are checked as the full reader checks them
        place = f"round {r}"
        reader.names(rd, "wonders", place)
        reader.names(rd, "guilds", place)
        reader.sides(rd, place)
        return reader.flag(rd, "final", place)
    except InvalidInput:
        return None


def _ruleset(ref: str, base_dir: Path | None, origin: str) -> Ruleset:
    try:
        return load_ruleset(ref, base_dir=base_dir)
    except InvalidInput as exc:
        raise InvalidInput(f"{origin}: field 'ruleset': {exc}") from None


def quick_standings(
    data: Any, *, origin: str = "<event>", base_dir: Path | None = None, native: bool | None = None
) -> EventStandings | None:
    """The standings of the decoded event document ``data`` in one pass, or ``None`` when the
    document is not of the common shape (the caller then reads it in full, which also names any
    problem).

    ``native``: ``None`` reads the seats, scores, sums and digests them with the compiled
    standings core when agon has it (the same standings), ``False`` in Python only, ``True``
    with the core (an :class:`ImportError` without it).

    Raises:
        InvalidInput: a problem of the header (name, ruleset, seed, players), named as the full
            reader names it; nothing about the rounds (those problems give ``None``).
    """
    from agon.tournament.standings import digest_seats, rank_totals, standings_core, sum_tables

    reader = _EventReader(origin)
    head = reader.header(data)
    try:  # the full reader reports a round's problem before the ruleset's: leave both to it
        ruleset = _ruleset(head.ruleset, base_dir, origin)
    except InvalidInput:
        return None
    core = None if native is False else standings_core()
    if native and core is None:
        raise ImportError("agon was built without its compiled standings core")
    seeds = _seats(head.rounds_data, head.known, ruleset, reader, core)
    if seeds is None:
        return None
    # the rounds are good, so the full reader would come to the ratings next, as here
    ratings = reader.seed_ratings(data.get("seed_ratings", {}), head.known)
    names = [p.name for p in head.players]
    tables = (table for final, _, round_tables in seeds if not final for table in round_tables)
    native = core is not None
    totals = sum_tables(ruleset, names, tables, ratings, native=native)
    # each round's seats come sorted by player, each player once (_seats): no sort needed
    digest = digest_seats(
        ((final, entries) for final, entries, _ in seeds), native=native, presorted=True
    )
    standings = rank_totals(ruleset, totals, f"{head.seed}|results:{digest}", rated=bool(ratings))
    return EventStandings(head.name, len(head.rounds_data), ruleset, standings)


def _seats(
    rounds_data: list[Any], known: set[str], ruleset: Ruleset, reader: _EventReader, core: Any
) -> list[tuple[bool, list[_Seat], list[list[_Seat]]]] | None:
    """Per round: (final, every seat for the digest, every table's seats for scoring); ``None``
    at the first thing the fast path does not read (the full reader then takes over). ``core``:
    the compiled standings core, which reads a round's tables as the loop below does, or
    ``None``."""
    sizes = ruleset.table_sizes
    limits = ruleset.limits
    vp_min, vp_max = limits.vp_min, limits.vp_max
    coins_max, bid_max = limits.coins_max, limits.bid_max
    out: list[tuple[bool, list[_Seat], list[list[_Seat]]]] = []
    rank_of: dict[str, int] | None = None
    for r, rd in enumerate(rounds_data, start=1):
        final = _round_head(rd, r, reader)
        if final is None:
            return None
        tables_data = rd["tables"]
        if core is not None:
            if rank_of is None:  # each player's place in name order: the digest's order
                rank_of = {name: i for i, name in enumerate(sorted(known))}
            got = core.round_seats(
                tables_data,
                rank_of,
                sizes,
                vp_min,
                vp_max,
                coins_max,
                bid_max,
                _TABLE_KEYS,
                _FAST_RESULT_KEYS,
            )
            if got is None:
                return None
            out.append((final, got[0], got[1]))
            continue
        seated: set[str] = set()
        entries: list[_Seat] = []
        tables: list[list[_Seat]] = []
        for td in tables_data:
            if type(td) is not dict or not td.keys() <= _TABLE_KEYS:
                return None
            if "auction" in td:
                auction = td["auction"]
                if type(auction) is not list or not all(type(a) is str for a in auction):
                    return None
            results = td.get("results")
            if type(results) is not list or len(results) not in sizes:
                return None
            table: list[_Seat] = []
            for res in results:
                if type(res) is not dict or not res.keys() <= _FAST_RESULT_KEYS:
                    return None
                player = res.get("player")
                vp = res.get("vp")
                coins = res.get("coins", 0)
                bid = res.get("bid", 0)
                if not (
                    type(player) is str
                    and type(vp) is int
                    and type(coins) is int
                    and type(bid) is int
                    and player in known
                    and player not in seated
                    and vp_min <= vp <= vp_max
                    and 0 <= coins <= coins_max
                    and 0 <= bid <= bid_max
                ):
                    return None
                seated.add(player)
                table.append((player, vp, coins, bid, False))
            tables.append(table)
            entries.extend(table)
        entries.sort(
            key=_PLAYER
        )  # each player once: the digest's sort of the tuples is then linear
        out.append((final, entries, tables))
    return out
