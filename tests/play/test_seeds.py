"""Who knows a game's seed, and when (issue 26): the game publishes the seed's SHA-256 from the
start and reveals the seed only at its end; a finished game exports as a file that ``agon verify``
replays from the revealed seed, naming the first divergent step."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session, sessionmaker

from agon.errors import InvalidInput
from agon.play import store
from agon.play.adapters import TABLE, new_adapter
from agon.play.gamefile import GameNotOver, export_game, setup_of, verify_game
from agon.play.service import PlayService
from agon.play.store import SeatSpec
from agon.tournament.draws import online_game_seed
from tests.cli_runner import run_agon
from tests.fuzzing import examples
from tests.play.helpers import wait_until


def _finished(service: PlayService, *, humans: int = 2, meta: dict[str, Any] | None = None) -> str:
    """A 7 Wonders game with ``humans`` people (then bots take their seats) played to its end."""
    seats = [SeatSpec("human", name=f"P{k}") for k in range(humans)]
    seats += [SeatSpec("bot", bot="random") for _ in range(3 - humans)]
    created = service.create_game(game="7w", seats=seats, meta=meta)
    gid = created.game_id
    assert service.state(gid, None)["seed"] is None
    for seat in range(humans):
        service.replace_with_bot(gid, seat, "random")
    wait_until(lambda: bool(service.state(gid, None)["over"]))
    return gid


def _stored_seed(sessions: sessionmaker[Session], gid: str) -> str:
    with sessions() as s:
        return store.load_game(s, gid).setup.seed


def test_the_seed_is_committed_at_the_start_and_revealed_at_the_end(
    service: PlayService, sessions: sessionmaker[Session]
) -> None:
    created = service.create_game(
        game="7w", seats=[SeatSpec("human", name=n) for n in ("Ann", "Bea", "Cid")]
    )
    gid = created.game_id
    seed = _stored_seed(sessions, gid)
    assert len(seed) == 32 and int(seed, 16) >= 0  # 128 bits the server drew
    digest = hashlib.sha256(seed.encode()).hexdigest()
    for seat in (None, 0, 1, 2):  # every seat and the spectator: the commitment, not the seed
        state = service.seat_state(gid, seat)
        assert state["seed_sha256"] == digest and state["seed"] is None
        assert seed not in service.seat_json(gid, seat)
    with pytest.raises(GameNotOver), sessions() as s:
        export_game(s, gid)
    for seat in range(3):
        service.replace_with_bot(gid, seat, "random")
    wait_until(lambda: bool(service.state(gid, None)["over"]))
    for seat in (None, 0):
        state = service.seat_state(gid, seat)
        assert state["seed"] == seed and state["seed_sha256"] == digest
    assert service.result(gid).seed == seed


def test_a_finished_game_verifies_and_a_tampered_one_names_its_first_divergent_step(
    service: PlayService, sessions: sessionmaker[Session]
) -> None:
    gid = _finished(service)
    with sessions() as s:
        doc = export_game(s, gid)
    assert doc["seed"] == _stored_seed(sessions, gid)
    check = verify_game(doc)
    assert check.problems == () and f"all {len(doc['log'])} steps are legal" in check.summary
    # step k: an action of the seat replaced by one it could not play then
    k = 10
    _seq, seat, action = doc["log"][k - 1]
    game = new_adapter(setup_of(doc, doc["seed"]))
    for _s, who, a in doc["log"][: k - 1]:
        game.apply(who, a)
    illegal = next(
        a for _, who, a in doc["log"] if who != seat and a not in game.legal(seat) and a != action
    )
    tampered = copy.deepcopy(doc)
    tampered["log"][k - 1][2] = illegal
    assert verify_game(tampered).problems == (f"step {k}: seat {seat} {illegal!r} is not legal",)
    # a step removed: the steps after it no longer fit (the first divergent step is named)
    shortened = copy.deepcopy(doc)
    del shortened["log"][k - 1]
    problems = verify_game(shortened).problems
    assert len(problems) == 1 and problems[0].startswith(f"step {k}: ")
    # the log cut short: the game does not end
    cut = copy.deepcopy(doc) | {"log": doc["log"][:-1]}
    assert "before the game is over" in verify_game(cut).problems[0]
    # a score changed
    scores = copy.deepcopy(doc)
    scores["scores"][1]["total"] += 1
    assert verify_game(scores).problems[0].startswith("scores differ: seat 1 (P1) total")
    # another seed (with its own, matching SHA-256): the game diverges at once
    other = copy.deepcopy(doc) | {"seed": "x" * 32}
    other["seed_sha256"] = hashlib.sha256(b"x" * 32).hexdigest()
    assert verify_game(other).problems[0].startswith("step ")


def test_a_wrong_seed_is_refused(service: PlayService, sessions: sessionmaker[Session]) -> None:
    gid = _finished(service)
    with sessions() as s:
        doc = export_game(s, gid)
    wrong = doc | {"seed": doc["seed"][:-1] + ("0" if doc["seed"][-1] != "0" else "1")}
    problems = verify_game(wrong).problems
    assert len(problems) == 1 and "not the one committed to" in problems[0]


def test_a_tournament_tables_seed_derives_from_the_tournament_seed(
    service: PlayService, sessions: sessionmaker[Session]
) -> None:
    seats = [SeatSpec("bot", bot="random") for _ in range(3)]
    seed = online_game_seed("the tournament seed", 2, 3)
    created = service.create_game(
        game="7w", seats=seats, seed=seed, meta={"tournament": "t", "round": 2, "table": 3}
    )
    wait_until(lambda: bool(service.state(created.game_id, None)["over"]))
    with sessions() as s:
        doc = export_game(s, created.game_id)
    assert doc["tournament"] == {"tournament": "t", "round": 2, "table": 3}
    assert verify_game(doc, tournament_seed="the tournament seed").problems == ()
    problems = verify_game(doc, tournament_seed="another seed").problems
    assert problems == ("the seed is not the one the tournament seed gives round 2, table 3",)
    # the derived seed tells nothing of the tournament seed: not a part of it
    assert "the tournament seed" not in seed and len(seed) == 64


def test_the_table_action_of_the_round_clock_replays(
    service: PlayService, sessions: sessionmaker[Session]
) -> None:
    """A game the round clock stopped after age 1 carries the table's action in its log."""
    created = service.create_game(game="7w", seats=[SeatSpec("human", name="Ann")] * 3)
    gid = created.game_id
    assert service.stop_after_age(gid) == 1
    for seat in range(3):
        service.replace_with_bot(gid, seat, "random")
    wait_until(lambda: bool(service.state(gid, None)["over"]))
    with sessions() as s:
        doc = export_game(s, gid)
    assert [e for e in doc["log"] if e[1] == TABLE] == [[1, TABLE, "stop after age 1"]]
    assert verify_game(doc).problems == ()


