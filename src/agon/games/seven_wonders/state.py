"""What a 7 Wonders game is made of: the illegal-play policies, actions, cities (mutable records
of small ints, for speed) and what a player sees of them (:class:`Observation`).

The engine (:mod:`agon.games.seven_wonders.engine`) changes them; the scoring
(:mod:`agon.games.seven_wonders.scoring`) counts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from agon.errors import InvalidInput
from agon.games.seven_wonders.data import (
    Stage,
    Wonder,
    card_by_id,
    card_by_name,
    cards,
)
from agon.games.seven_wonders.rules import (
    BLUE,
    Rule,
    card_rules,
    stage_rule,
)

MILITARY_WIN = (1, 3, 5)  # victory token per age (rulebook, "Military conflicts")
DISCARD_COINS = 3


class Policy(StrEnum):
    """What happens to an illegal play.

    ``casual``: the action is refused (:class:`IllegalAction`).  The tournament policies keep the
    game going: ``discard-3-coins`` discards the card for 3 coins (Bonn 2018, "Karte ins Spiel
    bringen"); ``discard-no-coins`` discards it without coins (Ludolimpico 2015, 2.3);
    ``choose-discard-or-wonder`` lets the player decide at once between discarding it for 3 coins
    and using it for a wonder stage where that is legal (German championship) — the player's
    decision travels with the action as its ``fallback``.
    """

    CASUAL = "casual"
    DISCARD_3 = "discard-3-coins"
    DISCARD_0 = "discard-no-coins"
    CHOOSE = "choose-discard-or-wonder"


#: Tournament ruleset name -> illegal-play policy.
RULESET_POLICIES: dict[str, Policy] = {
    "bonn-2018": Policy.DISCARD_3,
    "ludolimpico-2015": Policy.DISCARD_0,
    "de-championship": Policy.CHOOSE,
}

KINDS = ("build", "wonder", "discard", "free", "revive", "pass", "forfeit")


@dataclass(frozen=True, slots=True)
class Action:
    """One player's action for a turn, with the coins paid to each neighbour.

    Kinds: ``build`` a card (paying ``left``/``right`` coins for bought resources), ``wonder``
    (use the card for the next stage), ``discard`` (3 coins), ``free`` (Olympia A: build for
    free once per age), ``revive`` (Halikarnassos: build a card of the discard pile for free),
    ``pass`` (decline Halikarnassos' choice).  ``forfeit`` is what the engine records for an
    illegal play discarded without coins; players never submit it.

    >>> a = Action.parse("build temple pay 1 2")
    >>> str(a), Action.parse(str(a)) == a
    ('build temple pay 1 2', True)
    """

    kind: str
    card: int = -1
    left: int = 0
    right: int = 0
    fallback: str | None = None

    def __str__(self) -> str:
        if self.kind == "pass":
            return "pass"
        text = f"{self.kind} {cards()[self.card].id}"
        if self.left or self.right:
            text += f" pay {self.left} {self.right}"
        if self.fallback:
            text += f" else {self.fallback}"
        return text

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the text form back (card by id or by English, German or Italian name).

        Raises:
            InvalidInput: for text that is not an action.
        """
        words = text.split()
        fallback = None
        if len(words) >= 2 and words[-2] == "else":
            fallback = words[-1]
            if fallback not in ("discard", "wonder"):
                raise InvalidInput(f"action {text!r}: fallback must be discard or wonder")
            words = words[:-2]
        if words == ["pass"]:
            return cls("pass", fallback=fallback)
        if len(words) < 2 or words[0] not in KINDS:
            raise InvalidInput(f"not an action: {text!r}")
        left = right = 0
        if len(words) >= 5 and words[-3] == "pay":
            try:
                left, right = int(words[-2]), int(words[-1])
            except ValueError:
                raise InvalidInput(f"action {text!r}: payment must be two integers") from None
            words = words[:-3]
        name = " ".join(words[1:])
        try:
            card = card_by_id(name)
        except InvalidInput:
            card = card_by_name(name)
        return cls(words[0], card.index, left, right, fallback)


class City:
    """A player's city: wonder, coins, buildings and everything derived from them.

    Mutable on purpose (hot path); :meth:`clone` copies it.
    """

    __slots__ = (
        "blue_vp",
        "buildings",
        "cards",
        "choices",
        "coins",
        "colors",
        "copy_guild",
        "defeats",
        "fixed",
        "free_build",
        "free_used_age",
        "military",
        "price_left",
        "price_right",
        "revive_pending",
        "science",
        "seventh",
        "shields",
        "side",
        "stages",
        "stages_built",
        "tchoices",
        "tfixed",
        "wild",
        "wonder",
        "wonder_vp",
    )

    def __init__(self, wonder: Wonder, side: str) -> None:
        self.wonder = wonder
        self.side = side.upper()
        self.stages: tuple[Stage, ...] = wonder.side(self.side)
        self.stages_built = 0
        self.coins = 3
        self.cards: list[int] = []
        self.buildings: set[int] = set()
        self.colors = [0] * 7
        self.fixed = [0] * 7
        self.fixed[wonder.resource] = 1
        self.tfixed = [0] * 7
        self.tfixed[wonder.resource] = 1
        self.choices: list[int] = []
        self.tchoices: list[int] = []
        self.price_left = [2] * 7
        self.price_right = [2] * 7
        self.shields = 0
        self.science = [0, 0, 0]
        self.wild = 0
        self.military = 0
        self.defeats = 0
        self.blue_vp = 0
        self.wonder_vp = 0
        self.free_build = False
        self.free_used_age = 0
        self.seventh = False
        self.copy_guild = False
        self.revive_pending = 0

    def clone(self) -> City:
        c = City.__new__(City)
        for name in City.__slots__:
            v = getattr(self, name)
            if isinstance(v, list):
                v = v[:]
            elif isinstance(v, set):
                v = set(v)
            setattr(c, name, v)
        return c

    def _apply_permanent(self, rule: Rule, tradable: bool) -> None:
        if any(rule.fixed):
            for r, n in enumerate(rule.fixed):
                if n:
                    self.fixed[r] += n
                    if tradable:
                        self.tfixed[r] += n
        if rule.choice:
            self.choices.append(rule.choice)
            if rule.choice_tradable:
                self.tchoices.append(rule.choice)
        self.shields += rule.shields
        if rule.science >= 0:
            self.science[rule.science] += 1
        self.wild += rule.science_any
        for r in rule.trade_left:
            self.price_left[r] = 1
        for r in rule.trade_right:
            self.price_right[r] = 1

    def add_card(self, index: int) -> None:
        """Put a card into the city with its permanent effects (coins are the engine's job)."""
        card = cards()[index]
        rule = card_rules()[index]
        self.cards.append(index)
        self.buildings.add(card.building)
        self.colors[rule.color] += 1
        self._apply_permanent(rule, rule.color <= 1)
        if rule.color == BLUE:
            self.blue_vp += rule.vp

    def add_stage(self) -> Rule:
        """Build the next wonder stage with its permanent effects; returns its rule."""
        rule = stage_rule(self.stages[self.stages_built])
        self.stages_built += 1
        self._apply_permanent(rule, False)
        self.wonder_vp += rule.vp
        self.free_build |= rule.free_build_per_age
        self.seventh |= rule.play_seventh
        self.copy_guild |= rule.copy_guild
        return rule


@dataclass(frozen=True, slots=True)
class CityView:
    """What everybody sees of a city."""

    wonder: str
    side: str
    stages_built: int
    coins: int
    cards: tuple[str, ...]
    shields: int
    military: int
    defeats: int
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Observation:
    """What one player sees: own hand, every city, the size of the discard pile.

    Other players' hands are hidden; the discard pile's content is shown only to a player
    choosing from it (Halikarnassos).
    """

    player: int
    age: int
    turn: int
    phase: str
    hand: tuple[str, ...]
    cities: tuple[CityView, ...]
    discard_size: int
    discard: tuple[str, ...] | None
    legal: tuple[str, ...]
