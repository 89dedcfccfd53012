"""PlayService: tokens, versions, legality, bots, persistence, finish hooks, the broadcaster."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from agon.errors import NotFound
from agon.play import store
from agon.play.service import (
    FinishedGame,
    Forbidden,
    GameRunning,
    NotLegal,
    NotYourTurn,
    PlayService,
    StaleVersion,
)
from agon.play.store import SeatSpec, check_stored
from agon.play.writer import GroupWriter
from agon.store.models import PlayActionRow, PlayGameRow
from tests.play.helpers import wait_until

HUMAN = SeatSpec("human", name="Ann")


def bots(n: int, kind: str = "heuristic") -> list[SeatSpec]:
    return [SeatSpec("bot", bot=kind) for _ in range(n)]


def token_of(created: store.CreatedGame, seat: int) -> str:
    token = created.seats[seat].token
    assert token is not None
    return token


def test_a_token_is_a_seat_and_only_its_hash_is_stored(
    service: PlayService, sessions: sessionmaker[Session]
) -> None:
    created = service.create_game(game="7w", seats=[HUMAN, SeatSpec("human"), *bots(1)], seed="s")
    t0, t1 = token_of(created, 0), token_of(created, 1)
    assert service.state(created.game_id, t0)["seat"] == 0
    assert service.state(created.game_id, t1)["seat"] == 1
    spectator = service.state(created.game_id, None)
    assert (
        spectator["seat"] is None and spectator["legal"] == [] and "hand" not in spectator["view"]
    )
    for wrong in ("", "x" * 32, t0[:-1] + ("A" if t0[-1] != "A" else "B")):
        with pytest.raises(Forbidden):
            service.act(created.game_id, wrong, "pass", 0)
    with pytest.raises(Forbidden):
        service.state(created.game_id, "nope")
    with pytest.raises(NotFound):
        service.state("no-such-game", t0)
    with sessions() as s:
        row = s.get(PlayGameRow, created.game_id)
        assert row is not None
        stored = repr(row.seats)
    assert t0 not in stored and t1 not in stored and store.token_hash(t0) in stored


def test_versions_turns_and_legality(service: PlayService) -> None:
    created = service.create_game(
        game="7w", seats=[HUMAN, SeatSpec("human", name="Bob"), HUMAN], seed="v"
    )
    gid = created.game_id
    t0, t1 = token_of(created, 0), token_of(created, 1)
    state = service.state(gid, t0)
    assert state["version"] == 0 and state["to_act"]
    with pytest.raises(NotLegal):
        service.act(gid, t0, "build nothing_at_all", 0)
    with pytest.raises(StaleVersion):
        service.act(gid, t0, state["legal"][0], 5)
    after = service.act(gid, t1, service.state(gid, t1)["legal"][0], 0)
    assert after["version"] == 1 and after["to_act"] is False and after["legal"] == []
    with pytest.raises(NotYourTurn):  # seat 1 has chosen this turn
        service.act(gid, t1, state["legal"][0], 1)
    # simultaneous play: seat 1's choice in the same turn does not make seat 0's version stale
    mine = service.act(gid, t0, state["legal"][0], 0)
    assert mine["version"] == 2 and mine["view"]["chosen"] is True
    t2 = token_of(created, 2)
    done = service.act(gid, t2, service.state(gid, t2)["legal"][0], 2)
    assert done["version"] == 3 and done["view"]["turn"] == 2 and done["to_act"]
    # a turn has been resolved since version 2: it is stale now
    with pytest.raises(StaleVersion):
        service.act(gid, t0, service.state(gid, t0)["legal"][0], 2)
    with pytest.raises(GameRunning):
        service.result(gid)


def test_bots_finish_a_game_and_the_hook_hears_it_once(
    service: PlayService, sessions: sessionmaker[Session]
) -> None:
    heard: list[FinishedGame] = []
    service.on_finish(heard.append)
    created = service.create_game(
        game="7w",
        seats=bots(3),
        seed="bots",
        wonders=["Rhodos", "Gizah", "Ephesos"],
        sides=["B", "A", "B"],
        meta={"tournament": "t", "round": 1, "table": 3},
    )
    wait_until(lambda: len(heard) == 1)
    done = heard[0]
    assert done.game_id == created.game_id and done.meta == {
        "tournament": "t",
        "round": 1,
        "table": 3,
    }
    assert [(s["wonder"], s["side"]) for s in done.seats] == [
        ("Rhodos", "B"),
        ("Gizah", "A"),
        ("Ephesos", "B"),
    ]
    assert [r["player"] for r in done.scores] == [s.name for s in created.seats]
    assert all(
        r["total"]
        == sum(
            r[k]
            for k in ("military", "coins", "wonder", "civilian", "commercial", "guilds", "science")
        )
        for r in done.scores
    )
    assert service.result(created.game_id) == done
    with sessions() as s:
        found = store.finished_games(s, meta={"round": 1, "table": 3})
        assert found == [{"game_id": created.game_id, "meta": done.meta, "scores": done.scores}]
        assert store.finished_games(s, meta={"round": 2}) == []
    assert len(heard) == 1


def test_bot_decisions_depend_on_the_seed_only(
    tmp_path_factory: pytest.TempPathFactory, sessions: sessionmaker[Session]
) -> None:
    logs = []
    for _ in range(2):
        svc = PlayService(sessions)
        created = svc.create_game(game="ocw", seats=bots(2, "random") + bots(1), seed="same")
        wait_until(lambda c=created, s=svc: s.seat_state(c.game_id, None)["over"])
        with sessions() as s:
            logs.append(store.actions_after(s, created.game_id, 0))
        svc.close()
    assert logs[0] == logs[1] and len(logs[0]) > 10


def test_a_new_service_rebuilds_every_game_from_the_log(sessions: sessionmaker[Session]) -> None:
    first = PlayService(sessions)
    created = first.create_game(game="ocw", variant="leaders", seats=[HUMAN, *bots(2)], seed="re")
    gid, token = created.game_id, token_of(created, 0)
    rng = random.Random(4)
    for _ in range(30):
        wait_until(lambda: first.state(gid, token)["to_act"] or first.state(gid, token)["over"])
        state = first.state(gid, token)
        if state["over"]:
            break
        first.act(gid, token, rng.choice(state["legal"]), state["version"])
    wait_until(lambda: first.state(gid, token)["to_act"] or first.state(gid, token)["over"])
    before = first.state(gid, token)
    first.close()
    second = PlayService(sessions)
    try:
        assert second.resume_all() >= (0 if before["over"] else 1)
        assert second.state(gid, token) == before
        with sessions() as s:
            count = s.scalar(
                select(func.count()).select_from(PlayActionRow).where(PlayActionRow.game_id == gid)
            )
        assert count == before["version"]
    finally:
        second.close()


def test_a_seat_taken_over_by_a_bot_plays_on_and_its_token_stops(service: PlayService) -> None:
    created = service.create_game(game="7w", seats=[HUMAN, *bots(2, "random")], seed="leave")
    gid, token = created.game_id, token_of(created, 0)
    service.replace_with_bot(gid, 0, "random")
    with pytest.raises(Forbidden):
        service.state(gid, token)
    wait_until(lambda: service.seat_state(gid, None)["over"])
    assert len(service.result(gid).scores) == 3


def test_two_threads_acting_at_once_store_one_action_each(service: PlayService) -> None:
    created = service.create_game(game="7w", seats=[HUMAN, HUMAN, HUMAN], seed="race")
    gid = created.game_id
    results: list[object] = []

    def go(seat: int) -> None:
        t = token_of(created, seat)
        try:
            results.append(service.act(gid, t, service.state(gid, t)["legal"][0], 0)["version"])
        except Exception as exc:  # pragma: no cover - shown by the assertion
            results.append(exc)

    threads = [threading.Thread(target=go, args=(s,)) for s in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [1, 2, 3]  # type: ignore[type-var]
    assert service.seat_state(gid, None)["view"]["turn"] == 2


def test_watchers_hear_every_new_version(service: PlayService) -> None:
    created = service.create_game(game="7w", seats=[HUMAN, HUMAN, HUMAN], seed="watch")
    gid = created.game_id

    async def scenario() -> list[int | None]:
        heard: list[int | None] = []
        versions = service.watch(gid, idle=0.05)
        heard.append(await anext(versions))
        t = token_of(created, 1)
        await asyncio.to_thread(service.act, gid, t, service.state(gid, t)["legal"][0], 0)
        heard.append(await anext(versions))
        heard.append(await anext(versions))  # idle: None
        await versions.aclose()
        return heard

    assert asyncio.run(scenario()) == [0, 1, None]
    assert service.broadcaster.watching() == 0


def test_bots_thinking_in_processes_play_as_in_threads(sessions: sessionmaker[Session]) -> None:
    """The server's bots think in a process pool (no request waits for their interpreter lock);
    the decisions are the same as in-thread ones, since both come from the game's seed."""
    logs = []
    for processes in (0, 1):
        svc = PlayService(sessions, bot_processes=processes)
        try:
            created = svc.create_game(game="7w", seats=[*bots(2), *bots(1, "search")], seed="pool")
            wait_until(lambda c=created, s=svc: s.seat_state(c.game_id, None)["over"], seconds=120)
            with sessions() as s:
                logs.append(store.actions_after(s, created.game_id, 0))
            if processes:  # the search bot thought in the pool
                assert isinstance(svc._thinkers, ProcessPoolExecutor) and svc._thinkers._processes
        finally:
            svc.close()
    assert [(seat, a) for _q, seat, a in logs[0]] == [(seat, a) for _q, seat, a in logs[1]]
    assert len(logs[0]) >= 54


