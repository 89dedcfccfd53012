"""Input and output types of the services: frozen dataclasses, separate for what comes in
(``…Create``/``…In``) and what goes out (``…Public``)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from agon.errors import InvalidInput
from agon.services.public import PodiumPlace
from agon.tournament.score_pad import SCORE_PAD_CATEGORIES

PlayerStatus = Literal["active", "dropped", "withdrawn", "expelled"]
DROP_KINDS: dict[str, PlayerStatus] = {
    "drop": "dropped",
    "withdraw": "withdrawn",
    "expel": "expelled",
}
SANCTION_KINDS = ("warning", "penalty")

#: Short names accepted for the score-pad categories in the text form of a result.
CATEGORY_ALIASES = {cat[:3]: cat for cat in SCORE_PAD_CATEGORIES} | {
    cat: cat for cat in SCORE_PAD_CATEGORIES
}


@functools.cache
def wonder_names() -> Mapping[str, str]:
    """A wonder's id by its id or its name in any language, lower-case (``"babylon"``,
    ``"Babylon"``…). Built on first use: the reads that print standings never parse a wonder's
    name, and the game data it needs costs a short command a hundredth of a second to load."""
    from agon.tournament.draws import WONDER_DATA

    return {w.id.lower(): w.id for w in WONDER_DATA} | {
        name.lower(): w.id for w in WONDER_DATA for name in (*w.names.values(), *w.aliases)
    }


#: The keys of the text form of a result, for help texts and error messages.
RESULT_KEYS_HELP = (
    "coins=N, bid=N, wonder=NAME (e.g. babylon), side=A|B, and the score-pad points "
    + ", ".join(f"{c}=N ({c[:3]})" for c in SCORE_PAD_CATEGORIES)
    + "; wonder=N (a number) is the score pad's wonder points"
)


@dataclass(frozen=True, slots=True)
class TournamentCreate:
    """A new tournament. ``min_players``/``max_players`` override the ruleset's limits explicitly."""

    slug: str
    name: str
    ruleset: str
    seed: str | None = None
    min_players: int | None = None
    max_players: int | None = None
    starts_at: datetime | None = None
    info: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TournamentPublic:
    slug: str
    name: str
    ruleset: str
    seed: str
    min_players: int
    max_players: int
    players_override: bool
    starts_at: datetime | None
    checkin_deadline: datetime | None
    fee_required: bool
    info: Mapping[str, str]
    players: int
    rounds: int
    #: The round clock's minutes: the tournament's own (``agon tournament edit``), else the
    #: ruleset's; ``None``: no clock.
    round_minutes: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentUpdate:
    """What ``agon tournament edit`` changes; ``None`` leaves a field as it is.

    ``checkin_deadline`` needs a start time (given here or before); ``clear_round_minutes`` goes
    back to the ruleset's round clock.
    """

    name: str | None = None
    starts_at: datetime | None = None
    checkin_deadline: datetime | None = None
    min_players: int | None = None
    max_players: int | None = None
    round_minutes: int | None = None
    clear_round_minutes: bool = False


@dataclass(frozen=True, slots=True)
class PlayerCreate:
    """A registration. ``tag`` (club, city…) tells apart players with the same name: the player is
    then registered as ``"Name (tag)"``."""

    name: str
    tag: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    fee_paid: bool = False

    @property
    def key(self) -> str:
        return f"{self.name.strip()} ({self.tag.strip()})" if self.tag else self.name.strip()


@dataclass(frozen=True, slots=True)
class SanctionPublic:
    kind: str
    round: int | None
    reason: str
    at: datetime


@dataclass(frozen=True, slots=True)
class PlayerPublic:
    name: str
    extra: Mapping[str, Any]
    fee_paid: bool
    checked_in: bool
    late: bool
    status: str
    status_round: int | None
    status_reason: str
    sanctions: tuple[SanctionPublic, ...] = ()


