"""A refused result or PIN at the table's phone: the sheet again, the refusal at the field it
names (marked ``aria-invalid``, the player and the field named next to it), the typed values kept
(issue 32, 1.)."""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from agon.errors import InvalidInput
from agon.services import results
from agon.web.forms import refused_field
from tests.web.conftest import BONN_TABLES, TestClient, csrf_of
from tests.web.test_auction import TABLE, unlock
from tests.web.test_auction import ludo as ludo  # the fixture
from tests.web.test_table import open_table

T2 = BONN_TABLES[1]  # Player F, G, H, I


def invalid_inputs(page: str) -> list[str]:
    """The ids of the inputs the page marks as invalid."""
    return re.findall(r'<input[^>]*id="([^"]+)"[^>]*aria-invalid="true"', page)


def test_a_vp_typo_is_refused_at_its_field_with_the_typed_values_kept(
    client: TestClient, db: Session, bonn: str
) -> None:
    token = open_table(client, bonn, 1, 2)
    typed = {"vp-1": "41", "coins-1": "3", "vp-2": "44", "coins-2": "1", "vp-3": "612"}
    typed |= {"coins-3": "2", "vp-4": "51", "coins-4": "0"}
    r = client.post("/t/bonn/r1/t2/result", data={**typed, "csrf_token": token})
    assert r.status_code == 422
    assert "That did not work" not in r.text and "Score pad" in r.text
    assert invalid_inputs(r.text) == ["vp-3"]
    message = re.search(r'<p id="vp-3-error" class="field-error" role="alert">([^<]*)</p>', r.text)
    assert message, "no message next to the field"
    assert T2[2] in message.group(1) and "VP" in message.group(1) and "612" in message.group(1)
    assert 'aria-describedby="vp-3-error"' in r.text
    for name, value in typed.items():  # every typed value is still in its field
        assert re.search(rf'name="{name}"[^>]*value="{value}"', r.text), name
    assert results.get_table(db, tournament=bonn, round_number=1, table=2).results == ()
    db.rollback()


def test_a_refusal_of_the_form_reader_names_its_field_too(
    client: TestClient, db: Session, bonn: str
) -> None:
    token = open_table(client, bonn, 1, 2)
    typed = {"vp-1": "41", "vp-2": "44", "vp-3": "40", "military-4": "x3", "vp-4": "50"}
    r = client.post("/t/bonn/r1/t2/result", data={**typed, "csrf_token": token})
    assert r.status_code == 422
    assert invalid_inputs(r.text) == ["military-4"]
    # the score pad that holds the field is open
    seat = r.text[r.text.index('data-seat="4"') :]
    assert "<details open>" in seat[: seat.index("</fieldset>")]


def test_a_refusal_of_a_seat_without_a_field_is_shown_at_the_seat(
    client: TestClient, bonn: str
) -> None:
    token = open_table(client, bonn, 1, 2)
    typed = {"vp-1": "41", "vp-2": "44", "vp-3": "40", "gear-4": "1", "wild-4": "3"}
    r = client.post("/t/bonn/r1/t2/result", data={**typed, "csrf_token": token})
    assert r.status_code == 422 and not invalid_inputs(r.text)
    seat = r.text[r.text.index('data-seat="4"') :]
    seat = seat[: seat.index("</fieldset>")]
    assert 'class="field-error"' in seat and T2[3] in seat and "wildcards" in seat


def test_refused_field_reads_the_place_of_service_messages() -> None:
    seats = ["Anna", "Ben O'Hara"]
    exc = InvalidInput(
        "round 1, table 2, player \"Ben O'Hara\", field 'breakdown.military': 1000 is out of range"
    )
    assert refused_field(exc, seats) == (2, "military-2")
    assert refused_field(InvalidInput("x", params={"player": "Anna"}), seats) == (1, None)
    assert refused_field(InvalidInput("round 1: closed"), seats) == (None, None)
    wonder = InvalidInput("round 1, table 1, player 'Anna', field 'wonder': 'x' is not a wonder")
    assert refused_field(wonder, seats) == (1, "board-1")


