"""The venue's Wi-Fi at the desk: set it (form, CSRF), see its QR code, print it on the table cards
and the seat-link cards, forget it — refused input is a 4xx with one line, and the password is
never on a public page."""

from __future__ import annotations

from pathlib import Path

import pytest
import zxingcpp
from sqlalchemy.orm import Session

from agon.services import venue
from agon.tournament.wifi import parse_network
from tests.pdf_tools import render_first_page
from tests.tournament.test_wifi import decode_wifi
from tests.web.conftest import TestClient, form_token
from tests.web.test_play_qr import modules, seated

PASSWORD = "Tische-2018"


def set_wifi(director: TestClient, **fields: str) -> object:
    token = form_token(director.get("/desk/bonn/venue").text)
    return director.post("/desk/bonn/venue", data={"csrf_token": token, **fields})


def test_set_show_print_and_forget(director: TestClient, db: Session, tmp_path: Path) -> None:
    seated(db)
    page = director.get("/desk/bonn/venue")
    assert page.status_code == 200 and "<svg" not in page.text
    assert "/desk/bonn/venue" in director.get("/desk/bonn").text  # the desk's menu links it
    r = set_wifi(director, ssid="Bonn spielt", password=PASSWORD, security="WPA")
    assert r.status_code == 200 and r.url.path == "/desk/bonn/venue"  # type: ignore[attr-defined]
    wifi = parse_network(ssid="Bonn spielt", password=PASSWORD)
    db.expire_all()
    assert venue.get_wifi(db, tournament="bonn") == wifi
    db.rollback()
    drawn = modules(wifi.qr_data())
    assert drawn in director.get("/desk/bonn/venue").text
    cards = director.get("/desk/bonn/rounds/1/seat-links").text
    assert cards.count(drawn) == cards.count('class="seat-card"') == 13
    pdf = director.get("/desk/bonn/print/r1/table-cards.pdf?lang=it")
    assert pdf.status_code == 200
    png = render_first_page(pdf.content, tmp_path / "card.png", dpi=150)
    from PIL import Image

    texts = [r.text for r in zxingcpp.read_barcodes(Image.open(png))]
    assert texts == [wifi.qr_data()]
    assert decode_wifi(texts[0])["P"] == PASSWORD
    for public in ("/p/bonn", "/p/bonn/rounds/1", "/p/bonn/seat", "/t/bonn/r1/t1"):
        assert PASSWORD not in director.get(public).text, public
    assert PASSWORD not in director.get("/desk/bonn/export.json").text
    token = form_token(director.get("/desk/bonn/venue").text)
    r = director.post("/desk/bonn/venue/clear", data={"csrf_token": token})
    assert r.status_code == 200
    assert drawn not in director.get("/desk/bonn/rounds/1/seat-links").text
    assert "<svg" not in director.get("/desk/bonn/venue").text


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"ssid": "n", "password": "kurz", "security": "WPA"}, 422, "8 to 63 characters"),
        ({"ssid": "", "password": PASSWORD}, 422, ""),
        ({"ssid": "x" * 40, "password": PASSWORD}, 422, "at most 32 bytes"),
        ({"ssid": "n", "password": PASSWORD, "security": "psk"}, 422, ""),
        ({"ssid": "n", "security": "nopass", "password": PASSWORD}, 422, "has no password"),
    ],
)
def test_refused_input_is_a_4xx_and_changes_nothing(
    director: TestClient, db: Session, fields: dict[str, str], status: int, message: str
) -> None:
    seated(db)
    r = set_wifi(director, **fields)
    assert r.status_code == status  # type: ignore[attr-defined]
    assert message in r.text  # type: ignore[attr-defined]
    assert "Traceback" not in r.text  # type: ignore[attr-defined]
    db.expire_all()
    assert venue.get_wifi(db, tournament="bonn") is None


def test_only_the_director_and_only_with_csrf(client: TestClient, db: Session) -> None:
    seated(db)
    assert client.get("/desk/bonn/venue", follow_redirects=False).status_code in (303, 401, 403)
    r = client.post("/desk/bonn/venue", data={"ssid": "n"}, follow_redirects=False)
    assert r.status_code in (303, 401, 403)
    db.expire_all()
    assert venue.get_wifi(db, tournament="bonn") is None


def test_an_unknown_tournament_is_404(director: TestClient) -> None:
    assert director.get("/desk/nope/venue").status_code == 404
