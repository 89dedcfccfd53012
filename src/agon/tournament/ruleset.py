"""Tournament rulesets as data: load, validate and describe them.

A ruleset is a TOML file. The built-in ones (``bonn-2018``, ``ludolimpico-2015``,
``de-championship``) ship in :mod:`agon.tournament.rulesets`; a user writes their own in the same
format (see ``docs/rulesets.md``) and names it by path. Everything a scoring rule needs is a field
here, so the scoring code never asks *which* tournament it scores.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from agon.errors import InvalidInput
from agon.shipped import shipped_text
from agon.tournament.limits import DEFAULT_LIMITS, WIDEST, Limits

PlacingScore = Literal["vp", "vp-minus-bid"]
VirtualScore = Literal["mean", "mean-floor"]
Seating = Literal["schedule", "swiss"]
WonderSides = Literal["choice", "drawn-once", "drawn-each-round"]
IllegalPlay = Literal["discard-3-coins", "discard-no-coins", "choose-discard-or-wonder"]
TimeUp = Literal["finish-game", "finish-age"]

#: In-game tie-breakers, applied in order after equal placing scores; what is still equal is tied.
GAME_TIE_BREAKERS: dict[str, str] = {
    "real-before-virtual": "a virtual player is placed behind real players with the same score",
    "bid-asc": "the smaller auction bid is placed first",
    "coins-desc": "more coins is placed first",
}

#: Standings tie-breakers after tournament points, in the order a ruleset lists them.
STANDINGS_TIE_BREAKERS: dict[str, str] = {
    "share": "sum of shares of the table's victory points",
    "vp": "sum of victory points",
    "coins": "sum of coins",
    "pp": "sum of game points (Punti Partita: VP minus bid)",
    "rating": "seeding rating (ordinal) given when round 1 started",
    "lot": "lot drawn from the event's seed",
}

#: Fields of a player's result that a ruleset may require on every score sheet (``vp`` always).
RESULT_FIELDS: dict[str, str] = {
    "vp": "victory points",
    "coins": "coins at the end of the game",
    "bid": "victory points bid in the wonder auction",
    "wonder": "the wonder played",
    "side": "the wonder's side",
    "breakdown": "the score-pad breakdown (military, treasury, …)",
}

_PLACING = ("vp", "vp-minus-bid")
_VIRTUAL_SCORE = ("mean", "mean-floor")
_SEATING = ("schedule", "swiss")
_SIDES = ("choice", "drawn-once", "drawn-each-round")
_ILLEGAL = ("discard-3-coins", "discard-no-coins", "choose-discard-or-wonder")
#: What a table does when the round clock runs out: play the game to its end, or finish the age
#: being played and score the game as it stands then (Ludolimpico 2015, 1.).
_TIME_UP = ("finish-game", "finish-age")


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every parameter of a tournament's regulation that agon interprets."""

    name: str
    title: Mapping[str, str]
    source: str
    min_players: int
    max_players: int
    rounds: int
    seating: Seating
    finalists: int
    round_minutes: int | None
    table_sizes: tuple[int, ...]
    preferred_table_size: int
    placing_score: PlacingScore
    illegal_play: IllegalPlay
    wonder_sides: WonderSides
    auction: bool
    virtual_fill_to: int
    virtual_score: VirtualScore
    virtual_take_places: bool
    virtual_in_share: bool
    rank_points_default: tuple[int, ...]
    rank_points_by_size: Mapping[int, tuple[int, ...]]
    game_tie_breakers: tuple[str, ...]
    standings_tie_breakers: tuple[str, ...]
    checkin_minutes: int = 0
    fee_required: bool = False
    limits: Limits = DEFAULT_LIMITS
    required_fields: tuple[str, ...] = ("vp",)
    #: How many of the final standings qualify for another event (0: none), and for which.
    qualifiers: int = 0
    qualifiers_for: str = ""
    #: When the round clock runs out (``[rounds] time_up``): ``finish-game`` plays on to the end;
    #: ``finish-age`` (Ludolimpico 2015, 1.: "mezz'ora", then the age being played is finished)
    #: ends the game after the current age and scores it as it stands.
    time_up: TimeUp = "finish-game"
    #: The ruleset's rule for a player who leaves during a game (``[results] left_rule``: its
    #: reference in the regulation's own words, e.g. Ludolimpico 2015's 2.5 "Ritiro /
    #: Espulsione"): such a player has no score and the table is scored without them. Empty: the
    #: regulation has no such rule, and the desk offers no "left during the game" box.
    left_rule: str = ""

    @property
    def has_left_rule(self) -> bool:
        """Whether the regulation scores a game a player left during play (``left_rule``)."""
        return bool(self.left_rule)

    def missing_fields(self, result: Mapping[str, Any]) -> tuple[str, ...]:
        """The required fields a result leaves out (``None`` or absent), in the ruleset's order.

        Bonn 2018 ("Ende der Partie – Wertung – Münzen"): the coins decide ties in the standings
        and "müssen daher auf dem Wertungsbogen separat notiert werden".

        >>> load_ruleset("bonn-2018").missing_fields({"vp": 52})
        ('coins',)
        """
        return tuple(f for f in self.required_fields if result.get(f) is None)

    def places_at(self, real_players: int) -> int:
        """Number of places a table with ``real_players`` hands out (virtual ones included or not)."""
        if self.virtual_take_places:
            return max(real_players, self.virtual_fill_to)
        return real_players

    def rank_points(self, places: int) -> tuple[int, ...]:
        """Rank points for places 1..``places`` (a table-size specific list wins over the default)."""
        points = self.rank_points_by_size.get(places, self.rank_points_default)
        if len(points) < places:
            raise InvalidInput(
                f"ruleset {self.name!r}: rank_points has {len(points)} entries, "
                f"a table needs {places} places"
            )
        return points[:places]

    def title_in(self, language: str) -> str:
        """The ruleset's title in ``language`` (en/de/it), falling back to English, then the name."""
        return self.title.get(language) or self.title.get("en") or self.name


