"""Replays (issue 28; docs/online-play.md, "Replays"): ``GET /api/play/{id}/replay`` answers 404
for no game, 409 while the game runs and afterwards its revealed seed, the seed's commitment and
every step, which agon's engine re-runs to the same public states; the replay page steps through
a finished game from any seat's point of view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from agon.play.adapters import new_adapter
from agon.play.gamefile import setup_of
from agon.play.seeds import seed_sha256
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
    assert client.get("/api/play/nosuchgame123/replay").status_code == 404
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
    paths = client.get("/api/openapi.json").json()["paths"]
    assert "get" in paths["/api/play/{game_id}/replay"]
