"""Seat connections (agon.play.presence) on a clock the tests drive: connected while a stream is
open in any process, disconnected since the last one closed, or since a dead process's stream
went stale; the tournament's bot hand-over measures that real time away."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session, sessionmaker

from agon.play import presence, store
from agon.play.store import SeatSpec
from agon.services.online_host import PlayHost
from agon.store.models import PlayGameRow

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def game(session: Session) -> str:
    created = store.create_game(
        session, game="7w", seed="here", seats=[SeatSpec("human", name=n) for n in "ABC"]
    )
    return created.game_id


def test_connected_while_a_stream_is_open_disconnected_since_the_last_closed(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as session:
        gid = game(session)
        assert presence.presence(session, gid, 3, T0) == [
            presence.SeatPresence(k, False, None) for k in range(3)
        ]
        presence.opened(session, gid, 0, T0)
        presence.opened(session, gid, 0, T0 + timedelta(seconds=5))  # a second tab, or worker
        presence.closed(session, gid, 0, T0 + timedelta(seconds=8))
        now = presence.seat_presence(session, gid, 0, T0 + timedelta(seconds=10))
        assert now == presence.SeatPresence(0, True, T0)  # one stream still open
        presence.closed(session, gid, 0, T0 + timedelta(seconds=20))
        gone = presence.presence(session, gid, 3, T0 + timedelta(seconds=30))
        assert gone[0] == presence.SeatPresence(0, False, T0 + timedelta(seconds=20))
        assert not gone[1].connected and gone[1].since is None


def test_a_stream_of_a_dead_process_goes_stale(sessions: sessionmaker[Session]) -> None:
    stale = timedelta(seconds=presence.STALE_SECONDS)
    with sessions() as session:
        gid = game(session)
        presence.opened(session, gid, 1, T0)
        presence.renewed(session, gid, 1, T0 + timedelta(seconds=15))
        assert presence.seat_presence(session, gid, 1, T0 + timedelta(seconds=15) + stale).connected
        # no keep-alive any more (the process was killed): disconnected since the last one
        later = presence.seat_presence(session, gid, 1, T0 + timedelta(seconds=16) + stale)
        assert later == presence.SeatPresence(1, False, T0 + timedelta(seconds=15))
        # the player opens the link again: connected from then on, the dead stream forgotten
        back = T0 + timedelta(minutes=5)
        presence.opened(session, gid, 1, back)
        presence.closed(session, gid, 1, back + timedelta(seconds=1))
        assert presence.seat_presence(session, gid, 1, back + timedelta(seconds=2)) == (
            presence.SeatPresence(1, False, back + timedelta(seconds=1))
        )


def test_the_bot_hand_over_measures_the_time_away(sessions: sessionmaker[Session]) -> None:
    host = PlayHost()
    with sessions() as session:
        gid = game(session)
        created = session.get(PlayGameRow, gid)
        assert created is not None
        start = created.created_at
        # never came: away since the game began
        assert host.idle_seconds(session, gid, 2, start + timedelta(minutes=3)) == 180
        # connected: not away, however long the game has waited for the seat
        presence.opened(session, gid, 0, start + timedelta(minutes=1))
        presence.renewed(session, gid, 0, start + timedelta(minutes=29, seconds=50))
        assert host.idle_seconds(session, gid, 0, start + timedelta(minutes=30)) == 0
        # gone at minute 31 (the tab closed): away since then, not since the last move
        presence.closed(session, gid, 0, start + timedelta(minutes=31))
        assert host.idle_seconds(session, gid, 0, start + timedelta(minutes=33)) == 120
