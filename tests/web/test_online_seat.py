"""Online tournament tables on the web: the desk seats a round online, a player's seat link is
shown only to the browser that gave that player's code ("Where do I sit?", the table page)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from agon.services import online
from agon.services.online import OnlineOptions
from agon.web.security import player_code
from tests.services.online_host import EngineHost
from tests.web.conftest import BONN_13, BONN_TABLES, SECRET, TestClient, form_token, make_bonn


def _seat_online(db: Session, host: EngineHost) -> None:
    make_bonn(db)
    online.start_round_online(
        db,
        tournament="bonn",
        actor="test",
        tables=[list(t) for t in BONN_TABLES],
        options=OnlineOptions(),
        host=host,
    )
    db.rollback()


def test_the_seat_link_is_shown_only_with_the_players_code(client: TestClient, db: Session) -> None:
    host = EngineHost()
    _seat_online(db, host)
    ann, bea = BONN_TABLES[0][0], BONN_TABLES[0][1]
    # by name alone: where to sit, but no link (anybody can type any name)
    page = client.get("/p/bonn/seat", params={"name": ann}).text
    assert "Round 1: table 1, seat 1" in page and "token=" not in page
    wrong = client.get("/p/bonn/seat", params={"name": ann, "code": "000000"})
    code = player_code(SECRET, "bonn", ann)
    assert code != "000000"
    assert "not the code of this player" in wrong.text and "token=" not in wrong.text
    right = client.get("/p/bonn/seat", params={"name": ann, "code": code}).text
    assert 'href="/play/g1?token=secret-g1-0"' in right
    assert "secret-g1-1" not in right  # never a neighbour's
    # the browser is now Ann's: the table page shows her link, not Bea's
    table = client.get("/t/bonn/r1/t1").text
    assert "secret-g1-0" in table and "secret-g1-1" not in table and "/play/g1" in table
    # another table's page does not show it
    assert "token=" not in client.get("/t/bonn/r1/t2").text
    # Bea's code on Bea's name makes the browser Bea's instead
    bea_page = client.get(
        "/p/bonn/seat", params={"name": bea, "code": player_code(SECRET, "bonn", bea)}
    ).text
    assert "secret-g1-1" in bea_page and "secret-g1-0" not in bea_page
    # Ann's code on Bea's name is refused
    assert "not the code" in client.get("/p/bonn/seat", params={"name": bea, "code": code}).text
    assert len(BONN_13) == 13


def test_wrong_codes_are_braked(client: TestClient, db: Session) -> None:
    _seat_online(db, EngineHost())
    name = BONN_TABLES[0][0]
    answers = [
        client.get("/p/bonn/seat", params={"name": name, "code": f"{i:06d}"}).status_code
        for i in range(12)
    ]
    assert answers[0] == 200 and answers[-1] == 429


def test_the_desk_starts_a_round_online_and_lists_links_and_codes(
    app: object, director: TestClient, db: Session
) -> None:
    host = EngineHost()
    app.state.online_host = host  # type: ignore[attr-defined]
    make_bonn(db)
    page = director.get("/desk/bonn").text
    assert 'name="online"' in page and 'name="all_bots"' in page
    r = director.post(
        "/desk/bonn/rounds",
        data={"csrf_token": form_token(page), "online": "1", "bots": "1", "grace": "4"},
    )
    assert r.status_code == 200 and "Round 1 started." in r.text
    assert host.created == 3
    assert "Played online" in r.text and "secret-g1-0" in r.text
    # every online table's replay, one link away (it opens once the game is over)
    assert all(f'href="/play/g{k}/replay"' in r.text for k in (1, 2, 3))
    first = online.online_round(db, tournament="bonn", number=1)
    assert first is not None and first.options.bots and first.options.grace_minutes == 4
    player = first.tables[0].seats[0].player
    assert player_code(SECRET, "bonn", player) in r.text
    bad = director.post(
        "/desk/bonn/rounds",
        data={"csrf_token": form_token(page), "online": "1", "grace": "9999"},
    )
    assert bad.status_code == 422 and "Grace minutes" in bad.text and host.created == 3