def test_agon_play_export_and_agon_verify(
    service: PlayService, sessions: sessionmaker[Session], db_file: Path, tmp_path: Path
) -> None:
    gid = _finished(service)
    running = service.create_game(game="7w", seats=[SeatSpec("human", name="A")] * 3).game_id
    env = {"AGON_DATABASE_URL": f"sqlite:///{db_file}"}
    out = tmp_path / "game.json"
    done = run_agon("play", "export", gid, "-o", out, env=env)
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    ok = run_agon("verify", out)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "ok — 7w game" in ok.stdout and "final scores match" in ok.stdout
    as_json = json.loads(run_agon("verify", out, "--json").stdout)
    assert as_json["ok"] is True and as_json["kind"] == "game"
    # tampered: exit 1, the step named
    _seq, seat, _action = doc["log"][4]
    doc["log"][4][2] = "build nothing at all"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    mismatch = run_agon("verify", bad)
    assert mismatch.returncode == 1
    assert f"step 5: seat {seat} 'build nothing at all' is not legal" in mismatch.stdout
    # a running game is not exported (its seed is nobody's to know yet): one line, exit 3
    refused = run_agon("play", "export", "--", running, env=env)  # an id may start with "-"
    assert refused.returncode == 3 and "still running" in refused.stderr
    assert refused.stderr.count("\n") == 1
    assert _stored_seed(sessions, running) not in refused.stdout + refused.stderr
    # unreadable or malformed game files: exit 2, one line
    broken = tmp_path / "broken.json"
    for text in (
        json.dumps({"format": "agon-game/1"}),
        json.dumps(doc | {"log": [[1, 0]]}),
        json.dumps(doc | {"game": "chess"}),
    ):
        broken.write_text(text)
        r = run_agon("verify", broken)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    missing = run_agon("play", "export", "no-such-game", env=env)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "online" / "club-round1-table1.json"
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@st.composite
def mutated_games(draw: st.DrawFn) -> dict[str, Any]:
    """The example game file with hostile changes: fields replaced by any JSON, log entries
    replaced, inserted or dropped, seats added or removed."""
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text("utf-8"))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["field", "log", "seats", "setup"]))
        if kind == "field":
            doc[draw(st.sampled_from(sorted(doc)))] = draw(JSON)
        elif kind == "log" and isinstance(doc.get("log"), list) and doc["log"]:
            k = draw(st.integers(0, len(doc["log"]) - 1))
            entry = draw(
                JSON
                | st.tuples(st.integers(-3, 90), st.integers(-3, 9), st.text(max_size=30)).map(list)
            )
            if draw(st.booleans()):
                doc["log"][k] = entry
            else:
                doc["log"].insert(k, entry)
        elif kind == "seats" and isinstance(doc.get("seats"), list):
            doc["seats"] = doc["seats"][: draw(st.integers(0, 8))] or draw(JSON)
        elif isinstance(doc.get("setup"), dict):
            doc["setup"][draw(st.sampled_from(["wonders", "sides", "guilds", "x"]))] = draw(JSON)
    return doc


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=mutated_games(), tournament_seed=st.none() | st.text(max_size=10))
def test_any_game_file_is_checked_or_refused_as_bad_input(
    doc: dict[str, Any], tournament_seed: str | None
) -> None:
    """A game file is new input: whatever it holds, the check answers (ok, or the first
    divergent step) or refuses it as bad input — never another exception."""
    try:
        check = verify_game(doc, tournament_seed=tournament_seed)
    except InvalidInput as exc:
        assert "\n" not in str(exc)
        return
    assert all("\n" not in p for p in check.problems)
    original = json.loads(EXAMPLE.read_text("utf-8"))
    if doc == original and tournament_seed is None:
        assert check.problems == ()


