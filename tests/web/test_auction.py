"""The wonder auction (Ludolimpico 2.1) on the table's phone and on the desk: who opened, whose
turn it is, the legal moves; each tap is a journal entry; a refusal keeps what was typed and is
shown in the page's language; a double tap records nothing twice."""

from __future__ import annotations

import html
import re

import pytest
from sqlalchemy.orm import Session

from agon.services import auctions, journal, results, rounds
from agon.services.auctions import AuctionView
from agon.web.security import table_pin
from tests.web.conftest import SECRET, TestClient, csrf_of, make_bonn

NAMES = tuple(f"P{i}" for i in range(8))
TABLE = "/t/ludo/r1/t1"


@pytest.fixture
def ludo(db: Session) -> str:
    """Ludolimpico 2015, 8 players, round 1 seated Swiss (two tables of four)."""
    make_bonn(db, slug="ludo", names=NAMES, ruleset="ludolimpico-2015")
    rounds.start_round(db, tournament="ludo", actor="test")
    db.rollback()
    return "ludo"


def view(db: Session, table: int = 1) -> AuctionView:
    db.expire_all()
    v = auctions.auction_view(db, tournament="ludo", round_number=1, table=table)
    db.rollback()
    assert v is not None
    return v


def unlock(client: TestClient, lang: str = "en") -> str:
    token = csrf_of(client)
    r = client.post(
        f"{TABLE}/pin?lang={lang}",
        data={"pin": table_pin(SECRET, "ludo", 1, 1), "csrf_token": token},
    )
    assert r.status_code == 200
    return token


def next_move(v: AuctionView) -> dict[str, str]:
    """Whoever is to act opens the first wonder left for 1 VP, raises once, or passes."""
    assert v.to_act is not None
    if v.opening:
        return {"player": v.to_act, "verb": "opens", "wonder": v.available[0], "bid": "1"}
    if v.lot_bid == 1 and v.to_act != v.lot_leader:
        return {"player": v.to_act, "verb": "raises", "bid": "2"}
    return {"player": v.to_act, "verb": "passes"}


def test_the_phone_runs_the_whole_auction(client: TestClient, db: Session, ludo: str) -> None:
    token = unlock(client)
    v = view(db)
    page = client.get(TABLE).text
    assert f"{v.opener} opens first (drawn)." in page and f"Turn: {v.opener}" in page
    assert "Open the next auction" in page and 'name="verb" value="opens"' in page
    assert "Enter the result" not in page  # the auction comes first
    taps = 0
    while not v.finished:
        move = next_move(v)
        r = client.post(
            f"{TABLE}/auction", data={**move, "seen": str(len(v.history)), "csrf_token": token}
        )
        assert r.status_code == 200 and "Recorded:" in r.text, html.unescape(r.text)[-800:]
        # the flash reads as a sentence, with the wonder's name, not the action's text form
        said = re.search(r"Recorded: \S+ (opens \w+ [AB] with 1 VP|raises to 2 VP|passes)", r.text)
        assert said, html.unescape(r.text)[:1500]
        taps += 1
        v = view(db)
        if not v.finished and not v.opening:
            # the page tells the lot, the leader and the minimum raise
            assert f"Raise to {v.minimum} VP or more, or pass." in r.text
    entries = [
        e for e in journal.list_journal(db, tournament="ludo") if e.action.startswith("table.")
    ]
    db.rollback()
    assert len(entries) == taps  # one journal entry per tap
    table = results.get_table(db, tournament="ludo", round_number=1, table=1)
    db.rollback()
    assert table.auction == v.history and len(v.won) == 4
    page = client.get(TABLE).text
    assert "The auction is over" in page and "Enter the result" in page
    for k, player in enumerate(table.seats, start=1):  # the bids won stand in the result form
        bid = next(b for p, _, b in v.won if p == player)
        assert re.search(rf'name="bid-{k}"[^>]*value="{bid}"', page)
    # the results take the wonders and bids won
    fields = {f"vp-{k}": str(40 + k) for k in range(1, 5)}
    r = client.post(f"{TABLE}/result", data={**fields, "csrf_token": token})
    assert r.status_code == 200 and "Result saved." in r.text
    entered = results.get_table(db, tournament="ludo", round_number=1, table=1)
    db.rollback()
    won = {p: (w, b) for p, w, b in v.won}
    assert {r.player: (r.wonder, r.bid) for r in entered.results} == won


