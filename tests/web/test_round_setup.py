"""The desk's round page says per table which of the round's drawn guilds are in play (the first
players + 2) and which wonder (and drawn side) each seat plays (issue 32, 6.)."""

from __future__ import annotations

import html
import re

from sqlalchemy.orm import Session

from agon.i18n import guild_name, wonder_name
from agon.services import auctions, rounds
from tests.web.conftest import TestClient, make_bonn
from tests.web.test_auction import ludo as ludo  # the fixture


def card(page: str, table: int) -> str:
    """The table's card on the round page."""
    start = page.index(f'id="table-{table}"')
    return page[start : page.index("</section>", start)]


def guilds_in(card_html: str) -> list[str]:
    found = re.search(r'<p class="table-guilds"><strong>[^<]*</strong> ([^<]*)</p>', card_html)
    assert found, card_html[:2000]
    return found.group(1).split(", ")


def seats_in(card_html: str) -> list[tuple[str, str]]:
    return re.findall(
        r'<li><span class="name">([^<]*)</span>: (?:<span class="wonder">([^<]*)</span>)?',
        card_html,
    )


def test_each_table_names_its_guilds_and_each_seats_wonder(
    director: TestClient, db: Session
) -> None:
    make_bonn(db)  # 13 players: seated by the ruleset, with the round's draws
    rounds.start_round(db, tournament="bonn", actor="test")
    db.rollback()
    rnd = rounds.get_round(db, tournament="bonn", number=1)
    db.rollback()
    assert len(rnd.guilds) == 10 and [len(t.seats) for t in rnd.tables] == [5, 4, 4]
    for lang in ("de", "it"):
        page = html.unescape(director.get(f"/desk/bonn/rounds/1?lang={lang}").text)
        for table in rnd.tables:
            shown = card(page, table.number)
            n = len(table.seats)
            # a table of 5 plays the first 7 guilds drawn, a table of 4 the first 6
            assert guilds_in(shown) == [guild_name(g, lang) for g in rnd.guilds[: n + 2]]
            assert f"({n + 2})" in shown
            # seat k plays the k-th wonder drawn (Bonn: the players choose the side)
            assert seats_in(shown) == [
                (p, wonder_name(w, lang)) for p, w in zip(table.seats, rnd.wonders, strict=False)
            ]


def test_an_auction_table_shows_the_won_wonder_with_its_drawn_side(
    director: TestClient, db: Session, ludo: str
) -> None:
    rnd = rounds.get_round(db, tournament=ludo, number=1)
    db.rollback()
    assert rnd.sides
    page = html.unescape(director.get("/desk/ludo/rounds/1?lang=it").text)
    shown = card(page, 1)
    # before the auction nobody has a wonder yet: the seat says it comes from the auction
    assert seats_in(shown) == [(p, "") for p in rnd.tables[0].seats]
    assert "meraviglia dall'asta" in shown
    assert len(guilds_in(shown)) == len(rnd.tables[0].seats) + 2
    view = auctions.auction_view(db, tournament=ludo, round_number=1, table=1)
    db.rollback()
    assert view is not None and view.to_act is not None
    wonder = view.available[0]
    director.post(
        "/desk/ludo/rounds/1/tables/1/auction/act",
        data={"player": view.to_act, "verb": "opens", "wonder": wonder, "bid": "1",
              "seen": "0", "csrf_token": csrf(director)},
    )  # fmt: skip
    while True:  # the others pass until the lot is won
        now = auctions.auction_view(db, tournament=ludo, round_number=1, table=1)
        db.rollback()
        assert now is not None
        if now.won:
            break
        r = director.post(
            "/desk/ludo/rounds/1/tables/1/auction/act",
            data={"player": now.to_act or "", "verb": "passes",
                  "seen": str(len(now.history)), "csrf_token": csrf(director)},
        )  # fmt: skip
        assert r.status_code == 200
    page = html.unescape(director.get("/desk/ludo/rounds/1?lang=it").text)
    seats = dict(seats_in(card(page, 1)))
    assert seats[now.won[0][0]] == f"{wonder_name(now.won[0][1], 'it')} {rnd.sides[now.won[0][1]]}"
    assert (
        now.won[0][0] == view.to_act
        and seats[view.to_act] == f"{wonder_name(wonder, 'it')} {rnd.sides[wonder]}"
    )
    assert set(seats) == set(rnd.tables[0].seats)


def csrf(client: TestClient) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/desk/ludo/rounds/1").text)
    assert found
    return found.group(1)
