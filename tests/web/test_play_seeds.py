"""The seed of an online game on the web (issue 26): a game with two or more people gets a seed the
server draws (a creator's is refused, in the API and the lobby alike); one person against bots may
choose it; every page and answer shows the seed's SHA-256 and, only once the game is over, the
seed; ``GET /api/play/{id}/log`` gives the finished game for ``agon verify``; a tournament table's
seed is a keyed hash of the tournament's committed seed."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from sqlalchemy.orm import Session

from agon.play import store
from agon.play.gamefile import verify_game
from agon.play.service import PlayService
from agon.services import online
from agon.tournament.draws import online_game_seed
from tests.play.helpers import wait_until
from tests.services.online_host import EngineHost
from tests.web.conftest import BONN_TABLES, TestClient, form_token, make_bonn

THREE_PEOPLE = [{"kind": "human", "name": n} for n in ("Ann", "Bea", "Cid")]
ANN_AND_BOTS = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * 2


def _seed(app: Any, gid: str) -> str:
    with app.state.web.sessions() as s:
        return store.load_game(s, gid).setup.seed


def test_the_api_refuses_a_creators_seed_for_two_or_more_people(
    app: Any, client: TestClient
) -> None:
    for seats in (THREE_PEOPLE, [*THREE_PEOPLE[:2], {"kind": "bot", "bot": "random"}]):
        r = client.post("/api/play", json={"game": "7w", "seed": "known", "seats": seats})
        assert r.status_code == 422
        assert r.json()["detail"].startswith("a game with two or more people gets a seed")
    drawn = client.post("/api/play", json={"game": "7w", "seats": THREE_PEOPLE})
    assert drawn.status_code == 201
    seed = _seed(app, drawn.json()["game_id"])
    assert re.fullmatch(r"[0-9a-f]{32}", seed)  # 128 bits
    chosen = client.post("/api/play", json={"game": "7w", "seed": "study", "seats": ANN_AND_BOTS})
    assert chosen.status_code == 201 and _seed(app, chosen.json()["game_id"]) == "study"


def _lobby(client: TestClient, seed: str, kinds: list[str]) -> dict[str, str]:
    data = {"csrf_token": form_token(client.get("/play").text), "game": "7w", "variant": "base"}
    data |= {"seed": seed} | {f"kind-{i}": "empty" for i in range(7)}
    data |= {f"kind-{i}": k for i, k in enumerate(kinds)}
    return data


def test_the_lobby_refuses_a_seed_for_two_or_more_people_and_says_so(
    app: Any, client: TestClient
) -> None:
    r = client.post("/play", data=_lobby(client, "known", ["human", "human", "bot:random"]))
    assert r.status_code == 422
    assert "A game with two or more people gets a seed the server draws" in r.text
    r = client.post("/play", data=_lobby(client, "", ["human", "human", "bot:random"]))
    assert r.status_code == 201
    gid = re.search(r"/play/([A-Za-z0-9_-]+)\?token=", r.text).group(1)  # type: ignore[union-attr]
    assert re.fullmatch(r"[0-9a-f]{32}", _seed(app, gid))
    assert _seed(app, gid) not in r.text
    r = client.post("/play", data=_lobby(client, "study", ["human", "bot:random", "bot:random"]))
    assert r.status_code == 201
    gid = re.search(r"/play/([A-Za-z0-9_-]+)\?token=", r.text).group(1)  # type: ignore[union-attr]
    assert _seed(app, gid) == "study"


def test_pages_and_answers_show_the_commitment_then_the_seed(app: Any, client: TestClient) -> None:
    created = client.post("/api/play", json={"game": "7w", "seats": THREE_PEOPLE}).json()
    gid, token = created["game_id"], created["seats"][0]["token"]
    seed = _seed(app, gid)
    digest = hashlib.sha256(seed.encode()).hexdigest()
    running = [
        client.get(f"/api/play/{gid}").text,
        client.get(f"/api/play/{gid}", params={"token": token}).text,
        client.get(f"/play/{gid}/watch").text,
        client.get(f"/play/{gid}?token={token}").text,
        client.get(f"/play/{gid}/watch/board").text,
    ]
    for text in running:
        assert digest in text and seed not in text
    assert client.get(f"/api/play/{gid}/log").status_code == 409
    assert client.get(f"/api/play/{gid}/result").status_code == 409
    service: PlayService = app.state.play
    for seat in range(3):
        service.replace_with_bot(gid, seat, "random")
    wait_until(lambda: bool(client.get(f"/api/play/{gid}").json()["over"]))
    state = client.get(f"/api/play/{gid}").json()
    assert state["seed"] == seed and state["seed_sha256"] == digest
    result = client.get(f"/api/play/{gid}/result").json()
    assert result["seed"] == seed and result["seed_sha256"] == digest
    page = client.get(f"/play/{gid}/watch").text
    assert seed in page and f"/api/play/{gid}/log" in page
    log = client.get(f"/api/play/{gid}/log")
    assert log.status_code == 200
    doc = log.json()
    assert doc["seed"] == seed and doc["scores"] == result["scores"]
    assert verify_game(doc).problems == ()
    assert client.get("/api/play/nope/log").status_code == 404


def test_a_tournament_tables_seed_is_a_keyed_hash_of_the_tournament_seed(db: Session) -> None:
    make_bonn(db)  # the tournament seed: "seed"
    host = EngineHost()
    online.start_round_online(
        db, tournament="bonn", actor="test", tables=[list(t) for t in BONN_TABLES], host=host
    )
    seeds = [g.order.seed for g in host.games.values()]
    # a keyed hash: a game's seed, revealed at its end, does not give away the tournament seed
    assert seeds == [online_game_seed("seed", 1, k) for k in (1, 2, 3)]
