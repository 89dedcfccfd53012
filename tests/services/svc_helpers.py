"""Builders for service tests: tournaments with players checked in and rounds played by hand."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from agon.services import journal, players, results, rounds, tournaments
from agon.services.schemas import PlayerCreate, ResultIn, TournamentCreate
from agon.store.models import JournalEntry

T0 = datetime(2026, 3, 18, 9, 0, tzinfo=UTC)


def new_tournament(
    session: Session, slug: str, ruleset: str, n_players: int, **kwargs: object
) -> list[str]:
    """Create ``slug`` with ``n_players`` registered, paid and checked in; return their names."""
    tournaments.create_tournament(
        session,
        data=TournamentCreate(
            slug=slug, name=f"Test {slug}", ruleset=ruleset, seed=f"seed-{slug}", **kwargs
        ),  # type: ignore[arg-type]
        actor="director",
        now=T0,
    )
    names = [f"Player {i:02d}" for i in range(1, n_players + 1)]
    players.import_players(
        session,
        tournament=slug,
        players=[PlayerCreate(name=n, fee_paid=True) for n in names],
        actor="director",
        now=T0,
    )
    # one journal entry for them all (the desk's "check in everyone"): one change, not n
    players.check_in_players(session, tournament=slug, players=names, actor="desk", now=T0)
    return names


def split(names: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    out, i = [], 0
    for size in sizes:
        out.append(list(names[i : i + size]))
        i += size
    return out


def random_results(
    table: Sequence[str], rng: random.Random, *, bids: bool = False
) -> list[ResultIn]:
    out = []
    for name in table:
        cats = [rng.randint(0, 12) for _ in range(7)]
        vp = sum(cats)
        breakdown = dict(
            zip(
                ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science"),
                cats,
                strict=True,
            )
        )
        out.append(
            ResultIn(
                player=name,
                vp=vp,
                coins=rng.randint(0, 9),
                bid=rng.randint(0, 3) if bids else 0,
                breakdown=breakdown,
            )
        )
    return out


def play_round(
    session: Session,
    slug: str,
    tables: Sequence[Sequence[str]],
    rng: random.Random,
    *,
    bids: bool = False,
    close: bool = True,
) -> int:
    """Start a round seated as ``tables``, enter random results, confirm them, close it."""
    rnd = rounds.start_round(session, tournament=slug, actor="director", tables=tables)
    for number, table in enumerate(tables, start=1):
        results.enter_result(
            session,
            tournament=slug,
            round_number=rnd.number,
            table=number,
            results=random_results(table, rng, bids=bids),
            actor="scorer",
        )
        results.confirm_result(
            session, tournament=slug, round_number=rnd.number, table=number, actor="director"
        )
    if close:
        rounds.close_round(session, tournament=slug, actor="director", number=rnd.number)
    return rnd.number


def journal_length(session: Session) -> int:
    return int(session.scalar(select(func.count(JournalEntry.id))) or 0)


def state(session: Session, slug: str) -> object:
    session.expire_all()
    return journal.snapshot(session, tournament=slug)
