"""Bots by level, clocks and "My games" through the HTTP API (issue 28): every level and bot
name accepted for both games, a bad one 422; a clock chosen at creation, its run-out shown in the
state and on the seat's page; ``POST /api/play/turns`` answers whose turn without a token in the
answer, refuses junk with 4xx and is limited per address."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.games import levels
from agon.play import store
from agon.web.security import AttemptLimiter
from tests.play.helpers import wait_until
from tests.web.conftest import TestClient


def create(client: TestClient, game: str, bot: str, **extra: Any) -> Any:
    body = {
        "game": game,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": bot}]
        + ([{"kind": "bot", "bot": "random"}] if game == "7w" else []),
        **extra,
    }
    return client.post("/api/play", json=body)


@pytest.mark.parametrize("game", ["7w", "ocw"])
def test_every_bot_and_level_is_accepted(client: TestClient, game: str) -> None:
    for name in ("random", "heuristic", "mcts", "ismcts", "easy", "medium", "hard", "expert"):
        r = create(client, game, name)
        assert r.status_code == 201, (name, r.text)
        assert r.json()["seats"][1]["bot"] == name
    assert set(levels.names(game)) >= {"mcts", "ismcts", *levels.LEVELS}


@pytest.mark.parametrize("bad", ["grandmaster", "EXPERT", "", "ismcts@99999", 3])
def test_a_bad_level_is_422(client: TestClient, bad: object) -> None:
    r = create(client, "7w", bad)  # type: ignore[arg-type]
    assert r.status_code == 422 and "detail" in r.json()


def test_expert_bots_play_a_game_to_its_first_human_decision(client: TestClient) -> None:
    r = create(client, "ocw", "expert")
    gid, token = r.json()["game_id"], r.json()["seats"][0]["token"]

    def ready() -> bool:
        s = client.get(f"/api/play/{gid}", params={"token": token}).json()
        return bool(s["to_act"])

    wait_until(ready)


@pytest.mark.parametrize(
    "extra",
    [{"clock": "blitz"}, {"clock": "x" * 30}, {"bot_delay": 6}, {"bot_delay": -1}, {"clock": 5}],
)
def test_a_bad_clock_or_delay_is_422(client: TestClient, extra: dict[str, Any]) -> None:
    r = create(client, "7w", "heuristic", **extra)
    assert r.status_code == 422, r.text


def test_a_clock_runs_out_and_the_seat_is_marked(app: Any, client: TestClient) -> None:
    r = create(client, "7w", "hard", clock="fast", bot_delay=0.5)
    assert r.status_code == 201, r.text
    gid, token = r.json()["game_id"], r.json()["seats"][0]["token"]
    state = client.get(f"/api/play/{gid}", params={"token": token}).json()
    assert state["clock"]["name"] == "fast" and state["timeouts"] == [0, 0, 0]
    page = client.get(f"/play/{gid}", params={"token": token}).text
    assert "turn-clock" in page and "timed-out" not in page
    deadline = store.now() + timedelta(seconds=31)
    assert app.state.play.sweep_clocks(deadline) == {gid: [0]}
    watcher = client.get(f"/api/play/{gid}").json()
    assert watcher["timeouts"] == [1, 0, 0]
    page = client.get(f"/play/{gid}", params={"token": token}).text
    assert 'class="timed-out"' in page and "timed out 1 time" in page


def test_my_games_answers_whose_turn_without_tokens(client: TestClient) -> None:
    first = create(client, "7w", "heuristic").json()
    second = create(client, "ocw", "heuristic").json()
    held = [
        {"game_id": first["game_id"], "token": first["seats"][0]["token"]},
        {"game_id": second["game_id"], "token": second["seats"][0]["token"]},
        {"game_id": first["game_id"], "token": "not-a-token"},
        {"game_id": "nosuchgame", "token": first["seats"][0]["token"]},
    ]
    wait_until(
        lambda: client.get(
            f"/api/play/{first['game_id']}", params={"token": held[0]["token"]}
        ).json()["to_act"]
    )
    r = client.post("/api/play/turns", json={"seats": held})
    assert r.status_code == 200, r.text
    text, seats = r.text, r.json()["seats"]
    assert all(h["token"] not in text for h in held)  # no token comes back
    assert [s["game_id"] for s in seats] == [h["game_id"] for h in held]
    assert seats[0]["valid"] and seats[0]["to_act"] is True and seats[0]["name"] == "Ann"
    assert seats[0]["game"] == "7w" and seats[0]["seat"] == 0 and seats[0]["over"] is False
    assert seats[1]["valid"] and seats[1]["game"] == "ocw"
    assert seats[2] == {"game_id": first["game_id"], "valid": False}
    assert seats[3] == {"game_id": "nosuchgame", "valid": False}


def test_my_games_is_limited_and_takes_no_junk(app: Any, client: TestClient) -> None:
    assert client.post("/api/play/turns", json={"seats": []}).status_code == 200
    too_many = [{"game_id": "g", "token": "t"}] * 51
    assert client.post("/api/play/turns", json={"seats": too_many}).status_code == 422
    for junk in ({"seats": [{"game_id": "a/b", "token": "t"}]}, {"seats": "x"}, {}):
        assert client.post("/api/play/turns", json=junk).status_code == 422
    app.state.turns_limiter = AttemptLimiter(limit=2, window_seconds=60)
    client.post("/api/play/turns", json={"seats": []})
    client.post("/api/play/turns", json={"seats": []})
    assert client.post("/api/play/turns", json={"seats": []}).status_code == 429


def test_the_my_games_page(client: TestClient) -> None:
    r = client.get("/play/mine")
    assert r.status_code == 200 and 'id="mine-list"' in r.text and "/static/mine.js" in r.text
    assert client.get("/static/mine.js").status_code == 200


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seats=st.lists(
        st.fixed_dictionaries({"game_id": st.text(max_size=45), "token": st.text(max_size=110)}),
        max_size=4,
    )
)
def test_any_turns_body_is_answered_200_or_4xx(client: TestClient, seats: list[Any]) -> None:
    r = client.post("/api/play/turns", json={"seats": seats})
    assert r.status_code in (200, 422, 429), r.text
    if r.status_code == 200:
        assert [s["valid"] for s in r.json()["seats"]] == [False] * len(seats)


def test_the_lobby_offers_levels_clocks_and_a_natural_pace(app: Any, client: TestClient) -> None:
    from tests.web.test_play_pages import SEAT_URL, lobby_form

    page = client.get("/play?lang=en").text
    for level in levels.LEVELS:
        assert f'value="bot:{level}"' in page
    assert 'name="clock"' in page and 'value="fast"' in page and 'name="delay"' in page
    fields = {"kind-0": "human", "name-0": "Ann", "kind-1": "bot:expert", "kind-2": "bot:easy"}
    data = lobby_form(client, **fields, clock="fast", delay="1")
    r = client.post("/play?lang=en", data=data)
    assert r.status_code == 201, r.text
    gid = SEAT_URL.findall(r.text)[0][1]
    with app.state.web.sessions() as session:
        record = store.load_game(session, gid)
    assert [s["bot"] for s in record.seats[1:]] == ["expert", "easy"]
    assert (record.clock, record.turn_seconds, record.bot_delay) == ("fast", 30.0, 1.5)
    bad = client.post("/play?lang=en", data=lobby_form(client, **fields, clock="blitz"))
    assert bad.status_code == 422 and "Choose a clock from the list." in bad.text
