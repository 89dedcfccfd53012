"""A tournament round seated online on the real game service (agon.play): bots play every seat,
the games end, and their results are journaled once, confirmed by the games."""

from __future__ import annotations

from sqlalchemy.orm import Session
from tests.play.helpers import wait_until
from tests.services.svc_helpers import T0, new_tournament

from agon.play import store
from agon.play.service import PlayService
from agon.services import exchange, journal, online, rounds
from agon.services.online import OnlineOptions
from agon.services.online_host import PlayHost
from agon.store.db import Settings, make_engine, make_session_factory


def test_a_round_played_by_bots_on_the_game_service_fills_the_standings(
    session: Session, db_url: str
) -> None:
    engine = make_engine(Settings(db_url))
    service = PlayService(make_session_factory(engine))
    host = PlayHost(service)
    finished: list[str] = []
    service.on_finish(lambda done: finished.append(done.game_id))
    try:
        new_tournament(session, "bonn", "bonn-2018", 12)
        seated = online.start_round_online(
            session,
            tournament="bonn",
            actor="director",
            options=OnlineOptions(all_bots=True, bot="random"),
            host=host,
            now=T0,
        )
        games = [t.game for t in seated.tables]
        assert all(games) and len(games) == 3
        rnd = rounds.get_round(session, tournament="bonn", number=1)
        first = store.load_game(session, games[0] or "")
        assert first.setup.wonders == tuple(rnd.wonders[: len(rnd.tables[0].seats)])
        assert [s["name"] for s in first.seats] == list(rnd.tables[0].seats)
        wait_until(lambda: len(finished) == 3, seconds=120)
        session.rollback()
        report = online.sweep(session, tournament="bonn", host=host)
        assert sorted(report.results) == [(1, 1), (1, 2), (1, 3)]
        assert not online.sweep(session, tournament="bonn", host=host).results
        rnd = rounds.get_round(session, tournament="bonn", number=1)
        for table, game_id in zip(rnd.tables, games, strict=True):
            result = service.result(game_id or "")
            assert table.state == "confirmed"
            assert [r.vp for r in table.results] == [s["total"] for s in result.scores]
            assert [r.coins for r in table.results] == [d["treasury"] for d in result.seats]
            assert [r.wonder for r in table.results] == list(rnd.wonders[: len(table.seats)])
            # Bonn: each seat chose its side first (the bots by their policy); the result
            # records the side played
            log = store.actions_after(session, game_id or "", 0)
            chosen = {seat: action[-1] for _, seat, action in log[: len(table.seats)]}
            assert sorted(chosen) == list(range(len(table.seats)))
            assert [r.side for r in table.results] == [chosen[k] for k in range(len(chosen))]
            assert [r.side for r in table.results] == [d["side"] for d in result.seats]
            assert all(r.breakdown and sum(r.breakdown.values()) == r.vp for r in table.results)
        assert len(exchange.standings(session, tournament="bonn").rows) == 12
        assert journal.verify(session, tournament="bonn")
    finally:
        service.close()
        engine.dispose()


def test_absent_players_are_handed_to_bots_on_the_game_service(
    session: Session, db_url: str
) -> None:
    engine = make_engine(Settings(db_url))
    service = PlayService(make_session_factory(engine))
    host = PlayHost(service)
    finished: list[str] = []
    service.on_finish(lambda done: finished.append(done.game_id))
    try:
        new_tournament(session, "bonn", "bonn-2018", 12)
        seated = online.start_round_online(
            session,
            tournament="bonn",
            actor="director",
            options=OnlineOptions(bots=True, grace_minutes=0, bot="random"),
            host=host,
            now=T0,
        )
        game = seated.tables[0].game or ""
        # nobody has come: the game waits for the sides to be chosen (Bonn), before age I
        assert host.current_age(session, game) == 0
        assert [s.coins for s in host.score_now(session, game)] == [3] * len(seated.tables[0].seats)
        session.rollback()
        report = online.sweep(session, tournament="bonn", host=host)
        assert len(report.bots) == 12  # grace 0: every seat waiting for its player
        assert all(s["kind"] == "bot" for s in store.load_game(session, game).seats)
        wait_until(lambda: len(finished) == 3, seconds=120)
        session.rollback()
        later = online.sweep(session, tournament="bonn", host=host)
        # random bots end a game within a second: the first sweep may have recorded some already
        assert len(report.results) + len(later.results) == 3
        assert all(
            t.state == "confirmed" for t in rounds.get_round(session, tournament="bonn").tables
        )
        assert journal.verify(session, tournament="bonn")
    finally:
        service.close()
        engine.dispose()


def _finish_auctions(session: Session, slug: str) -> None:
    from agon.services import auctions

    for table in rounds.get_round(session, tournament=slug, number=1).tables:
        while True:
            view = auctions.auction_view(
                session, tournament=slug, round_number=1, table=table.number
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
                tournament=slug,
                round_number=1,
                table=table.number,
                action=text,
                actor="phone",
            )


def test_the_round_clock_stops_the_games_on_the_game_service(session: Session, db_url: str) -> None:
    """Ludolimpico 1.: 30 minutes, then the age being played is finished and the game ends there —
    the game service deals no further age; the result is the game's score at that moment."""
    from datetime import timedelta

    from agon.play.adapters import TABLE

    engine = make_engine(Settings(db_url))
    service = PlayService(make_session_factory(engine))
    host = PlayHost(service)
    finished: list[str] = []
    service.on_finish(lambda done: finished.append(done.game_id))
    try:
        new_tournament(session, "ludo", "ludolimpico-2015", 8)
        online.start_round_online(
            session, tournament="ludo", actor="director", options=OnlineOptions(), host=host, now=T0
        )
        _finish_auctions(session, "ludo")
        started = online.sweep(session, tournament="ludo", host=host, now=T0 + timedelta(minutes=1))
        assert len(started.games) == 2
        seated = online.online_round(session, tournament="ludo", number=1)
        assert seated is not None
        games = [t.game or "" for t in seated.tables]
        # nobody plays: at 31 minutes the clock has run out in age I
        late = online.sweep(session, tournament="ludo", host=host, now=T0 + timedelta(minutes=31))
        assert late.time_up == [1] and not late.results
        for game in games:
            log = store.actions_after(session, game, 0)
            assert [(s, a) for _, s, a in log if s == TABLE] == [(TABLE, "stop after age 1")]
            for seat in range(4):  # the players play on (here: bots take their seats)
                service.replace_with_bot(game, seat, "random")
        wait_until(lambda: len(finished) == 2, seconds=120)
        for game in games:
            state = service.state(game, None)
            assert state["over"] and state["view"]["age"] == 1  # age II was never dealt
        session.rollback()
        done = online.sweep(session, tournament="ludo", host=host, now=T0 + timedelta(minutes=40))
        assert sorted(done.results) == [(1, 1), (1, 2)]
        rnd = rounds.get_round(session, tournament="ludo", number=1)
        for table, game in zip(rnd.tables, games, strict=True):
            result = service.result(game)
            assert [r.vp for r in table.results] == [s["total"] for s in result.scores]
        assert journal.verify(session, tournament="ludo")
    finally:
        service.close()
        engine.dispose()
