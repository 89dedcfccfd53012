"""Scoring one game at one table: placing scores, virtual players, places, rank points, shares.

The rules, numbered as in the scoring contract (issue "Foundation", *Scoring, exactly*):

1. Placing score: ``vp`` (Bonn 2018, *Wertung*) or ``vp - bid`` (Ludolimpico 2015, 2.1 and 4: the
   auction is paid in victory points).
2. Virtual players: a table of k real players is filled up to ``virtual.fill_to`` seats with players
   scoring the mean placing score of the real ones — exact (Bonn: "Durchschnitt der anderen vier") or
   rounded down (Ludolimpico 4: "arrotondando ... per difetto").
3. Seats are ordered by placing score, highest first; equal scores go through the ruleset's in-game
   tie-breakers (Ludolimpico 4: smaller bid first, the virtual player behind real ones; the German
   championship: more coins first); what is still equal is tied.
4. Rank points per place; a tied group on places i..j shares the points of i..j equally
   (Bonn: "2x erster Platz = (6 + 4)/2 = 5 Punkte"). Virtual players' points are discarded.
5. Share (Bonn tie-break "relativer Anteil"): placing score / sum of all seats' placing scores, the
   virtual seats included; if that sum is 0 every seat gets 1/seats.

All arithmetic is exact (:class:`fractions.Fraction`), so equal really means equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from agon.tournament.event import Result
from agon.tournament.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class SeatScore:
    """The score of one seat, real (``player`` set) or virtual (``player`` is ``None``)."""

    player: str | None
    placing: Fraction
    place: int | None
    tied: int
    rank_points: Fraction
    share: Fraction
    result: Result | None

    @property
    def virtual(self) -> bool:
        return self.player is None


@dataclass(frozen=True, slots=True)
class TableScore:
    """A scored table: every seat, best placed first (virtual seats included)."""

    seats: tuple[SeatScore, ...]
    rank_points_total: Fraction

    def real(self) -> tuple[SeatScore, ...]:
        return tuple(seat for seat in self.seats if seat.player is not None)

    def seat_of(self, player: str) -> SeatScore:
        for seat in self.seats:
            if seat.player == player:
                return seat
        raise KeyError(player)


def placing_score(ruleset: Ruleset, result: Result) -> int:
    """Rule 1: the score seats are ordered by."""
    if ruleset.placing_score == "vp-minus-bid":
        return result.vp - result.bid
    return result.vp


def virtual_score(ruleset: Ruleset, placing: Sequence[int]) -> Fraction:
    """Rule 2: the mean placing score of the real players, exact or rounded down."""
    total = sum(placing)
    if ruleset.virtual_score == "mean-floor":
        return Fraction(total // len(placing))
    return Fraction(total, len(placing))


def _tie_key(ruleset: Ruleset, placing: Fraction, result: Result | None) -> tuple[Fraction, ...]:
    """Rule 3: the sort key of a seat; equal keys are tied."""
    key = [-placing]
    for breaker in ruleset.game_tie_breakers:
        if breaker == "real-before-virtual":
            key.append(Fraction(1 if result is None else 0))
        elif breaker == "bid-asc":
            key.append(Fraction(0 if result is None else result.bid))
        elif breaker == "coins-desc":
            key.append(Fraction(0 if result is None else -result.coins))
    return tuple(key)


def score_table(ruleset: Ruleset, results: Sequence[Result]) -> TableScore:
    """Score one game at one table by rules 1–5 of the ruleset.

    >>> from agon.tournament.ruleset import load_ruleset
    >>> bonn = load_ruleset("bonn-2018")
    >>> table = score_table(bonn, [Result("A", 50), Result("B", 50), Result("C", 40),
    ...                            Result("D", 30), Result("E", 20)])
    >>> [str(s.rank_points) for s in table.seats]
    ['5', '5', '3', '2', '1']
    """
    if not results:
        raise ValueError("a table needs at least one result")
    real_scores = [placing_score(ruleset, r) for r in results]
    n_virtual = max(0, ruleset.virtual_fill_to - len(results))
    entries: list[tuple[Fraction, Result | None]] = [
        (Fraction(score), result) for score, result in zip(real_scores, results, strict=True)
    ]
    if n_virtual:
        mean = virtual_score(ruleset, real_scores)
        entries.extend((mean, None) for _ in range(n_virtual))

    keyed = sorted(
        ((_tie_key(ruleset, placing, result), placing, result) for placing, result in entries),
        key=lambda item: item[0],
    )
    placed = [item for item in keyed if ruleset.virtual_take_places or item[2] is not None]
    points = ruleset.rank_points(len(placed))
    place_of: dict[int, tuple[int, int, Fraction]] = {}
    i = 0
    while i < len(placed):
        j = i
        while j + 1 < len(placed) and placed[j + 1][0] == placed[i][0]:
            j += 1
        shared = Fraction(sum(points[i : j + 1]), j - i + 1)
        for k in range(i, j + 1):
            place_of[id(placed[k])] = (i + 1, j - i + 1, shared)
        i = j + 1

    share_seats = [item for item in keyed if ruleset.virtual_in_share or item[2] is not None]
    total = sum((item[1] for item in share_seats), Fraction(0))
    seats = []
    for item in keyed:
        _, placing, result = item
        place, tied, rank_points = place_of.get(id(item), (None, 1, Fraction(0)))
        if result is None and not ruleset.virtual_in_share:
            share = Fraction(0)
        elif total == 0:
            share = Fraction(1, len(share_seats))
        else:
            share = placing / total
        seats.append(
            SeatScore(
                player=None if result is None else result.player,
                placing=placing,
                place=place,
                tied=tied,
                rank_points=rank_points,
                share=share,
                result=result,
            )
        )
    return TableScore(seats=tuple(seats), rank_points_total=Fraction(sum(points)))