BUILTIN_RULESETS = ("bonn-2018", "ludolimpico-2015", "de-championship")


def builtin_ruleset_names() -> tuple[str, ...]:
    """Names of the rulesets shipped with agon."""
    return BUILTIN_RULESETS


def _builtin_text(name: str) -> str:
    """The TOML text of the built-in ruleset ``name`` (:func:`agon.shipped.shipped_text`)."""
    return shipped_text("agon.tournament", "rulesets", f"{name}.toml")


#: The most a ruleset file may hold (the built-in ones are under 4 KiB).
RULESET_FILE_BYTES = 1024 * 1024


def read_ruleset_file(path: Path) -> str:
    """The text of the ruleset file ``path``, at most :data:`RULESET_FILE_BYTES`.

    Raises:
        InvalidInput: unreadable, too large, not UTF-8 text.
    """
    from agon.tournament.safeload import read_text

    return read_text(path, what="ruleset file", limit=RULESET_FILE_BYTES)


def load_ruleset(name_or_path: str, *, base_dir: Path | None = None) -> Ruleset:
    """Load a built-in ruleset by name or a ruleset file by path.

    A relative path is looked up next to ``base_dir`` first (the event file's folder), then in the
    current directory.

    Raises:
        InvalidInput: unknown name, unreadable file, malformed TOML or an invalid field.
    """
    if name_or_path in BUILTIN_RULESETS:
        return parse_ruleset(
            _builtin_text(name_or_path), origin=f"built-in ruleset {name_or_path!r}"
        )
    candidates = [Path(name_or_path)]
    if base_dir is not None and not Path(name_or_path).is_absolute():
        candidates.insert(0, base_dir / name_or_path)
    for path in candidates:
        try:
            is_file = path.is_file()
        except (OSError, ValueError):  # a name too long for the file system, a NUL byte
            is_file = False
        if is_file:
            return parse_ruleset(read_ruleset_file(path), origin=str(path))
    known = ", ".join(BUILTIN_RULESETS)
    shown = name_or_path if len(name_or_path) <= 80 else name_or_path[:80] + "…"
    raise InvalidInput(
        f"unknown ruleset {shown!r}: not a built-in ruleset ({known}) nor a ruleset file"
    )