def test_a_wrong_pin_is_refused_at_the_pin_field(client: TestClient, bonn: str) -> None:
    token = csrf_of(client)
    r = client.post("/t/bonn/r1/t2/pin", data={"pin": "000000", "csrf_token": token})
    assert r.status_code == 403 and "That did not work" not in r.text
    assert invalid_inputs(r.text) == ["pin"]
    assert re.search(r'id="pin"[^>]*value="000000"', r.text)
    assert re.search(r'<p id="pin-error" class="field-error" role="alert">Wrong PIN', r.text)
    assert all(name in r.text for name in T2)  # still the table's page


def test_a_refusal_while_the_sheet_shows_no_form_is_shown_on_the_page(
    client: TestClient, ludo: str
) -> None:
    """A crafted result during the auction (the sheet has no result form yet): the reason is
    on the page, not lost."""
    token = unlock(client)
    typed = {f"vp-{k}": str(40 + k) for k in range(1, 5)} | {"board-2": "atlantis"}
    r = client.post(f"{TABLE}/result", data={**typed, "csrf_token": token})
    assert r.status_code == 422 and 'data-seat="2"' not in r.text
    assert re.search(r'<p class="flash error" role="alert">[^<]*atlantis', r.text)


def test_the_desk_shows_a_refusal_without_a_number_field_at_the_seat(
    director: TestClient, db: Session, ludo: str
) -> None:
    page = "/desk/ludo/rounds/1"
    token = re.search(r'name="csrf_token" value="([^"]+)"', director.get(page).text)
    assert token
    seats = results.get_table(db, tournament=ludo, round_number=1, table=1).seats
    db.rollback()
    typed = {f"vp-{k}": str(40 + k) for k in range(1, 5)} | {"board-2": "atlantis"}
    r = director.post(
        "/desk/ludo/rounds/1/tables/1/result", data={**typed, "csrf_token": token.group(1)}
    )
    assert r.status_code == 422
    card = r.text[r.text.index('id="table-1"') :]
    card = card[: card.index("</section>")]
    assert "aria-invalid" not in card
    row = card[card.index(f"2. {seats[1]}") :]
    row = row[: row.index("</td>")]
    assert 'class="field-error"' in row and "atlantis" in row


def test_the_desk_shows_a_refused_result_at_its_field_too(
    director: TestClient, db: Session, bonn: str
) -> None:
    page = "/desk/bonn/rounds/1"
    token = re.search(r'name="csrf_token" value="([^"]+)"', director.get(page).text)
    assert token
    typed = {f"vp-{k}": str(40 + k) for k in range(1, 5)} | {f"coins-{k}": "1" for k in range(1, 5)}
    typed["vp-3"] = "612"
    r = director.post(
        "/desk/bonn/rounds/1/tables/2/result",
        data={**typed, "confirm": "1", "csrf_token": token.group(1)},
    )
    assert r.status_code == 422 and "That did not work" not in r.text
    card = r.text[r.text.index('id="table-2"') :]
    card = card[: card.index("</section>")]
    marked = re.findall(r'<input[^>]*name="([^"]+)"[^>]*aria-invalid="true"', card)
    assert marked == ["vp-3"]
    message = re.search(r'<span class="field-error" id="vp-3-t2-error" role="alert">([^<]*)<', card)
    assert message and T2[2] in message.group(1) and "612" in message.group(1)
    for name, value in typed.items():
        assert re.search(rf'name="{name}"[^>]*value="{value}"', card), name
    assert re.search(r'name="confirm" value="1" checked', card)
    assert "aria-invalid" not in r.text[: r.text.index('id="table-2"')]  # other tables untouched
    assert results.get_table(db, tournament=bonn, round_number=1, table=2).results == ()
    db.rollback()
