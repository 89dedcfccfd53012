"""The event file: agon's interchange format for a tournament's players and results.

JSON, or YAML when the file name ends in ``.yaml``/``.yml``. The format is documented in
``docs/event-file.md`` and described by the JSON Schema ``agon/schemas/event.schema.json``.
Parsing checks every field and names the exact place of the first problem: file, round, table,
seat, player and field.

Kept hand-written, not a pydantic model that also emits the schema: pydantic is no core dependency
and costs 60-300 ms to import on an ``agon standings`` of 80-150 ms; tests/tournament/
test_event_schema.py fails when the schema and this reader's keys drift apart.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agon.errors import InvalidInput, where
from agon.tournament.limits import NUMBER_MAX, check_range
from agon.tournament.names import check_name
from agon.tournament.ruleset import Ruleset, load_ruleset
from agon.tournament.safeload import load_document
from agon.tournament.score_pad import SCORE_PAD_CATEGORIES

_EVENT_KEYS = {
    "name",
    "ruleset",
    "seed",
    "players",
    "rounds",
    "date",
    "location",
    "director",
    # written by `agon export` for `agon verify` (docs/seating.md); not used for scoring
    "commitment",
    "results_digest",
    # written by `agon export`: what the file leaves out (an open round, tables without a result)
    "notes",
    # the ratings round 1 was seeded by (docs/ratings-and-series.md, "Seeding by rating")
    "seed_ratings",
}
_ROUND_KEYS = {"tables", "wonders", "guilds", "sides", "final"}
_TABLE_KEYS = {"results", "auction"}  # auction: Ludolimpico 2.1 actions, for `agon verify`
_RESULT_KEYS = {"player", "vp", "coins", "bid", "wonder", "side", "breakdown", "left"}
_FAST_RESULT_KEYS = {"player", "vp", "coins", "bid"}


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player; ``name`` is unique within the event, ``extra`` holds club, city, id…"""

    name: str
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Result:
    """One player's result in one game (a seat at a table).

    ``vp``: victory points scored (may be negative); ``coins``: coins held at the end;
    ``bid``: victory points paid in the wonder auction (Ludolimpico 2.1); ``left``: the player
    left during the game (Ludolimpico 2.5, "Ritiro / Espulsione"): he has no score (``vp`` 0,
    unused) and the table is scored without him.
    """

    player: str
    vp: int
    coins: int = 0
    bid: int = 0
    wonder: str | None = None
    side: str | None = None
    breakdown: Mapping[str, int] | None = None
    left: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """A table's results in seat order; the first seat is the start player."""

    results: tuple[Result, ...]


@dataclass(frozen=True, slots=True)
class Round:
    """One round (game) of the tournament: its tables and the central draws, if recorded."""

    tables: tuple[Table, ...]
    wonders: tuple[str, ...] = ()
    guilds: tuple[str, ...] = ()
    sides: Mapping[str, str] = field(default_factory=dict)
    final: bool = False


@dataclass(frozen=True, slots=True)
class Event:
    """A whole tournament as the event file holds it."""

    name: str
    ruleset_ref: str
    seed: str
    players: tuple[Player, ...]
    rounds: tuple[Round, ...]
    info: Mapping[str, str] = field(default_factory=dict)
    #: seeding ratings (ordinals) given when round 1 started: Swiss round 1 spreads by them, and
    #: they decide the standings before the lot; a player without one counts 0
    seed_ratings: Mapping[str, float] = field(default_factory=dict)

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)


def default_seed(event_name: str) -> str:
    """The lot's seed when the file gives none: derived from the event's name (stable forever)."""
    return "agon-lot:" + hashlib.sha256(event_name.encode("utf-8")).hexdigest()[:16]


def read_event_data(path: Path) -> Any:
    """Read the raw JSON/YAML document of an event file (through :mod:`agon.tournament.safeload`).

    Raises:
        InvalidInput: unreadable file, malformed or hostile JSON/YAML, naming the file and line.
    """
    return load_document(path)


def load_event(path: str | Path) -> tuple[Event, Ruleset]:
    """Load an event file and its ruleset, and check the results against the ruleset.

    Raises:
        InvalidInput: the first problem, as ``FILE: round R, table T, seat S, player 'P', field 'F': …``.
    """
    path = Path(path)
    data = read_event_data(path)
    event = parse_event(data, origin=str(path))
    try:
        ruleset = load_ruleset(event.ruleset_ref, base_dir=path.parent)
    except InvalidInput as exc:
        raise InvalidInput(f"{path}: field 'ruleset': {exc}") from None
    check_against_ruleset(event, ruleset, origin=str(path))
    return event, ruleset


