"""Refusals that come from the services (not from the web forms' own checks) reach German and
Italian pages in their language, without command-line hints (issue 11). Each was English before:
a round started with nobody checked in, a Bonn sheet without coins, a dispute without a reason,
a name with a control character, a bad line of a CSV import."""

from __future__ import annotations

import html
import re

from sqlalchemy.orm import Session

from agon.services import players, results, tournaments
from agon.services.schemas import PlayerCreate, ResultIn, TournamentCreate
from agon.web.security import table_pin
from tests.web.conftest import BONN_TABLES, SECRET, TestClient, csrf_of, form_token
from tests.web.test_form_messages import alert


def _no_cli_hint(page: str) -> None:
    assert "--" not in alert(page), alert(page)


def test_starting_with_nobody_checked_in_names_the_minimum(
    director: TestClient, db: Session
) -> None:
    tournaments.create_tournament(
        db,
        data=TournamentCreate(slug="leer", name="Leer", ruleset="bonn-2018", seed="s"),
        actor="t",
    )
    players.register_player(db, tournament="leer", data=PlayerCreate(name="Anna"), actor="t")
    db.rollback()
    token = csrf_of(director)
    r = director.post(
        "/desk/leer/confirm/start?lang=de", data={"mode": "auto", "csrf_token": token}
    )
    assert r.status_code == 409
    assert alert(r.text) == "Es ist niemand eingecheckt; mindestens 12 Spieler werden gebraucht."
    _no_cli_hint(r.text)
    players.check_in(db, tournament="leer", player="Anna", actor="t")
    db.rollback()
    r = director.post(
        "/desk/leer/confirm/start?lang=it", data={"mode": "auto", "csrf_token": token}
    )
    assert r.status_code == 409 and "almeno 12" in alert(r.text)
    _no_cli_hint(r.text)


def test_a_bonn_sheet_without_coins_is_refused_in_german(
    director: TestClient, db: Session, bonn: str
) -> None:
    token = form_token(director.get("/desk/bonn/rounds/1").text)
    data = {"csrf_token": token}
    for k in range(1, len(BONN_TABLES[1]) + 1):
        data[f"vp-{k}"] = str(40 + k)
        data[f"coins-{k}"] = "" if k == 2 else "3"
    r = director.post("/desk/bonn/rounds/1/tables/2/result?lang=de", data=data)
    assert r.status_code == 422
    # at the field it names, on the table's card (issue 32, 1.)
    at_field = re.search(
        r'<span class="field-error" id="coins-2-t2-error" role="alert">(.*?)</span>', r.text
    )
    assert at_field and html.unescape(at_field.group(1)) == (
        f"{BONN_TABLES[1][1]}: Auf dem Wertungsblatt fehlt „Münzen“ (die Regeln verlangen es "
        "auf jedem Blatt)."
    )


def test_a_dispute_without_a_reason_is_refused_in_italian(
    client: TestClient, db: Session, bonn: str
) -> None:
    seats = BONN_TABLES[0]
    entered = results.enter_result(
        db,
        tournament="bonn",
        round_number=1,
        table=1,
        results=[ResultIn(player=p, vp=40 + k, coins=k) for k, p in enumerate(seats)],
        actor="t",
    )
    db.rollback()
    token = form_token(client.get("/t/bonn/r1/t1").text)
    pin = table_pin(SECRET, "bonn", 1, 1)
    client.post("/t/bonn/r1/t1/pin", data={"pin": pin, "csrf_token": token})
    r = client.post(
        "/t/bonn/r1/t1/dispute?lang=it",
        data={
            "player": seats[0],
            "version": str(entered.version),
            "reason": "  ",
            "csrf_token": token,
        },
    )
    assert r.status_code == 422, alert(r.text)
    assert alert(r.text) == "Turno 1, tavolo 1: di' che cosa non va."


def test_bad_names_are_refused_in_the_pages_language(director: TestClient, db: Session) -> None:
    tournaments.create_tournament(
        db, data=TournamentCreate(slug="b", name="B", ruleset="bonn-2018", seed="s"), actor="t"
    )
    db.rollback()
    token = csrf_of(director)
    r = director.post("/desk/b/players?lang=it", data={"name": "Anna\x07", "csrf_token": token})
    assert r.status_code == 422
    assert alert(r.text) == (
        "Nome del giocatore contiene un carattere invisibile o di controllo (U+0007)."
    )
    r = director.post("/desk/b/players?lang=de", data={"name": "A" * 81, "csrf_token": token})
    assert alert(r.text) == "Spielername hat 81 Zeichen; höchstens 80 sind erlaubt."
    csv = "name,tag\nAnna,\nBen," + "x" * 90 + "\n"
    r = director.post("/desk/b/players/import?lang=de", data={"csv_text": csv, "csrf_token": token})
    assert r.status_code == 422
    assert alert(r.text) == "Zeile 3: Zusatz (tag) hat 90 Zeichen; höchstens 80 sind erlaubt."
    _no_cli_hint(r.text)
