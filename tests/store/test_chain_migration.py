"""Migration 0014 chains the journals of an existing database (issue 29), on both back-ends."""

from __future__ import annotations

import random

from alembic import command
from sqlalchemy import inspect

from agon.services import chain, journal, results, rounds
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.migrate import alembic_config, ensure_current


def test_migration_0014_chains_existing_journals_as_record_does(db_url: str) -> None:
    from tests.services.svc_helpers import T0, new_tournament, random_results

    engine = make_engine(Settings(db_url))
    ensure_current(engine)
    sessions = make_session_factory(engine)
    try:
        with sessions() as s:
            new_tournament(s, "a", "bonn-2018", 12)
            new_tournament(s, "b", "bonn-2018", 12)
            rnd = rounds.start_round(s, tournament="a", actor="d", now=T0)
            first = results.enter_result(
                s,
                tournament="a",
                round_number=1,
                table=1,
                results=random_results(rnd.tables[0].seats, random.Random(1)),
                actor="Zoë",
                now=T0,
            )
            results.enter_result(
                s,
                tournament="a",
                round_number=1,
                table=1,
                results=random_results(rnd.tables[0].seats, random.Random(2)),
                actor="d",
                expected_version=first.version,
                now=T0,
            )
            journal.undo(s, tournament="a", actor="d")
            new_tournament(s, "c", "bonn-2018", 4)  # interleaved ids: a, b, a…, c
            rounds.start_round(s, tournament="b", actor="d", now=T0)
            before = {slug: chain.stored_items(s, slug) for slug in ("a", "b", "c")}
        command.downgrade(alembic_config(engine), "0013")
        columns = {c["name"] for c in inspect(engine).get_columns("journal")}
        assert not {"seq", "prev_hash", "hash"} & columns
        command.upgrade(alembic_config(engine), "head")
        with sessions() as s:
            for slug, items in before.items():
                after = chain.stored_items(s, slug)
                assert after == items
                assert chain.verify_chain(after) == []
            # the chain goes on where the migration left it
            journal.undo(s, tournament="b", actor="d")
            assert chain.verify_stored(s, "b")[2] == []
    finally:
        engine.dispose()