def test_undo_takes_back_the_last_tap(director: TestClient, db: Session, ludo: str) -> None:
    v = view(db)
    move = next_move(v)
    token = csrf_of(director)
    r = director.post(
        "/desk/ludo/rounds/1/tables/1/auction/act", data={**move, "csrf_token": token}
    )
    assert r.status_code == 200 and len(view(db).history) == 1
    director.post("/desk/ludo/undo", data={"csrf_token": token})
    assert view(db).history == ()


def test_a_refusal_keeps_the_input_and_speaks_the_page_language(
    client: TestClient, db: Session, ludo: str
) -> None:
    token = unlock(client, "de")
    v = view(db)
    opener = v.opener
    other = next(p for p in v.players if p != opener)
    # out of turn: refused in German, names without doubled quotes
    r = client.post(
        f"{TABLE}/auction?lang=de",
        data={"player": other, "verb": "opens", "wonder": v.available[1], "bid": "3",
              "csrf_token": token},
    )  # fmt: skip
    text = html.unescape(r.text)
    assert r.status_code == 409
    assert f"{opener} ist an der Reihe, nicht {other}." in text and "''" not in text
    # the lot is opened for 2; a raise to 2 is too low: the typed bid stays in the field
    client.post(
        f"{TABLE}/auction",
        data={"player": opener, "verb": "opens", "wonder": v.available[0], "bid": "2",
              "csrf_token": token},
    )  # fmt: skip
    v = view(db)
    assert v.lot_bid == 2 and v.to_act is not None
    r = client.post(
        f"{TABLE}/auction?lang=it",
        data={"player": v.to_act, "verb": "raises", "bid": "2", "seen": "1", "csrf_token": token},
    )
    text = html.unescape(r.text)
    assert r.status_code == 409 and "Offerta troppo bassa" in text
    assert re.search(r'name="bid"[^>]*value="2"', text)
    assert view(db).history == v.history  # nothing recorded
    # a bid that is not a number: 422, kept as typed
    r = client.post(
        f"{TABLE}/auction",
        data={"player": v.to_act, "verb": "raises", "bid": "x7", "csrf_token": token},
    )
    assert r.status_code == 422 and 'value="x7"' in r.text and "x7" in r.text


def test_a_double_tap_records_once(client: TestClient, db: Session, ludo: str) -> None:
    token = unlock(client)
    v = view(db)
    move = {**next_move(v), "seen": "0", "csrf_token": token}
    first = client.post(f"{TABLE}/auction", data=move)
    second = client.post(f"{TABLE}/auction", data=move)
    assert first.status_code == 200 and second.status_code == 200
    assert len(view(db).history) == 1
    # a different action from the same stale page is refused, not recorded
    stale = client.post(
        f"{TABLE}/auction", data={**move, "player": v.players[-1], "verb": "passes"}
    )
    assert stale.status_code == 409 and "The auction moved on" in html.unescape(stale.text)


def test_desk_shows_opener_turn_and_keeps_the_typed_lines(
    director: TestClient, db: Session, ludo: str
) -> None:
    v = view(db)
    page = director.get("/desk/ludo/rounds/1").text
    assert f"{v.opener} opens first (drawn)." in page and f"{v.opener} to act" in page
    token = csrf_of(director)
    lines = f"{v.opener} opens {v.available[0]} 1\n{v.opener} raises 5"
    r = director.post(
        "/desk/ludo/rounds/1/tables/1/auction", data={"actions": lines, "csrf_token": token}
    )
    text = html.unescape(r.text)
    assert r.status_code == 409 and "raises 5</textarea>" in text
    assert "It is " in text and "''" not in text