def test_quick_bots_think_in_threads_even_with_a_process_pool(
    sessions: sessionmaker[Session],
) -> None:
    """A heuristic or random decision takes far less than handing the game to another process:
    those bots never start the pool's processes."""
    svc = PlayService(sessions, bot_processes=1)
    try:
        created = svc.create_game(game="7w", seats=[*bots(2), *bots(1, "random")], seed="quick")
        wait_until(lambda: svc.seat_state(created.game_id, None)["over"], seconds=120)
        assert svc._thinkers is None  # not even the pool was made
    finally:
        svc.close()


@pytest.mark.slow  # a searching bot in a spawned process
def test_the_bots_process_pool_is_made_by_the_first_search(
    sessions: sessionmaker[Session],
) -> None:
    """A service with bot processes makes their pool when a searching bot first thinks, not
    when it starts: making a ``spawn`` pool starts Python's resource tracker (a process of its
    own), and most servers never see a searching bot. Closed, it makes none any more."""
    svc = PlayService(sessions, bot_processes=1)
    try:
        assert svc._thinkers is None
        created = svc.create_game(game="7w", seats=[*bots(2), *bots(1, "search")], seed="late")
        wait_until(lambda: svc.seat_state(created.game_id, None)["over"], seconds=120)
        assert isinstance(svc._thinkers, ProcessPoolExecutor) and svc._thinkers._processes
    finally:
        svc.close()
    assert svc._thinkers is None and svc._thinker_pool() is None


