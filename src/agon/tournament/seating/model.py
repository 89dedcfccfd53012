"""What a seating plan is: tables, rounds, the schedule and its report, the rules' weights,
and the counts of rounds already played (a re-plan's starting point).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from agon.tournament.draws import (
    WONDERS,
)


@dataclass(frozen=True, slots=True)
class SeatedTable:
    """One table of a round: ``seats[0]`` is the start player; seat k plays ``wonders[k]``."""

    seats: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """One round: its tables (table 1 first) and its central draws."""

    number: int
    tables: tuple[SeatedTable, ...]
    wonders: tuple[str, ...]
    guilds: tuple[str, ...]
    sides: Mapping[str, str] | None


@dataclass(frozen=True, slots=True)
class ScheduleReport:
    """How good a schedule is, and why it cannot be better where that is known."""

    repeats: int
    lower_bound: int
    neighbour_repeats: int
    notes: tuple[str, ...]
    wonder_repeats: int = 0
    wonder_lower_bound: int = 0
    start_spread: int = 0
    seat_repeats: int = 0
    #: the least start spread any seating reaches: 0 or 1, more after played rounds that broke
    #: the balance (a re-plan; :func:`start_bands`)
    start_spread_bound: int = 0
    #: grouping attempts the search made (at most :data:`ATTEMPTS`): it stops as soon as every
    #: rule is at its bound, or a new attempt brings nothing
    search_attempts: int = 1


@dataclass(frozen=True, slots=True)
class Schedule:
    """A pre-planned schedule: every round, and the report on its quality."""

    rounds: tuple[RoundPlan, ...]
    report: ScheduleReport


@dataclass(frozen=True, slots=True)
class Weights:
    """Weights of the seating rules, in cost units per violation.

    Major rules always prevail over minor ones: a start count outside the allowed band (always
    avoidable) costs more than a wonder played twice (sometimes forced by the draws), which costs
    more than any realistic number of repeat encounters, and a repeat encounter
    costs more than the neighbour and seat rules together can save. A repeated neighbour is also a
    repeat encounter, so sitting next to the same player again costs ``pair + neighbour`` and
    weighs more than sharing a table again (issue 3).
    """

    wonder: int = 100_000
    start: int = 1_000_000
    pair: int = 1_000
    neighbour: int = 300
    seat: int = 1


WEIGHTS = Weights()

#: The optimiser's version, recorded in ``agon schedule --json`` (``plan_version``): the same seed
#: gives the same seatings only with the same version. 1: before issue 13; 2: seat numbers by
#: player types in large rooms, the exact seat-order check, Glucose, the smaller budget; 3: the
#: start rule per player (:func:`start_bands`, re-plans), zero-repeat groupings from a grid
#: (:func:`~agon.tournament.exact_grouping.cyclic_grouping`), the exact seat-order check with
#: forced wonder repeats; 4: a grouping known to reach the repeat bound where the search misses
#: it (:data:`~agon.tournament.exact_grouping.KNOWN_GROUPINGS`: 18 and 19 players x 4 rounds,
#: issue 30).
PLAN_VERSION = 4


@dataclass(slots=True)
class _Past:
    """What rounds already played did, as counts over the players of a re-plan (by index).

    A re-plan (a drop or a late entry in a pre-planned schedule) minimises over the whole event:
    meetings, neighbours, starts, wonders and seat numbers of the played rounds are the starting
    counts of the search (:func:`plan_schedule` with ``history``). Players no longer seated are
    left out; seat numbers beyond the new largest table cannot repeat and are left out too.
    """

    meet: list[list[int]]
    nb: list[list[int]]
    wc: list[list[int]]
    sc: list[int]
    seat: list[list[int]]
    repeats: int
    rounds: int

    @classmethod
    def empty(cls, n: int, s_max: int) -> _Past:
        return cls(
            meet=[[0] * n for _ in range(n)],
            nb=[[0] * n for _ in range(n)],
            wc=[[0] * len(WONDERS) for _ in range(n)],
            sc=[0] * n,
            seat=[[0] * s_max for _ in range(n)],
            repeats=0,
            rounds=0,
        )

    @classmethod
    def of(
        cls, names: Sequence[str], s_max: int, history: Sequence[RoundPlan], *, by_seat: bool
    ) -> _Past:
        index = {name: i for i, name in enumerate(names)}
        wid = {w: i for i, w in enumerate(WONDERS)}
        past = cls.empty(len(names), s_max)
        past.rounds = len(history)
        for plan in history:
            for table in plan.tables:
                seats = [index.get(p) for p in table.seats]
                s = len(seats)
                for k, p in enumerate(seats):
                    if p is None:
                        continue
                    if k == 0:
                        past.sc[p] += 1
                    if k < s_max:
                        past.seat[p][k] += 1
                    if by_seat and k < len(plan.wonders) and plan.wonders[k] in wid:
                        past.wc[p][wid[plan.wonders[k]]] += 1
                    for j, q in enumerate(seats):
                        if q is None or j == k:
                            continue
                        past.meet[p][q] += 1
                    for j in {(k - 1) % s, (k + 1) % s} - {k}:
                        q = seats[j]
                        if q is not None:
                            past.nb[p][q] += 1
        past.repeats = sum(max(0, c - 1) for row in past.meet for c in row) // 2
        return past

    def copy_meet(self) -> list[list[int]]:
        return [row[:] for row in self.meet]

    def copy_nb(self) -> list[list[int]]:
        return [row[:] for row in self.nb]

    def copy_wc(self) -> list[list[int]]:
        return [row[:] for row in self.wc]

    def copy_seat(self) -> list[list[int]]:
        return [row[:] for row in self.seat]


def _excess(counts: list[list[int]]) -> int:
    """Counts beyond the first, summed: repeats in a count matrix."""
    return sum(max(0, c - 1) for row in counts for c in row)


def _start_change(lo: int, hi: int, before: int, after: int) -> int:
    """How far a start count moving from ``before`` to ``after`` goes outside ``[lo, hi]``, less
    how far it was outside: the change of the start penalty (the searches' hot paths)."""
    return (
        (after - hi if after > hi else 0)
        + (lo - after if lo > after else 0)
        - (before - hi if before > hi else 0)
        - (lo - before if lo > before else 0)
    )
