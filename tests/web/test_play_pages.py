"""The play pages over HTTP: the lobby creates games through the play service and shows every
person's seat link; a seat's table shows its hand and moves; moves post as forms with the page's
version (200 new board, 409 stale, 422 not legal — translated, 403 wrong token); the spectator
page shows public information only."""

from __future__ import annotations

import html
import re
from typing import Any

from tests.web.conftest import TestClient, form_token

FETCH = {"X-Requested-With": "fetch"}
SEAT_URL = re.compile(r'value="(http://[^"]+/play/([^/?"]+)\?token=([^"]+))"')


def lobby_form(client: TestClient, **fields: str) -> dict[str, str]:
    token = form_token(client.get("/play").text)
    data = {"csrf_token": token, "game": "7w", "variant": "base", "seed": ""}
    data |= {f"kind-{i}": "empty" for i in range(7)}
    data |= fields
    return data


def api_game(client: TestClient, seats: list[dict[str, str]], game: str = "7w") -> dict[str, Any]:
    body = {"game": game, "variant": "base", "seats": seats}
    if sum(s["kind"] == "human" for s in seats) < 2:
        body["seed"] = "pages"  # one person against bots may choose the seed
    r = client.post("/api/play", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_the_lobby_speaks_three_languages_and_fills_in_no_seed(client: TestClient) -> None:
    """The seed deals every hand: the lobby neither draws nor shows one (the server draws it,
    128 bits); it says who may choose one and when the seed is told."""
    for lang, title in (("en", "Play online"), ("de", "Online spielen"), ("it", "Gioca online")):
        page = client.get(f"/play?lang={lang}").text
        assert f"<h1>{title}</h1>" in page
        seed = re.search(r'id="seed" name="seed" value="([^"]*)"', page)
        assert seed is not None and seed.group(1) == ""
        assert 'value="bot:search"' in page and 'value="two-card"' in page
    page = client.get("/play?lang=en").text.replace("&#39;", "'")
    assert "A game with two or more people gets a seed the server draws" in page


def test_the_lobby_creates_a_game_and_shows_each_persons_link(client: TestClient) -> None:
    data = lobby_form(
        client,
        **{"kind-0": "human", "name-0": "Ann", "kind-1": "bot:heuristic", "kind-2": "human"},
        **{"name-2": "Bob <b>"},
    )
    r = client.post("/play?lang=de", data=data)
    assert r.status_code == 201
    links = SEAT_URL.findall(r.text)
    assert len(links) == 2 and links[0][1] == links[1][1]  # two people, one game
    assert "Bob &lt;b&gt;" in r.text and "Bob <b>" not in r.text
    own = re.search(r'id="open-own" href="([^"]+)"', r.text)
    assert own and html.unescape(own.group(1)).endswith(links[0][2])  # the first person's seat
    table = client.get(html.unescape(own.group(1)) + "&lang=de")
    assert table.status_code == 200 and "Du spielst als" in table.text and "Ann" in table.text
    # the same game through the API contract: three seats, the bot without a token
    state = client.get(f"/api/play/{links[0][1]}", params={"token": links[0][2]}).json()
    names = state["view"]["names"]
    assert len(names) == 3 and (names[0], names[2]) == ("Ann", "Bob <b>")
    assert state["view"]["kinds"] == ["human", "bot", "human"]


def test_the_lobby_refuses_a_game_without_people(client: TestClient) -> None:
    data = lobby_form(client, **{"kind-0": "bot:random", "kind-1": "bot:random"})
    r = client.post("/play?lang=it", data=data)
    assert r.status_code == 422 and "almeno una persona" in r.text
    data = lobby_form(client, **{"kind-0": "human", "name-0": "Ann", "kind-1": "bot:random"})
    r = client.post("/play?lang=de", data=data)  # 7 Wonders takes 3 to 7
    assert r.status_code == 422 and "3 bis 7 Plätze; 2 sind besetzt" in r.text
    assert 'value="Ann"' in r.text  # the form comes back as typed
    data |= {"game": "ocw", "variant": "two-card"} | {f"kind-{i}": "bot:random" for i in (2, 3, 4)}
    r = client.post("/play?lang=en", data=data)
    assert r.status_code == 422 and "2 to 4 seats; 5 are filled" in r.text


def test_a_seat_sees_its_hand_and_every_legal_move(client: TestClient) -> None:
    game = api_game(client, [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")])
    gid, token = game["game_id"], game["seats"][0]["token"]
    state = client.get(f"/api/play/{gid}", params={"token": token}).json()
    page = client.get(f"/play/{gid}?token={token}&lang=en").text
    hand = re.findall(r'<details class="hcard[^"]*" data-card="([^"]+)"', page)
    assert sorted(hand) == sorted(state["view"]["hand"])
    buttons = [html.unescape(v) for v in re.findall(r'name="action" value="([^"]*)"', page)]
    assert sorted(buttons) == sorted(state["legal"])
    assert "Hands pass left" in page and page.count('class="city-title"') == 3
    assert f'data-events="/api/play/{gid}/events?token={token}"' in page
    assert client.get(f"/play/{gid}?token=wrong").status_code == 403


def test_moves_post_with_the_version(client: TestClient) -> None:
    game = api_game(client, [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")])
    gid, t0, t1 = game["game_id"], game["seats"][0]["token"], game["seats"][1]["token"]
    page = client.get(f"/play/{gid}?token={t0}&lang=de").text
    legal = client.get(f"/api/play/{gid}", params={"token": t0}).json()["legal"]
    form = {"csrf_token": form_token(page), "token": t0, "version": "0"}
    # not legal: 422 with the reason in the reader's language
    r = client.post(
        f"/play/{gid}/act?lang=de", data=form | {"action": "build nothing"}, headers=FETCH
    )
    assert r.status_code == 422 and r.text.startswith("Dieser Zug ist nicht möglich")
    # stale: 409, the page then fetches the new state
    r = client.post(f"/play/{gid}/act?lang=de", data=form | {"action": legal[0], "version": "5"},
                    headers=FETCH)  # fmt: skip
    assert r.status_code == 409 and "weitergegangen" in r.text
    # a wrong token: 403
    r = client.post(f"/play/{gid}/act", data=form | {"action": legal[0], "token": t1[::-1]},
                    headers=FETCH)  # fmt: skip
    assert r.status_code == 403
    # the move: the fresh board, Ann has chosen (not what), the others are still choosing
    r = client.post(f"/play/{gid}/act?lang=de", data=form | {"action": legal[0]}, headers=FETCH)
    assert r.status_code == 200 and r.text.startswith('<div id="board"')
    assert 'data-version="1"' in r.text and "moves-form" not in r.text
    assert re.search(r'class="done"><span class="pname">Ann</span>: hat gewählt', r.text)
    bob = client.get(f"/play/{gid}/board?token={t1}&lang=en").text
    assert "Ann</span>: has chosen" in bob and "Bob</span>: is choosing" in bob
    assert f'data-card="{legal[0].split()[1]}"' not in bob  # nor Ann's hand, nor her choice
    # without JavaScript the form posts and the page comes back (303) with a message
    r = client.post(f"/play/{gid}/act", data=form | {"action": legal[0], "version": "1"},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303 and r.headers["location"] == f"/play/{gid}?token={t0}"


def test_the_spectator_sees_public_information_only(client: TestClient) -> None:
    game = api_game(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
                    game="ocw")  # fmt: skip
    gid = game["game_id"]
    r = client.get(f"/play/{gid}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/play/{gid}/watch"
    page = client.get(f"/play/{gid}/watch?lang=it").text
    assert "solo informazioni pubbliche" in page and "moves-form" not in page
    assert 'data-events="/api/play/' in page and "token=" not in page
    assert client.get(f"/play/{gid}/watch/board").text.startswith('<div id="board"')
    assert client.get("/play/NoSuchGame1234567/watch").status_code == 404


def test_the_start_page_leads_to_the_lobby(client: TestClient) -> None:
    page = client.get("/?lang=de").text
    assert '<a href="/play">Online spielen</a>' in page
