"""Standings kept up to date table by table, for a server that shows them after every change.

:func:`~agon.tournament.standings.compute_standings` scores every table of every round; a server
that enters a result every few seconds would redo all of that on every change. An
:class:`IncrementalStandings` keeps every player's sums (rank points, share, VP, coins, game
points, games) and the contribution of every table it has seen. :meth:`IncrementalStandings.sync`
compares the event with the tables it holds: a table that is new (a result entered) is scored and
added, a table that is gone (an undo) is subtracted, a changed table (a correction) is both. Only
those tables are scored; the ranking (a sort of the players) and the lot's input (a digest of the
results) are then redone, which costs little next to scoring. The standings it gives are equal to
``compute_standings`` of the same event (a property test checks it after random sequences of
results, corrections and undos).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from agon.tournament.event import Event, Result
from agon.tournament.ruleset import Ruleset
from agon.tournament.scoring import rank_points_scale, table_contributions
from agon.tournament.standings import (
    Standings,
    Totals,
    left_games,
    left_notes,
    lot_input,
    rank_totals,
)

#: What scoring reads of a seat: player, VP, coins, bid, left (the rest of a result — wonder, side,
#: breakdown — changes no standing).
SeatKey = tuple[str, int, int, int, bool]
#: A table as scoring sees it: its seats in order.
TableKey = tuple[SeatKey, ...]
#: what else the standings depend on: the players, the lot's input, the notes of games left
_Memo = tuple[tuple[str, ...], str, dict[str, tuple[str, ...]], tuple[tuple[str, float], ...]]


@dataclass(slots=True)
class _Sums:
    points: int = 0  # rank points x the ruleset's points scale
    share: Fraction = field(default_factory=lambda: Fraction(0))
    vp: int = 0
    coins: int = 0
    pp: int = 0
    games: int = 0


def table_key(results: Sequence[Result]) -> TableKey:
    """The part of a table's results that scoring reads."""
    return tuple((r.player, r.vp, r.coins, r.bid, r.left) for r in results)


class IncrementalStandings:
    """The standings of one tournament under one ruleset, updated by the tables that changed.

    Thread-safe: :meth:`sync` holds a lock (a web server calls it from several threads).
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._scale = rank_points_scale(ruleset)
        self._by_bid = ruleset.placing_score == "vp-minus-bid"
        self._tables: Counter[TableKey] = Counter()  # qualifying tables now counted
        self._sums: dict[str, _Sums] = {}
        self._last: tuple[_Memo, Standings] | None = None
        self._lock = threading.Lock()
        #: tables scored since this object was made (for tests and the benchmark)
        self.tables_scored = 0

    def sync(self, event: Event) -> Standings:
        """The standings of ``event``: score only the tables not counted yet, subtract the ones
        no longer in it, then rank."""
        with self._lock:
            wanted: Counter[TableKey] = Counter(
                table_key(table.results)
                for rnd in event.rounds
                if not rnd.final
                for table in rnd.tables
            )
            changed = wanted != self._tables
            if changed:
                for key, count in (self._tables - wanted).items():
                    self._apply(key, -count)
                for key, count in (wanted - self._tables).items():
                    self._apply(key, count)
                self._tables = wanted
            seed = lot_input(event)
            names = event.player_names
            notes = left_notes(event, self.ruleset.left_rule)
            ratings = tuple(sorted(event.seed_ratings.items()))
            memo = (names, seed, notes, ratings)
            if not changed and self._last is not None and self._last[0] == memo:
                return self._last[1]
            standings = rank_totals(
                self.ruleset,
                [self._totals(name, event.seed_ratings) for name in names],
                seed,
                notes,
                left_games(event),
                rated=bool(event.seed_ratings),
            )
            self._last = (memo, standings)
            return standings

    def _apply(self, key: TableKey, times: int) -> None:
        """Add (``times`` > 0) or subtract (< 0) a table's contribution ``abs(times)`` times."""
        results = [Result(p, vp, coins, bid, left=left) for p, vp, coins, bid, left in key]
        self.tables_scored += 1
        for result, pts, num, den in table_contributions(self.ruleset, results, self._scale):
            sums = self._sums.get(result.player)
            if sums is None:
                sums = self._sums[result.player] = _Sums()
            sums.points += times * pts
            if num:
                sums.share += times * Fraction(num, den)
            sums.vp += times * result.vp
            sums.coins += times * result.coins
            sums.pp += times * (result.vp - result.bid if self._by_bid else result.vp)
            sums.games += times

    def _totals(self, name: str, ratings: Mapping[str, float]) -> Totals:
        sums = self._sums.get(name) or _Sums()
        return Totals(
            player=name,
            points=Fraction(sums.points, self._scale),
            share=sums.share,
            vp=sums.vp,
            coins=sums.coins,
            pp=sums.pp,
            games=sums.games,
            rating=Fraction(ratings.get(name, 0)),
        )


class StandingsKeepers:
    """One :class:`IncrementalStandings` per tournament (by its key, e.g. the slug); a new one
    when the tournament's ruleset is no longer the one it was made for. Thread-safe."""

    def __init__(self) -> None:
        self._keepers: dict[str, IncrementalStandings] = {}
        self._lock = threading.Lock()

    def of(self, tournament: str, ruleset: Ruleset) -> IncrementalStandings:
        with self._lock:
            keeper = self._keepers.get(tournament)
            if keeper is None or keeper.ruleset != ruleset:
                keeper = self._keepers[tournament] = IncrementalStandings(ruleset)
            return keeper

    def standings(self, tournament: str, event: Event, ruleset: Ruleset) -> Standings:
        """The standings of ``event`` (the tournament's now), kept incrementally."""
        return self.of(tournament, ruleset).sync(event)
