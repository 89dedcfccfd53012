"""The compiled core under an online 7 Wonders game (issue 30): the same legal actions, views,
bots' choices and scores as the Python engine, and the Python engine when the core is absent."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.games.seven_wonders import core as sw_core
from agon.games.seven_wonders.engine import Game
from agon.play import lockstep
from agon.play.adapters import SIDE_ACTIONS, TABLE, Setup, SevenWonders, stop_action

pytestmark = pytest.mark.skipif(
    not sw_core.native_available(), reason="the compiled 7 Wonders core is not built"
)

BOTS = ("random", "heuristic")


def same(fast: SevenWonders, slow: SevenWonders) -> None:
    """Every seat's legal actions and view, and the spectator's view, are the same."""
    seats = fast.setup.seats
    assert fast.over == slow.over
    assert fast.waiting_for() == slow.waiting_for()
    for seat in range(seats):
        assert fast.legal(seat) == slow.legal(seat), seat
    for seat in [None, *range(seats)]:
        assert json.dumps(fast.view(seat)) == json.dumps(slow.view(seat)), seat


def play_both(
    setup: Setup, rng: random.Random, *, stop_at: int | None, snapshot_at: int | None
) -> tuple[SevenWonders, SevenWonders, int]:
    """Play a game on the core ("auto") and on the Python engine side by side — each seat a
    random legal action or a bot's choice — comparing them after every action. Returns both
    adapters and how many actions the core answered (a test that never used it proves nothing)."""
    fast = SevenWonders(setup)
    slow = SevenWonders(setup, engine="python")
    assert slow.core is None
    answered = 0
    step = 0
    while not fast.over:
        same(fast, slow)
        if step == stop_at:  # the round clock runs out: the game ends with this age
            age = max(1, fast.current_age())
            assert fast.apply(TABLE, stop_action(age)) is False
            slow.apply(TABLE, stop_action(age))
            assert fast.core is None
            same(fast, slow)
        if step == snapshot_at:  # bots think on copies: a copy plays on as the original would
            fast, slow = fast.snapshot(), slow.snapshot()
        answered += fast.core is not None
        seat = rng.choice(fast.waiting_for())
        if rng.random() < 0.5:
            kind = rng.choice(BOTS)
            seed = rng.randrange(2**40)
            action = fast.bot_action(seat, kind, seed)
            assert action == slow.bot_action(seat, kind, seed)
        else:
            action = rng.choice(fast.legal(seat))
        assert fast.apply(seat, action) == slow.apply(seat, action)
        step += 1
        assert step < 2000
    same(fast, slow)
    names = [f"P{i}" for i in range(setup.seats)]
    assert fast.scores(names) == slow.scores(names)
    assert fast.details() == slow.details()
    return fast, slow, answered


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(3, 7),
    seed=st.text(max_size=12),
    choose_sides=st.booleans(),
    play=st.integers(0, 2**32),
    stop_at=st.none() | st.integers(20, 150),  # after some turns on the core
    snapshot_at=st.none() | st.integers(0, 150),
)
def test_the_core_plays_the_same_online_game_as_the_python_engine(
    seats: int,
    seed: str,
    choose_sides: bool,
    play: int,
    stop_at: int | None,
    snapshot_at: int | None,
) -> None:
    setup = Setup("7w", "base", seats, seed, choose_sides=choose_sides)
    _fast, _slow, answered = play_both(
        setup, random.Random(play), stop_at=stop_at, snapshot_at=snapshot_at
    )
    assert answered > 0


@pytest.mark.slow
@pytest.mark.parametrize("game", range(60))
def test_many_whole_games_on_the_core_match_the_python_engine(game: int) -> None:
    """Whole games without the clock's stop (every legal list of every turn compared)."""
    setup = Setup("7w", "base", 3 + game % 5, f"lockstep-{game}", choose_sides=game % 3 == 0)
    _fast, _slow, answered = play_both(
        setup, random.Random(game), stop_at=None, snapshot_at=game if game % 2 else None
    )
    assert answered > 0


def test_the_core_answers_the_legal_actions_and_the_bots_list_them_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the core built, a whole game with heuristic and random bots never asks the Python
    engine for legal actions (before: every seat's check, every bot's copy, each heuristic
    decision and its ``resolve`` listed them again, about nine lists a turn)."""

    def refuse(self: Game, player: int) -> list[object]:
        raise AssertionError("the Python engine listed legal actions")

    monkeypatch.setattr(Game, "legal_actions", refuse)
    game = SevenWonders(Setup("7w", "base", 4, "core-only"))
    assert game.core is not None
    made = 0
    while not game.over:
        for seat in game.waiting_for():
            copy = game.snapshot()
            action = copy.bot_action(seat, BOTS[seat % 2], made)
            assert action in copy.legal(seat)
            game.apply(seat, action)
            made += 1
    assert made > 0


def test_without_the_core_the_python_engine_answers_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """agon built without a C compiler: no core, the Python engine's legal actions."""
    setup = Setup("7w", "base", 3, "no-core")
    with_core = SevenWonders(setup)
    monkeypatch.setattr(lockstep, "to_native", lambda game: None)
    without = SevenWonders(setup)
    assert with_core.core is not None and without.core is None
    rng = random.Random(3)
    while not without.over:
        for seat in without.waiting_for():
            assert without.legal(seat) == with_core.legal(seat)
            action = rng.choice(without.legal(seat))
            without.apply(seat, action)
            with_core.apply(seat, action)
    assert without.scores(["a", "b", "c"]) == with_core.scores(["a", "b", "c"])


def test_the_side_choice_starts_the_core_on_the_chosen_sides() -> None:
    game = SevenWonders(Setup("7w", "base", 3, "sides", choose_sides=True))
    assert game.core is None  # the sides phase: the adapter's own two actions
    for seat in range(3):
        game.apply(seat, SIDE_ACTIONS[seat % 2])
    assert game.core is not None
    fresh = sw_core.to_native(game.game)
    assert fresh is not None
    assert game.core.core.state() == fresh.state()


def test_a_copy_of_the_core_is_independent() -> None:
    """A bot's copy (:meth:`SevenWonders.snapshot`) steps its own core, not the game's."""
    game = SevenWonders(Setup("7w", "base", 3, "copies"))
    copy = game.snapshot()
    assert game.core is not None and copy.core is not None
    before = game.core.core.state()
    for seat in copy.waiting_for():
        copy.apply(seat, copy.legal(seat)[0])
    assert copy.core.core.state() != before
    assert game.core.core.state() == before
    assert copy.legal(0) != game.legal(0)
