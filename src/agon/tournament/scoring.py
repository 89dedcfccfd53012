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
from math import lcm
from operator import itemgetter
from typing import Any

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


def rank_points_scale(ruleset: Ruleset) -> int:
    """A common denominator for every shared rank-point value the ruleset can produce.

    A tied group of g seats gets (sum of g places' points) / g; with at most P places at a table,
    lcm(1..P) makes every such value an integer, so sums over many games stay exact and fast.
    """
    most = max(ruleset.places_at(size) for size in ruleset.table_sizes)
    return lcm(*range(1, most + 1))


#: One seat of a scored table in integer form: (the seat's identity — its result, or None for a
#: virtual seat —, placing score times ``scale``, first place of its tie group or None, tie-group
#: size, rank points times the rank-point scale, share numerator, share denominator).
_Seat = tuple[Any, int, int | None, int, int, int, int]
#: What scoring reads of one real seat: (its identity, VP, coins, bid).
SeatRow = tuple[Any, int, int, int]
#: A seat as the standings read it: (player, VP, coins, bid, left).
SeatKey = tuple[str, int, int, int, bool]
_KEY = itemgetter(0)


def _score_core(
    ruleset: Ruleset, results: Sequence[Result], points_scale: int
) -> tuple[list[_Seat], int, int]:
    """Rules 1–5 for a table of results (see :func:`score_rows`); a seat's identity is its result."""
    return score_rows(ruleset, [(r, r.vp, r.coins, r.bid) for r in results], points_scale)


