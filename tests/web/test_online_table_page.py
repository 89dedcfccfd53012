"""The table page (``/t/<slug>/r<n>/t<k>``) of a table played online, at every stage of its game:
before the game exists (Ludolimpico: while the table's auction runs, which the phones run on this
page), while it is played, and after its result is recorded (issue 26)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from agon.services import auctions, online, rounds
from agon.services.online import OnlineOptions
from agon.web.security import table_pin
from tests.services.online_host import EngineHost
from tests.web.conftest import BONN_TABLES, SECRET, TestClient, form_token, make_bonn

LUDO_8 = tuple(f"Player {c}" for c in "ABCDEFGH")


def _unlock(client: TestClient, slug: str, table: int) -> None:
    page = client.get(f"/t/{slug}/r1/t{table}").text
    r = client.post(
        f"/t/{slug}/r1/t{table}/pin",
        data={"pin": table_pin(SECRET, slug, 1, table), "csrf_token": form_token(page)},
    )
    assert r.status_code == 200, r.text


def test_an_online_auction_table_before_its_game_shows_the_table_and_its_auction(
    client: TestClient, db: Session
) -> None:
    make_bonn(db, slug="ludo", names=LUDO_8, ruleset="ludolimpico-2015")
    host = EngineHost()
    online.start_round_online(db, tournament="ludo", actor="test", host=host)
    db.rollback()
    seated = online.online_round(db, tournament="ludo", number=1)
    assert seated is not None and all(t.game is None for t in seated.tables)
    players = rounds.get_round(db, tournament="ludo", number=1).tables[0].seats
    db.rollback()
    locked = client.get("/t/ludo/r1/t1")
    assert locked.status_code == 200, locked.text[:2000]
    assert all(p in locked.text for p in players)
    assert "The game starts when the auction is recorded." in locked.text
    _unlock(client, "ludo", 1)
    sheet = client.get("/t/ludo/r1/t1")
    assert sheet.status_code == 200, sheet.text[:2000]
    assert 'id="auction"' in sheet.text
    # the phones run the auction on this page: an action is accepted and shown
    view = auctions.auction_view(db, tournament="ludo", round_number=1, table=1)
    assert view is not None and view.to_act is not None and view.lot_wonder is None
    db.rollback()
    page = sheet.text
    r = client.post(
        "/t/ludo/r1/t1/auction",
        data={
            "csrf_token": form_token(page),
            "player": view.to_act,
            "verb": "opens",
            "wonder": view.available[0],
            "bid": "0",
        },
    )
    assert r.status_code == 200, r.text[:2000]
    again = auctions.auction_view(db, tournament="ludo", round_number=1, table=1)
    assert again is not None and len(again.history) == 1


def test_an_online_table_shows_its_result_once_recorded(client: TestClient, db: Session) -> None:
    make_bonn(db)
    host = EngineHost()
    online.start_round_online(
        db,
        tournament="bonn",
        actor="test",
        tables=[list(t) for t in BONN_TABLES],
        options=OnlineOptions(),
        host=host,
    )
    host.play_out("g1")
    report = online.sweep(db, tournament="bonn", host=host)
    assert (1, 1) in report.results
    table = rounds.get_round(db, tournament="bonn", number=1).tables[0]
    db.rollback()
    vps = [r.vp for r in table.results]
    for unlocked in (False, True):
        if unlocked:
            _unlock(client, "bonn", 1)
        page = client.get("/t/bonn/r1/t1")
        assert page.status_code == 200, page.text[:2000]
        assert "Result recorded by the game" in page.text
        if unlocked:  # the sheet shows every player's points
            assert all(f">{vp}<" in page.text or f'value="{vp}"' in page.text for vp in vps)
    # a table still being played shows who is connected
    page = client.get("/t/bonn/r1/t2")
    assert page.status_code == 200 and "not connected" in page.text