def check_against_ruleset(event: Event, ruleset: Ruleset, *, origin: str = "<event>") -> None:
    """Check what only the ruleset can tell: allowed table sizes and the ranges of VP, coins and
    bid (the ruleset's ``[limits]``, see :mod:`agon.tournament.limits`).

    Raises:
        InvalidInput: a table whose size the ruleset does not allow, a number out of range.
    """
    allowed = sorted(ruleset.table_sizes)
    limits = ruleset.limits
    for r, rnd in enumerate(event.rounds, start=1):
        for t, table in enumerate(rnd.tables, start=1):
            if len(table.results) not in ruleset.table_sizes:
                raise InvalidInput(
                    f"{origin}: {where(('round', r), ('table', t))}: "
                    f"{len(table.results)} players, but ruleset {ruleset.name!r} allows tables of "
                    f"{', '.join(map(str, allowed))}"
                )
            for s, res in enumerate(table.results, start=1):
                if (
                    limits.vp_min <= res.vp <= limits.vp_max
                    and 0 <= res.coins <= limits.coins_max
                    and 0 <= res.bid <= limits.bid_max
                    and res.breakdown is None
                ):
                    continue
                place = f"{origin}: {where(('round', r), ('table', t), ('seat', s), ('player', res.player))}"
                limits.check_result(vp=res.vp, coins=res.coins, bid=res.bid, place=place)
                for cat, value in (res.breakdown or {}).items():
                    check_range(
                        value, limits.vp_min, limits.vp_max, f"{place}, field 'breakdown.{cat}'"
                    )


def parse_event(data: Any, *, origin: str = "<event>") -> Event:
    """Build an :class:`Event` from a decoded JSON/YAML document, checking every field.

    Raises:
        InvalidInput: naming ``origin`` and the exact place of the first problem.
    """
    return _EventReader(origin).event(data)


@dataclass(frozen=True, slots=True)
class _Header:
    """An event document's fields but the rounds' contents, checked (:meth:`_EventReader.header`)."""

    name: str
    ruleset: str
    seed: str
    info: dict[str, str]
    players: tuple[Player, ...]
    known: set[str]
    rounds_data: list[Any]


