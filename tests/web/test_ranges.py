"""Issue 10, defect 5: numbers too large for the database are refused with a 4xx, never a 500."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from agon.errors import InvalidInput
from agon.services import results
from agon.web.limits import SANE, parse_int
from tests.web.conftest import BONN_TABLES, TestClient, csrf_of
from tests.web.helpers import version_of
from tests.web.test_table import open_table

HUGE = str(2**63)
TWENTY_DIGITS = "9" * 20
T1 = BONN_TABLES[0]


def test_parse_int_names_the_field_and_keeps_64_bits_safe() -> None:
    assert parse_int(" -100 ", "vp") == -100
    for text, words in (
        (HUGE, "out of range"),
        (TWENTY_DIGITS, "out of range"),
        ("9" * 5000, "out of range"),
        ("1e3", "not a whole number"),
        ("٣", "not a whole number"),  # an Arabic-Indic digit: int() would take it
        ("", "not a whole number"),
    ):
        with pytest.raises(InvalidInput, match=words) as caught:
            parse_int(text, "player 'Anna', field 'vp'")
        assert "player 'Anna', field 'vp'" in str(caught.value) and len(str(caught.value)) < 120
    assert parse_int(str(SANE), "vp") == SANE


@pytest.mark.parametrize(
    "url",
    [
        f"/t/bonn/r{HUGE}/t1",
        f"/t/bonn/r1/t{TWENTY_DIGITS}",
        f"/p/bonn/rounds/{HUGE}",
        f"/api/tournaments/bonn/rounds/{HUGE}",
        f"/api/tournaments/bonn/rounds/1/tables/{2**64}",
        f"/api/tournaments/bonn/rounds/{HUGE}/status",
        "/api/tournaments/bonn/rounds/0",
        "/p/bonn/rounds/-3",
    ],
)
def test_huge_round_and_table_numbers_in_paths(client: TestClient, bonn: str, url: str) -> None:
    r = client.get(url)
    assert r.status_code == 422, (url, r.status_code)


def test_page_message_is_one_translated_line(client: TestClient, bonn: str) -> None:
    r = client.get(f"/t/bonn/r{HUGE}/t1?lang=de")
    assert r.status_code == 422 and "Traceback" not in r.text
    assert "Eingabe fehlt, ist ungültig oder außerhalb des Bereichs: number" in r.text


def _api_result(vp: object, coins: object = 0) -> dict[str, object]:
    return {"results": [{"player": p, "vp": vp, "coins": coins} for p in T1]}


def test_api_result_with_vp_or_coins_beyond_64_bits(
    director: TestClient, db: Session, bonn: str
) -> None:
    headers = {"x-csrf-token": csrf_of(director)}
    before = version_of(db, bonn)
    url = "/api/tournaments/bonn/rounds/1/tables/1/result"
    for body in (
        _api_result(2**63),
        _api_result(40, 2**63),
        _api_result(-(2**70)),
        _api_result(1e300),
    ):
        r = director.post(url, json=body, headers=headers)
        assert r.status_code == 422, r.text
        assert isinstance(r.json()["detail"], list)
    breakdown = _api_result(40)
    breakdown["results"][0]["breakdown"] = {"military": 2**63}  # type: ignore[index]
    assert director.post(url, json=breakdown, headers=headers).status_code == 422
    assert version_of(db, bonn) == before  # nothing was recorded


def test_score_pad_with_vp_or_coins_beyond_64_bits(
    client: TestClient, db: Session, bonn: str
) -> None:
    token = open_table(client, bonn, 1, 1)
    before = version_of(db, bonn)
    seats = {f"vp-{k}": "40" for k in range(1, len(T1) + 1)}
    seats |= {f"coins-{k}": "1" for k in range(1, len(T1) + 1)}
    for extra in ({"vp-1": HUGE}, {"coins-2": HUGE}, {"military-1": "9" * 30}, {"gear-1": HUGE}):
        r = client.post("/t/bonn/r1/t1/result", data={**seats, **extra, "csrf_token": token})
        assert r.status_code == 422, (extra, r.status_code)
        assert "out of range" in r.text
    assert version_of(db, bonn) == before


def test_desk_form_with_a_twenty_digit_vp(director: TestClient, db: Session, bonn: str) -> None:
    token = csrf_of(director)
    seats = {f"vp-{k}": "40" for k in range(1, len(T1) + 1)}
    seats |= {f"coins-{k}": "1" for k in range(1, len(T1) + 1)}
    url = "/desk/bonn/rounds/1/tables/1/result"
    r = director.post(url, data={**seats, "vp-3": TWENTY_DIGITS, "csrf_token": token})
    assert r.status_code == 422 and "out of range" in r.text
    # a correction with a version beyond 64 bits, and a confirmation with one
    director.post(url, data={**seats, "csrf_token": token})
    r = director.post(url, data={**seats, "version": HUGE, "csrf_token": token})
    assert r.status_code == 422
    r = director.post(
        "/desk/bonn/rounds/1/tables/1/confirm", data={"version": HUGE, "csrf_token": token}
    )
    assert r.status_code == 422
    table = results.get_table(db, tournament=bonn, round_number=1, table=1)
    db.rollback()
    assert [r.vp for r in table.results] == [40] * len(T1)


def test_desk_counts_and_clock_minutes_beyond_64_bits(director: TestClient, bonn: str) -> None:
    token = csrf_of(director)
    r = director.post(
        "/desk/tournaments",
        data={
            "slug": "big",
            "name": "Big",
            "ruleset": "bonn-2018",
            "max_players": HUGE,
            "csrf_token": token,
        },
    )
    assert r.status_code == 422 and "Most players" in r.text  # the form's label, not the field
    r = director.post(
        "/desk/bonn/rounds/1/clock",
        data={"action": "start", "minutes": HUGE, "csrf_token": token},
    )
    assert r.status_code == 422
    headers = {"x-csrf-token": token}
    for url, body in (
        (
            "/api/tournaments",
            {"slug": "big", "name": "B", "ruleset": "bonn-2018", "min_players": 2**63},
        ),
        ("/api/tournaments/bonn/rounds/1/clock", {"action": "start", "minutes": 2**63}),
        (
            "/api/tournaments/bonn/players/Player A/sanctions",
            {"kind": "warning", "reason": "x", "round": 2**63},
        ),
        ("/api/tournaments/bonn/rounds/1/tables/1/confirm", {"version": 2**63}),
    ):
        r = director.post(url, json=body, headers=headers)
        assert r.status_code == 422, (url, r.text)
