"""QR codes of seat links (inline SVG, segno): on "Where do I sit?" and the table page for the
player who gave their code, and on the desk's printable seat-link cards — each code holds that
seat's full link under the public URL, never a neighbour's. The table page also shows who is
connected."""

from __future__ import annotations

import re

import segno
from sqlalchemy.orm import Session

from agon.services import online
from agon.services.online import OnlineOptions
from agon.web.qr import absolute
from agon.web.security import player_code
from tests.services.online_host import EngineHost
from tests.web.conftest import BONN_TABLES, SECRET, TestClient, make_bonn

PUBLIC = "http://agon.test"


def modules(url: str) -> str:
    """The drawing of ``url``'s QR code (the path of its dark modules)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True)
    found = re.search(r' d="([^"]+)"', svg)
    assert found
    return found.group(1)


def seated(db: Session) -> None:
    make_bonn(db)
    online.start_round_online(
        db,
        tournament="bonn",
        actor="test",
        tables=[list(t) for t in BONN_TABLES],
        options=OnlineOptions(),
        host=EngineHost(),
    )
    db.rollback()


def test_absolute_links_and_a_qr_per_seat_link(client: TestClient, db: Session) -> None:
    assert absolute(PUBLIC, "/play/g1?token=t") == "http://agon.test/play/g1?token=t"
    seated(db)
    ann = BONN_TABLES[0][0]
    # by name alone: no link, no QR code
    page = client.get("/p/bonn/seat", params={"name": ann}).text
    assert "<svg" not in page
    code = player_code(SECRET, "bonn", ann)
    mine = f"{PUBLIC}/play/g1?token=secret-g1-0"
    for lang, caption in (
        ("en", "Scan to open your seat on another device."),
        ("de", "Scanne den Code, um deinen Platz auf einem anderen Gerät zu öffnen."),
        ("it", "Inquadra il codice per aprire il tuo posto su un altro dispositivo."),
    ):
        page = client.get("/p/bonn/seat", params={"name": ann, "code": code, "lang": lang}).text
        assert modules(mine) in page and caption in page
        assert modules(f"{PUBLIC}/play/g1?token=secret-g1-1") not in page
    table = client.get("/t/bonn/r1/t1").text
    assert modules(mine) in table
    assert "<svg" not in client.get("/t/bonn/r1/t2").text


def test_the_desk_prints_a_card_with_a_qr_code_per_person(
    director: TestClient, db: Session
) -> None:
    seated(db)
    page = director.get("/desk/bonn/rounds/1/seat-links")
    assert page.status_code == 200
    seats = [(k, p) for k, table in enumerate(BONN_TABLES) for p in table]
    assert page.text.count('class="seat-card"') == len(seats)
    for k, table in enumerate(BONN_TABLES):
        for s, player in enumerate(table):
            url = f"{PUBLIC}/play/g{k + 1}?token=secret-g{k + 1}-{s}"
            assert modules(url) in page.text
            assert player_code(SECRET, "bonn", player) in page.text
    assert "/desk/bonn/rounds/1/seat-links" in director.get("/desk/bonn/rounds/1").text
    assert director.get("/desk/bonn/rounds/9/seat-links").status_code == 404


def test_the_table_page_shows_who_is_connected(client: TestClient, db: Session) -> None:
    from datetime import UTC, datetime

    from agon.play import presence

    app = client.app  # type: ignore[attr-defined]
    make_bonn(db)
    seated_round = online.start_round_online(
        db,
        tournament="bonn",
        actor="test",
        tables=[list(t) for t in BONN_TABLES],
        host=app.state.online_host,
    )
    game = seated_round.tables[0].game or ""
    now = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
    presence.opened(db, game, 1, now)
    app.state.clock = lambda: now
    page = client.get("/t/bonn/r1/t1?lang=de").text
    first, second = BONN_TABLES[0][0], BONN_TABLES[0][1]
    assert f"{second}: verbunden" in page and f"{first}: nicht verbunden" in page
