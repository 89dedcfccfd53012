"""Issue 10, defect 7: the public face shows names, seats, results and standings, nothing else.

A tournament is seeded with everything private a director records — CSV extras (e-mail, phone),
fees, a sanction's reason, an expulsion's reason, a dispute's reason, the table PINs — and every
route of the app (pages and API, read from its router) is requested without a login. No answer
may contain any of those strings, nor the private fields' names in JSON.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.routing import Route

from agon.services import players, registration, rounds, tournaments
from agon.services.schemas import TournamentCreate
from agon.web.security import table_pin
from tests.web.conftest import SECRET, TestClient, csrf_of
from tests.web.helpers import version_of

SLUG = "priv"
EMAIL = "anna.private@example.org"
PHONE = "+49 170 5550101"
SANCTION = "Sanktionsgrund-Q7"
EXPULSION = "Ausschlussgrund-Z9"
DISPUTE = "Streitgrund-K3"
#: The random seed foretells draws to come (wonders, seating by lot): the director's only.
SEED = "Saatgut-W4"
#: An online registrant's e-mail (issue 27): the desk's only; the public list shows names.
REGISTRANT_EMAIL = "kai.registrant@example.org"
NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gina", "Hans", "Ida", "Jan"]
#: Keys of the director's player record that must not appear in a public JSON answer.
PRIVATE_KEYS = {"extra", "fee_paid", "status_reason", "sanctions", "reason", "email", "phone"}


def seed(client: TestClient, db: Session) -> list[str]:
    """The private data, through the services and the table API; returns every secret string."""
    tournaments.create_tournament(
        db,
        data=TournamentCreate(
            slug=SLUG, name="Privacy cup", ruleset="bonn-2018", seed=SEED, min_players=8
        ),
        actor="test",
    )
    csv = "name,email,phone,fee_paid\n" + "".join(
        f"{n},{n.lower()}.private@example.org,{PHONE[:-2]}{i:02d},{'yes' if i % 2 else 'no'}\n"
        for i, n in enumerate(NAMES)
    )
    players.import_players(
        db, tournament=SLUG, players=players.parse_players_csv(csv), actor="test"
    )
    for name in NAMES:
        players.check_in(db, tournament=SLUG, player=name, actor="test")
    players.add_sanction(
        db, tournament=SLUG, player="Ben", kind="warning", reason=SANCTION, actor="test"
    )
    players.drop_player(
        db, tournament=SLUG, player="Jan", kind="expel", reason=EXPULSION, actor="test"
    )
    registration.open_registration(
        db, tournament=SLUG, capacity=20, deadline=None, fee_note="", actor="test"
    )
    registration.register(db, tournament=SLUG, name="Kai", email=REGISTRANT_EMAIL)
    rnd = rounds.start_round(db, tournament=SLUG, actor="test", tables=[NAMES[:5], NAMES[5:9]])
    db.rollback()
    # a result and a dispute at table 1, the way a phone makes them
    pin = table_pin(SECRET, SLUG, 1, 1)
    headers = {"x-csrf-token": csrf_of(client)}
    unlock = client.post(f"/api/tables/{SLUG}/1/1/unlock", json={"pin": pin}, headers=headers)
    assert unlock.status_code == 200
    body = {"results": [{"player": p, "vp": 40 + k, "coins": k} for k, p in enumerate(NAMES[:5])]}
    entered = client.post(f"/api/tables/{SLUG}/1/1/result", json=body, headers=headers)
    assert entered.status_code == 200, entered.text
    dispute = {"player": "Anna", "reason": DISPUTE, "version": entered.json()["version"]}
    assert client.post(f"/api/tables/{SLUG}/1/1/dispute", json=dispute, headers=headers).is_success
    pins = [table_pin(SECRET, SLUG, 1, t.number) for t in rnd.tables]
    return [EMAIL, PHONE, SANCTION, EXPULSION, DISPUTE, SECRET, SEED, REGISTRANT_EMAIL, *pins]


def fill(path: str) -> list[str]:
    """Concrete URLs for a route's path: every path parameter given a value of the seeded data."""
    values: dict[str, list[str]] = {
        "slug": [SLUG],
        "number": ["1"],
        "table": ["1", "2"],
        "name": ["Anna", "Jan"],
        "code": ["de"],
        "kind": ["score-sheets", "table-cards", "seating-by-name"],
        "game_id": ["NoSuchGame"],
        "game": ["7w", "ocw"],
        "step": ["start", "close", "undo", "drop", "final"],
        "token": ["no-such-login-link"],
        "org": ["club"],
        "profile": ["no-such-profile"],
    }
    urls = [path]
    for param in re.findall(r"{(\w+)(?::\w+)?}", path):
        assert param in values, f"no value for the path parameter {param!r} of {path}"
        urls = [
            re.sub(r"{" + param + r"(?::\w+)?}", value, url, count=1)
            for url in urls
            for value in values[param]
        ]
    return urls


