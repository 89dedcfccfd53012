"""Every stored online game replays: ``agon db verify`` replays each game's log by the rules and
checks its hash chain, naming the first step that does not hold."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text
from sqlalchemy.orm import Session, sessionmaker

from agon.errors import EXIT_MISMATCH
from agon.play import store
from agon.play.adapters import new_adapter
from agon.play.service import PlayService
from agon.play.store import SeatSpec, check_stored
from tests.cli_runner import run_agon
from tests.play.helpers import wait_until


def finished_game(sessions: sessionmaker[Session]) -> str:
    service = PlayService(sessions)
    try:
        created = service.create_game(
            game="7w", seats=[SeatSpec("bot", bot="random")] * 3, seed="replay"
        )
        wait_until(lambda: service.state(created.game_id, None)["over"])
    finally:
        service.close()
    return created.game_id


def test_a_stored_game_replays_and_a_rewritten_one_is_named(
    sessions: sessionmaker[Session], db_file: Path
) -> None:
    gid = finished_game(sessions)
    env = {"AGON_DATABASE_URL": f"sqlite:///{db_file}"}
    with sessions() as s:
        assert check_stored(s, gid) is None
    ok = run_agon("db", "verify", env=env)
    assert ok.returncode == 0 and "online games: 1 of 1 replay" in ok.stdout
    with sessions() as s:  # somebody rewrites step 5 behind the server's back
        s.execute(
            text("UPDATE play_actions SET action = 'x' WHERE game_id = :g AND seq = 5"), {"g": gid}
        )
        s.commit()
        divergence = check_stored(s, gid)
    assert divergence is not None and divergence.step == 5 and "chain" in divergence.reason
    bad = run_agon("db", "verify", env=env)
    assert bad.returncode == EXIT_MISMATCH
    assert f"game {gid}: step 5: the stored hash chain" in bad.stdout
    assert bad.stderr.count("\n") == 1 and gid in bad.stderr


def test_a_log_with_an_illegal_step_names_that_step(sessions: sessionmaker[Session]) -> None:
    with sessions() as s:
        gid = store.create_game(
            s, game="7w", seats=[SeatSpec("human", name=n) for n in "ABC"], seed="illegal"
        ).game_id
        adapter = new_adapter(store.load_game(s, gid).setup)
        legal = adapter.legal(0)
        store.append_actions(s, gid, 1, [(0, legal[0])], prev=None)
        prev = store.chain_hash(None, 1, 0, legal[0])
        store.append_actions(s, gid, 2, [(0, legal[1])], prev=prev)  # seat 0 chose already
        divergence = check_stored(s, gid)
    assert divergence is not None and divergence.step == 2
    assert str(divergence).startswith(f"step 2: seat 0 {legal[1]!r}")
