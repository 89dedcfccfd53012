"""A seat's state as JSON text (made once per version and seat, shared by the act's answer, GET
and every push): the same document as the state, non-ASCII text as UTF-8 as it is."""

from __future__ import annotations

import json
import random

import pytest

from agon.play.service import PlayService
from agon.play.store import SeatSpec
from tests.play.helpers import wait_until


@pytest.mark.parametrize(("game", "seats"), [("7w", 3), ("ocw", 2)])
def test_the_text_is_the_state_with_utf8_as_it_is(
    service: PlayService, game: str, seats: int
) -> None:
    people = [SeatSpec("human", name="Zoë Ünal"), SeatSpec("human", name="Jürgen")]
    bots = [SeatSpec("bot", bot="heuristic")] * (seats - 2)
    created = service.create_game(game=game, seats=people + bots, seed="utf-8")
    gid = created.game_id
    tokens = [created.seats[i].token for i in range(2)]
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
