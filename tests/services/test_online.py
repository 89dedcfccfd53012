"""Online tournament tables (issue 12, "Tournament tables"): a round seated at online games, the
games' results journaled once as confirmed by the game, undo, export, bots and the round clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from tests.services.online_host import EngineHost
from tests.services.svc_helpers import T0, new_tournament

from agon.errors import IllegalAction, InvalidInput
from agon.services import exchange, journal, online, results, rounds
from agon.services.online import OnlineOptions
from agon.store.models import JournalEntry


def _actions(session: Session, slug: str) -> list[str]:
    return [
        e.action
        for e in session.scalars(
            select(JournalEntry).where(JournalEntry.tournament == slug).order_by(JournalEntry.id)
        )
    ]


def _bonn_online(session: Session, host: EngineHost, **options: object) -> list[str]:
    names = new_tournament(session, "bonn", "bonn-2018", 12)
    online.start_round_online(
        session,
        tournament="bonn",
        actor="director",
        options=OnlineOptions(**options),  # type: ignore[arg-type]
        host=host,
        now=T0,
    )
    return names


def test_seating_online_gives_each_table_a_game_with_the_drawn_wonders(session: Session) -> None:
    host = EngineHost()
    _bonn_online(session, host)
    rnd = rounds.get_round(session, tournament="bonn")
    seated = online.online_round(session, tournament="bonn", number=rnd.number)
    assert seated is not None and len(seated.tables) == len(rnd.tables) == host.created
    for table, row in zip(seated.tables, rnd.tables, strict=True):
        assert table.game is not None
        order = host.games[table.game].order
        # Bonn 2018: seat k plays the k-th drawn wonder; the players choose the side
        assert order.wonders == tuple(rnd.wonders[: len(row.seats)])
        assert order.sides is None and order.choose_sides
        assert [s.player for s in order.seats] == list(row.seats)
        assert all(s.kind == "human" for s in order.seats)
        assert order.guilds is not None and len(order.guilds) == len(rnd.guilds) == 10
    assert _actions(session, "bonn")[-2:] == ["round.start", "online.open"]
    first = rnd.tables[0].seats[0]
    link = online.seat_link(session, tournament="bonn", player=first)
    assert link is not None and link.url == f"/play/{seated.tables[0].game}?token=secret-g1-0"
    assert (link.table, link.seat) == (1, 1)


def test_a_finished_game_is_journaled_once_as_confirmed_and_fills_the_standings(
    session: Session,
) -> None:
    host = EngineHost()
    _bonn_online(session, host, all_bots=True)
    first = online.sweep(session, tournament="bonn", host=host, now=T0)
    assert not first  # nothing is over yet
    seated = online.online_round(session, tournament="bonn", number=1)
    assert seated is not None
    for table in seated.tables:
        assert table.game is not None
        host.play_out(table.game)
    report = online.sweep(session, tournament="bonn", host=host, now=T0)
    assert sorted(report.results) == [(1, t.table) for t in seated.tables]
    again = online.sweep(session, tournament="bonn", host=host, now=T0)
    assert not again.results
    assert not online.record_game_result(
        session, tournament="bonn", round_number=1, table=1, host=host
    )
    assert _actions(session, "bonn").count("online.result") == len(seated.tables)
    rnd = rounds.get_round(session, tournament="bonn", number=1)
    for table in rnd.tables:
        assert table.state == "confirmed"
        assert table.seats
        game = host.games[seated.tables[table.number - 1].game or ""].game
        for res, city, score in zip(table.results, game.cities, game.scores(), strict=True):
            assert res.confirmed and res.vp == score.total and res.coins == city.coins
            assert res.breakdown is not None and sum(res.breakdown.values()) == res.vp
            assert res.wonder == rnd.wonders[res.seat - 1] and res.side == city.side
            # Bonn: the players chose their sides (the host's seats: B, A, B, ...)
            assert res.side == host.choices[(res.seat - 1) % 2]
    standings = exchange.standings(session, tournament="bonn")
    seated_players = {s.player for t in seated.tables for s in t.seats}
    assert {row.player for row in standings.rows} == seated_players
    assert all(row.totals.games == 1 for row in standings.rows)
    assert sum(row.totals.points for row in standings.rows) > 0
    rounds.close_round(session, tournament="bonn", actor="director", number=1)
    assert journal.verify(session, tournament="bonn")
    exported = exchange.export_event(session, tournament="bonn")
    assert len(exported["rounds"][0]["tables"]) == len(seated.tables)
    assert "breakdown" in exported["rounds"][0]["tables"][0]["results"][0]


def test_two_workers_seeing_the_end_record_it_once(session: Session, db_url: str) -> None:
    from agon.store.db import Settings, make_engine, make_session_factory

    host = EngineHost()
    _bonn_online(session, host, all_bots=True)
    seated = online.online_round(session, tournament="bonn", number=1)
    assert seated is not None and seated.tables[0].game is not None
    host.play_out(seated.tables[0].game)
    session.commit()
    engine = make_engine(Settings(db_url))
    with make_session_factory(engine)() as other:
        done = [
            online.record_game_result(s, tournament="bonn", round_number=1, table=1, host=host)
            for s in (other, session, other)
        ]
    engine.dispose()
    assert done == [True, False, False]
    assert _actions(session, "bonn").count("online.result") == 1


def test_undo_takes_the_games_result_back_and_it_is_not_recorded_again(session: Session) -> None:
    host = EngineHost()
    _bonn_online(session, host, all_bots=True)
    seated = online.online_round(session, tournament="bonn", number=1)
    assert seated is not None and seated.tables[0].game is not None
    host.play_out(seated.tables[0].game)
    assert online.sweep(session, tournament="bonn", host=host).results == [(1, 1)]
    undone = journal.undo(session, tournament="bonn", actor="director")
    assert undone.payload["action"] == "online.result"
    assert rounds.get_round(session, tournament="bonn", number=1).tables[0].state == "open"
    assert not online.sweep(session, tournament="bonn", host=host).results
    assert journal.verify(session, tournament="bonn")
    # the director enters the table by hand instead, like any other table
    table = rounds.get_round(session, tournament="bonn", number=1).tables[0]
    from agon.services.schemas import ResultIn

    results.enter_result(
        session,
        tournament="bonn",
        round_number=1,
        table=1,
        results=[ResultIn(player=p, vp=40 + i, coins=3) for i, p in enumerate(table.seats)],
        actor="director",
    )
    assert rounds.get_round(session, tournament="bonn", number=1).tables[0].state == "pending"


def test_undo_of_the_online_seating_makes_the_round_a_table_round_again(session: Session) -> None:
    host = EngineHost()
    _bonn_online(session, host)
    journal.undo(session, tournament="bonn", actor="director")  # online.open
    assert online.online_round(session, tournament="bonn", number=1) is None
    assert journal.verify(session, tournament="bonn")


def test_seating_online_is_refused_twice_and_after_results(session: Session) -> None:
    host = EngineHost()
    names = _bonn_online(session, host)
    with pytest.raises(IllegalAction, match="online already"):
        online.seat_online(session, tournament="bonn", round_number=1, actor="director", host=host)
    with pytest.raises(InvalidInput, match="unknown bot"):
        online.seat_online(
            session,
            tournament="bonn",
            round_number=1,
            actor="director",
            options=OnlineOptions(bot="genius"),
            host=host,
        )
    assert len(names) == 12


def test_absent_players_are_replaced_by_bots_after_the_grace_time(session: Session) -> None:
    host = EngineHost()
    _bonn_online(session, host, bots=True, grace_minutes=3)
    seated = online.online_round(session, tournament="bonn", number=1)
    assert seated is not None and seated.tables[0].game is not None
    game = seated.tables[0].game
    host.games[game].idle = {0: 179.0, 1: 181.0}
    report = online.sweep(session, tournament="bonn", host=host)
    player = seated.tables[0].seats[1].player
    assert (1, 1, player) in report.bots
    assert host.games[game].bots == {1}
    after = online.online_round(session, tournament="bonn", number=1)
    assert after is not None and after.tables[0].seats[1].kind == "bot"
    assert after.tables[0].seats[0].kind == "human"
    assert not online.sweep(session, tournament="bonn", host=host).bots  # once
    assert journal.verify(session, tournament="bonn")


def test_without_bots_absent_players_keep_their_seats(session: Session) -> None:
    host = EngineHost()
    _bonn_online(session, host, bots=False)
    seated = online.online_round(session, tournament="bonn", number=1)
    assert seated is not None and seated.tables[0].game is not None
    host.games[seated.tables[0].game].idle = {0: 10_000.0}
    assert not online.sweep(session, tournament="bonn", host=host).bots


def test_ludolimpico_clock_ends_the_games_after_the_current_age(session: Session) -> None:
    """Ludolimpico 1: 30 minutes, then the current age is finished; the auction comes first."""
    host = EngineHost()
    new_tournament(session, "ludo", "ludolimpico-2015", 8)
    seated = online.start_round_online(
        session,
        tournament="ludo",
        actor="director",
        options=OnlineOptions(all_bots=True),
        host=host,
        now=T0,
    )
    assert all(t.game is None for t in seated.tables)  # the wonders are won in the auction
    assert "clock.start" in _actions(session, "ludo")
    from agon.services import auctions

    rnd = rounds.get_round(session, tournament="ludo", number=1)
    for table in rnd.tables:
        while True:
            view = auctions.auction_view(
                session, tournament="ludo", round_number=1, table=table.number
            )
            assert view is not None
            if view.finished:
                break
            text = (
                f"{view.to_act} opens {view.available[0]} 0"
                if view.opening
                else f"{view.to_act} passes"
            )
            auctions.act(
                session,
                tournament="ludo",
                round_number=1,
                table=table.number,
                action=text,
                actor="phone",
            )
    report = online.sweep(session, tournament="ludo", host=host, now=T0 + timedelta(minutes=5))
    assert sorted(report.games) == [(1, t.number) for t in rnd.tables]
    started = online.online_round(session, tournament="ludo", number=1)
    assert started is not None
    won = {
        p: w
        for p, w, _ in auctions.auction_view(
            session, tournament="ludo", round_number=1, table=1
        ).won  # type: ignore[union-attr]
    }
    first = started.tables[0]
    assert first.game is not None
    order = host.games[first.game].order
    assert order.wonders == tuple(won[s.player] for s in first.seats)
    assert order.sides == tuple((rnd.sides or {})[w] for w in order.wonders or ())
    assert not order.choose_sides  # Ludolimpico draws the sides
    # 29 minutes: nothing; 31 minutes: the games finish their age and are scored then
    assert not online.sweep(session, tournament="ludo", host=host, now=T0 + timedelta(minutes=29))
    late = online.sweep(session, tournament="ludo", host=host, now=T0 + timedelta(minutes=31))
    assert late.time_up == [1]
    # the games are in age I: until it is over no result is taken
    assert not online.sweep(session, tournament="ludo", host=host, now=T0 + timedelta(minutes=32))
    for table in started.tables:
        assert table.game is not None
        host.play_out(table.game)
        stopped = host.games[table.game].game
        assert stopped.over and stopped.age == 1  # age I finished, no further age dealt
    done = online.sweep(session, tournament="ludo", host=host, now=T0 + timedelta(minutes=33))
    assert len(done.results) == len(started.tables)
    first_game = host.games[started.tables[0].game or ""].game
    assert [
        r.vp for r in rounds.get_round(session, tournament="ludo", number=1).tables[0].results
    ] == [s.total for s in first_game.scores()]
    table = rounds.get_round(session, tournament="ludo", number=1).tables[0]
    assert table.state == "confirmed"
    assert {r.player: (r.wonder, r.bid) for r in table.results} == {
        p: (w, 0) for p, w in won.items()
    }
    assert journal.verify(session, tournament="ludo")
