"""Security: names are text, PINs open only their table, CSRF everywhere, the public face is read-only."""

from __future__ import annotations

import re

import pytest
from sqlalchemy.orm import Session

from agon.services import results, rounds
from agon.web.security import table_pin
from tests.web.conftest import SECRET, TestClient, csrf_of, form_token, make_bonn
from tests.web.helpers import play_round, version_of

EVIL = '<script>alert("x")</script>'
EVIL_IMG = "<img src=x onerror=alert(1)>"
NAMES = (EVIL, EVIL_IMG, *(f"P{i}" for i in range(10)))


@pytest.fixture
def evil(db: Session) -> str:
    make_bonn(db, slug="evil", names=NAMES)
    rounds.start_round(
        db,
        tournament="evil",
        actor="t",
        tables=[list(NAMES[:4]), list(NAMES[4:8]), list(NAMES[8:])],
    )
    play_round(db, "evil", 1, confirm=False)
    return "evil"


def test_names_with_html_are_shown_as_text(director: TestClient, evil: str) -> None:
    pin = table_pin(SECRET, evil, 1, 1)
    director.post("/t/evil/r1/t1/pin", data={"pin": pin, "csrf_token": csrf_of(director)})
    pages = [
        "/p/evil",
        "/p/evil/standings-table",
        f"/p/evil/seat?name={EVIL}",
        "/p/evil/seat?name=%3Cimg",
        "/p/evil/rounds/1",
        "/p/evil/chart?player=%3Cscript%3E",
        "/p/evil/clock",
        "/desk/evil",
        "/desk/evil/rounds/1",
        "/t/evil/r1/t1",
    ]
    for url in pages:
        html = director.get(url).text
        assert "<script>alert" not in html, url
        assert "<img src=x" not in html, url
        assert "&lt;script&gt;alert(" in html or "&lt;img src=x" in html, url


def test_json_api_returns_names_verbatim(client: TestClient, evil: str) -> None:
    names = [row["player"] for row in client.get("/api/tournaments/evil/standings").json()["rows"]]
    assert EVIL in names and EVIL_IMG in names
    assert (
        client.get("/api/tournaments/evil/standings").headers["content-type"] == "application/json"
    )


def test_pages_forbid_inline_scripts(client: TestClient, evil: str) -> None:
    page = client.get("/p/evil")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert page.headers["x-frame-options"] == "DENY"
    assert not re.search(r"<script(?![^>]*\bsrc=)", page.text)  # every script is a file


def test_pin_opens_only_its_own_table(client: TestClient, bonn: str) -> None:
    token = csrf_of(client)
    pin1, pin2 = table_pin(SECRET, bonn, 1, 1), table_pin(SECRET, bonn, 1, 2)
    assert pin1 != pin2
    # table 1's PIN does not open table 2
    wrong = client.post("/t/bonn/r1/t2/pin", data={"pin": pin1, "csrf_token": token})
    assert wrong.status_code == 403 and "Wrong PIN" in wrong.text
    assert 'name="pin"' in client.get("/t/bonn/r1/t2").text
    ok = client.post("/t/bonn/r1/t1/pin", data={"pin": pin1, "csrf_token": token})
    assert ok.status_code == 200 and "Score pad" in ok.text
    # unlocked table 1 does not let this phone change table 2
    seats = {f"vp-{k}": "40" for k in range(1, 5)}
    refused = client.post("/t/bonn/r1/t2/result", data={**seats, "csrf_token": token})
    assert refused.status_code == 403
    api = client.post(
        "/api/tables/bonn/1/2/result",
        json={"results": [{"player": "Player F", "vp": 1}]},
        headers={"x-csrf-token": token},
    )
    assert api.status_code == 403
    # nor the same table number in another tournament or round
    assert client.post("/t/bonn/r2/t1/result", data={**seats, "csrf_token": token}).status_code in (
        403,
        404,
    )


def test_wrong_pins_are_limited(client: TestClient, bonn: str, app: object) -> None:
    token = csrf_of(client)
    limit = app.state.web.settings.pin_attempts  # type: ignore[attr-defined]
    right = table_pin(SECRET, bonn, 1, 3)
    wrong = "0000" if right != "0000" else "1111"
    for _ in range(limit):
        assert (
            client.post("/t/bonn/r1/t3/pin", data={"pin": wrong, "csrf_token": token}).status_code
            == 403
        )
    locked = client.post("/t/bonn/r1/t3/pin", data={"pin": right, "csrf_token": token})
    assert locked.status_code == 429  # even the right PIN waits now
    other = client.post(
        "/t/bonn/r1/t1/pin", data={"pin": table_pin(SECRET, bonn, 1, 1), "csrf_token": token}
    )
    assert other.status_code == 200  # other tables are not locked


FORMS = [
    ("/desk/tournaments", {"slug": "x", "name": "X", "ruleset": "bonn-2018"}),
    ("/desk/bonn/players", {"name": "Mallory"}),
    ("/desk/bonn/players/checkin", {"player": "Player A"}),
    ("/desk/bonn/players/drop", {"player": "Player A", "kind": "drop"}),
    ("/desk/bonn/players/sanction", {"player": "Player A", "kind": "warning", "reason": "r"}),
    ("/desk/bonn/rounds", {"tables": "a;b"}),
    ("/desk/bonn/rounds/1/tables/1/result", {"vp-1": "1"}),
    ("/desk/bonn/rounds/1/tables/1/confirm", {"version": "1"}),
    ("/desk/bonn/rounds/1/close", {}),
    ("/desk/bonn/rounds/1/clock", {"action": "start"}),
    ("/desk/bonn/undo", {}),
    ("/desk/bonn/final", {}),
    ("/desk/bonn/confirm/undo", {}),
    ("/desk/bonn/confirm/close", {"round": "1"}),
    ("/desk/logout", {}),
    ("/desk/login", {"password": "x"}),
    ("/t/bonn/r1/t1/pin", {"pin": "1234"}),
    ("/t/bonn/r1/t1/result", {"vp-1": "1"}),
    ("/t/bonn/r1/t1/confirm", {"player": "Player A", "version": "1"}),
    ("/t/bonn/r1/t1/dispute", {"player": "Player A", "version": "1", "reason": "r"}),
]