@dataclass(frozen=True, slots=True)
class ResultIn:
    """One player's result as entered from the score sheet.

    Text form (round-trips with :meth:`parse`)::

        Anna=52,coins=3,bid=1,military=10,treasury=1,wonder=7,civilian=15,commercial=5,guilds=6,science=8

    The breakdown is optional; when given, all seven categories are listed (missing ones count 0)
    and must add up to the VP.

    A player who left during the game (Ludolimpico 2.5, "Ritiro / Espulsione") has no score:
    ``Anna=left``, optionally with the ``bid`` and ``wonder`` of the auction; ``vp`` is then 0.
    """

    player: str
    vp: int
    coins: int | None = None
    bid: int = 0
    wonder: str | None = None
    side: str | None = None
    breakdown: Mapping[str, int] | None = None
    left: bool = False

    def __str__(self) -> str:
        parts = [f"{self.player}={'left' if self.left else self.vp}"]
        if self.coins is not None:
            parts.append(f"coins={self.coins}")
        if self.bid:
            parts.append(f"bid={self.bid}")
        if self.wonder:
            parts.append(f"wonder={self.wonder}")
        if self.side:
            parts.append(f"side={self.side}")
        if self.breakdown is not None:
            parts.extend(f"{cat}={self.breakdown.get(cat, 0)}" for cat in SCORE_PAD_CATEGORIES)
        return ",".join(parts)

    @classmethod
    def parse(cls, text: str) -> ResultIn:
        """Read the text form.

        >>> ResultIn.parse("Anna=52,coins=3")  # doctest: +NORMALIZE_WHITESPACE
        ResultIn(player='Anna', vp=52, coins=3, bid=0, wonder=None, side=None, breakdown=None,
                 left=False)
        >>> ResultIn.parse("Anna=52,wonder=Babylon,side=b").wonder
        'babylon'
        >>> ResultIn.parse("Anna=left,bid=2").left
        True

        A number after ``wonder=`` is the score pad's wonder points (``won=``), never a wonder.

        Raises:
            InvalidInput: naming the text and the bad part.
        """
        head, _, rest = text.partition(",")
        name, eq, vp_text = head.rpartition("=")
        if not eq or not name.strip():
            raise InvalidInput(f"result {text!r}: must start with NAME=VP, e.g. 'Anna=52,coins=3'")
        left = vp_text.strip().lower() == "left"
        values: dict[str, Any] = {
            "player": name.strip(),
            "vp": 0 if left else _int(vp_text, text, "vp"),
        }
        if left:
            values["left"] = True
        breakdown: dict[str, int] = {}
        seen: set[str] = set()
        for part in filter(None, (p.strip() for p in rest.split(","))):
            key, eq, value = part.partition("=")
            key, value = key.strip().lower(), value.strip()
            if not eq:
                raise InvalidInput(f"result {text!r}: {part!r} is not KEY=VALUE")
            # A number after wonder= is the score pad's wonder row; a name is the wonder board.
            board = key == "wonder" and not value.lstrip("-").isdigit()
            field = key if board or key not in CATEGORY_ALIASES else CATEGORY_ALIASES[key]
            canonical = field if board or field not in SCORE_PAD_CATEGORIES else f"pad:{field}"
            if canonical in seen:
                raise InvalidInput(f"result {text!r}: {key!r} is given twice")
            seen.add(canonical)
            if key in ("coins", "bid"):
                values[key] = _int(value, text, key)
            elif board:
                wonder = wonder_names().get(value.lower())
                if wonder is None:
                    from agon.tournament.draws import WONDER_DATA

                    known = ", ".join(w.id for w in WONDER_DATA)
                    raise InvalidInput(
                        f"result {text!r}: wonder {value!r} is not a wonder of the game "
                        f"(known: {known}); the score pad's wonder points are a number"
                    )
                values["wonder"] = wonder
            elif key == "side":
                if value.upper() not in ("A", "B"):
                    raise InvalidInput(f"result {text!r}: side must be A or B, got {value!r}")
                values["side"] = value.upper()
            elif field in SCORE_PAD_CATEGORIES:
                breakdown[field] = _int(value, text, key)
            else:
                raise InvalidInput(
                    f"result {text!r}: unknown field {key!r} (known: {RESULT_KEYS_HELP})"
                )
        if breakdown:
            values["breakdown"] = {cat: breakdown.get(cat, 0) for cat in SCORE_PAD_CATEGORIES}
        if left:
            extra = [k for k in ("coins", "side", "breakdown") if k in values]
            if extra:
                raise InvalidInput(
                    f"result {text!r}: a player who left during the game (Ludolimpico 2.5) has no "
                    f"score; {extra[0]!r} cannot be given (only bid and wonder)"
                )
        return cls(**values)

    def as_payload(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "vp": self.vp,
            "coins": self.coins,
            "bid": self.bid,
            "wonder": self.wonder,
            "side": self.side,
            "breakdown": None if self.breakdown is None else dict(self.breakdown),
            # only when true: the journal's earlier payloads stay exactly as they were
            **({"left": True} if self.left else {}),
        }


def _int(text: str, whole: str, key: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise InvalidInput(f"result {whole!r}: {key} must be an integer, got {text!r}") from None


@dataclass(frozen=True, slots=True)
class JournalEntryPublic:
    id: int
    at: datetime
    actor: str
    action: str
    payload: Mapping[str, Any]
    undoes: int | None
    undone: bool


@dataclass(frozen=True, slots=True)
class FinalRanking:
    """The final's own ranking (it decides the podium), then everyone else by the standings."""

    final: tuple[PodiumPlace, ...]
    others: tuple[tuple[int, str], ...]
