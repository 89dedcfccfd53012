"""The changes of many players at once (import, check-in, fees) return each player as
:func:`agon.services.players.get_player` reads them, in the order given, from one read of the
tournament's players rather than two queries per name (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session
from svc_helpers import T0, new_tournament

from agon.errors import NotFound
from agon.services import players


def test_many_players_are_returned_as_get_player_reads_them(session: Session) -> None:
    names = new_tournament(session, "cup", "bonn-2018", 12)
    players.add_sanction(
        session, tournament="cup", player=names[3], kind="warning", reason="late", actor="d", now=T0
    )
    chosen = [names[5], names[3], names[0]]
    one_by_one = [players.get_player(session, tournament="cup", name=n) for n in chosen]
    assert one_by_one[1].sanctions  # the sanction is part of what is compared
    assert players.get_players(session, tournament="cup", names=chosen) == one_by_one
    paid = players.set_fees(
        session, tournament="cup", players=chosen, paid=False, actor="d", now=T0
    )
    assert [p.name for p in paid] == chosen and not any(p.fee_paid for p in paid)
    assert paid == [players.get_player(session, tournament="cup", name=n) for n in chosen]
    with pytest.raises(NotFound, match="no player 'Nobody'"):
        players.get_players(session, tournament="cup", names=[names[0], "Nobody"])


def test_many_players_are_read_with_a_fixed_number_of_statements(session: Session) -> None:
    names = new_tournament(session, "cup", "bonn-2018", 12)
    engine = session.get_bind()
    statements: list[str] = []

    def count(*args: object, **kwargs: object) -> None:
        statements.append(str(args[2]))

    session.expire_all()
    event.listen(engine, "before_cursor_execute", count)
    try:
        found = players.get_players(session, tournament="cup", names=names)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert [p.name for p in found] == names
    assert len(statements) <= 3, statements  # the tournament, its players, their sanctions
