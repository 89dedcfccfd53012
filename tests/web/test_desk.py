"""The director's desk: every form route, through the pages a director uses."""

from __future__ import annotations

import html
import re

from sqlalchemy.orm import Session

from agon.services import journal, players, results, rounds, tournaments
from agon.services.schemas import PlayerCreate, TournamentCreate, TournamentUpdate
from agon.web.security import table_pin
from tests.pdf_tools import read_pdf_text
from tests.web.conftest import BONN_13, BONN_TABLES, SECRET, TestClient, form_token, make_bonn
from tests.web.helpers import play_round


def post(client: TestClient, url: str, data: dict[str, str], page: str) -> object:
    """Submit a form the way the browser does: with the token of the page it sits on."""
    token = form_token(client.get(page).text)
    return client.post(url, data={**data, "csrf_token": token})


def test_desk_needs_login(client: TestClient, bonn: str) -> None:
    for url in (
        "/desk",
        "/desk/bonn",
        "/desk/bonn/rounds/1",
        "/desk/bonn/journal",
        "/desk/bonn/print/standings.pdf",
    ):
        r = client.get(url, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/desk/login"), url


def test_create_tournament_register_and_check_in(director: TestClient) -> None:
    r = post(
        director,
        "/desk/tournaments",
        {
            "slug": "cup",
            "name": "Cup 2026",
            "ruleset": "bonn-2018",
            "location": "Bonn",
            "seed": "s",
            "max_players": "60",
        },
        "/desk",
    )
    assert r.status_code == 200 and r.url.path == "/desk/cup" and "Tournament created." in r.text
    assert director.get("/api/tournaments/cup").json()["max_players"] == 60
    r = post(
        director,
        "/desk/cup/players",
        {"name": "Anna", "tag": "Köln", "check_in": "true"},
        "/desk/cup",
    )
    assert "Player registered: Anna (Köln)" in r.text
    csv = "name,tag\n" + "\n".join(f"P{i},Club" for i in range(12))
    r = post(director, "/desk/cup/players/import", {"csv_text": csv}, "/desk/cup")
    assert "Players registered: 12" in r.text
    r = post(director, "/desk/cup/players/checkin", {"player": "P0 (Club)"}, "/desk/cup")
    assert "Checked in: P0 (Club)" in r.text
    r = post(director, "/desk/cup/players/checkin-all", {}, "/desk/cup")
    assert "Checked in: 11" in r.text
    again = post(director, "/desk/cup/players", {"name": "Anna", "tag": "Köln"}, "/desk/cup")
    assert again.status_code == 409 and "registered already" in again.text
    bad = post(
        director,
        "/desk/tournaments",
        {"slug": "Bad Slug", "name": "x", "ruleset": "bonn-2018"},
        "/desk",
    )
    assert bad.status_code == 422 and "lower-case" in bad.text


def test_drop_and_sanction(director: TestClient, db: Session, bonn: str) -> None:
    r = post(
        director,
        "/desk/bonn/players/sanction",
        {"player": "Player A", "kind": "warning", "reason": "slow play"},
        "/desk/bonn",
    )
    assert "Recorded for Player A" in r.text and 'title="slow play"' in r.text
    r = post(
        director,
        "/desk/bonn/players/drop",
        {"player": "Player B", "kind": "withdraw", "reason": "ill"},
        "/desk/bonn",
    )
    assert "Status changed: Player B" in r.text and "withdrawn" in r.text
    status = {p.name: p.status for p in players.list_players(db, tournament=bonn)}
    db.rollback()
    assert status["Player B"] == "withdrawn" and status["Player A"] == "active"
    no_reason = post(
        director,
        "/desk/bonn/players/sanction",
        {"player": "Player A", "kind": "penalty", "reason": " "},
        "/desk/bonn",
    )
    assert no_reason.status_code == 422


def test_fee_for_rulesets_that_require_it(director: TestClient, db: Session) -> None:
    names = tuple(f"P{i}" for i in range(8))
    make_bonn(db, slug="ludo", names=names, ruleset="ludolimpico-2015")
    r = post(director, "/desk/ludo/players", {"name": "Late", "check_in": ""}, "/desk/ludo")
    assert "mark paid" in r.text
    refused = post(director, "/desk/ludo/players/checkin", {"player": "Late"}, "/desk/ludo")
    assert refused.status_code == 409 and "fee" in refused.text
    r = post(director, "/desk/ludo/players/fee", {"player": "Late", "paid": "true"}, "/desk/ludo")
    assert "Entry fee recorded: Late" in r.text


def test_run_a_round_by_hand(director: TestClient, db: Session) -> None:
    make_bonn(db)
    text = "\n".join("; ".join(t) for t in BONN_TABLES)
    r = post(director, "/desk/bonn/rounds", {"tables": text}, "/desk/bonn")
    assert r.url.path == "/desk/bonn/rounds/1" and "Round 1 started." in r.text
    assert r.text.count('class="pin"') == 3
    assert f'<span class="pin">{table_pin(SECRET, "bonn", 1, 2)}</span>' in r.text
    assert "http://agon.test/t/bonn/r1/t2" in r.text
    page = "/desk/bonn/rounds/1"
    # enter table 1, confirm for all at once (the signed paper sheet)
    fields = {f"vp-{k}": str(50 - k) for k in range(1, 6)} | {
        f"coins-{k}": "2" for k in range(1, 6)
    }
    r = post(director, "/desk/bonn/rounds/1/tables/1/result", fields | {"confirm": "1"}, page)
    assert "Table 1 saved." in r.text
    # table 2: entered, then corrected, then confirmed
    r = post(
        director,
        "/desk/bonn/rounds/1/tables/2/result",
        {f"vp-{k}": "40" for k in range(1, 5)} | {f"coins-{k}": "1" for k in range(1, 5)},
        page,
    )
    version = results.get_table(db, tournament="bonn", round_number=1, table=2).version
    db.rollback()
    fix = {f"vp-{k}": str(40 + k) for k in range(1, 5)} | {"version": str(version)}
    fix |= {f"coins-{k}": "1" for k in range(1, 5)}
    r = post(director, "/desk/bonn/rounds/1/tables/2/result", fix, page)
    assert "Table 2 saved." in r.text
    again = post(director, "/desk/bonn/rounds/1/tables/2/result", fix, page)  # a double tap
    assert again.status_code == 200 and "Table 2 saved." in again.text
    other = {f"vp-{k}": str(30 + k) for k in range(1, 5)} | {"version": str(version)}
    stale = post(director, "/desk/bonn/rounds/1/tables/2/result", other, page)  # the old version
    assert stale.status_code == 409 and "changed meanwhile" in stale.text
    early = post(director, "/desk/bonn/rounds/1/close", {}, page)
    assert early.status_code == 409 and "not every table is confirmed (2, 3)" in early.text
    version = results.get_table(db, tournament="bonn", round_number=1, table=2).version
    db.rollback()
    r = post(director, "/desk/bonn/rounds/1/tables/2/confirm", {"version": str(version)}, page)
    assert "Table 2 confirmed." in r.text
    missing = post(director, "/desk/bonn/rounds/1/tables/3/result", {"vp-1": "40"}, page)
    assert missing.status_code == 422 and "Player K: VP is missing." in html.unescape(missing.text)
    r = post(
        director,
        "/desk/bonn/rounds/1/tables/3/result",
        {f"vp-{k}": "45" for k in range(1, 5)}
        | {f"coins-{k}": "0" for k in range(1, 5)}
        | {"confirm": "1"},
        page,
    )
    status = director.get("/desk/bonn/rounds/1/status").text
    assert status.count("confirmed") >= 3
    r = post(director, "/desk/bonn/rounds/1/close", {}, page)
    assert "Round 1 closed." in r.text and "Start round 2" in r.text


def test_automatic_seating_goes_through_the_service(
    director: TestClient, bonn: str, db: Session
) -> None:
    play_round(db, bonn, 1)
    rounds.close_round(db, tournament=bonn, number=1, actor="t")
    db.rollback()
    r = post(director, "/desk/bonn/rounds", {"mode": "auto"}, "/desk/bonn")
    assert r.url.path == "/desk/bonn/rounds/2" and "Round 2 started." in r.text
    listed = rounds.list_rounds(db, tournament=bonn)
    db.rollback()
    assert sorted(n for t in listed[1].tables for n in t.seats) == sorted(BONN_13)
    assert sorted(len(t.seats) for t in listed[1].tables) == [4, 4, 5]


def test_undo_and_journal(director: TestClient, db: Session, bonn: str) -> None:
    post(director, "/desk/bonn/players", {"name": "Zoe", "check_in": "true"}, "/desk/bonn")
    page = director.get("/desk/bonn").text
    assert "Undo</button>" not in page  # the label carries the action
    assert "Undo: Zoe checked in late</button>" in page  # a sentence, not the action's id
    r = post(director, "/desk/bonn/undo", {}, "/desk/bonn")
    assert "Undone: Zoe checked in late" in r.text
    r = post(director, "/desk/bonn/undo", {}, "/desk/bonn")
    assert "Undone: Zoe registered" in r.text and ">Zoe<" not in r.text
    log = director.get("/desk/bonn/journal").text
    assert log.count("(undone)") == 2 and "director (web)" in log
    assert "Undone: Zoe checked in" in log and "player.checkin" not in log
    german = director.get("/desk/bonn/journal?lang=de").text
    assert "Rückgängig gemacht: Zoe als Nachmeldung eingecheckt" in html.unescape(german)
    assert [e.action for e in journal.list_journal(db, tournament=bonn)][-2:] == ["undo", "undo"]
    db.rollback()


def test_clock_controls(director: TestClient, bonn: str) -> None:
    page = "/desk/bonn/rounds/1"
    r = post(director, "/desk/bonn/rounds/1/clock", {"action": "start", "minutes": "30"}, page)
    assert (
        "Clock updated." in r.text and "Remaining: 30:00" in r.text
    ) or "Remaining: 29:5" in r.text
    r = post(director, "/desk/bonn/rounds/1/clock", {"action": "pause"}, page)
    assert "Paused" in r.text and ">Resume<" in r.text
    assert director.get("/api/tournaments/bonn/clock").json()["state"] == "paused"
    r = post(director, "/desk/bonn/rounds/1/clock", {"action": "pause"}, page)
    assert director.get("/api/tournaments/bonn/clock").json()["state"] == "running"
    bad = post(director, "/desk/bonn/rounds/1/clock", {"action": "start", "minutes": "0"}, page)
    assert bad.status_code == 422


def test_final_for_ludolimpico(director: TestClient, db: Session) -> None:
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
    assert "The best 5 of the standings play the final." in page
    absent = re.findall(r'name="absent:([^"]+)"', page)
    r = post(director, "/desk/ludo/final", {f"absent:{absent[0]}": "1"}, "/desk/ludo")
    assert "The final has started." in r.text and r.url.path == "/desk/ludo/rounds/4"
    final = rounds.get_round(db, tournament="ludo", number=4)
    db.rollback()
    assert (
        final.final and absent[0] not in final.tables[0].seats and len(final.tables[0].seats) == 5
    )
    fields = {f"vp-{k}": str(60 - k) for k in range(1, 6)} | {f"bid-{k}": "0" for k in range(1, 6)}
    post(
        director,
        "/desk/ludo/rounds/4/tables/1/result",
        fields | {"confirm": "1"},
        "/desk/ludo/rounds/4",
    )
    podium = director.get("/p/ludo").text
    assert "medal-gold" in podium and final.tables[0].seats[0] in podium
    assert director.get("/api/tournaments/ludo/final").json()["final"][0]["medal"] == "gold"


def test_printouts_are_pdfs(director: TestClient, db: Session, bonn: str) -> None:
    play_round(db, bonn, 1)
    lang = "de"
    italian = director.get("/desk/bonn/print/standings.pdf?lang=it")
    assert (
        italian.content.startswith(b"%PDF") and "-it.pdf" in italian.headers["content-disposition"]
    )
    for kind in ("seating-by-name", "seating-by-table", "table-cards"):
        r = director.get(f"/desk/bonn/print/r1/{kind}.pdf?lang={lang}")
        assert r.status_code == 200 and r.content.startswith(b"%PDF"), kind
        assert r.headers["content-type"] == "application/pdf"
    sheets = director.get(f"/desk/bonn/print/r1/score-sheets.pdf?lang={lang}")
    standings = director.get(f"/desk/bonn/print/standings.pdf?lang={lang}")
    assert sheets.content.startswith(b"%PDF") and standings.content.startswith(b"%PDF")
    assert director.get("/desk/bonn/print/r1/nonsense.pdf").status_code == 422
    flat = "".join(read_pdf_text(sheets.content).split())  # the URL wraps in its box
    assert f"PIN:{table_pin(SECRET, bonn, 1, 3)}" in flat
    assert "http://agon.test/t/bonn/r1/t3" in flat


def test_export_event_file(director: TestClient, db: Session, bonn: str) -> None:
    play_round(db, bonn, 1)
    doc = director.get("/desk/bonn/export.json").json()
    assert doc["ruleset"] == "bonn-2018" and len(doc["players"]) == 13
    assert len(doc["rounds"][0]["tables"]) == 3


def auction_script(
    seats: tuple[str, ...], wonders: tuple[str, ...], seed: str, label: str
) -> list[str]:
    """A complete, legal auction: whoever is to act opens the first wonder left for 1 VP, and the
    others pass (built with the domain's own Auction, so the test does not guess its rules)."""
    from agon.tournament.auction import Auction

    actions: list[str] = []
    auction = Auction.replay(seats, wonders, [], seed=seed, label=label)
    while not auction.finished:
        who = auction.to_act
        line = f"{who} opens {auction.available()[0]} 1" if auction.lot is None else f"{who} passes"
        actions.append(line)
        auction = Auction.replay(seats, wonders, actions, seed=seed, label=label)
    return actions


def test_auction_entry_fills_wonders_and_bids(director: TestClient, db: Session) -> None:
    names = tuple(f"P{i}" for i in range(8))
    make_bonn(db, slug="ludo", names=names, ruleset="ludolimpico-2015")
    r = post(director, "/desk/ludo/rounds", {"mode": "auto"}, "/desk/ludo")
    assert r.url.path == "/desk/ludo/rounds/1" and "Record the auction" in r.text
    rnd = rounds.get_round(db, tournament="ludo", number=1)
    db.rollback()
    table = rnd.tables[0]
    script = auction_script(table.seats, rnd.wonders, "seed", "round 1 table 1")
    page = "/desk/ludo/rounds/1"
    bad = post(director, "/desk/ludo/rounds/1/tables/1/auction", {"actions": script[0]}, page)
    assert bad.status_code == 409 and "not finished" in bad.text
    r = post(director, "/desk/ludo/rounds/1/tables/1/auction", {"actions": "\n".join(script)}, page)
    assert "Auction recorded at table 1." in r.text, html.unescape(
        r.text[r.text.index('role="alert"') :][:500]
    )
    fields = {f"vp-{k}": str(40 + k) for k in range(1, len(table.seats) + 1)}
    r = post(director, "/desk/ludo/rounds/1/tables/1/result", fields, page)
    assert "Table 1 saved." in r.text
    entered = results.get_table(db, tournament="ludo", round_number=1, table=1)
    db.rollback()
    assert all(x.wonder in rnd.wonders and x.bid == 1 for x in entered.results)
    assert all(x.side in ("A", "B") for x in entered.results)  # drawn once (Ludolimpico 2.)


def test_clock_uses_the_edited_round_minutes(director: TestClient, db: Session, bonn: str) -> None:
    """`tournament edit --round-minutes 45`: the desk, the projector and the API clock offer 45
    minutes before the clock is started (they used the ruleset's minutes before)."""
    tournaments.edit_tournament(
        db, slug=bonn, data=TournamentUpdate(round_minutes=45), actor="test"
    )
    db.commit()
    desk = director.get("/desk/bonn/rounds/1").text
    assert re.search(r'name="minutes"[^>]*value="45"', desk), "desk clock form"
    clock = director.get("/api/tournaments/bonn/clock").json()
    assert clock["minutes"] == 45 and clock["remaining_seconds"] == 45 * 60
    assert "45:00" in director.get("/p/bonn/clock").text
    tournaments.edit_tournament(
        db, slug=bonn, data=TournamentUpdate(clear_round_minutes=True), actor="test"
    )
    db.commit()
    assert director.get("/api/tournaments/bonn/clock").json()["minutes"] is None  # Bonn: no limit


def test_a_player_who_left_mid_game_from_the_desk(director: TestClient, db: Session) -> None:
    """Ludolimpico 2.5 at the desk: tick "left", leave VP and coins empty; the table is stored
    without a score for him and the public standings say why, in the page's language."""
    names = tuple(f"P{i}" for i in range(10))
    make_bonn(db, slug="ludo", names=names, ruleset="ludolimpico-2015")
    rounds.start_round(db, tournament="ludo", actor="t", tables=[list(names[:5]), list(names[5:])])
    db.rollback()
    page = "/desk/ludo/rounds/1"
    assert 'name="left-1"' in director.get(page).text
    scored = {f"vp-{k}": str(30 + k) for k in range(2, 6)}
    r = post(director, "/desk/ludo/rounds/1/tables/1/result", scored, page)
    assert r.status_code == 422 and "P0: VP is missing." in html.unescape(r.text)
    bad = post(
        director,
        "/desk/ludo/rounds/1/tables/1/result",
        scored | {"left-1": "1", "coins-1": "4"},
        page,
    )
    assert bad.status_code == 422 and "P0 left during the game and has no score." in html.unescape(
        bad.text
    )
    r = post(director, "/desk/ludo/rounds/1/tables/1/result", scored | {"left-1": "1"}, page)
    assert r.status_code == 200
    table = results.get_table(db, tournament="ludo", round_number=1, table=1)
    db.rollback()
    assert next((x.player, x.left, x.vp) for x in table.results) == ("P0", True, None)
    assert re.search(r'name="left-1" value="1" checked', director.get(page).text)
    again = post(director, "/desk/ludo/rounds/1/tables/1/result", scored | {"left-1": "1"}, page)
    assert again.status_code == 200  # a second tap on Save: the same result, no error
    german = html.unescape(director.get("/p/ludo?lang=de").text)
    assert "P0 hat Runde 1 (Tisch 1) während der Partie verlassen" in german
    assert "ohne diese Person gewertet (Ludolimpico 2015, 2.5 «Ritiro / Espulsione»)" in german
    assert "P0 left during round 1 (table 1)" in director.get("/p/ludo?lang=en").text


def test_check_in_everyone_leaves_the_unpaid_and_names_them(
    director: TestClient, db: Session
) -> None:
    """Ludolimpico wants the fee before check-in: "Check in everyone registered" checks in the
    paid and names the unpaid (it stopped halfway with an error page at the first unpaid)."""
    tournaments.create_tournament(
        db,
        data=TournamentCreate(slug="fee", name="Fee", ruleset="ludolimpico-2015", seed="s"),
        actor="t",
    )
    players.import_players(
        db,
        tournament="fee",
        players=[PlayerCreate(name=n, fee_paid=n != "Ada") for n in ("Ada", "Bo", "Cy")],
        actor="t",
    )
    db.commit()
    r = post(director, "/desk/fee/players/checkin-all", {}, "/desk/fee")
    assert r.status_code == 200
    assert "Checked in: 2; the entry fee is still due for: Ada" in r.text
    listed = {p.name: p.checked_in for p in players.list_players(db, tournament="fee")}
    db.rollback()
    assert listed == {"Ada": False, "Bo": True, "Cy": True}
