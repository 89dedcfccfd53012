"""A demo tournament for ``agon serve --demo``: BONN-SPIELT rules, 13 players, a round played.

Round 1 is played and closed; round 2 is seated, one table confirmed, one pending, one open,
and its clock runs. Rounds are seated by the ruleset's method (the pre-planned schedule with its
draws) from the demo's fixed seed, and the results are drawn from it too, so every demo looks
the same.
"""

from __future__ import annotations

import random

from sqlalchemy.orm import Session

from agon.errors import NotFound
from agon.services import players, results, rounds, tournaments
from agon.services.schemas import PlayerCreate, ResultIn, TournamentCreate
from agon.web import floor

DEMO_SLUG = "demo"
DEMO_PLAYERS = (
    "Anna Bauer",
    "Bruno Rossi",
    "Carla Neri",
    "Dieter Schäfer",
    "Elena Ferrari",
    "Fritz Müller",
    "Giulia Romano",
    "Hanna Weiß",
    "Ivo Bianchi",
    "Jürgen Koch",
    "Katrin Vogel",
    "Luca Conti",
    "Marta Esposito",
)


def _results(rng: random.Random, seats: tuple[str, ...]) -> list[ResultIn]:
    return [ResultIn(player=p, vp=rng.randint(32, 68), coins=rng.randint(0, 9)) for p in seats]


def create_demo(session: Session, *, actor: str = "demo") -> bool:
    """Create the demo tournament unless it exists; ``True`` if it was created."""
    try:
        tournaments.get_tournament(session, slug=DEMO_SLUG)
        return False
    except NotFound:
        pass
    tournaments.create_tournament(
        session,
        data=TournamentCreate(
            slug=DEMO_SLUG,
            name="Demo: BONN-SPIELT",
            ruleset="bonn-2018",
            seed="agon-demo",
            info={"location": "Bonn", "date": "2018-03-18"},
        ),
        actor=actor,
    )
    players.import_players(
        session,
        tournament=DEMO_SLUG,
        players=[PlayerCreate(name=n, fee_paid=True) for n in DEMO_PLAYERS],
        actor=actor,
    )
    for name in DEMO_PLAYERS:
        players.check_in(session, tournament=DEMO_SLUG, player=name, actor=actor)
    rng = random.Random("agon-demo")
    for number in (1, 2):
        seated = rounds.start_round(session, tournament=DEMO_SLUG, actor=actor)
        tables = [table.seats for table in seated.tables]
        for t, seats in enumerate(tables, start=1):
            if number == 2 and t == 3:
                break  # round 2, table 3: still playing
            results.enter_result(
                session,
                tournament=DEMO_SLUG,
                round_number=number,
                table=t,
                results=_results(rng, seats),
                actor=actor,
            )
            if number == 1 or t == 1:
                results.confirm_result(
                    session, tournament=DEMO_SLUG, round_number=number, table=t, actor=actor
                )
        if number == 1:
            rounds.close_round(session, tournament=DEMO_SLUG, number=1, actor=actor)
    floor.start_clock(session, tournament=DEMO_SLUG, round_number=2, minutes=45)
    return True
