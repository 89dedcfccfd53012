"""A seat's state as JSON text (made once per version and seat, shared by the act's answer, GET
and every push): the same document as the state, non-ASCII text as UTF-8 as it is."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from agon.play.service import PlayService
from agon.play.store import SeatSpec
from tests.play.helpers import wait_until


def _two_people_and_bots(
    service: PlayService, game: str, seats: int, names: tuple[str, str], seed: str
) -> tuple[str, list[str]]:
    """A game of two people (``names``) and heuristic bots in the other seats: its id and the
    people's tokens."""
    people = [SeatSpec("human", name=name) for name in names]
    bots = [SeatSpec("bot", bot="heuristic")] * (seats - 2)
    created = service.create_game(game=game, seats=people + bots, seed=seed)
    return created.game_id, [created.seats[i].token for i in range(2)]


@pytest.mark.parametrize(("game", "seats"), [("7w", 3), ("ocw", 2)])
def test_the_text_is_the_state_with_utf8_as_it_is(
    service: PlayService, game: str, seats: int
) -> None:
    gid, tokens = _two_people_and_bots(service, game, seats, ("Zoë Ünal", "Jürgen"), "utf-8")
    rng = random.Random(3)
    moves = 0
    while moves < 12 and not service.state(gid, None)["over"]:
        wait_until(lambda: any(service.state(gid, t)["to_act"] for t in tokens))
        for seat, token in enumerate(tokens):
            state = service.state(gid, token)
            if not state["to_act"]:
                continue
            text = service.act_json(gid, token, rng.choice(state["legal"]), state["version"])
            assert json.loads(text) == service.state(gid, token)
            assert text == service.seat_json(gid, seat)  # the one text of that version
            assert "Zoë Ünal" in text and "\\u" not in text and ", " not in text[:40]
            moves += 1
    spectator = service.seat_json(gid, None)
    assert json.loads(spectator) == service.state(gid, None) and "Jürgen" in spectator


@pytest.mark.parametrize(("game", "seats"), [("7w", 3), ("ocw", 2)])
def test_orjson_makes_the_text_with_the_same_bytes_as_pydantic(
    service: PlayService, game: str, seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """orjson encodes the states (about four times faster, issue 30) into the very bytes
    pydantic-core's serializer made: the clients read the same text."""
    from pydantic_core import to_json

    from agon.play import service as service_module

    gid, tokens = _two_people_and_bots(service, game, seats, ("Zoë Ünal", "Jürgen 😀"), "orjson")
    rng = random.Random(5)
    states = []
    for _ in range(10):
        wait_until(lambda: any(service.state(gid, t)["to_act"] for t in tokens))
        for token in tokens:
            state = service.state(gid, token)
            states.append(state)
            if state["to_act"]:
                service.act(gid, token, rng.choice(state["legal"]), state["version"])
    states.append(service.state(gid, None))
    expected = [to_json(s).decode() for s in states]

    def no_pydantic(*_args: Any, **_kwargs: Any) -> bytes:
        raise AssertionError("pydantic-core made a state's text")

    monkeypatch.setattr(service_module, "_to_json", no_pydantic)
    assert [service_module._json_text(s) for s in states] == expected


def test_what_orjson_does_not_take_pydantic_makes() -> None:
    """A key that is not a string, a set, an integer past 64 bits: the text pydantic-core made
    before; numbers of every kind as it wrote them."""
    from pydantic_core import to_json

    from agon.play.service import _json_text

    for odd in (
        {"a": {1: "x"}},
        {"a": {3}},
        {"a": 2**70},
        {"f": [0.1, 1e16, 1e-7, 100.0, -0.0, 1 / 3, 5e-324, 1e308], "i": [2**63 - 1, -(2**63)]},
        {"s": 'é\u2028\x00\x1f😀"\\/'},
    ):
        assert _json_text(odd) == to_json(odd).decode()