def _child_processes() -> list[int]:
    """The pids of this process's children (Linux: /proc)."""
    return [
        int(pid)
        for task in Path("/proc/self/task").iterdir()
        for pid in (task / "children").read_text().split()
    ]


@pytest.mark.slow  # a new interpreter imports the app
def test_a_new_app_starts_no_process(tmp_path: Path) -> None:
    """``create_app`` (each ``agon serve`` and each of its workers) starts no process of its own:
    the bots' pool and the render process come when they are first needed."""
    code = (
        "import json, os\n"
        "from agon.web.app import create_app\n"
        "from agon.web.settings import web_settings\n"
        "from tests.play.test_service import _child_processes\n"
        "app = create_app(web_settings())\n"
        "print(json.dumps(_child_processes()))\n"
    )
    env = {
        **os.environ,
        "AGON_DATABASE_URL": f"sqlite:///{tmp_path / 'agon.db'}",
        "AGON_SECRET_KEY": "test-secret",
        "AGON_DIRECTOR_PASSWORD": "test-password",
    }
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_a_state_is_serialized_once_per_version_and_seat(service: PlayService) -> None:
    """The act's answer, GET and the pushes share one JSON text per version and seat."""
    created = service.create_game(game="7w", seats=[HUMAN, HUMAN, HUMAN], seed="text")
    gid, t0 = created.game_id, token_of(created, 0)
    first = service.seat_json(gid, 0)
    assert service.seat_json(gid, 0) is first
    assert service.try_seat_json(gid, 0) is first
    assert json.loads(first) == service.state(gid, t0)
    assert json.loads(service.seat_json(gid, None)) == service.state(gid, None)
    answer = service.act_json(gid, t0, service.state(gid, t0)["legal"][0], 0)
    assert answer is not first and service.seat_json(gid, 0) is answer
    assert json.loads(answer) == service.state(gid, t0) and json.loads(answer)["version"] == 1
    service.replace_with_bot(gid, 2, "random")  # the kinds change without a new version
    assert json.loads(service.seat_json(gid, 0))["view"]["kinds"][2] == "bot"


