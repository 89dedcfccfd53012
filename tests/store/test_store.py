"""The store: migrations apply on both databases, SQLite runs in WAL mode, settings from env."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from agon.store.db import DEFAULT_URL, Settings, get_settings, make_engine
from agon.store.migrate import current_revision, ensure_current, head_revision, package_head


def test_settings_come_from_the_environment_when_asked() -> None:
    assert get_settings({}).database_url == DEFAULT_URL == "sqlite:///./var/agon.db"
    assert get_settings({"AGON_DATABASE_URL": "sqlite:///x.db"}).database_url == "sqlite:///x.db"


def test_migrated_database_has_every_table_and_is_at_head(db_url: str) -> None:
    engine = make_engine(Settings(db_url))
    names = set(inspect(engine).get_table_names())
    assert {"journal", "tournaments", "players", "rounds", "game_tables", "results"} <= names
    assert {"web_round_clocks", "web_disputes"} <= names  # migration 0002: the web app's floor
    assert current_revision(engine) == head_revision(engine) == package_head()
    engine.dispose()


def test_sqlite_file_is_created_in_wal_mode_and_migrated_on_first_use(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/var/agon.db"
    engine = make_engine(Settings(url))
    assert current_revision(engine) is None
    ensure_current(engine)
    assert current_revision(engine) == head_revision(engine)
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    assert (tmp_path / "var" / "agon.db").is_file()
    engine.dispose()


def test_migrations_match_the_models_and_downgrade_cleanly(db_url: str) -> None:
    from alembic import command
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from agon.store import (
        people,  # noqa: F401  (the people's tables join the metadata)
        registration,  # its tables are in Base.metadata once imported
    )
    from agon.store.migrate import alembic_config
    from agon.store.models import Base

    assert registration.RegistrantRow.__table__.name in Base.metadata.tables

    engine = make_engine(Settings(db_url))
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    command.downgrade(alembic_config(engine), "base")
    assert current_revision(engine) is None
    assert "journal" not in inspect(engine).get_table_names()
    ensure_current(engine)
    assert current_revision(engine) == package_head()
    engine.dispose()


def test_migration_0003_puts_existing_clocks_and_disputes_into_the_journal(db_url: str) -> None:
    """A database of the days when the floor bypassed the journal: after the upgrade, verify,
    rebuild and undo keep its clock and its live dispute (a stale one, shown nowhere, goes)."""
    from datetime import UTC, datetime

    from alembic import command

    from agon.services import journal, results, rounds, tournaments
    from agon.services.floor import clock, disputes
    from agon.services.schemas import ResultIn, TournamentCreate
    from agon.store.db import make_session_factory
    from agon.store.migrate import alembic_config
    from agon.store.models import DisputeRow, RoundClockRow

    engine = make_engine(Settings(db_url))
    t0 = datetime(2026, 3, 18, 10, 0, tzinfo=UTC)
    # the journaled part is written with today's models (which know the later migrations'
    # columns), then the database goes back to 0002 for the rows the floor wrote directly
    with make_session_factory(engine)() as session:
        tournaments.create_tournament(
            session,
            data=TournamentCreate(slug="t", name="T", ruleset="bonn-2018", seed="s"),
            actor="d",
        )
        names = [f"P{i}" for i in range(12)]
        from agon.services import players
        from agon.services.schemas import PlayerCreate

        players.import_players(
            session, tournament="t", players=[PlayerCreate(name=n) for n in names], actor="d"
        )
        players.check_in_players(session, tournament="t", players=names, actor="d")
        rounds.start_round(
            session, tournament="t", actor="d", tables=[names[:4], names[4:8], names[8:]]
        )
        first = results.enter_result(
            session,
            tournament="t",
            round_number=1,
            table=1,
            actor="d",
            results=[ResultIn(player=n, vp=30, coins=0) for n in names[:4]],
        )
        second = results.enter_result(
            session,
            tournament="t",
            round_number=1,
            table=1,
            actor="d",
            results=[ResultIn(player=n, vp=31, coins=0) for n in names[:4]],
            expected_version=first.version,
        )
        session.commit()
    command.downgrade(alembic_config(engine), "0002")
    with make_session_factory(engine)() as session:
        session.add(
            RoundClockRow(
                tournament="t",
                round=1,
                minutes=45,
                started_at=t0,
                paused_at=t0.replace(minute=20),
            )
        )
        for version, reason in ((first.version, "stale"), (second.version, "recount")):
            session.add(
                DisputeRow(
                    tournament="t",
                    round=1,
                    table=1,
                    version=version,
                    player=names[1],
                    reason=reason,
                    at=t0,
                )
            )
        session.commit()
    ensure_current(engine)
    assert current_revision(engine) == package_head()
    with make_session_factory(engine)() as session:
        assert journal.verify(session, tournament="t")
        journal.rebuild(session, tournament="t")
        shown = clock(session, tournament="t", round_number=1, default_minutes=None, now=t0)
        assert (shown.state, shown.minutes, shown.elapsed_seconds) == ("paused", 45, 20 * 60)
        live = disputes(session, tournament="t", round_number=1, versions={1: second.version})
        assert [d.reason for d in live[1]] == ["recount"]
        actions = [e.action for e in journal.list_journal(session, tournament="t")]
        assert actions[-3:] == ["clock.start", "clock.pause", "dispute.open"]
        journal.undo(session, tournament="t", actor="d")  # the dispute
        assert disputes(session, tournament="t", round_number=1, versions={1: second.version}) == {}
        assert journal.verify(session, tournament="t")
    engine.dispose()


def test_postgresql_tests_fail_instead_of_skipping_under_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without PostgreSQL its tests are skipped on a laptop, but fail under CI (issue 10)."""
    from tests import db_fixtures

    monkeypatch.setattr(db_fixtures, "shared_factory", lambda backend: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        db_fixtures.backend_factory("postgresql")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        db_fixtures.backend_factory("postgresql")


def test_migration_0007_chains_the_stored_logs_of_online_games(db_url: str) -> None:
    """Logs stored before the hash chain get it in order: they replay, the chain checks, and a
    game goes on from where it stood."""
    from alembic import command
    from tests.play.helpers import wait_until

    from agon.play.service import PlayService
    from agon.play.store import SeatSpec, actions_after, check_stored
    from agon.store.db import make_session_factory
    from agon.store.migrate import alembic_config

    engine = make_engine(Settings(db_url))
    ensure_current(engine)
    sessions = make_session_factory(engine)
    service = PlayService(sessions)
    try:
        human = SeatSpec("human", name="Ann")
        created = service.create_game(
            game="7w", seats=[human, *[SeatSpec("bot", bot="random")] * 2], seed="chain"
        )
        gid, token = created.game_id, created.seats[0].token
        for _ in range(3):
            wait_until(lambda: service.state(gid, token)["to_act"])
            state = service.state(gid, token)
            service.act(gid, token, state["legal"][0], state["version"])
    finally:
        service.close()
    with sessions() as s:
        before = actions_after(s, gid, 0)
    assert len(before) >= 6
    command.downgrade(alembic_config(engine), "0006")
    command.upgrade(alembic_config(engine), "head")
    with sessions() as s:
        assert actions_after(s, gid, 0) == before and check_stored(s, gid) is None
    again = PlayService(sessions)
    try:
        wait_until(lambda: again.state(gid, token)["to_act"])
        state = again.state(gid, token)
        assert again.act(gid, token, state["legal"][0], state["version"])["version"] > len(before)
    finally:
        again.close()
        engine.dispose()
