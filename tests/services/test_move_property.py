"""Property (issue 26): any journaled history of a tournament — players added, checked in and
dropped, rounds started and closed, results entered, corrected and confirmed, clocks, disputes,
undos, refused actions in between — moved with the journal document to the *other* back-end
(SQLite -> PostgreSQL and back) gives the identical projection and the identical journal, and
``agon db verify`` there says ok."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session
from svc_helpers import T0
from test_random_walk import step
from tests.cli_runner import run_agon
from tests.db_fixtures import backend_factory

from agon.errors import AgonError
from agon.services import floor, journal, moving, players, rounds, tournaments
from agon.services.schemas import PlayerCreate, TournamentCreate
from agon.store.db import Settings, make_engine, make_session_factory

_COUNTER = itertools.count()


def floor_step(session: Session, slug: str, rng: random.Random) -> Callable[[], object]:
    """A clock started or paused, or a table's result disputed (it may well be refused)."""
    current = rounds.list_rounds(session, tournament=slug)
    number = current[-1].number if current else 1
    kind = rng.choice(["start", "pause", "dispute"])
    if kind == "start":
        return lambda: floor.start_clock(
            session, tournament=slug, round_number=number, minutes=rng.choice([None, 45]), actor="d"
        )
    if kind == "pause":
        return lambda: floor.pause_clock(session, tournament=slug, round_number=number, actor="d")
    tables = current[-1].tables if current else ()
    table = rng.choice(tables) if tables else None
    return lambda: floor.dispute(
        session,
        tournament=slug,
        round_number=number,
        table=table.number if table else 1,
        version=table.version if table else 1,
        player=table.seats[0] if table else "P0",
        reason="the coins",
        actor="player",
    )


def _journal(s: Session, slug: str) -> list[tuple[object, ...]]:
    return [
        (e.id, e.at, e.actor, e.action, e.payload, e.before, e.after, e.undoes)
        for e in journal.entries(s, slug)
    ]


@pytest.mark.slow  # about 8 s a direction (a database per example on the other back-end)
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(1, 40),
    floor_share=st.sampled_from([0.0, 0.15]),
    players_n=st.integers(3, 9),
)
def test_any_history_moves_to_the_other_backend_unchanged(
    session: Session, tmp_path: Path, seed: int, steps: int, floor_share: float, players_n: int
) -> None:
    n = next(_COUNTER)
    slug = f"walk-{n}"
    tournaments.create_tournament(
        session,
        data=TournamentCreate(
            slug=slug, name="Walk", ruleset="bonn-2018", seed=f"w{seed}", min_players=3
        ),
        actor="d",
        now=T0,
    )
    players.import_players(
        session,
        tournament=slug,
        actor="d",
        players=[PlayerCreate(f"P{i}") for i in range(players_n)],
    )
    players.check_in_players(
        session, tournament=slug, players=[f"P{i}" for i in range(players_n)], actor="desk"
    )
    rng = random.Random(seed)
    for _ in range(steps):
        action = (floor_step if rng.random() < floor_share else step)(session, slug, rng)
        with contextlib.suppress(AgonError):  # a refused action changes nothing
            action()
    session.rollback()
    path = tmp_path / f"{slug}.json"
    path.write_text(json.dumps(moving.export_journal(session, tournament=slug)), "utf-8")
    other = "postgresql" if session.get_bind().dialect.name == "sqlite" else "sqlite"
    folder = tmp_path / f"other-{n}"
    folder.mkdir()
    url = backend_factory(other).new_url(folder)
    engine = make_engine(Settings(url))
    try:
        with make_session_factory(engine)() as there:
            done = moving.import_journal(there, path=path)
            assert done["ids_kept"]
            assert journal.snapshot(there, tournament=slug) == journal.snapshot(
                session, tournament=slug
            )
            assert _journal(there, slug) == _journal(session, slug)
    finally:
        engine.dispose()
    out = run_agon("db", "verify", env={"AGON_DATABASE_URL": url})
    assert out.returncode == 0 and out.stdout == f"{slug}: ok\n", out.stderr
