"""The online-play JSON API (issue 12): the contract's shapes, tokens, 404/409/422, hidden
information in every answer, the creation limit, and bad bodies (4xx, never 500)."""

from __future__ import annotations

import gc
import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.web.security import AttemptLimiter
from tests.play.helpers import leaks, secrets_of, wait_until
from tests.web.conftest import TestClient

SEED = "seed-9c2f7e41"
STATE_KEYS = {
    *("seat", "version", "over", "to_act", "legal", "view", "scores", "seed_sha256", "seed"),
    *("clock", "timeouts"),  # the per-turn clock (issue 28): None and zeros without one
}
CATEGORIES = ["military", "coins", "wonder", "civilian", "commercial", "guilds", "science"]


def create(client: TestClient, game: str = "7w", bots: int = 2, **extra: Any) -> dict[str, Any]:
    body = {
        "game": game,
        "seed": SEED,
        "variant": "base",
        "seats": [{"kind": "human", "name": "Ann"}]
        + [{"kind": "bot", "bot": "heuristic"} for _ in range(bots)],
        **extra,
    }
    if sum(s["kind"] == "human" for s in body["seats"]) >= 2:
        del body["seed"]  # a game with two or more people gets a seed the server draws
    r = client.post("/api/play", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def my_turn(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    """Wait until the seat must act or the game is over (the bots think in threads)."""
    box: dict[str, Any] = {}

    def ready() -> bool:
        box["s"] = client.get(f"/api/play/{gid}", params={"token": token}).json()
        return bool(box["s"]["to_act"] or box["s"]["over"])

    wait_until(ready)
    return box["s"]


def test_create_answers_the_contract_shape(client: TestClient) -> None:
    data = create(client)
    assert set(data) == {"game_id", "seats"}
    gid = data["game_id"]
    ann, *bots = data["seats"]
    assert set(ann) == {"seat", "name", "kind", "token", "url"}
    assert (ann["seat"], ann["name"], ann["kind"]) == (0, "Ann", "human")
    assert ann["url"] == f"/play/{gid}?token={ann['token']}" and len(ann["token"]) >= 32
    assert [(b["seat"], b["kind"]) for b in bots] == [(1, "bot"), (2, "bot")]
    assert all("token" not in b for b in bots)
    state = client.get(f"/api/play/{gid}", params={"token": ann["token"]}).json()
    assert set(state) == STATE_KEYS
    assert state["seat"] == 0 and state["scores"] is None and state["over"] is False
    assert state["to_act"] is True and state["legal"] == [
        m["action"] for m in state["view"]["moves"]
    ]
    watcher = client.get(f"/api/play/{gid}").json()
    assert set(watcher) == STATE_KEYS and watcher["seat"] is None and watcher["legal"] == []


def test_seat_tokens_are_checked(client: TestClient) -> None:
    data = create(client)
    gid, token = data["game_id"], data["seats"][0]["token"]
    legal = client.get(f"/api/play/{gid}", params={"token": token}).json()["legal"]
    for body in (
        {"token": "wrong-token", "action": legal[0], "version": 0},
        {"token": token[::-1], "action": legal[0], "version": 0},
        {"action": legal[0], "version": 0},
        {"token": "", "action": legal[0], "version": 0},
    ):
        r = client.post(f"/api/play/{gid}/act", json=body)
        assert r.status_code == 403, (body, r.text)
    assert client.get(f"/api/play/{gid}", params={"token": "wrong"}).status_code == 403
    assert client.get(f"/api/play/{gid}/events", params={"token": "wrong"}).status_code == 403
    # the game not in memory (as in another process): the stream's opening reads it in a thread
    play = client.app.state.play  # type: ignore[attr-defined]
    play.reseated(gid)
    assert play.try_seat_and_meta(gid, token) is None
    assert client.get(f"/api/play/{gid}/events", params={"token": "wrong"}).status_code == 403
    assert play.try_seat_and_meta(gid, token) == (0, None)  # read again by that thread
    # seat 0 has played nothing (the bots may have chosen meanwhile)
    assert client.get(f"/api/play/{gid}").json()["view"]["cities"][0]["chosen"] is False


def test_conflicts_and_illegal_actions(client: TestClient) -> None:
    data = create(client, bots=0, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    gid = data["game_id"]
    t0, t1 = data["seats"][0]["token"], data["seats"][1]["token"]
    legal = client.get(f"/api/play/{gid}", params={"token": t0}).json()["legal"]
    r = client.post(
        f"/api/play/{gid}/act", json={"token": t0, "action": "build nothing", "version": 0}
    )
    assert r.status_code == 422 and "detail" in r.json()
    r = client.post(f"/api/play/{gid}/act", json={"token": t0, "action": legal[0], "version": 3})
    assert r.status_code == 409
    r = client.post(f"/api/play/{gid}/act", json={"token": t0, "action": legal[0], "version": 0})
    assert r.status_code == 200 and set(r.json()) == STATE_KEYS and r.json()["version"] == 1
    r = client.post(f"/api/play/{gid}/act", json={"token": t0, "action": legal[0], "version": 1})
    assert r.status_code == 409  # seat 0 has chosen this turn: not its turn
    other = client.get(f"/api/play/{gid}", params={"token": t1}).json()["legal"]
    assert (
        client.post(
            f"/api/play/{gid}/act", json={"token": t1, "action": other[0], "version": 0}
        ).status_code
        == 200
    )
    assert client.get(f"/api/play/{gid}/result").status_code == 409


@pytest.mark.parametrize("path", ["", "/result", "/events"])
def test_an_unknown_game_is_404(client: TestClient, path: str) -> None:
    assert client.get(f"/api/play/NoSuchGame{path}").status_code == 404
    r = client.post("/api/play/NoSuchGame/act", json={"token": "t", "action": "pass", "version": 0})
    assert r.status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"game": "chess", "seats": [{"kind": "human"}] * 3},
        {"game": "7w", "seats": [{"kind": "human"}] * 2},
        {"game": "7w", "seats": [{"kind": "human"}] * 8},
        {"game": "7w", "seats": [{"kind": "bot"}] * 3},
        {"game": "7w", "variant": "trade", "seats": [{"kind": "human"}] * 3},
        {"game": "ocw", "variant": "two-card", "seats": [{"kind": "human"}] * 5},
        {"game": "ocw", "seats": [{"kind": "robot"}] * 2},
        {"game": "ocw", "seats": [{"kind": "bot", "bot": "genius"}, {"kind": "human"}]},
        {"game": "ocw", "seats": [{"kind": "human", "name": " "}, {"kind": "human"}]},
        {"game": "ocw", "seed": "x" * 500, "seats": [{"kind": "human"}] * 2},
        {"game": "ocw", "seats": "two"},
    ],
)
def test_bad_games_are_refused_with_4xx(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/play", json=body)
    assert 400 <= r.status_code < 500 and r.status_code != 429, r.text
    assert "detail" in r.json()


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    action=st.text(max_size=60),
    version=st.one_of(st.integers(-5, 10), st.integers(), st.text(max_size=5), st.none()),
)
def test_any_act_body_is_answered_4xx_or_200(
    client: TestClient, action: str, version: object
) -> None:
    data = test_any_act_body_is_answered_4xx_or_200.game  # type: ignore[attr-defined]
    gid, token = data["game_id"], data["seats"][0]["token"]
    r = client.post(
        f"/api/play/{gid}/act", json={"token": token, "action": action, "version": version}
    )
    assert r.status_code in (200, 409, 422), r.text


