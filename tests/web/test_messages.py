"""What people read on the web: service errors in the page's language (message ids, not the
command line's English), no command-line options (``--version 216``), and a second tap on *Save*
that shows the saved result instead of an error."""

from __future__ import annotations

import html
import re

from sqlalchemy.orm import Session

from agon.errors import N_, AgonError, IllegalAction, Text
from agon.services import journal, results
from agon.web.templating import error_text, without_cli_hints
from tests.web.conftest import BONN_TABLES, TestClient, csrf_of, make_bonn
from tests.web.helpers import play_round
from tests.web.test_table import open_table

#: A command-line option as the CLI's messages quote it (not CSS's ``--fg`` or HTML's ``<!--``).
OPTION = re.compile(r"(?<![\w!-])--[a-z][a-z-]+")


def visible(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def test_an_error_renders_its_msgid_in_the_language_else_the_english_text() -> None:
    e = IllegalAction(
        "round 2 is closed already",
        msgid=N_("Round %(round)d is closed already."),
        params={"round": 2},
    )
    assert str(e) == "round 2 is closed already"  # the command line keeps its English line
    assert error_text(e, "de") == "Runde 2 ist schon geschlossen."
    assert error_text(e, "it") == "Il turno 2 è già chiuso."
    assert error_text(e, "en") == "Round 2 is closed already."
    # a parameter that is itself a catalogue text is translated with the message
    t = AgonError(
        "x",
        msgid=N_("%(player)s: %(field)s is missing."),
        params={"player": "Anna", "field": Text("Coins")},
    )
    assert error_text(t, "de") == "Anna: Münzen fehlt."
    # no msgid: the English text, without the command line's options
    plain = AgonError("table 1: already has a result (version 7); correct it with --version 7")
    assert error_text(plain, "de") == "table 1: already has a result (version 7)"
    assert without_cli_hints("needs 4 (create the tournament with --min-players to override)") == (
        "needs 4"
    )


def test_no_command_line_options_on_the_web(director: TestClient, db: Session) -> None:
    make_bonn(db, slug="few", names=("Anna", "Ben", "Cleo"))
    token = csrf_of(director)
    seen: list[str] = []
    # too few players to start (the CLI says: --min-players)
    r = director.post("/desk/few/rounds", data={"csrf_token": token})
    assert r.status_code == 409
    seen.append(r.text)
    # the same name twice (the CLI says: --tag)
    r = director.post("/desk/few/players", data={"name": "Anna", "csrf_token": token})
    assert r.status_code == 409 and "club or city" in visible(r.text)
    seen.append(r.text)
    # German page, same refusal
    r = director.post("/desk/few/players?lang=de", data={"name": "Anna", "csrf_token": token})
    assert "ist schon angemeldet" in visible(r.text)
    seen.append(r.text)
    # the API: a second result without a version (the CLI says: --version N)
    make_bonn(db, slug="bonn")
    from agon.services import rounds

    rounds.start_round(db, tournament="bonn", actor="t", tables=[list(t) for t in BONN_TABLES])
    db.rollback()
    play_round(db, "bonn", 1, confirm=False)
    h = {"X-CSRF-Token": token}
    body = {"results": [{"player": p, "vp": 1} for p in BONN_TABLES[0]]}
    r = director.post("/api/tournaments/bonn/rounds/1/tables/1/result", json=body, headers=h)
    assert r.status_code == 409 and "already has a result" in r.json()["detail"]
    seen.append(r.text)
    # a late check-in (the CLI says: --late)
    director.post("/desk/bonn/players", data={"name": "Late", "csrf_token": token})
    r = director.post("/api/tournaments/bonn/players/Late/checkin", json={}, headers=h)
    assert r.status_code == 409
    seen.append(r.text)
    for page in ("/desk/few", "/desk/bonn", "/desk/bonn/rounds/1", "/desk/bonn/journal"):
        seen.append(director.get(page).text)
    for text in seen:
        assert not OPTION.findall(visible(text)), visible(text)[:2000]


def test_a_double_tap_on_save_at_the_table_shows_the_saved_result(
    client: TestClient, db: Session, bonn: str
) -> None:
    token = open_table(client, bonn, 1, 2)
    fields = {f"vp-{k}": str(40 + k) for k in range(1, 5)} | {"version": "0"}
    first = client.post("/t/bonn/r1/t2/result", data={**fields, "csrf_token": token})
    second = client.post("/t/bonn/r1/t2/result", data={**fields, "csrf_token": token})
    assert first.status_code == 200 and second.status_code == 200
    assert "Result saved." in second.text and "That did not work" not in second.text
    entered = [e for e in journal.list_journal(db, tournament=bonn) if e.action == "result.enter"]
    db.rollback()
    assert len(entered) == 1  # the second tap recorded nothing
    # different numbers from the same stale form are still refused (someone else changed it)
    other = {**fields, "vp-1": "12", "csrf_token": token}
    r = client.post("/t/bonn/r1/t2/result", data=other)
    assert r.status_code == 409 and "changed meanwhile" in visible(r.text)
    table = results.get_table(db, tournament=bonn, round_number=1, table=2)
    db.rollback()
    assert [x.vp for x in table.results] == [41, 42, 43, 44]


def test_a_double_tap_on_save_at_the_desk(director: TestClient, db: Session, bonn: str) -> None:
    token = csrf_of(director)
    fields = {f"vp-{k}": str(40 + k) for k in range(1, 5)}
    form = {**fields, "version": "0", "confirm": "1", "csrf_token": token}
    first = director.post("/desk/bonn/rounds/1/tables/2/result", data=form)
    second = director.post("/desk/bonn/rounds/1/tables/2/result", data=form)
    assert first.status_code == 200 and second.status_code == 200
    assert "Table 2 saved." in second.text
    table = results.get_table(db, tournament=bonn, round_number=1, table=2)
    db.rollback()
    assert table.state == "confirmed"