def parse_ruleset(text: str, *, origin: str = "<ruleset>") -> Ruleset:
    """Parse and validate the TOML text of a ruleset.

    Raises:
        InvalidInput: naming ``origin`` and the offending field.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{origin}: malformed TOML: {exc}") from None
    return _RulesetReader(data, origin).read()


class _RulesetReader:
    """Reads one ruleset document field by field, with errors naming the field."""

    def __init__(self, data: dict[str, Any], origin: str) -> None:
        self.data = data
        self.origin = origin

    def fail(self, field: str, message: str) -> InvalidInput:
        return InvalidInput(f"{self.origin}: field {field!r}: {message}")

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise self.fail(name, "must be a table")
        return value

    def get(self, section: str, key: str, default: Any = ...) -> Any:
        sec = self.section(section)
        if key not in sec:
            if default is ...:
                raise self.fail(f"{section}.{key}", "is missing")
            return default
        return sec[key]

    def integer(self, section: str, key: str, default: Any = ..., minimum: int = 0) -> int:
        value = self.get(section, key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{section}.{key}", f"must be an integer, got {value!r}")
        if value < minimum:
            raise self.fail(f"{section}.{key}", f"must be at least {minimum}, got {value}")
        return value

    def boolean(self, section: str, key: str, default: Any = ...) -> bool:
        value = self.get(section, key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{section}.{key}", f"must be true or false, got {value!r}")
        return value

    def choice(self, section: str, key: str, options: tuple[str, ...], default: Any = ...) -> str:
        value = self.get(section, key, default)
        if value not in options:
            raise self.fail(
                f"{section}.{key}", f"must be one of {', '.join(options)}; got {value!r}"
            )
        return cast(str, value)

    def text(self, section: str, key: str, *, limit: int = 200) -> str:
        """An optional one-line text (empty when absent), at most ``limit`` characters."""
        value = self.get(section, key, "")
        if not isinstance(value, str):
            raise self.fail(f"{section}.{key}", f"must be a text, got {value!r}")
        if len(value) > limit or any(c in value for c in "\r\n"):
            raise self.fail(f"{section}.{key}", f"must be one line of at most {limit} characters")
        return value.strip()

    def int_list(self, field: str, value: Any) -> tuple[int, ...]:
        if not isinstance(value, list) or not value:
            raise self.fail(field, f"must be a non-empty list of integers, got {value!r}")
        for item in value:
            if isinstance(item, bool) or not isinstance(item, int):
                raise self.fail(field, f"must hold integers only, got {item!r}")
        return tuple(value)

    def names(self, field: str, value: Any, known: Mapping[str, str]) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(field, f"must be a list, got {value!r}")
        for item in value:
            if item not in known:
                raise self.fail(field, f"unknown entry {item!r}; known: {', '.join(known)}")
        if len(set(value)) != len(value):
            raise self.fail(field, "lists an entry twice")
        return tuple(value)

    def limits(self) -> Limits:
        """``[limits]``: vp_min, vp_max, coins_max, bid_max (defaults: :class:`Limits`)."""
        section = self.section("limits")
        unknown = sorted(set(section) - {"vp_min", "vp_max", "coins_max", "bid_max"})
        if unknown:
            raise self.fail(f"limits.{unknown[0]}", "unknown (vp_min, vp_max, coins_max, bid_max)")
        d = DEFAULT_LIMITS
        vp_min = self.integer("limits", "vp_min", d.vp_min, minimum=-WIDEST)
        vp_max = self.integer("limits", "vp_max", d.vp_max, minimum=0)
        coins_max = self.integer("limits", "coins_max", d.coins_max, minimum=0)
        bid_max = self.integer("limits", "bid_max", d.bid_max, minimum=0)
        for key, value in (("vp_min", -vp_min), ("vp_max", vp_max), ("coins_max", coins_max)):
            if value > WIDEST:
                raise self.fail(f"limits.{key}", f"must lie within ±{WIDEST:,}")
        if bid_max > WIDEST:
            raise self.fail("limits.bid_max", f"must be at most {WIDEST:,}")
        if vp_min > 0:
            raise self.fail("limits.vp_min", f"must be at most 0, got {vp_min}")
        return Limits(vp_min=vp_min, vp_max=vp_max, coins_max=coins_max, bid_max=bid_max)

    def required(self) -> tuple[str, ...]:
        """``[results] required``: the fields every score sheet must give (``vp`` always)."""
        given = self.names("results.required", self.get("results", "required", []), RESULT_FIELDS)
        return ("vp", *(f for f in given if f != "vp"))

    def read(self) -> Ruleset:
        name = self.data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise self.fail("name", "must be a non-empty string")
        title = self.data.get("title", {"en": name})
        if not isinstance(title, dict) or not all(isinstance(v, str) for v in title.values()):
            raise self.fail("title", "must be a table of language = text")
        min_players = self.integer("players", "min", minimum=1)
        max_players = self.integer("players", "max", minimum=1)
        if max_players < min_players:
            raise self.fail("players.max", f"is below players.min ({max_players} < {min_players})")
        sizes = self.int_list("tables.sizes", self.get("tables", "sizes"))
        if any(size < 2 for size in sizes):
            raise self.fail("tables.sizes", "a table needs at least 2 players")
        preferred = self.integer("tables", "preferred", max(sizes), minimum=2)
        if preferred not in sizes:
            raise self.fail("tables.preferred", f"{preferred} is not in tables.sizes {list(sizes)}")
        fill_to = self.integer("virtual", "fill_to", 0)
        rank_section = self.section("rank_points")
        default_points = self.int_list("rank_points.default", rank_section.get("default"))
        by_size: dict[int, tuple[int, ...]] = {}
        for key, value in rank_section.items():
            if key == "default":
                continue
            if not key.isdigit():
                raise self.fail(f"rank_points.{key}", "keys are 'default' or a table size")
            by_size[int(key)] = self.int_list(f"rank_points.{key}", value)
        ruleset = Ruleset(
            name=name,
            title=dict(title),
            source=str(self.data.get("source", "")),
            min_players=min_players,
            max_players=max_players,
            rounds=self.integer("rounds", "count", minimum=1),
            seating=cast(Seating, self.choice("rounds", "seating", _SEATING, "schedule")),
            finalists=self.integer("rounds", "finalists", 0),
            round_minutes=(
                self.integer("rounds", "round_minutes", minimum=1)
                if "round_minutes" in self.section("rounds")
                else None
            ),
            table_sizes=sizes,
            preferred_table_size=preferred,
            placing_score=cast(PlacingScore, self.choice("game", "placing_score", _PLACING, "vp")),
            illegal_play=cast(
                IllegalPlay, self.choice("game", "illegal_play", _ILLEGAL, "discard-3-coins")
            ),
            wonder_sides=cast(WonderSides, self.choice("game", "wonder_sides", _SIDES, "choice")),
            auction=self.boolean("game", "auction", False),
            virtual_fill_to=fill_to,
            virtual_score=cast(
                VirtualScore, self.choice("virtual", "score", _VIRTUAL_SCORE, "mean")
            ),
            virtual_take_places=self.boolean("virtual", "take_places", True),
            virtual_in_share=self.boolean("virtual", "in_share", True),
            rank_points_default=default_points,
            rank_points_by_size=by_size,
            game_tie_breakers=self.names(
                "ties.breakers", self.get("ties", "breakers", []), GAME_TIE_BREAKERS
            ),
            standings_tie_breakers=self.names(
                "standings.tiebreaks",
                self.get("standings", "tiebreaks", ["lot"]),
                STANDINGS_TIE_BREAKERS,
            ),
            checkin_minutes=self.integer("registration", "checkin_minutes_before_start", 0),
            fee_required=self.boolean("registration", "fee_required", False),
            limits=self.limits(),
            required_fields=self.required(),
            qualifiers=self.integer("qualification", "places", 0),
            qualifiers_for=str(self.get("qualification", "event", "")),
            time_up=cast(TimeUp, self.choice("rounds", "time_up", _TIME_UP, "finish-game")),
            left_rule=self.text("results", "left_rule"),
        )
        for size in sizes:
            places = ruleset.places_at(size)
            points = by_size.get(places, default_points)
            if len(points) < places:
                raise self.fail(
                    "rank_points",
                    f"a table of {size} hands out {places} places but only "
                    f"{len(points)} rank points are given",
                )
        return ruleset