@pytest.fixture(autouse=True)
def _one_game_for_the_fuzz(request: pytest.FixtureRequest, client: TestClient) -> None:
    if request.function is test_any_act_body_is_answered_4xx_or_200:
        request.function.game = create(client, bots=0, seats=[{"kind": "human"}] * 3)


def test_non_json_bodies_are_4xx(client: TestClient) -> None:
    for path in ("/api/play", "/api/play/abc/act"):
        r = client.post(
            path, content=b"\xff\x00garbage", headers={"content-type": "application/json"}
        )
        assert r.status_code in (400, 422) and "detail" in r.json()


def test_creating_games_is_limited_per_address(app: Any, client: TestClient) -> None:
    app.state.play_limiter = AttemptLimiter(limit=2, window_seconds=3600)
    create(client)
    create(client)
    r = client.post("/api/play", json={"game": "7w", "seats": [{"kind": "human"}] * 3})
    assert r.status_code == 429


def test_play_needs_no_csrf_token_but_the_rest_still_does(client: TestClient) -> None:
    create(client)  # no X-CSRF-Token header
    assert client.post("/api/login", json={"password": "x"}).status_code == 403


def test_the_catalog(client: TestClient) -> None:
    r = client.get("/api/play/catalog/7w")
    assert r.status_code == 200 and "temple" in r.json()["cards"]
    assert client.get("/api/play/catalog/chess").status_code == 422


