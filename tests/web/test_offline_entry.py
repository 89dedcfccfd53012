"""The table page's entries with an idempotency key (issue 29): sent twice, made once; a queued
entry that finds the result changed becomes a dispute the desk shows with what the phone wanted;
the JSON answers of the phone's queue; the API's ``Idempotency-Key`` header."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from agon.services import journal, results
from agon.services.schemas import ResultIn
from tests.web.conftest import TestClient, csrf_of
from tests.web.test_api import login
from tests.web.test_table import open_table, version_on

JSON = {"Accept": "application/json"}


def sheet(base: int) -> dict[str, str]:
    return {f"vp-{k}": str(base + k) for k in range(1, 5)} | {
        f"coins-{k}": "1" for k in range(1, 5)
    }


def count(db: Session, slug: str, action: str) -> int:
    n = sum(1 for e in journal.list_journal(db, tournament=slug) if e.action == action)
    db.rollback()
    return n


def test_the_same_entry_sent_twice_is_made_once(client: TestClient, db: Session, bonn: str) -> None:
    token = open_table(client, bonn, 1, 2)
    key = str(uuid.uuid4())
    form = {**sheet(40), "csrf_token": token, "key": key, "queued": "1"}
    answers = [client.post("/t/bonn/r1/t2/result", data=form, headers=JSON) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert {a.json()["outcome"] for a in answers} == {"sent"}
    assert count(db, bonn, "result.enter") == 1
    # also as a header, from the page's form (a redirect to the page)
    version = version_on(client.get("/t/bonn/r1/t2").text)
    ckey = str(uuid.uuid4())
    for _ in range(2):
        r = client.post(
            "/t/bonn/r1/t2/confirm",
            data={"player": "Player F", "version": version, "csrf_token": token},
            headers={"Idempotency-Key": ckey},
        )
        assert r.status_code == 200 and "Confirmed: Player F" in r.text
    assert count(db, bonn, "result.confirm") == 1
    # a refusal in JSON: one translated line, 4xx
    bad = client.post(
        "/t/bonn/r1/t2/result",
        data={**sheet(40), "vp-1": "x", "csrf_token": token, "key": str(uuid.uuid4())},
        headers=JSON,
    )
    assert bad.status_code == 422 and bad.json()["outcome"] == "refused"
    worse = client.post(
        "/t/bonn/r1/t2/result",
        data={**sheet(50), "version": version, "csrf_token": token, "key": "no good"},
        headers=JSON,
    )
    assert worse.status_code == 422 and "key" in worse.json()["message"]


def test_a_queued_entry_after_another_phone_becomes_a_dispute(
    client: TestClient, director: TestClient, db: Session, bonn: str
) -> None:
    token = open_table(client, bonn, 1, 2)
    # another phone enters the first result while this one is offline
    results.enter_result(
        db,
        tournament=bonn,
        round_number=1,
        table=2,
        actor="other phone",
        results=results_of(db, bonn, 45),
    )
    form = {**sheet(60), "csrf_token": token, "key": str(uuid.uuid4()), "queued": "1"}
    r = client.post("/t/bonn/r1/t2/result", data=form, headers=JSON)
    assert r.status_code == 200 and r.json()["outcome"] == "dispute"
    assert "did not overwrite" in r.json()["message"]
    again = client.post("/t/bonn/r1/t2/result", data=form, headers=JSON)
    assert again.json() == r.json()
    assert count(db, bonn, "result.enter") == 1 and count(db, bonn, "dispute.open") == 1
    table = results.get_table(db, tournament=bonn, round_number=1, table=2)
    db.rollback()
    assert [x.vp for x in table.results] == [45 + k for k in range(1, 5)]
    desk = director.get("/desk/bonn/rounds/1").text
    assert "The phone wanted: Player F 61, Player G 62, Player H 63, Player I 64" in desk
    status = {s["table"]: s for s in client.get("/api/tournaments/bonn/rounds/1/status").json()}
    assert status[2]["status"] == "disputed"
    # the same, not queued (the phone was online): the refusal, no dispute
    online = client.post(
        "/t/bonn/r1/t2/result", data={**form, "key": str(uuid.uuid4()), "queued": ""}, headers=JSON
    )
    assert online.status_code == 409 and count(db, bonn, "dispute.open") == 1


def results_of(db: Session, slug: str, base: int) -> list[ResultIn]:
    seats = results.get_table(db, tournament=slug, round_number=1, table=2).seats
    return [ResultIn(n, base + k, coins=1) for k, n in enumerate(seats, start=1)]


def test_the_api_honours_the_idempotency_key(client: TestClient, db: Session, bonn: str) -> None:
    director = client
    seats = results.get_table(db, tournament=bonn, round_number=1, table=2).seats
    db.rollback()
    body = {"results": [{"player": n, "vp": 40 + k, "coins": 1} for k, n in enumerate(seats)]}
    headers = {"Idempotency-Key": str(uuid.uuid4()), **login(client)}
    url = "/api/tournaments/bonn/rounds/1/tables/2/result"
    first = director.post(url, json=body, headers=headers)
    again = director.post(url, json=body, headers=headers)
    assert first.status_code == again.status_code == 200, first.text
    assert first.json() == again.json()
    assert count(db, bonn, "result.enter") == 1
    bad = director.post(url, json=body, headers={**headers, "Idempotency-Key": "bad key!"})
    assert bad.status_code == 422


def test_the_service_worker_and_the_manifest_are_served(client: TestClient) -> None:
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.headers["content-type"]
    assert sw.headers["service-worker-allowed"] == "/" and "importScripts" in sw.text
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest.json()["display"] == "standalone"
    for asset in ("/static/queue.js", "/static/icon.svg"):
        assert client.get(asset).status_code == 200
    page = client.get("/p/none/seat")  # any page links the manifest and the queue's script
    assert 'rel="manifest"' in page.text and "/static/queue.js" in page.text


def test_a_queued_entry_for_a_locked_table_waits_for_the_pin(
    client: TestClient, db: Session, bonn: str
) -> None:
    """The phone's session lost the table (a new phone, the cookie gone): the queue gets a JSON
    refusal it keeps the entry for, nothing is written."""
    form = {**sheet(40), "csrf_token": csrf_of(client), "key": str(uuid.uuid4()), "queued": "1"}
    r = client.post("/t/bonn/r1/t2/result", data=form, headers=JSON)
    assert r.status_code == 403 and r.json()["outcome"] == "locked"
    c = client.post(
        "/t/bonn/r1/t2/confirm",
        data={"player": "Player F", "version": "1", "csrf_token": form["csrf_token"]},
        headers={**JSON, "Idempotency-Key": str(uuid.uuid4())},
    )
    assert c.status_code == 403 and c.json()["outcome"] == "locked"
    assert count(db, bonn, "result.enter") == 0