def test_an_action_another_process_stored_first_is_checked_again(
    sessions: sessionmaker[Session],
) -> None:
    """Without an announcement a process does not read the log before an action; when another
    process stored that version first, the game is rebuilt from the log and the action checked
    again: a choice of the same turn is still accepted, not refused as stale."""
    one, two = PlayService(sessions), PlayService(sessions)
    try:
        created = one.create_game(game="7w", seats=[HUMAN, HUMAN, HUMAN], seed="two")
        gid, t0, t1 = created.game_id, token_of(created, 0), token_of(created, 1)
        legal0, legal1 = two.state(gid, t0)["legal"], one.state(gid, t1)["legal"]
        assert two.act(gid, t0, legal0[0], 0)["version"] == 1  # process two stores version 1
        assert one.act(gid, t1, legal1[0], 0)["version"] == 2  # one lost the race, then won
        with sessions() as s:
            assert [seat for _q, seat, _a in store.actions_after(s, gid, 0)] == [0, 1]
        with pytest.raises(NotYourTurn):  # seat 0 has chosen: one's game caught up
            one.act(gid, t0, legal0[0], 1)
    finally:
        one.close()
        two.close()


def test_the_writer_stores_what_queued_meanwhile_in_one_commit(
    sessions: sessionmaker[Session],
) -> None:
    gate = threading.Event()
    opened: list[int] = []

    def slow_sessions() -> Session:
        opened.append(1)
        if len(opened) == 1:
            gate.wait(20)  # the first commit takes long: the others queue up meanwhile
        return sessions()

    games = []
    with sessions() as s:
        for i in range(3):
            games.append(store.create_game(s, game="ocw", seats=[HUMAN, HUMAN], seed=f"w{i}"))
    writer = GroupWriter(slow_sessions)  # type: ignore[arg-type]
    threads = [
        threading.Thread(target=writer.append, args=(store.Append(g.game_id, 1, ((0, "x"),)),))
        for g in games
    ]
    threads[0].start()
    wait_until(lambda: len(opened) == 1)
    for t in threads[1:]:
        t.start()
    wait_until(lambda: writer._queue.qsize() == 2)
    gate.set()
    for t in threads:
        t.join()
    writer.close()
    assert (writer.commits, writer.stored) == (2, 3)
    with sessions() as s:
        assert all(store.actions_after(s, g.game_id, 0) == [(1, 0, "x")] for g in games)


def test_the_writer_keeps_one_connection_of_its_own(sessions: sessionmaker[Session]) -> None:
    """No session and no pool checkout per commit: the writer stores on one connection."""
    engine = sessions.kw["bind"]
    checkouts: list[int] = []

    def counted(*_args: object) -> None:
        checkouts.append(1)

    with sessions() as s:
        game = store.create_game(s, game="ocw", seats=[HUMAN, HUMAN], seed="one-connection")
    event.listen(engine, "checkout", counted)
    writer = GroupWriter(sessions)
    prev = None
    try:
        for seq in (1, 2, 3):
            writer.append(store.Append(game.game_id, seq, ((0, f"a{seq}"),), prev=prev))
            prev = store.chain_hash(prev, seq, 0, f"a{seq}")
    finally:
        writer.close()
        event.remove(engine, "checkout", counted)
    assert writer.commits == 3 and len(checkouts) == 1
    with sessions() as s:
        assert [a for _q, _s, a in store.actions_after(s, game.game_id, 0)] == ["a1", "a2", "a3"]