def test_a_whole_game_through_the_api_shows_seat_0_nothing_hidden(
    app: Any, client: TestClient
) -> None:
    """Every answer seat 0 gets, checked against the game rebuilt at that version: no card of
    another hand it could not know, no seed. Then the result, in the score sheet's categories."""
    sessions = app.state.web.sessions
    data = create(client)
    gid, token = data["game_id"], data["seats"][0]["token"]
    rng = random.Random(5)
    answers: list[dict[str, Any]] = []
    checked = 0
    while True:
        state = my_turn(client, gid, token)
        answers.append(state)
        if state["over"]:
            break
        r = client.post(
            f"/api/play/{gid}/act",
            json={
                "token": token,
                "action": rng.choice(state["legal"]),
                "version": state["version"],
            },
        )
        assert r.status_code == 200, r.text
        answers.append(r.json())
    for answer in answers:
        secret = secrets_of(sessions, gid, answer["version"], 0)
        assert leaks(answer, secret) == [], answer["version"]
        checked += bool(secret - {SEED})
    assert checked > 10  # most answers had other hands to hide
    spectator = client.get(f"/api/play/{gid}").json()
    assert leaks(spectator, secrets_of(sessions, gid, spectator["version"], None)) == []
    result = client.get(f"/api/play/{gid}/result")
    assert result.status_code == 200
    rows = result.json()["scores"]
    assert [r["player"] for r in rows] == ["Ann", "Bot 2 (heuristic)", "Bot 3 (heuristic)"]
    for row in rows:
        assert list(row)[: len(CATEGORIES) + 1] == ["player", *CATEGORIES]
        assert row["total"] == sum(row[c] for c in CATEGORIES)
    assert answers[-1]["scores"] == rows
    assert [s["wonder"] for s in result.json()["seats"]]


def test_one_card_wonder_through_the_api(client: TestClient) -> None:
    data = create(client, game="ocw", bots=1, variant="leaders")
    gid, token = data["game_id"], data["seats"][0]["token"]
    rng = random.Random(2)
    start = time.monotonic()
    while time.monotonic() - start < 120:
        state = my_turn(client, gid, token)
        if state["over"]:
            break
        view = state["view"]
        other = view["players"][1]
        if other["leader_state"] == "hidden":
            assert other["leader"] == "hidden"
        r = client.post(
            f"/api/play/{gid}/act",
            json={
                "token": token,
                "action": rng.choice(state["legal"]),
                "version": state["version"],
            },
        )
        assert r.status_code == 200, r.text
    result = client.get(f"/api/play/{gid}/result")
    assert result.status_code == 200
    assert sum(r["total"] for r in result.json()["scores"]) <= 1


def test_the_server_moves_its_startup_heap_out_of_the_collectors_way(app: object) -> None:
    """Full garbage collections scanned every object loaded at startup (code, game data, the
    app) and paused all requests for 0.2-1 s under load: the running server has frozen them,
    and gives them back to the collector when it stops."""
    with TestClient(app):  # type: ignore[arg-type]
        assert gc.get_freeze_count() > 10_000
    assert gc.get_freeze_count() == 0
