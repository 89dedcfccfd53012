"""The desk's confirmation step: round start and close, undo, drop/expel and the final are first
run as a dry run (services.preview.dry_run); the page shows what would change, and only its
button does it."""

from __future__ import annotations

import html
import re

from sqlalchemy.orm import Session

from agon.services import journal, players, rounds
from tests.web.conftest import TestClient, form_token, make_bonn
from tests.web.helpers import play_round


def _step(client: TestClient, url: str, data: dict[str, str], page: str) -> str:
    """Submit a desk form as the browser does; the confirmation page's text."""
    token = form_token(client.get(page).text)
    r = client.post(url, data={**data, "csrf_token": token})
    assert r.status_code == 200, r.text
    return r.text


def _confirm(client: TestClient, text: str) -> object:
    """Press the confirmation page's button: its form, its hidden fields."""
    form = re.search(
        r'<form method="post" action="([^"]+)" class="actions">(.*?)</form>', text, re.S
    )
    assert form is not None
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form[2]))
    return client.post(
        html.unescape(form[1]), data={k: html.unescape(v) for k, v in fields.items()}
    )


def _journal(db: Session, slug: str) -> list[str]:
    out = [e.action for e in journal.list_journal(db, tournament=slug)]
    db.rollback()
    return out


def test_start_and_close_are_shown_before_they_are_done(director: TestClient, db: Session) -> None:
    make_bonn(db, slug="b")
    before = _journal(db, "b")
    page = director.get("/desk/b").text
    assert 'action="/desk/b/confirm/start"' in page
    shown = _step(director, "/desk/b/confirm/start", {"mode": "auto"}, "/desk/b")
    assert "Start the round?" in shown and "Round 1 started" in shown
    seated = re.findall(r"<li>(Player [A-M])</li>", shown)
    assert sorted(seated) == sorted(f"Player {c}" for c in "ABCDEFGHIJKLM")
    assert "Nothing has been changed yet." in shown
    assert _journal(db, "b") == before  # nothing happened
    r = _confirm(director, shown)
    assert "Round 1 started." in r.text  # type: ignore[attr-defined]
    rnd = rounds.get_round(db, tournament="b", number=1)
    db.rollback()
    assert [n for t in rnd.tables for n in t.seats] == seated  # the seating shown is the one made
    play_round(db, "b", 1)
    shown = _step(director, "/desk/b/confirm/close", {"round": "1"}, "/desk/b/rounds/1")
    assert "Close the round?" in shown and "Round 1 closed" in shown
    assert rounds.get_round(db, tournament="b", number=1).status != "closed"
    db.rollback()
    r = _confirm(director, shown)
    assert "Round 1 closed." in r.text  # type: ignore[attr-defined]


def test_a_refused_change_is_refused_at_the_confirmation_step(
    director: TestClient, db: Session, bonn: str
) -> None:
    token = form_token(director.get("/desk/bonn/rounds/1").text)
    r = director.post("/desk/bonn/confirm/close", data={"round": "1", "csrf_token": token})
    assert r.status_code == 409 and "not every table is confirmed" in r.text
    r = director.post("/desk/bonn/confirm/nonsense", data={"csrf_token": token})
    assert r.status_code == 422


def test_undo_and_expel_ask_first(director: TestClient, db: Session, bonn: str) -> None:
    before = _journal(db, bonn)
    shown = _step(
        director,
        "/desk/bonn/confirm/drop",
        {"player": "Player A", "kind": "expel", "reason": "2.5"},
        "/desk/bonn",
    )
    assert "Change this player&#39;s status?" in shown and "Player A was expelled" in shown
    assert _journal(db, bonn) == before
    assert players.get_player(db, tournament=bonn, name="Player A").status == "active"
    db.rollback()
    _confirm(director, shown)
    assert players.get_player(db, tournament=bonn, name="Player A").status == "expelled"
    db.rollback()
    shown = _step(director, "/desk/bonn/confirm/undo", {}, "/desk/bonn")
    assert "Undo the last change?" in shown and "Undone: Player A was expelled" in shown
    german = _step(director, "/desk/bonn/confirm/undo?lang=de", {}, "/desk/bonn")
    assert "Was sich ändern würde" in html.unescape(german)
    assert _journal(db, bonn)[-1] == "player.drop"
    _confirm(director, shown)
    assert _journal(db, bonn)[-1] == "undo"


def test_the_final_is_shown_before_it_is_seated(director: TestClient, db: Session) -> None:
    names = tuple(f"P{i}" for i in range(10))
    make_bonn(db, slug="ludo", names=names, ruleset="ludolimpico-2015")
    for number in (1, 2, 3):
        rounds.start_round(
            db, tournament="ludo", actor="t", tables=[list(names[:5]), list(names[5:])]
        )
        play_round(db, "ludo", number, base=30 + number)
        rounds.close_round(db, tournament="ludo", number=number, actor="t")
    db.rollback()
    page = director.get("/desk/ludo").text
    absent = re.findall(r'name="absent:([^"]+)"', page)
    shown = _step(director, "/desk/ludo/confirm/final", {f"absent:{absent[0]}": "1"}, "/desk/ludo")
    assert "Start the final?" in shown and "The final started" in shown
    seated = re.findall(r"<li>(P\d)</li>", shown)
    assert len(seated) == 5 and absent[0] not in seated and absent[5] in seated
    r = _confirm(director, shown)
    assert "The final has started." in r.text  # type: ignore[attr-defined]
    final = rounds.get_round(db, tournament="ludo", number=4)
    db.rollback()
    assert list(final.tables[0].seats) == seated
