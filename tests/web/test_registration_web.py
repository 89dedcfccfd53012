"""Online registration on the web (issue 27): the public form (CSRF, de/it/en, the private link),
withdrawal by the link, the public list (names or initials, never e-mails), the desk's page with
e-mails and check-in, the JSON API, the per-address limit, and 4xx — never 500 — on bad input."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.orm import Session

from agon.services import players, registration, tournaments
from agon.services.schemas import TournamentCreate
from tests.web.conftest import TestClient, csrf_of, form_token


def _open(db: Session, *, capacity: int = 1, **kw: object) -> None:
    tournaments.create_tournament(
        db,
        data=TournamentCreate(slug="q", name="Qualifier", ruleset="bonn-2018", seed="s"),
        actor="test",
    )
    registration.open_registration(
        db,
        tournament="q",
        capacity=capacity,
        deadline=kw.get("deadline"),  # type: ignore[arg-type]
        fee_note="Entry fee 10 €, paid at the venue",
        public_names=str(kw.get("public_names", "full")),
        actor="test",
    )
    db.rollback()


def _register_form(client: TestClient, name: str, email: str, lang: str = "en") -> object:
    client.cookies.set("agon_lang", lang)
    page = client.get("/register/q")
    assert page.status_code == 200
    return client.post(
        "/register/q",
        data={"name": name, "email": email, "tag": "", "csrf_token": form_token(page.text)},
    )


def test_register_by_form_waitlist_and_withdraw_by_private_link(
    client: TestClient, db: Session
) -> None:
    _open(db, capacity=1)
    first = _register_form(client, "Anna Rossi", "anna@example.org")
    assert first.status_code == 200  # type: ignore[attr-defined]
    anna_link = first.url.path  # type: ignore[attr-defined]
    assert re.fullmatch(r"/register/q/me/[\w-]{32,}", anna_link)
    assert "You are registered: you have a place." in first.text  # type: ignore[attr-defined]
    assert first.headers["cache-control"] == "no-store"  # type: ignore[attr-defined]
    other = TestClient(client.app)
    with other:
        second = _register_form(other, "Ben Bauer", "ben@example.org", lang="de")
        ben_link = second.url.path  # type: ignore[attr-defined]
        assert "Warteliste" in second.text  # type: ignore[attr-defined]
    page = client.get(anna_link)
    withdrawn = client.post(f"{anna_link}/withdraw", data={"csrf_token": form_token(page.text)})
    assert withdrawn.status_code == 200 and "You have withdrawn." in withdrawn.text
    promoted = client.get(ben_link)
    assert "You are registered: you have a place." in promoted.text
    public = client.get("/register/q").text
    assert "Ben Bauer" in public and "example.org" not in public
    assert "Entry fee 10 €, paid at the venue" in public


def test_the_form_needs_its_csrf_token(client: TestClient, db: Session) -> None:
    _open(db)
    client.get("/register/q")
    r = client.post("/register/q", data={"name": "Anna", "email": "a@example.org"})
    assert r.status_code == 403
    assert registration.list_registrants(db, tournament="q") == []


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"name": "", "email": "a@example.org"}, 422),
        ({"name": "Anna", "email": "no address"}, 422),
        ({"name": "Anna\u202e", "email": "a@example.org"}, 422),
        ({"name": "x" * 201, "email": "a@example.org"}, 422),
        ({"name": "Anna", "email": "a@example.org", "tag": "y" * 101}, 422),
        ({"email": "a@example.org"}, 422),
    ],
)
def test_bad_form_input_is_4xx_and_keeps_nothing(
    client: TestClient, db: Session, data: dict[str, str], status: int
) -> None:
    _open(db)
    token = form_token(client.get("/register/q").text)
    r = client.post("/register/q", data={**data, "csrf_token": token})
    assert r.status_code == status
    db.rollback()
    assert registration.list_registrants(db, tournament="q") == []


def test_after_the_deadline_the_form_says_closed(client: TestClient, db: Session) -> None:
    _open(db, deadline=datetime.now(UTC) - timedelta(minutes=1))
    page = client.get("/register/q?lang=it")
    assert page.status_code == 200 and 'name="email"' not in page.text
    r = client.post(
        "/api/tournaments/q/registration",
        json={"name": "Anna", "email": "a@example.org"},
        headers={"X-CSRF-Token": csrf_of(client)},
    )
    assert r.status_code == 409 and "deadline" in r.json()["detail"]


def test_unknown_tournament_or_link_is_404(client: TestClient, db: Session) -> None:
    _open(db)
    assert client.get("/register/nope").status_code == 404
    assert client.get("/register/q/me/not-a-token").status_code == 404
    assert client.get("/register/q/me/" + "x" * 500).status_code == 404
    assert client.get("/api/tournaments/q/registration/me/zzz").status_code == 404
    tournaments.create_tournament(
        db,
        data=TournamentCreate(slug="closed", name="C", ruleset="bonn-2018", seed="s"),
        actor="test",
    )
    db.rollback()
    assert client.get("/register/closed").status_code == 404


def test_api_register_status_withdraw_and_initials(client: TestClient, db: Session) -> None:
    _open(db, capacity=1, public_names="initials")
    csrf = {"X-CSRF-Token": csrf_of(client)}
    url = "/api/tournaments/q/registration"
    a = client.post(url, json={"name": "Anna Rossi", "email": "a@example.org"}, headers=csrf)
    b = client.post(url, json={"name": "Ben Bauer", "email": "b@example.org"}, headers=csrf)
    assert (a.status_code, b.status_code) == (201, 201)
    assert (a.json()["status"], b.json()["status"], b.json()["position"]) == (
        "registered",
        "waiting",
        1,
    )
    listed = client.get(url).json()
    assert [p["name"] for p in listed["registrants"]] == ["A. R.", "B. B."]
    assert "example.org" not in str(listed)
    token = a.json()["token"]
    out = client.post(f"{url}/me/{token}/withdraw", headers=csrf)
    assert out.status_code == 200 and out.json()["status"] == "withdrawn"
    assert client.get(f"{url}/me/{b.json()['token']}").json()["status"] == "registered"
    again = client.post(f"{url}/me/{token}/withdraw", headers=csrf)
    assert again.status_code == 409
    # the desk's list (with e-mails) needs the director
    assert client.get(f"{url}/registrants").status_code == 401


@pytest.mark.parametrize(
    "body",
    [
        {"name": "Anna"},
        {"name": "Anna", "email": 5},
        {"name": "Anna", "email": "a" * 300},
        {"name": ["x"], "email": "a@example.org"},
        {"name": "Anna", "email": "a@example.org", "tag": "\x00"},
    ],
)
def test_api_bad_registrations_are_422(client: TestClient, db: Session, body: object) -> None:
    _open(db)
    r = client.post(
        "/api/tournaments/q/registration", json=body, headers={"X-CSRF-Token": csrf_of(client)}
    )
    assert r.status_code == 422 and "detail" in r.json()


def test_registrations_are_counted_per_address(client: TestClient, db: Session) -> None:
    _open(db, capacity=40)
    client.app.state.registration_limiter.limit = 3  # type: ignore[attr-defined]
    csrf = {"X-CSRF-Token": csrf_of(client)}
    codes = [
        client.post(
            "/api/tournaments/q/registration",
            json={"name": f"P{i}", "email": f"p{i}@example.org"},
            headers=csrf,
        ).status_code
        for i in range(5)
    ]
    assert codes == [201, 201, 201, 429, 429]
    page = client.get("/register/q")
    r = client.post(
        "/register/q",
        data={"name": "Z", "email": "z@example.org", "csrf_token": form_token(page.text)},
    )
    assert r.status_code == 429
    assert len(registration.list_registrants(db, tournament="q")) == 3


def test_desk_opens_sees_emails_and_checks_in(director: TestClient, db: Session) -> None:
    tournaments.create_tournament(
        db,
        data=TournamentCreate(slug="q", name="Qualifier", ruleset="bonn-2018", seed="s"),
        actor="test",
    )
    db.rollback()
    page = director.get("/desk/q/registration")
    assert page.status_code == 200
    r = director.post(
        "/desk/q/registration/open",
        data={
            "capacity": "2",
            "deadline": "2099-05-01T18:00",
            "fee_note": "10 €",
            "public_names": "initials",
            "csrf_token": form_token(page.text),
        },
    )
    assert r.status_code == 200 and "Online registration is open." in r.text
    done = registration.register(db, tournament="q", name="Anna Rossi", email="anna@example.org")
    desk = director.get("/desk/q/registration").text
    assert "anna@example.org" in desk
    r = director.post(
        "/desk/q/registration/checkin",
        data={"number": str(done.registrant.number), "csrf_token": form_token(desk)},
    )
    assert r.status_code == 200 and "Checked in: Anna Rossi" in r.text
    db.rollback()
    assert [p.name for p in players.list_players(db, tournament="q") if p.checked_in] == [
        "Anna Rossi"
    ]
    journal = director.get("/desk/q/journal").text
    for label in (
        "Online registration opened: 2 places",
        "Registered online: Anna Rossi",
        "1 online registration checked in",
    ):
        assert label in journal
    bad = director.post(
        "/desk/q/registration/open",
        data={"capacity": "0", "csrf_token": form_token(desk)},
    )
    assert bad.status_code == 422
    bad = director.post(
        "/desk/q/registration/open",
        data={"capacity": "2", "deadline": "tomorrow", "csrf_token": form_token(desk)},
    )
    assert bad.status_code == 422


def test_desk_pages_and_director_api_need_the_login(client: TestClient, db: Session) -> None:
    _open(db)
    r = client.get("/desk/q/registration", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/desk/login")
    csrf = {"X-CSRF-Token": csrf_of(client)}
    assert (
        client.put(
            "/api/tournaments/q/registration", json={"capacity": 3}, headers=csrf
        ).status_code
        == 401
    )
    assert client.post("/api/tournaments/q/registration/close", headers=csrf).status_code == 401
    assert (
        client.post("/api/tournaments/q/registration/checkin", json={}, headers=csrf).status_code
        == 401
    )