def test_the_example_game_file_verifies() -> None:
    doc = json.loads(EXAMPLE.read_text("utf-8"))
    assert verify_game(doc, tournament_seed="club-online").problems == ()


def test_agon_verify_checks_a_tables_seed_against_the_tournament_seed() -> None:
    commitment = hashlib.sha256(b"club-online").hexdigest()
    ok = run_agon("verify", EXAMPLE, "--seed", "club-online", "--commitment", commitment)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "commitment: ok" in ok.stdout and "derives from the tournament seed" in ok.stdout
    wrong = run_agon("verify", EXAMPLE, "--seed", "another-seed", "--json")
    assert wrong.returncode == 1
    doc = json.loads(wrong.stdout)
    assert doc["ok"] is False and doc["kind"] == "game"
    assert doc["problems"] == ["the seed is not the one the tournament seed gives round 1, table 1"]
    for extra in (["--ruleset", "bonn-2018"], ["--commitment", commitment]):  # no --seed
        refused = run_agon("verify", EXAMPLE, *extra)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    bad = run_agon("verify", EXAMPLE, "--seed", "club-online", "--commitment", "0" * 64)
    assert bad.returncode == 1 and "commitment: MISMATCH" in bad.stdout


def test_a_game_id_never_starts_with_a_dash(
    service: PlayService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``agon play export ID`` takes the id as an argument: one starting with "-" would be read as
    an option (seen once in CI), so none is made."""
    import secrets

    drawn = iter(["-CUJfSGGVeOimE_e", "CUJfSGGVeOimE_e"])
    real = secrets.token_urlsafe
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=None: next(drawn, None) or real(n))
    gid = service.create_game(game="7w", seats=[SeatSpec("human", name="A")] * 3).game_id
    assert gid == "CUJfSGGVeOimE_e"
