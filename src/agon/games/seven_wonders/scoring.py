"""Scoring a city: victory points of every category (rulebook, "End of the game"), with its
neighbours for the cards and guilds that count theirs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agon.games.seven_wonders.data import (
    card_by_id,
    cards,
)
from agon.games.seven_wonders.rules import (
    DEFEAT,
    PURPLE,
    STAGE,
    YELLOW,
    Count,
    card_rules,
    science_points,
)
from agon.games.seven_wonders.state import City


def count_vp(count: Count, me: City, left: City, right: City) -> int:
    """VP (or coins) of a ``coins_per``/``vp_per`` count for ``me`` between two neighbours."""
    total = 0
    cities = ([me] if count.self_ else []) + ([left, right] if count.neighbours else [])
    for city in cities:
        for w in count.what:
            if w == STAGE:
                total += city.stages_built
            elif w == DEFEAT:
                total += city.defeats
            else:
                total += city.colors[w]
    return total * count.n


@dataclass(frozen=True, slots=True)
class Score:
    """One player's final score by the categories of the official score pad."""

    player: int
    military: int
    coins: int
    wonder: int
    civilian: int
    commercial: int
    guilds: int
    science: int
    treasury: int = field(default=0)
    copied_guild: str | None = None

    @property
    def total(self) -> int:
        return (
            self.military
            + self.coins
            + self.wonder
            + self.civilian
            + self.commercial
            + self.guilds
            + self.science
        )


def score_city(player: int, me: City, left: City, right: City) -> Score:
    """Score a city at the end of the game (official score pad).

    Olympia B's copied guild is the neighbour guild that scores best for the city (its science
    wildcard included); it does not count as a purple card (Bonn 2018, "Olympia").  Among guilds
    that score the same, the first in card order is copied (a fixed order, so that the compiled
    core can reproduce the breakdown).
    """
    commercial = guild_vp = 0
    wild = me.wild
    for index in me.cards:
        rule = card_rules()[index]
        for count in rule.vp_per:
            if rule.color == YELLOW:
                commercial += count_vp(count, me, left, right)
            elif rule.color == PURPLE:
                guild_vp += count_vp(count, me, left, right)
    base_science = science_points((me.science[0], me.science[1], me.science[2]), wild)
    copied = None
    best_extra = 0
    if me.copy_guild:
        for index in sorted({*left.cards, *right.cards}):
            rule = card_rules()[index]
            if rule.color != PURPLE:
                continue
            extra = sum(count_vp(c, me, left, right) for c in rule.vp_per)
            if rule.science_any:
                s = (me.science[0], me.science[1], me.science[2])
                extra += science_points(s, wild + rule.science_any) - base_science
            if copied is None or extra > best_extra:
                copied, best_extra = cards()[index].id, extra
    science = base_science
    if copied is not None:
        crule = card_rules()[card_by_id(copied).index]
        if crule.science_any:
            s = (me.science[0], me.science[1], me.science[2])
            science = science_points(s, wild + crule.science_any)
        guild_vp += sum(count_vp(c, me, left, right) for c in crule.vp_per)
    return Score(
        player=player,
        military=me.military,
        coins=me.coins // 3,
        wonder=me.wonder_vp,
        civilian=me.blue_vp,
        commercial=commercial,
        guilds=guild_vp,
        science=science,
        treasury=me.coins,
        copied_guild=copied,
    )
