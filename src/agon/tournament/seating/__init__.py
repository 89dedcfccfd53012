"""Seating: pre-planned schedules (BONN-SPIELT 2018) and Swiss rounds (Ludolimpico 2015).

A *pre-planned schedule* ("vorher festgelegter Spielplan", Bonn 2018) seats every round before the
first one starts. It minimises, in this order of weight (see :data:`WEIGHTS`):

1. start counts outside ``floor(S/N)..ceil(S/N)`` (any two players' counts differ by at most one);
2. a player getting a wonder he has already played (Bonn: "Jeder Spieler erhält somit vor jeder
   Partie ein (neues) Weltwunder") — seat k plays the round's k-th drawn wonder;
3. repeat encounters (over all pairs, meetings beyond the first);
4. repeated neighbours (a 7 Wonders player trades and fights with both neighbours);
5. the same seat number again.

*Swiss rounds* ("alla svizzera", Ludolimpico 2015, 1.) seat round 1 at random and later rounds by
standings, best five at table 1, swapping neighbouring standings to avoid rematches.

The optimiser (docs/seating.md, "The optimiser") is local search in two strategies: group players
against repeats (:class:`_Grouping`), then order seats (an exact check that the grouping allows the
wonder and start rules, then :meth:`_Search.arrange`); and, when that breaks the wonder or start
rule in a small room, seat numbers first (:class:`_SeatNumbers`), then tables that keep them.
Large rooms of equal tables take seat numbers from an exact model of player types first
(:func:`_types_first`: the wonder repeats the draws force, docs/seating.md section 3). Budgets
are iteration counts and conflict counts, so results never depend on the machine.

Every random choice derives from the tournament seed via :func:`agon.tournament.draws.rng`.

The modules, in import order (each imports only those above it); this package re-exports their
public names, so ``from agon.tournament.seating import plan_schedule`` is the way in:

- :mod:`~agon.tournament.seating.model` — types first: tables, rounds, the schedule and its
  report, :data:`WEIGHTS`, :data:`PLAN_VERSION`, the counts of played rounds (``_Past``);
- :mod:`~agon.tournament.seating.bounds` — lower bounds and their plain-language reasons;
- :mod:`~agon.tournament.seating.grouping` — seat numbers first and the grouping into tables;
- :mod:`~agon.tournament.seating.search` — seat arrangement (``_Search``);
- :mod:`~agon.tournament.seating.schedule` — schedule search: :func:`plan_schedule`, its
  strategies, restarts and budgets;
- :mod:`~agon.tournament.seating.swiss` — Swiss rounds (:func:`seat_swiss_round`).
"""

from __future__ import annotations

from agon.tournament.seating.bounds import (
    repeat_lower_bound,
    start_bands,
    wonder_conflict_note,
    wonder_repeat_lower_bound,
)
from agon.tournament.seating.model import (
    PLAN_VERSION,
    WEIGHTS,
    RoundPlan,
    Schedule,
    ScheduleReport,
    SeatedTable,
    Weights,
)
from agon.tournament.seating.schedule import (
    ATTEMPTS,
    FALLBACK_MAX_PLAYERS,
    RESTART_UNIT,
    plan_schedule,
)
from agon.tournament.seating.search import ARRANGE_PATIENCE
from agon.tournament.seating.swiss import (
    SWISS_SWAP_DISTANCE,
    arrange_table,
    seat_swiss_round,
    spread_by_rating,
)

__all__ = [
    "ARRANGE_PATIENCE",
    "ATTEMPTS",
    "FALLBACK_MAX_PLAYERS",
    "PLAN_VERSION",
    "RESTART_UNIT",
    "SWISS_SWAP_DISTANCE",
    "WEIGHTS",
    "RoundPlan",
    "Schedule",
    "ScheduleReport",
    "SeatedTable",
    "Weights",
    "arrange_table",
    "plan_schedule",
    "repeat_lower_bound",
    "seat_swiss_round",
    "spread_by_rating",
    "start_bands",
    "wonder_conflict_note",
    "wonder_repeat_lower_bound",
]
