"""Seating a round by the ruleset's method: the bridge to :mod:`agon.tournament.seating`.

- ``schedule`` (Bonn 2018, "vorher festgelegter Spielplan"): round 1 plans every round at once
  (:func:`~agon.tournament.seating.plan_schedule`); the plan is kept in round 1's journal entry and
  later rounds take their part of it. If the seated players change (a drop, a late entry), the
  remaining rounds are *re-planned* for the new set with the rounds already played as history:
  each round keeps the draws of the tournament's seed, and the meetings, starts, wonders and
  neighbours already played count, so the search minimises over the whole event. The re-plan
  depends only on the seed, the played rounds and the players seated now, so ``agon verify``
  recomputes it from the export.
- ``swiss`` (Ludolimpico 2015): each round from the standings of the checked-in players
  (:func:`~agon.tournament.seating.seat_swiss_round`), with the earlier rounds as history; round 1
  at random, or spread by seeding ratings when the director gives them.

The round's central draws (wonders, guilds, sides) come with the plan. Every choice derives from the
tournament's seed, so the same journal always gives the same seating — and the journal stores the
decision anyway, so a replay never seats again.

A plan of the schedule is a search of a second or more, and a function of its inputs only, so the
last few plans are kept in memory by those inputs (:func:`planned`): starting a round again after
an undo, or a second tournament of the same room and seed, takes the plan at once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from agon.services.core import ruleset_of
from agon.services.players import eligible_players
from agon.store.models import RoundRow, TournamentRow
from agon.tournament.ruleset import Ruleset
from agon.tournament.seating import (
    RoundPlan,
    Schedule,
    SeatedTable,
    plan_schedule,
    seat_swiss_round,
)

#: How many plans :func:`planned` keeps (a plan is a few kilobytes).
PLANS_KEPT = 16
_plans: OrderedDict[str, Schedule] = OrderedDict()
_plans_lock = threading.Lock()


def planned(
    players: Sequence[str],
    *,
    rounds: int,
    seed: str,
    ruleset: Ruleset,
    history: Sequence[RoundPlan] = (),
) -> Schedule:
    """:func:`~agon.tournament.seating.plan_schedule`, remembered for the last
    :data:`PLANS_KEPT` different inputs. A plan depends only on the set of players, the rounds,
    the seed, the ruleset and the played rounds (it is deterministic: ``agon verify`` recomputes
    it), so the same inputs are the same plan; the key is their full ``repr`` (the frozen
    dataclasses show every field). The plans are immutable."""
    key = repr((tuple(sorted(players)), rounds, seed, ruleset, tuple(history)))
    with _plans_lock:
        found = _plans.get(key)
        if found is not None:
            _plans.move_to_end(key)
            return found
    schedule = plan_schedule(players, rounds=rounds, seed=seed, ruleset=ruleset, history=history)
    with _plans_lock:
        _plans[key] = schedule
        while len(_plans) > PLANS_KEPT:
            _plans.popitem(last=False)
    return schedule


@dataclass(frozen=True, slots=True)
class SeatingDecision:
    """Tables in seat order and the round's draws, as stored in the round's journal entry."""

    tables: tuple[tuple[str, ...], ...]
    wonders: tuple[str, ...] = ()
    guilds: tuple[str, ...] = ()
    sides: Mapping[str, str] | None = None
    info: dict[str, Any] = field(default_factory=dict)


def _plan_json(plan: RoundPlan) -> dict[str, Any]:
    return {
        "tables": [list(t.seats) for t in plan.tables],
        "wonders": list(plan.wonders),
        "guilds": list(plan.guilds),
        "sides": None if plan.sides is None else dict(plan.sides),
    }


def _decision(plan: dict[str, Any], info: dict[str, Any]) -> SeatingDecision:
    return SeatingDecision(
        tables=tuple(tuple(t) for t in plan["tables"]),
        wonders=tuple(plan["wonders"]),
        guilds=tuple(plan["guilds"]),
        sides=plan["sides"],
        info=info,
    )


def history_of(rounds: list[RoundRow]) -> list[RoundPlan]:
    """The earlier qualifying rounds as the seating module sees them."""
    return [
        RoundPlan(
            number=r.number,
            tables=tuple(SeatedTable(seats=tuple(t.seats)) for t in r.tables),
            wonders=tuple(r.wonders),
            guilds=tuple(r.guilds),
            sides=r.sides,
        )
        for r in rounds
        if not r.final
    ]


def seat_next_round(
    session: Session,
    *,
    tournament: TournamentRow,
    number: int,
    ratings: Mapping[str, float] | None = None,
) -> SeatingDecision:
    """Seat round ``number`` of ``tournament`` by its ruleset's method, eligible players only.

    ``ratings``: the seeding ratings of a Swiss round 1 (:func:`seat_swiss_round`); ignored by a
    pre-planned schedule.

    Raises:
        InvalidInput: the eligible players cannot be split into the ruleset's table sizes.
    """
    t = tournament
    ruleset = ruleset_of(t)
    players = eligible_players(t)
    if ruleset.seating == "swiss":
        from agon.services.exchange import standings

        ranked = [row.player for row in standings(session, tournament=t.slug).rows]
        present = set(players)
        plan = seat_swiss_round(
            [p for p in ranked if p in present],
            round_number=number,
            seed=t.seed,
            ruleset=ruleset,
            history=history_of(list(t.rounds)),
            ratings=ratings,
        )
        method = "swiss-rating" if number == 1 and ratings else "swiss"
        return _decision(_plan_json(plan), {"method": method})
    # pre-planned schedule: reuse the stored plan while the players are the same
    for earlier in reversed(t.rounds):
        stored = earlier.info.get("schedule")
        if stored is None:
            continue
        offset = number - int(stored["from_round"])
        if sorted(stored["players"]) == sorted(players) and 0 <= offset < len(stored["rounds"]):
            return _decision(
                stored["rounds"][offset],
                {"method": "schedule", "planned_in_round": earlier.number},
            )
        break
    history = history_of(list(t.rounds))
    remaining = max(1, ruleset.rounds - number + 1)
    schedule = planned(players, rounds=remaining, seed=t.seed, ruleset=ruleset, history=history)
    plans = [_plan_json(p) for p in schedule.rounds]
    report = schedule.report
    info = {
        "method": "schedule",
        "planned_in_round": number,
        "report": {
            "repeats": report.repeats,
            "lower_bound": report.lower_bound,
            "neighbour_repeats": report.neighbour_repeats,
            "wonder_repeats": report.wonder_repeats,
            "wonder_lower_bound": report.wonder_lower_bound,
            "start_spread": report.start_spread,
            "notes": list(report.notes),
        },
        "schedule": {"from_round": number, "players": sorted(players), "rounds": plans},
    }
    return _decision(plans[0], info)