def score_rows(
    ruleset: Ruleset, rows: Sequence[SeatRow], points_scale: int
) -> tuple[list[_Seat], int, int]:
    """Rules 1–5 in exact integer arithmetic; returns the seats (best first), ``scale`` and places.

    ``rows`` are the real seats as (identity, VP, coins, bid); the identity is handed back with
    the seat's score (a virtual seat's is None). Placing scores are multiplied by ``scale`` (k
    for an exact mean over k players, else 1) so that real and virtual seats compare as integers.
    """
    k = len(rows)
    if k == 0:
        raise ValueError("a table needs at least one result")
    by_bid = ruleset.placing_score == "vp-minus-bid"
    placing = [row[1] - row[3] if by_bid else row[1] for row in rows]
    total_real = sum(placing)
    n_virtual = ruleset.virtual_fill_to - k if ruleset.virtual_fill_to > k else 0
    scale = 1
    virtual_scaled = 0
    if n_virtual:
        if ruleset.virtual_score == "mean-floor":
            virtual_scaled = total_real // k
        else:
            scale = k
            virtual_scaled = total_real
    breakers = ruleset.game_tie_breakers
    entries: list[tuple[tuple[int, ...], int, Any]]
    if not breakers:
        entries = [
            ((-score * scale,), score * scale, row[0])
            for score, row in zip(placing, rows, strict=True)
        ]
    else:
        entries = []
        for score, row in zip(placing, rows, strict=True):
            key = [-score * scale]
            for breaker in breakers:
                if breaker == "real-before-virtual":
                    key.append(0)
                elif breaker == "bid-asc":
                    key.append(row[3])
                else:  # coins-desc
                    key.append(-row[2])
            entries.append((tuple(key), score * scale, row[0]))
    if n_virtual:
        vkey = [-virtual_scaled]
        for breaker in breakers:
            vkey.append(1 if breaker == "real-before-virtual" else 0)
        entries.extend((tuple(vkey), virtual_scaled, None) for _ in range(n_virtual))
    entries.sort(key=_KEY)

    # places, tie groups and shared rank points of the seats that take places, by entry index
    take_places = ruleset.virtual_take_places
    placed = [i for i, e in enumerate(entries) if take_places or e[2] is not None]
    points = ruleset.rank_points(len(placed))
    group: list[tuple[int | None, int, int]] = [(None, 1, 0)] * len(entries)
    i = 0
    while i < len(placed):
        key_i = entries[placed[i]][0]
        j = i
        while j + 1 < len(placed) and entries[placed[j + 1]][0] == key_i:
            j += 1
        size = j - i + 1
        shared = sum(points[i : j + 1]) * (points_scale // size)
        for m in range(i, j + 1):
            group[placed[m]] = (i + 1, size, shared)
        i = j + 1

    # Share: placing / sum of the seats in the share (virtual ones too where the ruleset says so).
    in_share = ruleset.virtual_in_share
    share_seats = k + (n_virtual if in_share else 0)
    total_num = total_real * scale + (n_virtual * virtual_scaled if in_share else 0)
    seats: list[_Seat] = []
    for entry, (place, tied, pts) in zip(entries, group, strict=True):
        _, scaled, seat_result = entry
        if seat_result is None and not in_share:
            num, den = 0, 1
        elif total_num == 0:
            num, den = 1, share_seats
        else:
            num, den = scaled, total_num
        seats.append((seat_result, scaled, place, tied, pts, num, den))
    return seats, scale, len(placed)


def score_table(ruleset: Ruleset, results: Sequence[Result]) -> TableScore:
    """Score one game at one table by rules 1–5 of the ruleset.

    >>> from agon.tournament.ruleset import load_ruleset
    >>> bonn = load_ruleset("bonn-2018")
    >>> table = score_table(bonn, [Result("A", 50), Result("B", 50), Result("C", 40),
    ...                            Result("D", 30), Result("E", 20)])
    >>> [str(s.rank_points) for s in table.seats]
    ['5', '5', '3', '2', '1']
    """
    points_scale = rank_points_scale(ruleset)
    results = [r for r in results if not r.left]  # Ludolimpico 2.5: scored without him
    if not results:
        return TableScore(seats=(), rank_points_total=Fraction(0))
    core, scale, places = _score_core(ruleset, results, points_scale)
    seats = tuple(
        SeatScore(
            player=None if result is None else result.player,
            placing=Fraction(scaled, scale),
            place=place,
            tied=tied,
            rank_points=Fraction(pts, points_scale),
            share=Fraction(num, den),
            result=result,
        )
        for result, scaled, place, tied, pts, num, den in core
    )
    return TableScore(seats=seats, rank_points_total=Fraction(sum(ruleset.rank_points(places))))


def table_contributions(
    ruleset: Ruleset, results: Sequence[Result], points_scale: int
) -> list[tuple[Result, int, int, int]]:
    """The fast path for standings: per real seat (result, rank points × scale, share num, den).

    A player who left during the game (``left``, Ludolimpico 2.5) has no seat in the scoring.
    """
    if any(r.left for r in results):
        results = [r for r in results if not r.left]
        if not results:
            return []
    core, _, _ = _score_core(ruleset, results, points_scale)
    return [(seat[0], seat[4], seat[5], seat[6]) for seat in core if seat[0] is not None]


def full_table_contributions(
    ruleset: Ruleset, seats: Sequence[SeatKey], points_scale: int
) -> list[tuple[SeatKey, int, int, int]]:
    """:func:`score_rows` for a table without virtual seats (as many real seats as the ruleset
    fills to, or more), in few steps: per seat (the seat, rank points x ``points_scale``, share
    numerator, share denominator), best placed first.

    ``seats`` are (player, VP, coins, bid, left) of the players who did not leave. The standings
    of a big event score tens of thousands of such tables; a property test checks that this gives
    what :func:`score_rows` does.
    """
    k = len(seats)
    by_bid = ruleset.placing_score == "vp-minus-bid"
    breakers = [b for b in ruleset.game_tie_breakers if b != "real-before-virtual"]
    placing = [s[1] - s[3] for s in seats] if by_bid else [s[1] for s in seats]
    keyed: list[tuple[Any, int]]
    if not breakers:
        keyed = [(-score, i) for i, score in enumerate(placing)]
    else:
        keyed = []
        for i, s in enumerate(seats):
            key: list[int] = [-placing[i]]
            for breaker in breakers:
                key.append(s[3] if breaker == "bid-asc" else -s[2])
            keyed.append((tuple(key), i))
    keyed.sort(key=_KEY)
    points = ruleset.rank_points(k)
    total = sum(placing)
    out: list[tuple[SeatKey, int, int, int]] = []
    i = 0
    while i < k:
        key_i = keyed[i][0]
        j = i + 1
        while j < k and keyed[j][0] == key_i:
            j += 1
        shared = sum(points[i:j]) * (points_scale // (j - i))
        for m in range(i, j):
            n = keyed[m][1]
            if total == 0:
                out.append((seats[n], shared, 1, k))
            else:
                out.append((seats[n], shared, placing[n], total))
        i = j
    return out
