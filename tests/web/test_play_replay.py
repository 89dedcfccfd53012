"""Replays (issue 28; docs/online-play.md, "Replays"): ``GET /api/play/{id}/replay`` answers 404
for no game, 409 while the game runs and afterwards its revealed seed, the seed's commitment and
every step, which agon's engine re-runs to the same public states; the replay page steps through
a finished game from any seat's point of view."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from agon.play.adapters import new_adapter
from agon.play.gamefile import setup_of
from agon.play.seeds import seed_sha256
from agon.play.store import SeatSpec
from tests.play.helpers import wait_until
from tests.web.conftest import TestClient

SEED = "replay-seed-1"


def create(client: TestClient, game: str = "7w", bots: int = 2) -> dict[str, Any]:
    body = {
        "game": game,
        "seed": SEED,
        "variant": "base",
        "seats": [{"kind": "human", "name": "Ann"}]
        + [{"kind": "bot", "bot": "random"} for _ in range(bots)],
    }
    r = client.post("/api/play", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def play_out(client: TestClient, gid: str, token: str, seed: int = 3) -> list[dict[str, Any]]:
    """Play seat 0 at random until the game is over; every state seat 0 was shown."""
    rng = random.Random(seed)
    seen: list[dict[str, Any]] = []
    box: dict[str, Any] = {}

    def ready() -> bool:
        box["s"] = client.get(f"/api/play/{gid}", params={"token": token}).json()
        return bool(box["s"]["to_act"] or box["s"]["over"])

    while True:
        wait_until(ready)
        state = box["s"]
        seen.append(state)
        if state["over"]:
            return seen
        r = client.post(
            f"/api/play/{gid}/act",
            json={
                "token": token,
                "action": rng.choice(state["legal"]),
                "version": state["version"],
            },
        )
        assert r.status_code == 200, r.text


@pytest.fixture
def finished(client: TestClient) -> dict[str, Any]:
    data = create(client)
    gid, token = data["game_id"], data["seats"][0]["token"]
    running = client.get(f"/api/play/{gid}/replay")
    assert running.status_code == 409, running.text  # while the game runs: no replay
    seen = play_out(client, gid, token)
    return {"game_id": gid, "token": token, "seen": seen}


def test_no_game_no_replay(client: TestClient) -> None:
    missing = client.get("/api/play/nosuchgame123/replay")
    assert missing.status_code == 404 and "nosuchgame123" in missing.json()["detail"]
    assert client.get("/api/play/no%20such/replay").status_code in (404, 422)


def test_the_replay_of_a_finished_game_replays_with_the_engine(
    client: TestClient, finished: dict[str, Any]
) -> None:
    gid, seen = finished["game_id"], finished["seen"]
    r = client.get(f"/api/play/{gid}/replay")
    assert r.status_code == 200, r.text
    doc = r.json()
    # the seed is revealed, and it is the one every state committed to while the game ran
    assert doc["seed"] == SEED
    assert doc["seed_sha256"] == seed_sha256(SEED) == seen[0]["seed_sha256"]
    log = client.get(f"/api/play/{gid}/log").json()["log"]
    steps = doc["steps"]
    assert [[s["seq"], s["seat"], s["action"]] for s in steps] == log
    assert len(steps) >= 3 * 18
    # another tool replays it with agon's engine: the same public state after every step
    adapter = new_adapter(setup_of(doc, doc["seed"]))
    assert adapter.view(None) == doc["initial"]
    for step in steps:
        adapter.apply(step["seat"], step["action"])
        assert adapter.view(None) == step["state"], step["seq"]
    assert adapter.over and steps[-1]["state"]["over"]
    assert adapter.scores([s["name"] for s in doc["seats"]]) == doc["scores"]
    # public states only: no step's state carries a hand
    assert all("hand" not in s["state"] and "moves" not in s["state"] for s in steps)


def test_the_replay_is_in_the_openapi_schema(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    answer = schema["paths"]["/api/play/{game_id}/replay"]["get"]["responses"]["200"]
    assert answer["content"]["application/json"]["schema"]["$ref"].endswith("/ReplayOut")
    step = schema["components"]["schemas"]["ReplayStep"]["properties"]
    assert set(step) == {"seq", "seat", "action", "state"}


def test_the_replay_page_steps_through_a_finished_game(
    client: TestClient, finished: dict[str, Any]
) -> None:
    gid = finished["game_id"]
    steps = len(client.get(f"/api/play/{gid}/log").json()["log"])
    end = client.get(f"/play/{gid}/replay?lang=en")
    assert end.status_code == 200
    assert f"Move {steps} of {steps}" in end.text
    assert 'class="end"' in end.text and "Winner" in end.text  # the last step: the end screen
    assert f'href="/play/{gid}/replay?step={steps - 1}"' in end.text  # back one move
    start = client.get(f"/play/{gid}/replay?step=0&lang=en")
    assert f"Move 0 of {steps}" in start.text and 'aria-disabled="true"' in start.text
    assert f'href="/play/{gid}/replay?step=1"' in start.text  # forward one move
    # the spectators' point of view: no hand; a seat's: its hand (the game is over)
    middle = client.get(f"/play/{gid}/replay?step=4&lang=en")
    assert 'class="hand"' not in middle.text and "Last turn" in middle.text
    said = r'Move 4 of \d+ · <span class="pname">[^<]+</span>: [^<:]+: (Build|Wonder stage|Discard)'
    assert re.search(said, middle.text)  # the move in words: the card and what became of it
    seat = client.get(f"/play/{gid}/replay?step=4&seat=1&lang=en")
    assert 'class="hand"' in seat.text and "pcard" in seat.text
    assert f'href="/play/{gid}/replay?step=5&amp;seat=1"' in seat.text  # the seat stays
    # in another language, and refusals: a step beyond the log, a seat that is not one
    assert "Zug 4 von" in client.get(f"/play/{gid}/replay?step=4&lang=de").text
    assert client.get(f"/play/{gid}/replay?step={steps + 1}").status_code == 422
    assert client.get(f"/play/{gid}/replay?seat=9").status_code == 422
    assert client.get(f"/play/{gid}/replay?step=-1").status_code == 422


def test_a_running_game_has_no_replay_page_yet(client: TestClient) -> None:
    data = create(client)
    r = client.get(f"/play/{data['game_id']}/replay?lang=en")
    assert r.status_code == 409
    assert "still being played" in r.text and 'class="hand"' not in r.text
    assert client.get("/play/nosuchgame/replay").status_code == 404


def test_a_tournament_tables_game_has_its_replay_too(client: TestClient) -> None:
    """A table of a tournament round (its ``meta``), played out by bots: the replay names the
    table and opens on the page; the round clock's stop is a step of the table (seat -1)."""
    service = client.app.state.play  # type: ignore[attr-defined]
    created = service.create_game(
        game="7w",
        seed="table-1-1",
        seats=[SeatSpec("bot", name=n, bot="random") for n in ("Ann", "Bea", "Cid")],
        meta={"tournament": "bonn", "round": 1, "table": 2},
        # a move every 50 ms at most: the clock's stop comes before the bots end the game (they
        # once finished all three ages first on a loaded machine)
        bot_delay=0.05,
    )
    gid = created.game_id
    age = service.stop_after_age(gid)  # the round clock ran out (in age I)
    assert age is not None
    wait_until(lambda: client.get(f"/api/play/{gid}/replay").status_code == 200)
    doc = client.get(f"/api/play/{gid}/replay").json()
    assert doc["tournament"] == {"tournament": "bonn", "round": 1, "table": 2}
    assert -1 in [s["seat"] for s in doc["steps"]] and doc["steps"][-1]["state"]["age"] == age
    page = client.get(f"/play/{gid}/replay?lang=en")
    assert page.status_code == 200 and "this game ends with age I" in page.text
