"""A person's move and the quick bots' answers to it: stored in one commit, answered at once, and
the same actions as the bot pool's turn would have made."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker

from agon.play import store
from agon.play.adapters import OneCardWonder, SevenWonders
from agon.play.service import PlayService
from agon.play.store import SeatSpec
from tests.play.helpers import wait_until

HUMAN = SeatSpec("human", name="Ann")
HEURISTIC = SeatSpec("bot", bot="heuristic")


def _my_turn_and_bots_idle(service: PlayService, gid: str, token: str) -> None:
    """Wait until the person is to act and the bot pool has stored what it was doing: 7 Wonders'
    seats choose at once, so the person may act while the pool still stores the bots' first
    choices (made when the game was created) — a commit that is not the person's move's."""
    wait_until(lambda: service.state(gid, token)["to_act"] and gid not in service._bots_busy)


def _play(service: PlayService, game: str, seats: list[SeatSpec], seed: str) -> list[Any]:
    """The person plays a random legal action whenever it is their turn, to the end: the log."""
    created = service.create_game(game=game, seats=seats, seed=seed)
    gid, token = created.game_id, created.seats[0].token
    rng = random.Random(seed)
    while True:
        wait_until(lambda: service.state(gid, token)["to_act"] or service.state(gid, token)["over"])
        state = service.state(gid, token)
        if state["over"]:
            break
        service.act(gid, token, rng.choice(state["legal"]), state["version"])
    _setup, log = service.log_of(gid)
    return log


@pytest.mark.parametrize(("game", "bots"), [("ocw", 1), ("7w", 2)])
def test_the_answer_carries_the_bots_moves_stored_in_the_same_commit(
    service: PlayService, game: str, bots: int
) -> None:
    created = service.create_game(game=game, seats=[HUMAN] + [HEURISTIC] * bots, seed="quick")
    gid, token = created.game_id, created.seats[0].token
    answered = 0
    for _move in range(6):
        _my_turn_and_bots_idle(service, gid, token)
        state = service.state(gid, token)
        commits = service.writer.commits
        answer = service.act(gid, token, state["legal"][0], state["version"])
        # one commit; the bots' moves are in the answer: the person acts again at once
        assert service.writer.commits == commits + 1
        assert answer["to_act"] and service.state(gid, token) == answer
        _setup, log = service.log_of(gid)
        assert len(log) == answer["version"]
        answered += {s for _q, s, _a in log[state["version"] :]} != {0}
    assert answered >= 3  # most moves had a bot's answer in them


@pytest.mark.parametrize(("game", "bots"), [("ocw", 1), ("7w", 2)])
def test_the_bots_make_the_same_moves_as_in_their_pool(
    sessions: sessionmaker[Session], game: str, bots: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Answered in the move's commit or in the bot pool's turn (as a delayed or searching bot
    still is): the same game, action for action (a bot's seed depends on the game, not on
    when it is asked)."""
    seats = [HUMAN] + [HEURISTIC] * bots
    quick = PlayService(sessions)
    try:
        inline = _play(quick, game, seats, "same-moves")
    finally:
        quick.close()
    monkeypatch.setattr(PlayService, "_quick_answers", lambda _self, _live: [])
    pooled = PlayService(sessions)
    try:
        in_pool = _play(pooled, game, seats, "same-moves")
    finally:
        pooled.close()
    # each seat's moves, in order (7 Wonders' seats choose at once: the log's order within a
    # turn is the order the choices came in, which the pool's threads decide)
    for seat in range(len(seats)):
        mine = [a for _q, s, a in inline if s == seat]
        assert len(mine) > 5 and mine == [a for _q, s, a in in_pool if s == seat]
    assert len(inline) == len(in_pool)