class _EventReader:
    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, place: str, message: str) -> InvalidInput:
        return InvalidInput(
            f"{self.origin}: {place}: {message}" if place else f"{self.origin}: {message}"
        )

    def unknown_keys(self, obj: Mapping[str, Any], allowed: set[str], place: str) -> None:
        extra = sorted(set(obj) - allowed)
        if extra:
            raise self.fail(
                place or "top level",
                f"unknown field {extra[0]!r} (allowed: {', '.join(sorted(allowed))})",
            )

    def event(self, data: Any) -> Event:
        head = self.header(data)
        rounds = tuple(
            self.round(rd, r, head.known) for r, rd in enumerate(head.rounds_data, start=1)
        )
        return Event(
            name=head.name,
            ruleset_ref=head.ruleset,
            seed=head.seed,
            players=head.players,
            rounds=rounds,
            info=head.info,
            seed_ratings=self.seed_ratings(data.get("seed_ratings", {}), head.known),
        )

    def header(self, data: Any) -> _Header:
        """Everything of the event but its rounds' contents (checked in this order)."""
        if not isinstance(data, dict):
            raise self.fail("", "the event must be a JSON/YAML object with name, ruleset, players")
        self.unknown_keys(data, _EVENT_KEYS, "")
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise self.fail("field 'name'", "must be a non-empty string")
        self.name(name, "field 'name'")
        ruleset = data.get("ruleset")
        if not isinstance(ruleset, str) or not ruleset.strip():
            raise self.fail("field 'ruleset'", "must be a ruleset name or a path to a ruleset file")
        seed = data.get("seed", default_seed(name))
        if not isinstance(seed, str):
            raise self.fail("field 'seed'", f"must be a string, got {seed!r}")
        info: dict[str, str] = {}
        for key in ("date", "location", "director"):
            if key in data:
                if not isinstance(data[key], str):
                    raise self.fail(f"field {key!r}", f"must be a string, got {data[key]!r}")
                info[key] = data[key]
        players = self.players(data.get("players"))
        known = {p.name for p in players}
        rounds_data = data.get("rounds", [])
        if not isinstance(rounds_data, list):
            raise self.fail("field 'rounds'", "must be a list of rounds")
        if len(rounds_data) > NUMBER_MAX:
            raise self.fail("field 'rounds'", f"{len(rounds_data)} rounds, at most {NUMBER_MAX}")
        return _Header(name, ruleset, seed, info, players, known, rounds_data)

    def seed_ratings(self, data: Any, known: set[str]) -> dict[str, float]:
        if not isinstance(data, dict):
            raise self.fail("field 'seed_ratings'", "must map player names to ratings")
        out: dict[str, float] = {}
        for player, value in data.items():
            place = f"field 'seed_ratings', player {player!r}"
            if player not in known:
                raise self.fail(place, "is not a player of the event")
            if (
                not isinstance(value, int | float)
                or isinstance(value, bool)
                or not math.isfinite(value)
                or abs(value) > 1e6
            ):
                raise self.fail(place, f"the rating must be a number, got {value!r}")
            out[player] = float(value)
        return out

    def players(self, data: Any) -> tuple[Player, ...]:
        if not isinstance(data, list) or not data:
            raise self.fail("field 'players'", "must be a non-empty list of names or objects")
        players: list[Player] = []
        seen: set[str] = set()
        for i, item in enumerate(data, start=1):
            place = f"players[{i}]"
            if isinstance(item, str):
                player = Player(item)
            elif isinstance(item, dict):
                name = item.get("name")
                if not isinstance(name, str):
                    raise self.fail(f"{place}, field 'name'", "must be a string")
                extra = {k: v for k, v in item.items() if k != "name"}
                player = Player(name, extra)
            else:
                raise self.fail(place, f"must be a name or an object with 'name', got {item!r}")
            if not player.name.strip():
                raise self.fail(place, "the player's name is empty")
            self.name(player.name, place)
            if player.name in seen:
                raise self.fail(
                    f"{place}, player {player.name!r}",
                    "listed twice; names must be unique (add a distinguishing word)",
                )
            seen.add(player.name)
            players.append(player)
        return tuple(players)

    def name(self, value: str, place: str) -> None:
        """The name rule of :mod:`agon.tournament.names`; names are kept exactly as written."""
        try:
            trimmed = check_name(value)
        except InvalidInput as exc:
            raise self.fail(place, str(exc)) from None
        if trimmed != value:
            raise self.fail(place, f"name {value!r} has spaces at its start or end")

    def round(self, data: Any, r: int, known: set[str]) -> Round:
        place = where(("round", r))
        if not isinstance(data, dict):
            raise self.fail(place, "must be an object with 'tables'")
        self.unknown_keys(data, _ROUND_KEYS, place)
        tables_data = data.get("tables")
        if not isinstance(tables_data, list):
            raise self.fail(f"{place}, field 'tables'", "must be a list of tables")
        if len(tables_data) > NUMBER_MAX:
            raise self.fail(f"{place}, field 'tables'", f"at most {NUMBER_MAX} tables")
        seated: dict[str, int] = {}
        tables = []
        for t, td in enumerate(tables_data, start=1):
            table = self.table(td, r, t, known)
            for result in table.results:
                if result.player in seated:
                    first = seated[result.player]
                    also = "again at the same table" if first == t else f"already at table {first}"
                    raise self.fail(
                        where(("round", r), ("table", t), ("player", result.player)),
                        f"plays twice in this round ({also})",
                    )
                seated[result.player] = t
            tables.append(table)
        return Round(
            tables=tuple(tables),
            wonders=self.names(data, "wonders", place),
            guilds=self.names(data, "guilds", place),
            sides=self.sides(data, place),
            final=self.flag(data, "final", place),
        )

    def names(self, data: Mapping[str, Any], key: str, place: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(f"{place}, field {key!r}", "must be a list of names")
        return tuple(value)

    def sides(self, data: Mapping[str, Any], place: str) -> dict[str, str]:
        value = data.get("sides", {})
        if not isinstance(value, dict) or not all(v in ("A", "B") for v in value.values()):
            raise self.fail(f"{place}, field 'sides'", "must map wonder names to 'A' or 'B'")
        return {str(k): str(v) for k, v in value.items()}

    def flag(self, data: Mapping[str, Any], key: str, place: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(f"{place}, field {key!r}", f"must be true or false, got {value!r}")
        return value

    def table(self, data: Any, r: int, t: int, known: set[str]) -> Table:
        # the place is spelled out only for a message (a big event has tens of thousands of tables)
        if not isinstance(data, dict):
            raise self.fail(where(("round", r), ("table", t)), "must be an object with 'results'")
        if not data.keys() <= _TABLE_KEYS:
            self.unknown_keys(data, _TABLE_KEYS, where(("round", r), ("table", t)))
        auction = data.get("auction", [])
        if "auction" in data and (
            not isinstance(auction, list) or not all(isinstance(a, str) for a in auction)
        ):
            raise self.fail(
                f"{where(('round', r), ('table', t))}, field 'auction'",
                "must be a list of auction actions",
            )
        results = data.get("results")
        if not isinstance(results, list) or not results:
            raise self.fail(
                f"{where(('round', r), ('table', t))}, field 'results'",
                "must be a non-empty list in seat order",
            )
        result = self.result
        return Table(results=tuple([result(rd, r, t, s, known) for s, rd in enumerate(results, 1)]))

    def result(self, data: Any, r: int, t: int, s: int, known: set[str]) -> Result:
        """One seat's result; the common, valid case takes a fast path without building messages."""
        if type(data) is dict and data.keys() <= _FAST_RESULT_KEYS:
            player, vp = data.get("player"), data.get("vp")
            coins, bid = data.get("coins", 0), data.get("bid", 0)
            if (
                type(player) is str
                and player in known
                and type(vp) is int
                and type(coins) is int
                and type(bid) is int
                and coins >= 0
                and bid >= 0
            ):
                return Result(player, vp, coins, bid)
        return self.result_checked(data, r, t, s, known)

    def result_checked(self, data: Any, r: int, t: int, s: int, known: set[str]) -> Result:
        place = where(("round", r), ("table", t), ("seat", s))
        if not isinstance(data, dict):
            raise self.fail(place, "must be an object with 'player' and 'vp'")
        player = data.get("player")
        if not isinstance(player, str):
            raise self.fail(f"{place}, field 'player'", f"must be a player's name, got {player!r}")
        place = where(("round", r), ("table", t), ("seat", s), ("player", player))
        if player not in known:
            raise self.fail(place, "unknown player (not in 'players')")
        self.unknown_keys(data, _RESULT_KEYS, place)
        left = self.flag(data, "left", place)
        if left:
            extra = sorted(set(data) & {"vp", "coins", "breakdown"})
            if extra:
                raise self.fail(
                    f"{place}, field {extra[0]!r}",
                    "a player who left during the game (Ludolimpico 2.5) has no score; "
                    "give only 'left': true",
                )
            wonder = data.get("wonder")
            if wonder is not None and not isinstance(wonder, str):
                raise self.fail(
                    f"{place}, field 'wonder'", f"must be a wonder's name, got {wonder!r}"
                )
            if "side" in data:
                raise self.fail(f"{place}, field 'side'", "a player who left has no side to record")
            return Result(
                player=player,
                vp=0,
                bid=self.integer(data.get("bid", 0), f"{place}, field 'bid'", minimum=0),
                wonder=wonder,
                left=True,
            )
        if "vp" not in data:
            raise self.fail(f"{place}, field 'vp'", "is missing")
        vp = self.integer(data["vp"], f"{place}, field 'vp'", minimum=None)
        coins = self.integer(data.get("coins", 0), f"{place}, field 'coins'", minimum=0)
        bid = self.integer(data.get("bid", 0), f"{place}, field 'bid'", minimum=0)
        wonder = data.get("wonder")
        side = data.get("side")
        if wonder is not None and not isinstance(wonder, str):
            raise self.fail(f"{place}, field 'wonder'", f"must be a wonder's name, got {wonder!r}")
        if side is not None and side not in ("A", "B"):
            raise self.fail(f"{place}, field 'side'", f"must be 'A' or 'B', got {side!r}")
        breakdown = None
        if "breakdown" in data:
            breakdown = self.breakdown(data["breakdown"], vp, f"{place}, field 'breakdown'")
        return Result(
            player=player,
            vp=vp,
            coins=coins,
            bid=bid,
            wonder=wonder,
            side=side,
            breakdown=breakdown,
        )

    def integer(self, value: Any, place: str, *, minimum: int | None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise self.fail(place, f"must be an integer, got {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(place, f"must not be negative, got {value}")
        return int(value)

    def breakdown(self, data: Any, vp: int, place: str) -> dict[str, int]:
        if not isinstance(data, dict):
            raise self.fail(place, "must be an object with the score-pad categories")
        unknown = sorted(set(data) - set(SCORE_PAD_CATEGORIES))
        if unknown:
            raise self.fail(
                place,
                f"unknown category {unknown[0]!r} (categories: {', '.join(SCORE_PAD_CATEGORIES)})",
            )
        values = {
            cat: self.integer(data.get(cat, 0), f"{place}.{cat}", minimum=None)
            for cat in SCORE_PAD_CATEGORIES
        }
        total = sum(values.values())
        if total != vp:
            raise self.fail(place, f"categories add up to {total}, but vp is {vp}")
        return values