def test_a_kick_while_the_bots_stop_is_not_lost(
    service: PlayService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game kicked just as its bot turn found nothing to do (the sweep handing seats to bots
    at that moment) is looked at once more. Before, the kick saw the game busy and returned, the
    turn then stopped, and nothing drove the bots again: an online-play test hung for 120 s."""
    turns: list[int] = []
    second_turn = threading.Event()

    def bot_turn(game_id: str) -> bool:
        turns.append(len(turns))
        if len(turns) == 1:
            service.kick(game_id)  # arrives while the first turn is stopping
        else:
            second_turn.set()
        return False  # nothing for the bots to do now

    monkeypatch.setattr(service, "_bot_turn", bot_turn)
    service.kick("g")
    assert second_turn.wait(10), "the kick that came while the bots stopped was lost"
    wait_until(lambda: "g" not in service._bots_busy)
    assert turns == [0, 1] and not service._bots_again
    service.kick("g")  # idle again: a new kick starts a new turn
    wait_until(lambda: len(turns) == 3 and "g" not in service._bots_busy)


def test_a_waiter_on_a_failed_store_never_stores_on_the_copy_that_failed(
    sessions: sessionmaker[Session],
) -> None:
    """Process ``two`` stores seat 1's choice as version 1 while process ``one``, behind the
    log, is storing seat 2's choice as version 1 and a second thread of ``one`` waits on the
    game's lock with seat 1's same choice posted again (a double submit). ``one``'s store fails;
    the waiter must not go on with the copy holding seat 2's refused choice — on that copy seat
    1 still had to choose, and on the main of 2026-11-27 it stored seat 1's choice a second time
    as version 2: a log that no longer replays, and a game that answered 409 to every request."""
    one, two = PlayService(sessions), PlayService(sessions)
    try:
        created = one.create_game(game="7w", seats=[HUMAN, HUMAN, HUMAN], seed="waiter")
        gid = created.game_id
        t1, t2 = token_of(created, 1), token_of(created, 2)
        legal1, legal2 = two.state(gid, t1)["legal"], one.state(gid, t2)["legal"]
        two.act(gid, t1, legal1[0], 0)  # stored as version 1; ``one`` does not know it
        storing, go_on = threading.Event(), threading.Event()
        real_append = one.writer.append

        def slow_append(entry: store.Append) -> None:
            storing.set()
            assert go_on.wait(10)
            real_append(entry)

        one.writer.append = slow_append  # type: ignore[method-assign]
        outcomes: dict[str, object] = {}

        def act(name: str, token: str, action: str) -> None:
            try:
                outcomes[name] = one.act(gid, token, action, 0)["version"]
            except Exception as exc:
                outcomes[name] = type(exc).__name__

        first = threading.Thread(target=act, args=("seat 2", t2, legal2[0]))
        first.start()
        assert storing.wait(10)  # seat 2's choice is being stored, under the game's lock
        waiter = threading.Thread(target=act, args=("seat 1 again", t1, legal1[0]))
        waiter.start()
        waiter.join(0.3)  # the waiter waits on the game's lock
        go_on.set()
        first.join(10)
        waiter.join(10)
        one.writer.append = real_append  # type: ignore[method-assign]
        assert outcomes["seat 1 again"] == "NotYourTurn"
        assert outcomes["seat 2"] == 2  # lost the race, checked again on the log, stored
        with sessions() as s:
            assert [seat for _q, seat, _a in store.actions_after(s, gid, 0)] == [1, 2]
            assert check_stored(s, gid) is None
        assert one.state(gid, t1)["version"] == 2
    finally:
        one.close()
        two.close()


def test_the_database_refuses_an_entry_that_does_not_extend_the_stored_log(
    sessions: sessionmaker[Session],
) -> None:
    """Whatever a server process holds in memory, the log's keys refuse an entry that names no
    stored entry as the one before it, and a second entry after the same one."""
    with sessions() as s:
        gid = store.create_game(s, game="7w", seats=[HUMAN, HUMAN, HUMAN], seed="keys").game_id
    with sessions() as s:
        store.append_actions(s, gid, 1, [(1, "a")], prev=None)
        first = store.chain_hash(None, 1, 1, "a")
        for seq, prev in ((2, store.chain_hash(None, 1, 2, "b")), (2, None), (3, first)):
            with pytest.raises(IntegrityError):  # no such entry before; none; not the last
                store.append_actions(s, gid, seq, [(1, "a")], prev=prev)
            s.rollback()
        store.append_actions(s, gid, 2, [(2, "b")], prev=first)
        with pytest.raises(IntegrityError):  # a second entry after the same one
            store.append_actions(s, gid, 2, [(1, "a")], prev=first)
        s.rollback()
        assert store.actions_after(s, gid, 0) == [(1, 1, "a"), (2, 2, "b")]


def test_after_lost_announcements_every_game_in_memory_reads_the_log_again(
    sessions: sessionmaker[Session],
) -> None:
    """The listening connection was down (PostgreSQL restarted): announcements of that time never
    come. ``resync`` makes every game in memory read the log's new entries at its next use."""
    one, two = PlayService(sessions), PlayService(sessions)
    try:
        created = one.create_game(game="7w", seats=[HUMAN, HUMAN, HUMAN], seed="resync")
        gid, t0 = created.game_id, token_of(created, 0)
        legal = two.state(gid, t0)["legal"]
        assert one.state(gid, None)["version"] == 0
        two.act(gid, t0, legal[0], 0)  # announced to nobody
        assert one.state(gid, None)["version"] == 0
        one.resync()
        assert one.state(gid, None)["version"] == 1
        assert one.try_seat_state(gid, None) is not None  # caught up: no more log reads needed
        assert not one._behind(one._live(gid))
    finally:
        one.close()
        two.close()


def test_bots_go_on_once_the_database_is_back(
    sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's store that fails because the database is away does not stop the game's bots for
    good: they try again after a second (on the main of 2026-11-27 they stopped until a person
    acted, and a game whose bots had to act next waited for ever)."""
    from sqlalchemy.exc import OperationalError

    import agon.play.service as service_module

    monkeypatch.setattr(service_module, "BOT_RETRY_SECONDS", 0.05)
    service = PlayService(sessions)
    failures = [OperationalError("INSERT", {}, Exception("server closed the connection"))]
    real_append = service.writer.append

    def flaky_append(entry: store.Append) -> None:
        if failures:
            raise failures.pop()
        real_append(entry)

    service.writer.append = flaky_append  # type: ignore[method-assign]
    try:
        created = service.create_game(game="7w", seats=bots(3, "random"), seed="flaky")
        wait_until(lambda: service.state(created.game_id, None)["over"])
        assert not failures
        with sessions() as s:
            assert store.check_stored(s, created.game_id) is None
    finally:
        service.close()


def test_a_seat_a_bot_took_in_another_process_no_longer_opens_here(
    sessions: sessionmaker[Session],
) -> None:
    """Process ``two`` lets a bot take seat 0; once told (``reseated``, from LISTEN/NOTIFY),
    process ``one`` refuses the seat's old token too (before, its copy kept the old seats)."""
    one, two = PlayService(sessions), PlayService(sessions)
    try:
        created = one.create_game(game="7w", seats=[HUMAN, HUMAN, HUMAN], seed="reseat")
        gid, t0 = created.game_id, token_of(created, 0)
        assert one.state(gid, t0)["seat"] == 0
        two.replace_with_bot(gid, 0, "random")
        one.reseated(gid)
        with pytest.raises(Forbidden):
            one.state(gid, t0)
        assert one.state(gid, None)["view"]["names"]
    finally:
        one.close()
        two.close()


def test_changed_seats_are_announced_on_postgresql(tmp_path: Path) -> None:
    import psycopg

    from agon.play.live import listen_url
    from agon.store.db import Settings, make_engine, make_session_factory
    from tests.db_fixtures import backend_factory

    url = backend_factory("postgresql").new_url(tmp_path)
    engine = make_engine(Settings(url))
    conninfo = listen_url(url)
    assert conninfo is not None
    try:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f"LISTEN {store.CHANNEL}")
            with make_session_factory(engine)() as s:
                gid = store.create_game(s, game="7w", seats=[HUMAN] * 3, seed="notify").game_id
                seats = [dict(x) for x in store.load_game(s, gid).seats]
                seats[1].update(kind="bot", bot="random", token_hash=None)
                store.set_seats(s, gid, seats)
            notes = [n.payload for n in conn.notifies(timeout=5, stop_after=1)]
        assert notes == [f"{gid} {store.SEATS_CHANGED}"]
    finally:
        engine.dispose()


def _ocw_games(sessions: sessionmaker[Session], n: int, seed: str) -> list[str]:
    with sessions() as s:
        return [
            store.create_game(s, game="ocw", seats=[HUMAN, HUMAN], seed=f"{seed}{i}").game_id
            for i in range(n)
        ]


def test_the_commit_delay_lets_entries_made_within_it_share_one_commit(
    sessions: sessionmaker[Session],
) -> None:
    """With a commit delay, on a busy server, entries queued after the writer took the first
    (so not waiting for it in the queue) are stored in that first entry's commit; and each
    entry is acknowledged only once its commit is durable (a fresh session reads it)."""
    games = _ocw_games(sessions, 4, "delay")
    writer = GroupWriter(sessions, commit_delay=1.0, commit_siblings=1)
    seen: list[bool] = []

    def done_for(game_id: str) -> Callable[[BaseException | None], None]:
        def done(error: BaseException | None) -> None:
            assert error is None
            with sessions() as s:  # the entry is committed before it is acknowledged
                seen.append(store.actions_after(s, game_id, 0) == [(1, 0, "x")])

        return done

    try:
        writer.append(store.Append(games[0], 1, ((0, "x"),)))  # one game stored: busy enough
        assert writer.commits == 1
        writer.submit(store.Append(games[1], 1, ((0, "x"),)), done_for(games[1]))
        wait_until(lambda: writer._queue.empty())  # the writer took it, and waits for more
        for game_id in games[2:]:
            writer.submit(store.Append(game_id, 1, ((0, "x"),)), done_for(game_id))
        wait_until(lambda: len(seen) == 3)
    finally:
        writer.close()
    assert seen == [True, True, True]
    assert (writer.commits, writer.stored) == (2, 4)


def test_the_commit_delay_keeps_no_lone_game_waiting(sessions: sessionmaker[Session]) -> None:
    """Below ``commit_siblings`` active games the writer commits at once: one game's three
    entries in a row take three commits and none waits out the (here very long) delay."""
    (game,) = _ocw_games(sessions, 1, "lone")
    writer = GroupWriter(sessions, commit_delay=600.0, commit_siblings=2)
    prev = None

    def three() -> None:
        nonlocal prev
        for seq in (1, 2, 3):
            writer.append(store.Append(game, seq, ((0, f"a{seq}"),), prev=prev))
            prev = store.chain_hash(prev, seq, 0, f"a{seq}")

    worker = threading.Thread(target=three, daemon=True)
    worker.start()
    worker.join(60)
    try:
        assert not worker.is_alive(), "a lone game's entry waited for the commit delay"
    finally:
        writer.close()
    assert (writer.commits, writer.stored) == (3, 3)


def test_the_commit_delay_ends_at_its_bound_and_at_close(sessions: sessionmaker[Session]) -> None:
    """An entry alone in a busy writer's window is committed when the window ends, though no
    other comes; closing the writer during a window commits what it holds before it stops."""
    games = _ocw_games(sessions, 3, "bound")
    writer = GroupWriter(sessions, commit_delay=0.05, commit_siblings=1)
    writer.append(store.Append(games[0], 1, ((0, "x"),)))
    writer.append(store.Append(games[1], 1, ((0, "x"),)))  # alone in its window: stored
    assert (writer.commits, writer.stored) == (2, 2)
    writer.commit_delay = 0.5
    acked: list[BaseException | None] = []
    writer.submit(store.Append(games[2], 1, ((0, "x"),)), acked.append)
    wait_until(lambda: writer._queue.empty())
    writer.close()
    assert writer._thread is not None and not writer._thread.is_alive()
    assert acked == [None] and (writer.commits, writer.stored) == (3, 3)
    with sessions() as s:
        assert all(store.actions_after(s, g, 0) == [(1, 0, "x")] for g in games)


def test_a_stream_opens_on_the_loop_only_for_a_game_in_memory(
    service: PlayService, sessions: sessionmaker[Session]
) -> None:
    """``try_seat_and_meta`` (an event stream's opening, on the loop): what ``seat_for`` and
    ``meta`` answer, without reading the database — ``None`` when the game is not in memory."""
    meta = {"tournament_table": {"tournament": "t", "table": 2}}
    created = service.create_game(
        game="7w", seats=[HUMAN, SeatSpec("human"), *bots(1)], seed="open", meta=meta
    )
    gid, t1 = created.game_id, token_of(created, 1)
    assert service.seat_for(gid, t1) == 1  # the game in memory now (if the bots had not read it)
    assert service.try_seat_and_meta(gid, t1) == (1, meta)
    assert service.try_seat_and_meta(gid, None) == (None, meta)
    with pytest.raises(Forbidden):
        service.try_seat_and_meta(gid, "wrong")
    assert service.try_seat_and_meta("NoSuchGame", t1) is None  # the thread says 404
    fresh = PlayService(sessions)  # another process: the game is only in the database
    try:
        assert fresh.try_seat_and_meta(gid, t1) is None
        assert fresh.seat_for(gid, t1) == 1  # reads it
        assert fresh.try_seat_and_meta(gid, t1) == (1, meta)
    finally:
        fresh.close()