def test_a_delayed_bot_still_waits(service: PlayService) -> None:
    """``bot_delay``: the bots' moves appear later, never inside the person's answer."""
    created = service.create_game(
        game="7w", seats=[HUMAN, HEURISTIC, HEURISTIC], seed="slow-bots", bot_delay=0.2
    )
    gid, token = created.game_id, created.seats[0].token
    state = service.state(gid, token)
    action = state["legal"][0]
    answer = service.act(gid, token, action, state["version"])
    # the answer ends with the person's own move (a bot's delay may run out between the state
    # and the move on a loaded machine: its move is then stored first, and comes before it)
    _setup, log = service.log_of(gid)
    assert answer["version"] > state["version"] and log[answer["version"] - 1][1:] == (0, action)
    wait_until(lambda: service.state(gid, token)["to_act"])  # the bots chose, the turn moved on
    with service.sessions() as session:
        assert len(store.actions_after(session, gid, 0)) >= 3


@pytest.mark.parametrize(("game", "bots"), [("ocw", 1), ("7w", 2)])
def test_the_bots_answer_on_the_game_itself_without_a_copy(
    service: PlayService, game: str, bots: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: the quick bots choose and apply their answers on the game itself — no copy of
    it to think on (a One Card Wonder copy cloned the whole game before every answer), and each
    answer applied once."""
    created = service.create_game(game=game, seats=[HUMAN] + [HEURISTIC] * bots, seed="no-copy")
    gid, token = created.game_id, created.seats[0].token
    _my_turn_and_bots_idle(service, gid, token)

    def no_copy(_self: object) -> None:
        raise AssertionError("a copy of the game was made")

    for cls in (OneCardWonder, SevenWonders):
        monkeypatch.setattr(cls, "snapshot", no_copy)
        monkeypatch.setattr(cls, "scratch", no_copy)
    applied: list[tuple[int, str]] = []
    real_apply = {cls: cls.apply for cls in (OneCardWonder, SevenWonders)}
    for cls in (OneCardWonder, SevenWonders):

        def counted(self: Any, seat: int, action: str, _real: Any = real_apply[cls]) -> bool:
            applied.append((seat, action))
            return bool(_real(self, seat, action))

        monkeypatch.setattr(cls, "apply", counted)
    answered = 0
    for _move in range(6):
        state = service.state(gid, token)
        applied.clear()
        answer = service.act(gid, token, state["legal"][0], state["version"])
        assert answer["to_act"]  # the bots answered inside the move
        _setup, log = service.log_of(gid)
        new = [(s, a) for _q, s, a in log[state["version"] :]]
        assert applied == new  # each action applied once: the person's, then the bots'
        answered += len(new) > 1
    assert answered >= 3


def test_a_bot_whose_choice_fails_leaves_the_rest_to_the_pool(
    service: PlayService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quick bot's decision that fails (here: an action that is not legal, once) changes
    nothing in the game: the person's move and the answers chosen before it are stored, the bot
    pool makes the rest — the same moves as without the failure."""
    seats = [HUMAN, HEURISTIC, HEURISTIC]
    reference = service.create_game(game="7w", seats=seats, seed="bot-fails")
    created = service.create_game(game="7w", seats=seats, seed="bot-fails")
    real = SevenWonders.bot_action
    calls = {"n": 0}

    def once_wrong(self: SevenWonders, seat: int, bot: str, seed: int) -> str:
        calls["n"] += 1
        return "nonsense" if calls["n"] == 2 else real(self, seat, bot, seed)

    def four_moves(gid: str, token: str) -> None:
        for _move in range(4):
            wait_until(lambda: service.state(gid, token)["to_act"])
            state = service.state(gid, token)
            service.act(gid, token, state["legal"][0], state["version"])
        wait_until(lambda: service.state(gid, token)["to_act"])

    four_moves(reference.game_id, str(reference.seats[0].token))
    calls["n"] = 0
    monkeypatch.setattr(SevenWonders, "bot_action", once_wrong)
    four_moves(created.game_id, str(created.seats[0].token))
    assert calls["n"] > 2  # the failure happened, and the game went on
    logs = [
        [(s, a) for _q, s, a in service.log_of(g)[1]] for g in (reference.game_id, created.game_id)
    ]
    for seat in range(3):  # each seat's moves, in order (the pool's order within a turn varies)
        assert [a for s, a in logs[0] if s == seat] == [a for s, a in logs[1] if s == seat]
    assert "nonsense" not in {a for _s, a in logs[1]}
