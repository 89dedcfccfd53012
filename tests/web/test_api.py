"""The JSON API: a tournament run through it, and its OpenAPI description."""

from __future__ import annotations

from sqlalchemy.orm import Session

from agon.web.security import table_pin
from tests.web.conftest import BONN_13, BONN_TABLES, PASSWORD, SECRET, TestClient, csrf_of
from tests.web.helpers import play_round


def login(client: TestClient) -> dict[str, str]:
    token = csrf_of(client)
    r = client.post("/api/login", json={"password": PASSWORD}, headers={"x-csrf-token": token})
    assert r.status_code == 200 and r.json()["director"] is True
    return {"x-csrf-token": r.json()["csrf_token"]}


def test_openapi_describes_the_api(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    paths = spec["paths"]
    for path in (
        "/api/tournaments",
        "/api/tournaments/{slug}/standings",
        "/api/tournaments/{slug}/seat",
        "/api/tournaments/{slug}/ranks",
        "/api/tournaments/{slug}/rounds/{number}/tables/{table}/result",
        "/api/tournaments/{slug}/rounds/{number}/status",
        "/api/tournaments/{slug}/players/{name}/drop",
        "/api/tournaments/{slug}/undo",
        "/api/tournaments/{slug}/final",
        "/api/tables/{slug}/{number}/{table}/unlock",
        "/api/tables/{slug}/{number}/{table}/dispute",
    ):
        assert path in paths, path
    assert not any(p.startswith(("/desk", "/p/", "/t/")) for p in paths)  # pages are not API
    assert client.get("/docs").status_code == 404  # no CDN-loaded Swagger UI


def test_wrong_login_and_logout(client: TestClient) -> None:
    token = csrf_of(client)
    bad = client.post("/api/login", json={"password": "nope"}, headers={"x-csrf-token": token})
    assert bad.status_code == 403
    headers = login(client)
    out = client.post("/api/logout", headers=headers)
    assert out.status_code == 200 and out.json()["director"] is False
    assert client.get("/api/tournaments/x/journal").status_code == 401


def test_a_round_through_the_api(client: TestClient) -> None:
    h = login(client)
    r = client.post(
        "/api/tournaments",
        json={"slug": "api", "name": "API cup", "ruleset": "bonn-2018", "seed": "s"},
        headers=h,
    )
    assert r.status_code == 201 and r.json()["min_players"] == 12
    csv = "name\n" + "\n".join(BONN_13) + "\n"
    r = client.post("/api/tournaments/api/players/import", json={"csv": csv}, headers=h)
    assert r.status_code == 201 and len(r.json()) == 13
    for name in BONN_13:
        r = client.post(f"/api/tournaments/api/players/{name}/checkin", json={}, headers=h)
        assert r.status_code == 200 and r.json()["checked_in"], name
    r = client.post(
        "/api/tournaments/api/rounds", json={"tables": [list(t) for t in BONN_TABLES]}, headers=h
    )
    assert r.status_code == 201 and [len(t["seats"]) for t in r.json()["tables"]] == [5, 4, 4]
    pins = client.get("/api/tournaments/api/rounds/1/pins").json()
    assert pins[1] == {
        "table": 2,
        "pin": table_pin(SECRET, "api", 1, 2),
        "url": "http://agon.test/t/api/r1/t2",
    }
    seat = client.get("/api/tournaments/api/seat", params={"name": "player f"}).json()
    assert seat == [
        {
            "player": "Player F",
            "round": 1,
            "table": 2,
            "seat": 1,
            "seats": 4,
            "wonder": None,
            "side": None,
            "left": "Player I",
            "right": "Player G",
            "start": True,
        }
    ]
    # the director enters tables 1 and 3
    for table in (1, 3):
        seats = BONN_TABLES[table - 1]
        body = {"results": [{"player": p, "vp": 40 + i, "coins": i} for i, p in enumerate(seats)]}
        r = client.post(
            f"/api/tournaments/api/rounds/1/tables/{table}/result", json=body, headers=h
        )
        assert r.status_code == 200 and r.json()["state"] == "pending"
        r = client.post(
            f"/api/tournaments/api/rounds/1/tables/{table}/confirm",
            json={"version": r.json()["version"]},
            headers=h,
        )
        assert r.json()["state"] == "confirmed"
    # table 2 from a phone, with its PIN
    with TestClient(client.app) as phone:
        ph = {"x-csrf-token": csrf_of(phone)}
        wrong = phone.post("/api/tables/api/1/2/unlock", json={"pin": "nope"}, headers=ph)
        assert wrong.status_code == 403
        r = phone.post("/api/tables/api/1/2/unlock", json={"pin": pins[1]["pin"]}, headers=ph)
        assert r.json()["tables"] == ["api/1/2"]
        body = {
            "results": [
                {
                    "player": p,
                    "vp": 45,
                    "coins": 3,
                    "breakdown": {"military": 5, "treasury": 2, "wonder": 10, "civilian": 28},
                }
                for p in BONN_TABLES[1]
            ]
        }
        r = phone.post("/api/tables/api/1/2/result", json=body, headers=ph)
        assert r.status_code == 200, r.text
        version = r.json()["version"]
        r = phone.post(
            "/api/tables/api/1/2/dispute",
            json={"player": "Player G", "reason": "recount", "version": version},
            headers=ph,
        )
        assert r.status_code == 201
        status = client.get("/api/tournaments/api/rounds/1/status").json()
        assert [s["status"] for s in status] == ["confirmed", "disputed", "confirmed"]
        r = phone.post(
            "/api/tables/api/1/2/confirm",
            json={"players": list(BONN_TABLES[1]), "version": version},
            headers=ph,
        )
        assert r.json()["state"] == "confirmed"
        nope = phone.post("/api/tournaments/api/rounds/1/close", headers=ph)
        assert nope.status_code == 401
    r = client.post("/api/tournaments/api/rounds/1/close", headers=h)
    assert r.status_code == 200 and r.json()["status"] == "closed"
    standings = client.get(
        "/api/tournaments/api/standings", headers={"accept-language": "it"}
    ).json()
    assert standings["rounds_played"] == 1 and len(standings["rows"]) == 13
    assert standings["rows"][0]["points"] == "6" and set(standings["rows"][0]["tiebreaks"]) == {
        "share",
        "vp",
        "coins",
    }
    assert "precede" in standings["rows"][1]["why"]  # the explanation, in Italian
    # undo the closing; the journal lists it
    r = client.post("/api/tournaments/api/undo", headers=h)
    assert r.json()["payload"]["action"] == "round.close"
    assert client.get("/api/tournaments/api/rounds/1").json()["status"] == "open"
    entries = client.get("/api/tournaments/api/journal").json()
    assert entries[-1]["action"] == "undo" and entries[-2]["undone"] is True


def test_errors_are_json_with_4xx(client: TestClient, db: Session, bonn: str) -> None:
    h = login(client)
    again = {"tables": [list(t) for t in BONN_TABLES]}
    r = client.post("/api/tournaments/bonn/rounds", json=again, headers=h)
    assert r.status_code == 409 and "round 1 is still open" in r.json()["detail"]
    r = client.post(
        "/api/tournaments/bonn/rounds/1/tables/1/result",
        json={"results": [{"player": "Nobody", "vp": 3}]},
        headers=h,
    )
    assert r.status_code == 422 and "not seated" in r.json()["detail"]
    play_round(db, bonn, 1, confirm=False)
    r = client.post(
        "/api/tournaments/bonn/rounds/1/tables/1/result",
        json={"results": [{"player": p, "vp": 1} for p in BONN_TABLES[0]]},
        headers=h,
    )
    assert r.status_code == 409 and "already has a result" in r.json()["detail"]
    r = client.post(
        "/api/tournaments/bonn/players/Player A/drop", json={"kind": "vanish"}, headers=h
    )
    assert r.status_code == 422
    assert client.get("/api/tournaments/bonn/final").status_code == 409
    r = client.post(
        "/api/tournaments/bonn/players/Player A/sanctions",
        json={"kind": "warning", "reason": "late"},
        headers=h,
    )
    assert r.json()["sanctions"][0]["kind"] == "warning"
    r = client.post(
        "/api/tournaments/bonn/rounds/1/clock", json={"action": "start", "minutes": 30}, headers=h
    )
    assert r.json()["state"] == "running" and r.json()["minutes"] == 30
    r = client.post("/api/tournaments/bonn/players/Player B/fee", json={"paid": True}, headers=h)
    assert r.json()["fee_paid"] is True
    r = client.post("/api/tournaments/bonn/players", json={"name": "Late"}, headers=h)
    r = client.post("/api/tournaments/bonn/players/Late/checkin", json={}, headers=h)
    assert r.status_code == 409 and "late entry" in r.json()["detail"]
    r = client.post("/api/tournaments/bonn/players/Late/checkin", json={"late": True}, headers=h)
    assert r.json()["late"] is True


def test_printouts_through_the_api(client: TestClient, db: Session, bonn: str) -> None:
    assert client.get("/api/tournaments/bonn/print/standings.pdf").status_code == 401
    login(client)
    pdf = client.get("/api/tournaments/bonn/rounds/1/print/table-cards.pdf?lang=it")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client.get("/api/tournaments/bonn/rounds/1/print/bogus.pdf").status_code == 422
    spec = client.get("/api/openapi.json").json()
    assert "/api/tournaments/{slug}/rounds/{number}/print/{kind}.pdf" in spec["paths"]
