"""A person's move on the event loop (``PlayService.act_json_on_loop``): the same answers, the
same stored log and the same refusals as ``act_json`` in a thread, one commit per move, no trace
of a refused or failed move, and the loop never waits for a game's lock."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncGenerator, Sequence
from typing import cast

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from agon.play import store
from agon.play.service import Forbidden, NotLegal, PlayService, StaleVersion
from agon.play.store import SeatSpec, check_stored
from tests.play.helpers import wait_until

HUMAN = SeatSpec("human", name="Ann")
BOTS = [SeatSpec("bot", bot="heuristic"), SeatSpec("bot", bot="heuristic")]


def _game(service: PlayService, seed: str = "loop") -> tuple[str, str]:
    """A game with a person and two bots, once the bots made their first choices."""
    created = service.create_game(game="7w", seats=[HUMAN, *BOTS], seed=seed)
    token = created.seats[0].token
    assert token is not None
    wait_until(lambda: len(_log(service.sessions, created.game_id)) == 2)
    return created.game_id, token


def _log(sessions: sessionmaker[Session], game_id: str) -> list[tuple[int, int, str]]:
    with sessions() as s:
        assert check_stored(s, game_id) is None
        return store.actions_after(s, game_id, 0)


def _play(service: PlayService, game_id: str, token: str, moves: int, on_loop: bool) -> list[str]:
    """Play the person's first legal action ``moves`` times; the answers' texts."""
    answers = []
    for _ in range(moves):
        state = json.loads(service.seat_json(game_id, 0))
        action, version = state["legal"][0], state["version"]
        if on_loop:
            text = asyncio.run(service.act_json_on_loop(game_id, token, action, version))
        else:
            text = service.act_json(game_id, token, action, version)
        answers.append(text)
    return answers


def test_moves_on_the_loop_answer_and_store_as_in_a_thread(
    sessions: sessionmaker[Session],
) -> None:
    """The same game played both ways: the same answers and the same log (the quick bots
    answer inside the move, stored with it)."""
    logs, answers = [], []
    for on_loop in (False, True):
        service = PlayService(sessions)
        try:
            game_id, token = _game(service, seed="same")
            texts = _play(service, game_id, token, 6, on_loop)
            assert texts[-1] == service.seat_json(game_id, 0)  # the answer is the seat's state
            answers.append(texts)
            logs.append([(seat, action) for _q, seat, action in _log(sessions, game_id)])
        finally:
            service.close()
    assert answers[0] == answers[1] and logs[0] == logs[1]
    assert [seat for seat, _a in logs[0]] == [1, 2] + [0, 1, 2] * 6  # the bots answer each move


def test_a_refused_move_on_the_loop_leaves_no_trace(
    service: PlayService, sessions: sessionmaker[Session]
) -> None:
    game_id, token = _game(service)
    state = json.loads(service.seat_json(game_id, 0))
    before = _log(sessions, game_id)
    refusals = [
        (Forbidden, ("x" * 32, state["legal"][0], 0)),
        (NotLegal, (token, "build nothing_at_all", 0)),
        (StaleVersion, (token, state["legal"][0], -1)),
    ]
    for refused, (tok, action, version) in refusals:
        with pytest.raises(refused):
            asyncio.run(service.act_json_on_loop(game_id, tok, action, version))
    assert _log(sessions, game_id) == before
    assert json.loads(service.seat_json(game_id, 0)) == state  # the game in memory as it was
    _play(service, game_id, token, 1, on_loop=True)  # and its lock is free


def test_a_failed_store_on_the_loop_leaves_no_trace(
    service: PlayService, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy that applied the move is dropped; the next reader takes the game from the log."""
    game_id, token = _game(service)
    state = json.loads(service.seat_json(game_id, 0))

    def down(_entries: Sequence[store.Append]) -> None:
        raise OperationalError("INSERT", {}, Exception("the disk is full"))

    monkeypatch.setattr(service.writer, "_store", down)
    with pytest.raises(OperationalError):
        asyncio.run(service.act_json_on_loop(game_id, token, state["legal"][0], state["version"]))
    monkeypatch.undo()
    assert len(_log(sessions, game_id)) == 2
    assert json.loads(service.seat_json(game_id, 0)) == state
    _play(service, game_id, token, 1, on_loop=True)
    assert len(_log(sessions, game_id)) == 5


