"""Regression tests for what the form fuzzer (tests/fuzz/test_form_routes.py) found: the lobby cut
names to 40 characters without a word, and several refusals reached German and Italian pages in
English (a path that does not exist, an expired form, a number field, an unknown player)."""

from __future__ import annotations

import html
import re

from sqlalchemy.orm import Session

from tests.web.conftest import TestClient, csrf_of, form_token, make_bonn


def alert(page: str) -> str:
    found = re.findall(r'<p class="flash error" role="alert">(.*?)</p>', page, re.DOTALL)
    assert len(found) == 1, found
    return html.unescape(found[0]).strip()


def lobby(client: TestClient, name: str) -> dict[str, str]:
    data = {"csrf_token": form_token(client.get("/play").text), "game": "7w", "seed": "s"}
    data |= {f"kind-{i}": "empty" for i in range(7)}
    return data | {
        "kind-0": "human",
        "name-0": name,
        "kind-1": "bot:random",
        "kind-2": "bot:random",
    }


def test_the_lobby_keeps_a_long_name_whole_and_refuses_a_longer_one(client: TestClient) -> None:
    name = "Maximiliane Theodora von und zu Hohenzollern-Sig"  # 48 characters
    r = client.post("/play?lang=de", data=lobby(client, name))
    assert r.status_code == 201 and name in html.unescape(r.text)
    too_long = "X" * 61
    r = client.post("/play?lang=de", data=lobby(client, too_long))
    assert r.status_code == 422
    assert alert(r.text) == "Platz 1: ein Name hat höchstens 60 Zeichen."
    assert f'value="{too_long}"' in r.text  # the form as typed, to shorten it


def test_the_lobby_refuses_an_unknown_game_in_the_pages_language(client: TestClient) -> None:
    data = lobby(client, "Anna") | {"game": "chess"}
    assert alert(client.post("/play?lang=it", data=data).text) == "Scegli un gioco dall'elenco."


def test_framework_errors_are_in_the_pages_language(client: TestClient) -> None:
    r = client.get("/no/such/page?lang=de")
    assert r.status_code == 404 and alert(r.text) == "Diese Seite gibt es nicht."
    r = client.post("/t/x/r1/t1/pin?lang=it", data={"pin": "1", "csrf_token": "forged"})
    assert r.status_code == 403
    assert alert(r.text) == "Questo modulo è scaduto: ricarica la pagina e invialo di nuovo."


def test_desk_refusals_are_in_the_pages_language(director: TestClient, db: Session) -> None:
    make_bonn(db)
    token = csrf_of(director)
    r = director.post(
        "/desk/bonn/players/fee?lang=de", data={"player": "Nobody", "csrf_token": token}
    )
    assert (
        r.status_code == 404 and alert(r.text) == "Nobody ist in diesem Turnier nicht angemeldet."
    )
    r = director.post(
        "/desk/bonn/confirm/close?lang=de", data={"round": "zwei", "csrf_token": token}
    )
    assert r.status_code == 422 and alert(r.text) == "Runde: „zwei“ ist keine ganze Zahl."
    r = director.post(
        "/desk/tournaments?lang=it",
        data={"slug": "bonn", "name": "B", "ruleset": "bonn-2018", "csrf_token": token},
    )
    assert r.status_code == 409 and alert(r.text) == "Esiste già un torneo «bonn»."
