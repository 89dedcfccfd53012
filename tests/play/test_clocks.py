"""Per-turn clocks and bot delays (issue 28): the deadline is stored, a seat whose clock ran out
plays the heuristic's move after the table's ``timeout N`` (public in the state and the log),
exactly once however many services notice; a game without a clock never times out; a bot's move
waits ``bot_delay``."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from sqlalchemy.orm import Session, sessionmaker

from agon.errors import InvalidInput
from agon.play import clocks, store
from agon.play.adapters import TABLE
from agon.play.replay import replay
from agon.play.service import PlayService
from agon.play.store import SeatSpec
from tests.play.helpers import wait_until

HUMAN = SeatSpec("human", "Ann")
BOT = SeatSpec("bot", bot="heuristic")


def _log(sessions: sessionmaker[Session], gid: str) -> list[tuple[int, int, str]]:
    with sessions() as session:
        return store.actions_after(session, gid, 0)


def _deadline(sessions: sessionmaker[Session], gid: str):  # type: ignore[no-untyped-def]
    with sessions() as session:
        return store.deadline_of(session, gid)


def test_the_clocks_are_data() -> None:
    assert clocks.clocks() == {"relaxed": 120.0, "normal": 60.0, "fast": 30.0}
    assert clocks.seconds("fast", 0.01) == pytest.approx(0.3)
    with pytest.raises(InvalidInput, match="unknown clock 'blitz'"):
        clocks.seconds("blitz")
    for bad in ("[clocks]\nfast = 0", "[clocks]\nfast = 'x'", "", "[clocks"):
        with pytest.raises(InvalidInput, match=r"clocks\.toml"):
            clocks.parse(bad)
    assert 0.05 <= clocks.tick(0.001) <= clocks.tick() <= 1.0


@pytest.mark.parametrize("game", ["7w", "ocw"])
def test_a_clock_that_runs_out_plays_the_heuristic_move_once(
    sessions: sessionmaker[Session], game: str
) -> None:
    service = PlayService(sessions)
    try:
        created = service.create_game(
            game=game, seats=[HUMAN, BOT, BOT], seed="clock", clock="fast"
        )
        gid, token = created.game_id, created.seats[0].token
        wait_until(lambda: service.state(gid, token)["to_act"])
        state = service.state(gid, token)
        assert state["clock"]["name"] == "fast" and state["clock"]["seconds"] == 30
        deadline = _deadline(sessions, gid)
        assert deadline is not None and state["clock"]["deadline"] == deadline.isoformat()
        assert service.sweep_clocks(deadline - timedelta(seconds=1)) == {}  # not yet
        assert service.sweep_clocks(deadline) == {gid: [0]}
        log = [(s, a) for _q, s, a in _log(sessions, gid)]
        table = [i for i, (s, _a) in enumerate(log) if s == TABLE]
        assert [log[i] for i in table] == [(TABLE, "timeout 0")]
        assert log[table[0] + 1][0] == 0  # the seat's own move follows
        assert all(s != 0 for s, _a in log[: table[0]])  # seat 0 had not moved before
        after = service.state(gid, None)
        assert after["timeouts"] == [1, 0, 0]
        assert service.sweep_clocks(deadline) == {}  # the same deadline: nothing twice
        with sessions() as session:
            assert store.check_stored(session, gid) is None  # the log replays, timeouts included

        # the next turn has its own, once the bots (thinking in their own threads) have moved
        def moved_on() -> bool:
            new = _deadline(sessions, gid)
            return new is not None and new > deadline

        wait_until(moved_on)
    finally:
        service.close()


def test_two_services_racing_time_a_seat_out_once(sessions: sessionmaker[Session]) -> None:
    a, b = PlayService(sessions), PlayService(sessions)
    try:
        created = a.create_game(game="7w", seats=[HUMAN, BOT, BOT], seed="race", clock="normal")
        gid, token = created.game_id, created.seats[0].token
        wait_until(lambda: a.state(gid, token)["to_act"])
        b.state(gid, token)  # both hold the game in memory
        deadline = _deadline(sessions, gid)
        assert deadline is not None
        results: list[list[int]] = []
        barrier = threading.Barrier(2)

        def sweep(svc: PlayService) -> None:
            barrier.wait()
            results.append(svc.time_out(gid, deadline))

        threads = [threading.Thread(target=sweep, args=(s,)) for s in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == [[], [0]]
        log = _log(sessions, gid)
        assert [a_ for _q, s, a_ in log if s == TABLE] == ["timeout 0"]
    finally:
        a.close()
        b.close()


def test_a_game_without_a_clock_never_times_out(service: PlayService) -> None:
    created = service.create_game(game="7w", seats=[HUMAN, BOT, BOT], seed="casual")
    gid, token = created.game_id, created.seats[0].token
    wait_until(lambda: service.state(gid, token)["to_act"])
    far = store.now() + timedelta(days=400)
    assert service.sweep_clocks(far) == {} and service.time_out(gid, far) == []
    assert service.state(gid, token)["clock"] is None


def test_a_timeout_only_of_a_seat_that_must_act(service: PlayService) -> None:
    created = service.create_game(game="ocw", seats=[HUMAN, BOT], seed="t")
    adapter = service._live(created.game_id).adapter.snapshot()
    idle = 1 - adapter.waiting_for()[0]
    with pytest.raises(Exception, match="cannot time out"):
        adapter.apply(TABLE, clocks.timeout_action(idle))
    with pytest.raises(Exception, match="cannot time out"):
        adapter.apply(TABLE, clocks.timeout_action(9))


def test_bad_clock_and_delay_are_refused(service: PlayService) -> None:
    with pytest.raises(InvalidInput, match="unknown clock"):
        service.create_game(game="7w", seats=[HUMAN, BOT, BOT], clock="blitz")
    with pytest.raises(InvalidInput, match="bot_delay"):
        service.create_game(game="7w", seats=[HUMAN, BOT, BOT], bot_delay=60)


def test_bot_moves_wait_the_delay(sessions: sessionmaker[Session]) -> None:
    service = PlayService(sessions)
    try:
        start = time.monotonic()
        created = service.create_game(
            game="7w", seats=[HUMAN, BOT, BOT], seed="slow", bot_delay=0.4
        )
        gid = created.game_id
        wait_until(lambda: len(_log(sessions, gid)) >= 2, seconds=20)
        took = time.monotonic() - start
        assert took >= 0.75  # the two bots' choices, one at a time, each 0.4 s after the last
        # a replay of the log is the game (the delay changes when, not what)
        with sessions() as session:
            record = store.load_game(session, gid)
        assert replay(record.setup, _log(sessions, gid))[1] is None
    finally:
        service.close()


def test_the_round_clock_stop_is_not_confused_with_a_timeout(
    sessions: sessionmaker[Session],
) -> None:
    """A game whose seat timed out can still be stopped after its age by the round clock."""
    service = PlayService(sessions)
    try:
        created = service.create_game(game="7w", seats=[HUMAN, BOT, BOT], seed="both", clock="fast")
        gid, token = created.game_id, created.seats[0].token
        wait_until(lambda: service.state(gid, token)["to_act"])
        deadline = _deadline(sessions, gid)
        assert deadline is not None and service.time_out(gid, deadline) == [0]
        assert service.stop_after_age(gid) == 1
        assert service.stop_after_age(gid) == 1  # once
        entries = [(s, a) for _q, s, a in _log(sessions, gid) if s == TABLE]
        assert entries == [(TABLE, "timeout 0"), (TABLE, "stop after age 1")]
    finally:
        service.close()


def test_a_clock_the_database_cannot_time_out_is_one_line(
    sessions: sessionmaker[Session],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A due clock whose timeout meets a database outage waits for the next sweep, said in one
    line (a traceback per clock and sweep filled the servers' logs during an outage)."""
    import logging

    from sqlalchemy.exc import OperationalError

    service = PlayService(sessions)
    try:
        created = service.create_game(game="7w", seats=[HUMAN, BOT, BOT], seed="out", clock="fast")
        gid = created.game_id
        wait_until(lambda: _deadline(sessions, gid) is not None)
        deadline = _deadline(sessions, gid)

        def away(game_id: str, at: object) -> list[int]:
            raise OperationalError("UPDATE", {}, Exception("terminating connection"))

        monkeypatch.setattr(service, "time_out", away)
        caplog.set_level(logging.WARNING, logger="agon.play")
        assert service.sweep_clocks(deadline) == {}
        said = [r for r in caplog.records if "not timed out now" in r.getMessage()]
        assert len(said) == 1 and said[0].exc_info is None, said
        assert "\n" not in said[0].getMessage()
    finally:
        service.close()