def routes(app: Any) -> list[tuple[str, str]]:
    """(method, path) of every route: the app's own and those of each router it includes (pages
    and API), checked against the OpenAPI schema so that no API operation is left out."""
    from agon.web.routes import (
        api,
        desk,
        people,
        people_pages,
        play,
        play_replay,
        play_turns,
        profiles,
        public,
        registration,
        sync,
        table,
    )

    found: list[tuple[str, str]] = []
    every = [*app.routes, *api.router.routes, *public.router.routes, *play.router.routes]
    every += [*registration.router.routes, *registration.api_router.routes]
    every += [*people.router.routes, *people_pages.router.routes]
    every += [*profiles.api.routes, *profiles.pages.routes, *profiles.desk.routes]
    every += [*play_turns.router.routes, *play_replay.router.routes, *sync.router.routes]
    for route in [*every, *desk.router.routes, *table.router.routes]:
        if isinstance(route, Route) and route.methods:
            found += [(m, route.path) for m in sorted(route.methods) if m != "HEAD"]
    schema = app.openapi()["paths"]
    operations = {(m.upper(), p) for p, ops in schema.items() for m in ops}
    assert operations <= set(found)
    return found


def json_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in json_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in json_keys(v)}
    return set()


def check_public(r: Any, secrets: list[str], where: str) -> None:
    assert r.status_code < 500, where
    text = r.content.decode("utf-8", "replace")
    for secret in secrets:
        assert secret not in text, f"{where} shows {secret!r}"
    is_json = r.headers.get("content-type", "").startswith("application/json")
    if is_json and r.content and "/openapi.json" not in where:  # the schema names fields only
        leaked = json_keys(json.loads(r.content)) & PRIVATE_KEYS
        assert not leaked, f"{where} has the private fields {leaked}"


def test_no_public_route_shows_private_data(app: Any, db: Session) -> None:
    with TestClient(app) as phone:
        secrets = seed(phone, db)
    before = version_of(db, SLUG)
    requested = 0
    with TestClient(app, follow_redirects=False) as anon:
        token = csrf_of(anon)
        for method, path in routes(app):
            for url in fill(path):
                where = f"{method} {url}"
                if method == "GET":
                    for query in (
                        {},
                        {"name": "a", "player": "Anna", "fragment": "1", "lang": "de"},
                    ):
                        check_public(anon.get(url, params=query), secrets, where)
                        requested += 1
                    continue
                # a change without a login: refused, and its answer shows nothing private
                for kwargs in (
                    {"json": {}, "headers": {"x-csrf-token": token}},
                    {"data": {"csrf_token": token, "player": "Anna", "version": "1"}},
                ):
                    r = anon.request(method, url, **kwargs)  # type: ignore[arg-type]
                    check_public(r, secrets, where)
                    if url.endswith("/logout"):  # logging out needs no login
                        assert r.status_code in (200, 303, 403), where
                        continue
                    assert r.status_code in (303, 401, 403, 404, 409, 422), (where, r.status_code)
                    if r.status_code == 303:
                        assert r.headers["location"].startswith("/desk/login"), where
                    requested += 1
    assert version_of(db, SLUG) == before  # no refused request changed anything
    print(f"\nprivacy: {len(routes(app))} routes, {requested} requests without a login")
    assert requested > 100


def test_the_director_still_sees_everything(director: TestClient, db: Session) -> None:
    seed(director, db)
    full = director.get(f"/api/tournaments/{SLUG}/players").json()
    anna = next(p for p in full if p["name"] == "Anna")
    assert anna["extra"]["email"] == EMAIL and anna["fee_paid"] is False
    jan = next(p for p in full if p["name"] == "Jan")
    assert jan["status"] == "expelled" and jan["status_reason"] == EXPULSION
    status = director.get(f"/api/tournaments/{SLUG}/rounds/1/status").json()
    assert status[0]["disputes"][0]["reason"] == DISPUTE
    assert director.get(f"/api/tournaments/{SLUG}").json()["seed"] == SEED


@pytest.mark.parametrize("path", ["/api/tournaments/priv/players", "/api/tournaments/priv/journal"])
def test_player_records_need_the_director(client: TestClient, db: Session, path: str) -> None:
    seed(client, db)
    assert client.get(path).status_code == 401


def test_public_names_list(client: TestClient, db: Session) -> None:
    seed(client, db)
    names = client.get(f"/api/tournaments/{SLUG}/entrants").json()
    assert names == [{"name": n} for n in NAMES]