def test_a_lost_race_on_the_loop_is_checked_again_in_a_thread(
    service: PlayService, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process stored the version first (the log's unique key): as in ``act_json``, the
    game is taken from the log and the move checked again — here it is still legal: stored."""
    game_id, token = _game(service)
    state = json.loads(service.seat_json(game_id, 0))
    real = service.writer._store
    raised: list[bool] = []

    def lose_once(entries: Sequence[store.Append]) -> None:
        if not raised:
            raised.append(True)
            raise IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed"))
        real(entries)

    monkeypatch.setattr(service.writer, "_store", lose_once)
    text = asyncio.run(
        service.act_json_on_loop(game_id, token, state["legal"][0], state["version"])
    )
    assert raised and json.loads(text)["version"] == 5
    assert [seat for _q, seat, _a in _log(sessions, game_id)] == [1, 2, 0, 1, 2]


def test_the_loop_never_waits_for_a_games_lock(
    service: PlayService, sessions: sessionmaker[Session]
) -> None:
    """A game locked by a thread (a bot's turn, a reader): the move waits in a thread, while
    the loop goes on serving others; the move is made once the lock is free."""
    game_id, token = _game(service)
    state = json.loads(service.seat_json(game_id, 0))
    live = service._live(game_id)

    released: list[str] = []
    once = threading.Lock()

    def release(by: str) -> None:
        with once:
            if not released:
                released.append(by)
                live.lock.release()

    async def main() -> tuple[int, str]:
        ticks = 0
        live.lock.acquire()
        move = asyncio.ensure_future(
            service.act_json_on_loop(game_id, token, state["legal"][0], state["version"])
        )
        # the loop itself frees the game after ten ticks; a loop that waited for the lock would
        # never tick that far, and a timer frees it then (counting ticks in a fixed 0.3 s failed
        # on a loaded machine, where a tick of asyncio.sleep(0.01) may take far longer)
        watchdog = threading.Timer(10, release, args=("timer",))
        watchdog.start()
        while not move.done():
            await asyncio.sleep(0.01)
            ticks += 1
            if ticks == 10:
                release("loop")
        watchdog.cancel()
        return ticks, await move

    ticks, text = asyncio.run(main())
    assert released == ["loop"] and ticks >= 10  # the loop ran on while the move waited
    assert json.loads(text)["version"] == 5 and len(_log(sessions, game_id)) == 5


def test_a_cancelled_move_keeps_the_game_locked_until_its_commit_ends(
    service: PlayService, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request is cancelled while its move is being stored: the move is stored (it was
    accepted), announced to the watchers, and nobody reads or extends the game meanwhile."""
    game_id, token = _game(service)
    state = json.loads(service.seat_json(game_id, 0))
    real = service.writer._store
    storing, checked = threading.Event(), threading.Event()

    def slow(entries: Sequence[store.Append]) -> None:
        storing.set()
        checked.wait(10)  # the commit lasts until the test has looked at the lock
        real(entries)

    monkeypatch.setattr(service.writer, "_store", slow)
    live = service._live(game_id)
    heard: list[int | None] = []

    async def main() -> bool:
        watch = cast(AsyncGenerator[int | None, None], service.watch(game_id, idle=5))
        assert await watch.__anext__() == 2

        async def listen() -> None:
            heard.append(await watch.__anext__())

        listener = asyncio.ensure_future(listen())
        move = asyncio.ensure_future(
            service.act_json_on_loop(game_id, token, state["legal"][0], state["version"])
        )
        while not storing.is_set():
            await asyncio.sleep(0.01)
        move.cancel()
        with pytest.raises(asyncio.CancelledError):
            await move
        locked = live.lock.locked()  # the commit is still under way
        checked.set()
        await asyncio.wait_for(listener, 5)
        await watch.aclose()
        return locked

    assert asyncio.run(main())
    assert heard == [5]
    assert not live.lock.locked() and not live.dead
    assert len(_log(sessions, game_id)) == 5
    assert json.loads(service.seat_json(game_id, 0))["version"] == 5


def test_a_version_published_on_the_watchers_loop_is_in_their_queue_at_once() -> None:
    """A move made on the loop hands its version to the watchers on that loop straight into
    their queues (no callback, no write to wake the loop it runs on: issue 30); a watcher on
    another loop, and a publish from a thread, still go through the watcher's loop."""
    from agon.play.service import Broadcaster

    broadcaster = Broadcaster()
    other_ready, other_done = threading.Event(), threading.Event()
    other_got: list[int] = []

    def other_loop() -> None:
        async def watch() -> None:
            _loop, queue = broadcaster.add("g")
            other_ready.set()
            other_got.append(await asyncio.wait_for(queue.get(), 10))

        asyncio.run(watch())
        other_done.set()

    async def main() -> None:
        loop, queue = broadcaster.add("g")
        assert loop is asyncio.get_running_loop()
        threading.Thread(target=other_loop, daemon=True).start()
        assert await asyncio.to_thread(other_ready.wait, 10)
        calls: list[object] = []
        threadsafe = loop.call_soon_threadsafe

        def counted(callback: object, *args: object, **kwargs: object) -> object:
            calls.append(callback)
            return threadsafe(callback, *args, **kwargs)  # type: ignore[arg-type]

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign,assignment]
        try:
            broadcaster.publish("g", 3)
        finally:
            del loop.call_soon_threadsafe
        assert queue.get_nowait() == 3 and calls == []  # at once, and no wake-up of this loop
        assert await asyncio.to_thread(other_done.wait, 10) and other_got == [3]
        await asyncio.to_thread(broadcaster.publish, "g", 4)  # from a thread: through the loop
        assert await asyncio.wait_for(queue.get(), 10) == 4

    asyncio.run(main())