def test_round_show_tells_the_opener_and_the_moves(db: Session, ludo: str) -> None:
    from agon.commands.round import describe_round

    v = view(db)
    rnd = rounds.get_round(db, tournament="ludo", number=1)
    out = describe_round(rnd, auctions={1: v})
    db.rollback()
    assert f"auction: {v.opener} opens first (drawn from the seed)" in out
    assert f"to act: {v.opener} opens: one of {', '.join(v.available)}, bid 0 or more" in out


def test_huge_numbers_in_an_auction_step_are_a_4xx(
    client: TestClient, director: TestClient, db: Session, ludo: str
) -> None:
    """A 5,000-digit page version (Python refuses to convert it) or a round number beyond 64 bits
    is refused with a 4xx on the phone and on the desk, and nothing is recorded."""
    token = unlock(client)
    move = {**next_move(view(db)), "seen": "9" * 5000, "csrf_token": token}
    r = client.post(f"{TABLE}/auction", data=move)
    assert 400 <= r.status_code < 500
    desk = csrf_of(director)
    r = director.post("/desk/ludo/rounds/1/tables/1/auction/act", data={**move, "csrf_token": desk})
    assert 400 <= r.status_code < 500
    r = director.post(
        f"/desk/ludo/rounds/{2**64}/tables/1/auction/act", data={**move, "csrf_token": desk}
    )
    assert 400 <= r.status_code < 500
    assert view(db).history == ()


def _auction_done(db: Session) -> tuple[str, ...]:
    """Table 1's auction, recorded; its seats."""
    from tests.web.test_desk import auction_script

    rnd = rounds.get_round(db, tournament="ludo", number=1)
    seats = rnd.tables[0].seats
    seed = "seed"  # make_bonn's
    results.record_auction(
        db,
        tournament="ludo",
        round_number=1,
        table=1,
        actions=auction_script(seats, rnd.wonders, seed, "round 1 table 1"),
        actor="t",
    )
    db.commit()
    return seats


def test_the_desk_saves_a_table_with_its_wonders_selected(
    director: TestClient, db: Session, ludo: str
) -> None:
    """After the auction the desk's form shows each player's wonder selected; saving it was
    refused ("Wonder 'rhodos' is not a whole number": the board's field was read as the score
    pad's wonder points)."""
    seats = _auction_done(db)
    page = director.get("/desk/ludo/rounds/1").text
    card = page.split('id="table-1"')[1].split('id="table-2"')[0]
    boards = re.findall(r'name="(board-\d)"[^>]*>.*?<option value="(\w+)" selected', card)
    assert len(boards) == len(seats)
    form = dict(boards) | {f"vp-{k}": str(40 + k) for k in range(1, len(seats) + 1)}
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    r = director.post("/desk/ludo/rounds/1/tables/1/result", data={**form, "csrf_token": token[1]})
    assert r.status_code == 200 and "Table 1 saved." in r.text
    table = results.get_table(db, tournament="ludo", round_number=1, table=1)
    db.rollback()
    assert [r.wonder for r in table.results] == [w for _, w in boards]


def test_the_phone_pad_takes_wonder_points_in_an_auction_ruleset(
    client: TestClient, db: Session, ludo: str
) -> None:
    """The score pad's wonder points (``wonder-k``) on a Ludolimpico phone were read as the
    wonder board ("won babylon in the auction, not 7")."""
    seats = _auction_done(db)
    token = unlock(client)
    pad = {"military-1": "6", "wonder-1": "7", "civilian-1": "20"}
    pad |= {f"vp-{k}": "40" for k in range(2, len(seats) + 1)}
    r = client.post(f"{TABLE}/result", data={**pad, "csrf_token": token})
    assert r.status_code == 200, r.text
    table = results.get_table(db, tournament="ludo", round_number=1, table=1)
    db.rollback()
    first = table.results[0]
    assert first.vp == 33 and first.breakdown is not None and first.breakdown["wonder"] == 7
    assert first.wonder is not None and first.wonder != "7"
