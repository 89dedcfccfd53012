"""One Card Wonder online, drawn (issue 28): wonder cards as SVG stage graphs with their arrows,
boards with their storage places as icons, the bag and the supply as counts, a leader's
interruption as a dialog everybody at the table sees, and the sentence a screen reader hears on
a push (announced politely)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from agon.games.one_card_wonder import content
from agon.web.ocwdraw import storage_drawing, wonder_drawing
from agon.web.playview import ocw_item_counts, ocw_wonder
from tests.web.conftest import TestClient

Get = Callable[[str, str], dict[str, Any]]
Act = Callable[[str, str, str, int], None]


def test_every_wonder_card_draws_its_stages_and_arrows() -> None:
    for w in content.default_content().wonders:
        view = ocw_wonder(w.id, [w.stages[0].id], "en")
        d = view["drawing"]
        assert {b["id"] for b in d["boxes"]} == {st.id for st in w.stages}
        assert len(d["arrows"]) == sum(len(st.after) for st in w.stages)
        rows = {b["id"]: b["row"] for b in d["boxes"]}
        for st in w.stages:  # an arrow always points down a row
            assert all(rows[a] < rows[st.id] for a in st.after), (w.id, st.id)
        for b in d["boxes"]:  # inside the drawing
            assert b["x"] >= 0 and b["x"] + d["box_w"] <= d["width"] and b["y"] + 30 <= d["height"]
        assert [b["built"] for b in d["boxes"] if b["id"] == w.stages[0].id] == [True]
        assert "1 of" in d["label"] and w.stages[0].id in d["label"]


def test_a_stage_graph_with_two_arrows_into_a_stage() -> None:
    chips = [{"res": "stone", "n": 2, "text": "2×stone"}]
    d = wonder_drawing(
        [
            {"id": "a", "cost": chips, "after": [], "built": True},
            {"id": "b", "cost": [], "after": [], "built": False},
            {"id": "c", "cost": chips, "after": ["a", "b"], "built": False},
        ],
        "Pharos",
        "en",
    )
    assert [b["row"] for b in d["boxes"]] == [0, 0, 1]
    assert len(d["arrows"]) == 2 and {a["x2"] for a in d["arrows"]} == {150.0}
    assert [i["res"] for i in d["boxes"][0]["icons"]] == ["stone", "stone"]
    assert d["label"].startswith("Pharos: 1 of 3 stages built.")
    assert "c: 2×stone after a + b" in d["label"]


def test_storage_has_eight_places_with_the_items_as_icons() -> None:
    s = storage_drawing(ocw_item_counts({"wood": 2, "stone": 1, "coin": 5}, "en"), "en")
    assert [p["res"] for p in s["places"]] == ["wood", "wood", "stone"] + [None] * 5
    assert s["label"] == "Storage: 2×wood, stone (3 of 8 places)"


def new_game(client: TestClient, variant: str, people: int, bots: int) -> dict[str, Any]:
    seats = [{"kind": "human", "name": n} for n in ("Ann", "Ben", "Cleo")[:people]]
    seats += [{"kind": "bot", "bot": "random"} for _ in range(bots)]
    r = client.post("/api/play", json={"game": "ocw", "variant": variant, "seats": seats})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def to_interruption(get: Get, act: Act, gid: str, tokens: list[str]) -> dict[str, Any]:
    """Both people play at random but always reveal their leader when asked, until a leader is
    revealed and its tribute is still open; the state of the seat the table waits for."""
    rng = random.Random(5)
    for _ in range(800):
        states = [get(gid, tok) for tok in tokens]
        players = states[0]["view"]["players"]
        if any(p["leader_state"] == "revealed" for p in players):
            return next(s for s in states if s["to_act"])
        assert not states[0]["over"], "the game ended without a leader's interruption"
        for seat, s in enumerate(states):
            if s["to_act"]:
                legal = s["legal"]
                action = "reveal" if "reveal" in legal else rng.choice(legal)
                act(gid, tokens[seat], action, s["version"])
                break
    raise AssertionError("no leader's interruption in 800 moves")


def client_get(client: TestClient) -> Get:
    def get(gid: str, token: str) -> dict[str, Any]:
        r = client.get(f"/api/play/{gid}", params={"token": token})
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body

    return get


def client_act(client: TestClient) -> Act:
    def act(gid: str, token: str, action: str, version: int) -> None:
        r = client.post(
            f"/api/play/{gid}/act", json={"token": token, "action": action, "version": version}
        )
        assert r.status_code == 200, r.text

    return act


def test_the_table_is_drawn_and_a_leaders_interruption_is_a_dialog_for_everybody(
    client: TestClient,
) -> None:
    game = new_game(client, "leaders", 2, 0)
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    page = client.get(f"/play/{gid}?token={tokens[0]}&lang=en").text
    assert 'class="ocw-stages-svg"' in page and 'role="img"' in page
    assert page.count('<line class="ocw-arrow"') >= 1
    assert 'class="ocw-storage"' in page and "of 8 places" in page
    assert re.search(r'class="stats ocw-bag">.*?ocw-count', page, re.S)  # the bag as counts
    assert "<dialog" not in page
    waiting = to_interruption(client_get(client), client_act(client), gid, tokens)
    seat = waiting["seat"]
    for url in (
        f"/play/{gid}?token={tokens[0]}&lang=en",
        f"/play/{gid}?token={tokens[1]}&lang=en",
        f"/play/{gid}/watch?lang=en",
    ):
        html = client.get(url).text
        dialog = re.search(r"<dialog open [^>]*>(.*?)</dialog>", html, re.S)
        assert dialog, url
        assert 'aria-labelledby="ocw-leader-title"' in html
        assert "reveals a leader" in dialog.group(1)
        assert f'Waiting for: <span class="pname">{("Ann", "Ben")[seat]}</span>' in dialog.group(1)
        # the sentence for screen readers says it too
        assert re.search(r'data-announce="[^"]*reveals a leader', html), url
    assert 'src="/static/ocw.js"' in html


def test_the_news_sentence_says_whose_move_it_is(client: TestClient) -> None:
    game = new_game(client, "base", 1, 1)
    gid, token = game["game_id"], game["seats"][0]["token"]
    html = client.get(f"/play/{gid}?token={token}&lang=en").text
    news = re.search(r'data-announce="([^"]*)"', html)
    assert news and ("Your move" in news.group(1) or "Waiting for" in news.group(1))
    assert '<p id="live-news" class="sr-only" aria-live="polite">' in html


def test_public_pages_announce_their_live_updates_politely(client: TestClient) -> None:
    from tests.web.conftest import make_bonn

    app = client.app  # type: ignore[attr-defined]
    with app.state.web.sessions() as s:
        make_bonn(s)
    html = client.get("/p/bonn?lang=en").text
    assert '<p id="live-news" class="sr-only" aria-live="polite">' in html
    assert re.search(r'<p class="muted caption" data-announce>', html)
    clock = client.get("/p/bonn/clock?lang=en").text
    assert "data-announce" in clock
