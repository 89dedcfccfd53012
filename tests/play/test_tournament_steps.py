"""Tournament steps of online 7 Wonders: the players' free choice of side (Bonn 2018) as the
game's first step, and the round clock that ends a game with the age being played (Ludolimpico
2015, 1.)."""

from __future__ import annotations

import random

import pytest
from sqlalchemy.orm import Session, sessionmaker

from agon.errors import IllegalAction, InvalidInput
from agon.play import store
from agon.play.adapters import SIDE_ACTIONS, TABLE, Setup, SevenWonders, new_adapter, stop_action
from agon.play.service import NotYourTurn, PlayService
from agon.play.store import SeatSpec
from tests.play.helpers import wait_until

WONDERS = ("Rhodos", "Gizah", "Ephesos", "Babylon")


def choosing(seats: int = 4) -> SevenWonders:
    chooser = new_adapter(
        Setup("7w", "base", seats, "sides", wonders=WONDERS[:seats], choose_sides=True)
    )
    assert isinstance(chooser, SevenWonders)
    return chooser


def test_the_side_is_chosen_first_by_every_seat_and_hidden_until_all_chose() -> None:
    game = choosing()
    assert game.current_age() == 0
    assert all(game.legal(s) == list(SIDE_ACTIONS) for s in range(4))
    view = game.view(0)
    assert view["phase"] == "sides" and view["hand"] == [] and view["hand_sizes"] == [0] * 4
    assert [m["kind"] for m in view["moves"]] == ["side", "side"]
    assert set(view["cities"][0]["sides"]) == {"A", "B"}  # both sides' stages to choose from
    with pytest.raises(IllegalAction):
        game.apply(0, "discard loom")  # no card is played before the sides are chosen
    assert not game.apply(0, "side B")
    assert not game.apply(2, "side A")
    assert game.legal(0) == [] and game.waiting_for() == [1, 3]
    mine, theirs, public = game.view(0), game.view(1), game.view(None)
    assert mine["cities"][0]["side"] == "B" and mine["chosen"]
    # another seat and the spectator see that seat 0 has chosen, never what
    for seen in (theirs, public):
        assert seen["cities"][0]["side"] is None and seen["cities"][0]["chosen"]
        assert seen["cities"][0]["stages"] == []
        assert seen["cities"][2]["side"] is None
    assert not game.apply(1, "side B")
    assert game.apply(3, "side A")  # the last choice starts age I
    assert [c.side for c in game.game.cities] == ["B", "B", "A", "A"]
    assert game.current_age() == 1 and game.view(None)["phase"] == "main"
    assert all(len(game.view(s)["hand"]) == 7 for s in range(4))
    assert [d["side"] for d in game.details()] == ["B", "B", "A", "A"]


def test_a_replay_of_the_side_choices_is_the_same_game() -> None:
    game = choosing()
    for s, side in enumerate("ABBA"):
        game.apply(s, f"side {side}")
    again = choosing()
    for s, side in enumerate("ABBA"):
        again.apply(s, f"side {side}")
    assert again.view(None) == game.view(None)
    assert [again.view(s)["hand"] for s in range(4)] == [game.view(s)["hand"] for s in range(4)]


def test_bots_choose_a_side_by_their_policy_from_their_seed() -> None:
    game = choosing()
    for bot in ("random", "heuristic"):
        picks = [game.bot_action(s, bot, seed) for s in range(4) for seed in range(3)]
        assert set(picks) <= set(SIDE_ACTIONS)
        assert picks == [game.bot_action(s, bot, seed) for s in range(4) for seed in range(3)]
    # the random bot flips a coin: over many seeds it takes both sides
    assert {game.bot_action(0, "random", seed) for seed in range(20)} == set(SIDE_ACTIONS)
    with pytest.raises(InvalidInput):
        game.bot_action(0, "oracle", 1)


def test_the_clock_ends_the_game_with_the_age_being_played() -> None:
    game = new_adapter(Setup("7w", "base", 3, "clock"))
    rng = random.Random(3)
    assert not game.apply(TABLE, stop_action(1))
    assert game.view(None)["last_age"] == 1
    while not game.over:
        for s in game.waiting_for():
            game.apply(s, rng.choice(game.legal(s)))
    view = game.view(0)
    assert view["age"] == 1 and view["over"]  # no further age was dealt
    assert game.legal(0) == []
    with pytest.raises(IllegalAction):
        game.apply(TABLE, stop_action(1))  # over
    with pytest.raises(InvalidInput):
        new_adapter(Setup("7w", "base", 3, "clock")).apply(TABLE, "deal age 3")
    with pytest.raises(InvalidInput):
        new_adapter(Setup("ocw", "base", 2, "clock")).apply(TABLE, stop_action(1))


def test_the_service_stops_a_game_once_and_a_restart_keeps_it_stopped(
    sessions: sessionmaker[Session],
) -> None:
    service = PlayService(sessions)
    try:
        created = service.create_game(
            game="7w",
            seed="stop",
            seats=[SeatSpec("human", name="Ann"), *[SeatSpec("bot", bot="random")] * 2],
        )
        gid = created.game_id
        token = created.seats[0].token
        assert service.stop_after_age(gid) == 1
        assert service.stop_after_age(gid) == 1  # a second worker, or sweep: the same, once
        with sessions() as session:
            table_actions = [a for _, s, a in store.actions_after(session, gid, 0) if s == TABLE]
        assert table_actions == [stop_action(1)]
        # Ann plays age I through; then the game is over in age I
        while True:
            state = service.state(gid, token)
            if state["over"]:
                break
            if state["legal"]:
                service.act(gid, token, state["legal"][0], state["version"])
            else:
                seen = state["version"]
                wait_until(lambda seen=seen: service.state(gid, token)["version"] > seen)
        assert state["view"]["age"] == 1 and state["scores"] is not None
        assert service.stop_after_age(gid) == 1
        with pytest.raises(NotYourTurn):
            service.act(gid, token, "side A", state["version"])
    except BaseException:
        service.close()
        raise
    service.close()
    again = PlayService(sessions)
    try:
        state = again.state(gid, token)
        assert state["over"] and state["view"]["age"] == 1
        assert [r["total"] for r in again.result(gid).scores] == [
            r["total"] for r in state["scores"]
        ]
    finally:
        again.close()


def test_a_game_where_players_choose_sides_is_stored_so(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        created = store.create_game(
            session,
            game="7w",
            seed="choose",
            seats=[SeatSpec("human", name=n) for n in "ABC"],
            wonders=WONDERS[:3],
            choose_sides=True,
        )
        record = store.load_game(session, created.game_id)
    assert record.setup.choose_sides and record.setup.sides is None
    assert new_adapter(record.setup).legal(2) == list(SIDE_ACTIONS)


def test_the_clock_running_out_while_the_sides_are_chosen_ends_the_game_with_age_one() -> None:
    game = choosing(3)
    assert not game.apply(TABLE, stop_action(1))
    assert game.view(None)["last_age"] == 1 and game.view(None)["phase"] == "sides"
    copy = game.snapshot()
    for s in range(3):
        game.apply(s, "side B")
        copy.apply(s, "side B")
    rng = random.Random(5)
    while not game.over:
        for s in game.waiting_for():
            game.apply(s, rng.choice(game.legal(s)))
    assert game.view(None)["age"] == 1
    assert copy.game.last_age == 1  # a bot's copy taken before the sides were chosen knows it too
