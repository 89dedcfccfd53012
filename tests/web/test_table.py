"""The table face: PIN, entering VPs with the score pad, each player's confirmation, disputes."""

from __future__ import annotations

import re

import pytest
from sqlalchemy.orm import Session

from agon.errors import InvalidInput
from agon.services import results
from agon.web.forms import results_from_form
from agon.web.security import table_pin
from tests.web.conftest import BONN_TABLES, SECRET, TestClient, csrf_of

T2 = BONN_TABLES[1]  # Player F, G, H, I


def open_table(client: TestClient, slug: str, number: int, table: int) -> str:
    token = csrf_of(client)
    r = client.post(
        f"/t/{slug}/r{number}/t{table}/pin",
        data={"pin": table_pin(SECRET, slug, number, table), "csrf_token": token},
    )
    assert r.status_code == 200 and "Score pad" in r.text
    return token


def version_on(page: str) -> str:
    match = re.search(r'name="version" value="(\d+)"', page)
    assert match
    return match.group(1)


def test_pin_page_names_the_table(client: TestClient, bonn: str) -> None:
    page = client.get("/t/bonn/r1/t2")
    assert page.status_code == 200 and "Round 1, table 2" in page.text
    assert all(name in page.text for name in T2) and 'name="pin"' in page.text
    assert client.get("/t/bonn/r1/t9").status_code == 404


def test_players_enter_with_the_score_pad_and_confirm_one_by_one(
    client: TestClient, db: Session, bonn: str
) -> None:
    token = open_table(client, bonn, 1, 2)
    pad = {
        # seat 1: the pad only; science from symbols (3 gears, 2 compasses, 1 tablet, 1 wildcard)
        "military-1": "6", "treasury-1": "3", "wonder-1": "7", "civilian-1": "12",
        "commercial-1": "4", "guilds-1": "5", "gear-1": "3", "compass-1": "2", "tablet-1": "1",
        "wild-1": "1", "coins-1": "9",
        "vp-2": "44", "coins-2": "1",
        "vp-3": "38", "coins-3": "2",
        "vp-4": "51", "coins-4": "0",
    }  # fmt: skip
    r = client.post("/t/bonn/r1/t2/result", data={**pad, "csrf_token": token})
    assert r.status_code == 200 and "Result saved." in r.text
    table = results.get_table(db, tournament=bonn, round_number=1, table=2)
    db.rollback()
    first = table.results[0]
    # science: best use of the wildcard is a second tablet: 9 + 4 + 4 + 7*2 = 31
    assert first.breakdown is not None and first.breakdown["science"] == 31
    assert first.vp == 6 + 3 + 7 + 12 + 4 + 5 + 31 and first.coins == 9
    assert table.state == "pending" and table.results[2].vp == 38 and table.results[2].coins == 2
    version = version_on(r.text)
    for name in T2[:3]:
        r = client.post(
            "/t/bonn/r1/t2/confirm", data={"player": name, "version": version, "csrf_token": token}
        )
        assert f"Confirmed: {name}" in r.text
    assert results.get_table(db, tournament=bonn, round_number=1, table=2).state == "pending"
    db.rollback()
    r = client.post(
        "/t/bonn/r1/t2/confirm", data={"player": T2[3], "version": version, "csrf_token": token}
    )
    assert "This table is done. Thank you!" in r.text
    assert results.get_table(db, tournament=bonn, round_number=1, table=2).state == "confirmed"
    db.rollback()
    late = client.post("/t/bonn/r1/t2/result", data={**pad, "csrf_token": token})
    assert late.status_code == 409 and "ask the director" in late.text


def test_a_correction_clears_confirmations_and_stale_confirmations_are_refused(
    client: TestClient, db: Session, bonn: str
) -> None:
    token = open_table(client, bonn, 1, 2)
    seats = {f"vp-{k}": str(40 + k) for k in range(1, 5)} | {f"coins-{k}": "1" for k in range(1, 5)}
    r = client.post("/t/bonn/r1/t2/result", data={**seats, "csrf_token": token})
    old = version_on(r.text)
    client.post(
        "/t/bonn/r1/t2/confirm", data={"player": T2[0], "version": old, "csrf_token": token}
    )
    r = client.post(
        "/t/bonn/r1/t2/result", data={**seats, "vp-1": "50", "version": old, "csrf_token": token}
    )
    table = results.get_table(db, tournament=bonn, round_number=1, table=2)
    db.rollback()
    assert table.results[0].vp == 50 and not any(x.confirmed for x in table.results)
    stale = client.post(
        "/t/bonn/r1/t2/confirm", data={"player": T2[1], "version": old, "csrf_token": token}
    )
    assert stale.status_code == 409 and "changed meanwhile" in stale.text
    wrong_seat = client.post(
        "/t/bonn/r1/t2/confirm",
        data={"player": "Player A", "version": version_on(r.text), "csrf_token": token},
    )
    assert wrong_seat.status_code == 422


def test_dispute_marks_the_table_until_corrected(
    client: TestClient, director: TestClient, db: Session, bonn: str
) -> None:
    token = open_table(client, bonn, 1, 2)
    seats = {f"vp-{k}": str(40 + k) for k in range(1, 5)} | {f"coins-{k}": "1" for k in range(1, 5)}
    r = client.post("/t/bonn/r1/t2/result", data={**seats, "csrf_token": token})
    version = version_on(r.text)
    r = client.post(
        "/t/bonn/r1/t2/dispute",
        data={"player": T2[2], "version": version, "reason": "I had 47", "csrf_token": token},
    )
    assert "The director has been told." in r.text and "I had 47" in r.text
    status = {s["table"]: s for s in client.get("/api/tournaments/bonn/rounds/1/status").json()}
    assert status[2]["status"] == "disputed" and status[1]["status"] == "open"
    desk = director.get("/desk/bonn/rounds/1").text
    assert "Player H disputes: I had 47" in desk
    # the director corrects the result: a new version, the dispute no longer marks the table
    token_d = csrf_of(director)
    director.post(
        "/desk/bonn/rounds/1/tables/2/result",
        data={**seats, "vp-3": "47", "version": version, "csrf_token": token_d},
    )
    status = {s["table"]: s for s in client.get("/api/tournaments/bonn/rounds/1/status").json()}
    assert status[2]["status"] == "pending"
    empty = client.post(
        "/t/bonn/r1/t2/dispute",
        data={"player": T2[2], "version": version, "reason": " ", "csrf_token": token},
    )
    assert empty.status_code in (409, 422)


def test_score_pad_form_reading() -> None:
    seats = ("A", "B")
    form = {"vp-1": "40", "military-2": "3", "science-2": "", "gear-2": "2", "wild-2": "1"}
    a, b = results_from_form(form, seats, auction=False)
    assert a.vp == 40 and a.breakdown is None
    assert b.breakdown is not None and b.breakdown["science"] == 9 + 0 + 0 + 0  # 3 gears
    assert b.vp == 12
    with pytest.raises(InvalidInput, match="player 'A', field 'vp'"):
        results_from_form({"vp-1": "x", "vp-2": "1"}, seats, auction=False)
    with pytest.raises(InvalidInput, match="wildcards 0 to 2"):
        results_from_form({"vp-1": "1", "gear-2": "1", "wild-2": "3"}, seats, auction=False)


def test_phone_page_fits_a_small_screen(client: TestClient, bonn: str) -> None:
    open_table(client, bonn, 1, 1)
    page = client.get("/t/bonn/r1/t1").text
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert page.count('inputmode="numeric"') >= 5 * 13
