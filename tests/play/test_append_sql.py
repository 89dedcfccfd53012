"""The group writer's INSERT of log entries, compiled once to the driver's own SQL (issue 30):
the same rows as the ORM's statement stored, on SQLite and PostgreSQL, one executemany per
group, and a clash with the stored log still SQLAlchemy's IntegrityError (a lost race)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, event, select
from sqlalchemy.exc import IntegrityError

from agon.play import store
from agon.play.store import Append, SeatSpec, _insert_actions, chain_hash, write_appends
from agon.store.db import WRITE_OPTION, Settings, make_engine, make_session_factory
from agon.store.models import PlayActionRow
from tests.db_fixtures import db_url_fixture

db_url = db_url_fixture("sqlite", "postgresql")


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    built = make_engine(Settings(db_url))
    yield built
    built.dispose()


def _games(engine: Engine, count: int) -> list[str]:
    seats = [SeatSpec("human", name="Ann"), SeatSpec("human", name="Bea")]
    with make_session_factory(engine)() as session:
        return [
            store.create_game(session, game="ocw", seats=seats, seed=f"s{i}").game_id
            for i in range(count)
        ]


def test_a_group_is_one_statement_and_stores_every_column(engine: Engine) -> None:
    first, second = _games(engine, 2)
    one = Append(first, 1, ((0, "pass"), (1, "bag éü")), None, None)
    after = chain_hash(chain_hash(None, 1, 0, "pass"), 2, 1, "bag éü")
    two = Append(second, 1, ((1, "x"),), None, None)
    statements: list[tuple[str, Any]] = []

    def seen(conn: Any, cursor: Any, sql: str, params: Any, context: Any, many: bool) -> None:
        if sql.startswith("INSERT INTO play_actions"):
            statements.append((sql, many))

    event.listen(engine, "before_cursor_execute", seen)
    began = datetime.now(UTC) - timedelta(seconds=1)
    with engine.connect().execution_options(**{WRITE_OPTION: True}) as conn:
        with conn.begin():
            write_appends(conn, [one, two])
        with conn.begin():
            write_appends(conn, [Append(first, 3, ((0, "y"),), None, after)])
    sql = _insert_actions(engine.dialect)[0]
    assert statements == [(sql, True), (sql, False)]  # one statement per group
    with make_session_factory(engine)() as session:
        rows = session.scalars(select(PlayActionRow).order_by(PlayActionRow.id)).all()
    got = [(r.game_id, r.seq, r.seat, r.action, r.prev_seq, r.prev, r.chain) for r in rows]
    c1 = chain_hash(None, 1, 0, "pass")
    assert got == [
        (first, 1, 0, "pass", None, None, c1),
        (first, 2, 1, "bag éü", 1, c1, after),
        (second, 1, 1, "x", None, None, chain_hash(None, 1, 1, "x")),
        (first, 3, 0, "y", 2, after, chain_hash(after, 3, 0, "y")),
    ]
    for r in rows:  # the timestamp as the ORM stores it: UTC, read back aware
        assert r.at.tzinfo is not None and began <= r.at <= datetime.now(UTC)
    assert store.actions_after(make_session_factory(engine)(), first, 0) == [
        (1, 0, "pass"),
        (2, 1, "bag éü"),
        (3, 0, "y"),
    ]


def test_an_entry_that_does_not_extend_the_log_is_refused(engine: Engine) -> None:
    (game,) = _games(engine, 1)
    with engine.connect().execution_options(**{WRITE_OPTION: True}) as conn:
        with conn.begin():
            write_appends(conn, [Append(game, 1, ((0, "pass"),), None, None)])
        with pytest.raises(IntegrityError), conn.begin():  # the same seq again: a lost race
            write_appends(conn, [Append(game, 1, ((1, "pass"),), None, None)])
        with pytest.raises(IntegrityError), conn.begin():  # a chain the log does not have
            write_appends(conn, [Append(game, 2, ((1, "pass"),), None, "0" * 64)])