@pytest.mark.parametrize(("url", "data"), FORMS, ids=[u for u, _ in FORMS])
def test_forms_without_csrf_token_are_refused(
    director: TestClient, db: Session, bonn: str, url: str, data: dict[str, str]
) -> None:
    version = version_of(db, bonn)
    for token in (None, "forged-token"):
        sent = dict(data) | ({"csrf_token": token} if token else {})
        r = director.post(url, data=sent)
        assert r.status_code == 403, (url, token)
    assert version_of(db, bonn) == version
    assert director.get("/desk").status_code == 200  # still logged in (logout was refused)


def test_api_changes_need_the_csrf_header(director: TestClient, bonn: str) -> None:
    body = {"name": "Mallory"}
    assert director.post("/api/tournaments/bonn/players", json=body).status_code == 403
    assert (
        director.post(
            "/api/tournaments/bonn/players", json=body, headers={"x-csrf-token": "nope"}
        ).status_code
        == 403
    )
    ok = director.post(
        "/api/tournaments/bonn/players", json=body, headers={"x-csrf-token": csrf_of(director)}
    )
    assert ok.status_code == 201 and ok.json()["name"] == "Mallory"


def test_csrf_token_is_per_session(client: TestClient, bonn: str, app: object) -> None:
    mine = csrf_of(client)
    with TestClient(app) as other:  # type: ignore[arg-type]
        theirs = csrf_of(other)
        assert theirs != mine
        r = other.post("/t/bonn/r1/t1/pin", data={"pin": "1234", "csrf_token": mine})
        assert r.status_code == 403 and "This form has expired" in r.text


def test_public_face_cannot_change_anything(client: TestClient, db: Session, bonn: str) -> None:
    play_round(db, bonn, 1, confirm=False)
    version = version_of(db, bonn)
    token = csrf_of(client)  # a valid token, but no login and no PIN
    gets = [
        "/",
        "/p/bonn",
        "/p/bonn/standings-table",
        "/p/bonn/seat?name=a",
        "/p/bonn/rounds/1",
        "/p/bonn/chart",
        "/p/bonn/clock",
        "/t/bonn/r1/t1",
        "/api/tournaments",
        "/api/tournaments/bonn/standings",
        "/api/tournaments/bonn/rounds/1/status",
    ]
    for url in gets:
        assert client.get(url).status_code == 200, url
    for url, data in FORMS:
        if url.startswith("/desk/log") or url.endswith("/pin"):
            continue
        r = client.post(url, data={**data, "csrf_token": token}, follow_redirects=False)
        assert r.status_code in (303, 403), url
        if r.status_code == 303:
            assert r.headers["location"].startswith("/desk/login"), url
    api_posts = [
        "/api/tournaments",
        "/api/tournaments/bonn/players",
        "/api/tournaments/bonn/rounds",
        "/api/tournaments/bonn/rounds/1/close",
        "/api/tournaments/bonn/rounds/1/tables/1/result",
        "/api/tournaments/bonn/rounds/1/tables/1/confirm",
        "/api/tournaments/bonn/undo",
        "/api/tables/bonn/1/1/result",
        "/api/tables/bonn/1/1/confirm",
    ]
    for url in api_posts:
        r = client.post(url, json={}, headers={"x-csrf-token": token})
        assert r.status_code in (401, 403, 422), url
    for url in (
        "/api/tournaments/bonn/journal",
        "/desk/bonn/journal",
        "/api/tournaments/bonn/rounds/1/pins",
    ):
        r = client.get(url, follow_redirects=False)
        assert r.status_code in (401, 303), url
    assert version_of(db, bonn) == version
    assert rounds.get_round(db, tournament=bonn, number=1).status == "open"
    assert results.get_table(db, tournament=bonn, round_number=1, table=1).state == "pending"
    db.rollback()


def test_reader_sessions_cannot_write(app: object, bonn: str) -> None:
    from sqlalchemy import text
    from sqlalchemy.exc import OperationalError

    with app.state.web.readers() as reader:  # type: ignore[attr-defined]
        with pytest.raises(OperationalError):
            reader.execute(text("DELETE FROM journal"))
        reader.rollback()


def test_login_refuses_wrong_password_and_rotates_the_token(client: TestClient) -> None:
    token = form_token(client.get("/desk/login").text)
    bad = client.post("/desk/login", data={"password": "guess", "csrf_token": token})
    assert bad.status_code == 403 and "Wrong password." in bad.text
    assert client.get("/desk", follow_redirects=False).status_code == 303
    from tests.web.conftest import PASSWORD

    good = client.post("/desk/login", data={"password": PASSWORD, "csrf_token": token})
    assert good.status_code == 200 and good.url.path == "/desk"
    assert csrf_of(client) != token  # a new token after login (no fixation)


def test_session_cookie_is_signed_and_http_only(client: TestClient) -> None:
    r = client.get("/api/session")
    cookie = r.headers["set-cookie"]
    assert (
        "agon_session=" in cookie
        and "httponly" in cookie.lower()
        and "samesite=lax" in cookie.lower()
    )
    client.cookies.set("agon_session", "eyJkaXJlY3RvciI6IHRydWV9.forged.sig")
    assert client.get("/desk", follow_redirects=False).status_code == 303
