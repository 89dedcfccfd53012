"""A finished tournament says so on the web, in the page's language: the winner, the podium and
the qualifiers, on the public standings and on the desk (issue 11); the standings caption counts
the closed rounds, says which round is under way (its entered results count) and that the final
is not counted."""

from __future__ import annotations

import html
import re

from sqlalchemy.orm import Session

from agon.services import results, rounds
from agon.services.schemas import ResultIn
from agon.tournament.auction import Auction
from tests.web.conftest import TestClient, make_bonn
from tests.web.helpers import play_round

LUDO = tuple(f"Giocatore {c}" for c in "ABCDEFGHIJ")


def visible(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _auction(seats: tuple[str, ...], wonders: tuple[str, ...], label: str) -> list[str]:
    actions: list[str] = []
    auction = Auction.replay(seats, wonders, [], seed="seed", label=label)
    while not auction.finished:
        who = auction.to_act
        actions.append(
            f"{who} opens {auction.available()[0]} 1" if auction.lot is None else f"{who} passes"
        )
        auction = Auction.replay(seats, wonders, actions, seed="seed", label=label)
    return actions


def _play_ludo_round(db: Session, number: int) -> None:
    rnd = rounds.get_round(db, tournament="ludo", number=number)
    for t in rnd.tables:
        label = f"round {number} table {t.number}"
        results.record_auction(
            db, tournament="ludo", round_number=number, table=t.number,
            actions=_auction(tuple(t.seats), tuple(rnd.wonders), label), actor="t",
        )  # fmt: skip
        results.enter_result(
            db, tournament="ludo", round_number=number, table=t.number, actor="t",
            results=[ResultIn(player=p, vp=60 - 3 * k, coins=k) for k, p in enumerate(t.seats)],
        )  # fmt: skip
        results.confirm_result(
            db, tournament="ludo", round_number=number, table=t.number, actor="t"
        )


def test_a_finished_bonn_event_names_winner_and_podium(
    client: TestClient, director: TestClient, db: Session
) -> None:
    make_bonn(db)
    for number in range(1, 5):
        rounds.start_round(db, tournament="bonn", actor="t")
        play_round(db, "bonn", number)
        page = visible(client.get("/p/bonn?lang=de").text)
        closed = "nach 1 Runde" if number == 2 else f"nach {number - 1} Runden"
        assert f"{closed}; Runde {number} läuft (ihre eingegebenen Ergebnisse zählen)" in page
        assert "Beendet" not in page
        rounds.close_round(db, tournament="bonn", number=number, actor="t")
        db.rollback()
    for url in ("/p/bonn?lang=de", "/desk/bonn?lang=de"):
        page = visible(client.get(url).text)
        assert url.startswith("/desk") or "nach 4 Runden" in page
        assert "Beendet" in page and "Turniersieg: Player " in page, url
        podium = re.findall(r"(\d)\. (Player \w) · ([\d,]+) Punkte", page)
        assert [p[0] for p in podium] == ["1", "2", "3"], page[:600]
        assert f"Turniersieg: {podium[0][1]}" in page
    rows = client.get("/p/bonn?lang=it").text
    assert "Concluso" in visible(rows) and "Vince:" in visible(rows)


def test_a_finished_ludolimpico_event_names_winner_podium_and_finalists(
    client: TestClient, director: TestClient, db: Session
) -> None:
    make_bonn(db, slug="ludo", names=LUDO, ruleset="ludolimpico-2015")
    for number in (1, 2, 3):
        rounds.start_round(db, tournament="ludo", actor="t")
        _play_ludo_round(db, number)
        rounds.close_round(db, tournament="ludo", number=number, actor="t")
    page = visible(client.get("/p/ludo?lang=it").text)
    assert "dopo 3 turni; la finale non è contata (la sua classifica decide il podio)" in page
    assert "Concluso" not in page
    final = rounds.start_final(db, tournament="ludo", actor="t", absent=[])
    _play_ludo_round(db, final.number)
    rounds.close_round(db, tournament="ludo", number=final.number, actor="t")
    db.rollback()
    finalists = rounds.get_round(db, tournament="ludo", number=4).tables[0].seats
    for url in ("/p/ludo?lang=it", "/desk/ludo?lang=it"):
        page = visible(client.get(url).text)
        assert "Concluso" in page, url
        # every finalist bid 1 for their wonder: net VP = VP − 1, seat k scored 60 − 3k
        assert f"Vince: {finalists[0]}" in page
        assert f"1. {finalists[0]} · 59 PV netti (60 PV − 1 offerta)" in page
        assert "In finale: " + ", ".join(finalists) in page
        # the final's whole ranking, once: places 4 and 5 too, no second "Finale" list
        assert f"5. {finalists[4]} · 47 PV netti (48 PV − 1 offerta)" in page
        assert page.count(f"1. {finalists[0]} ·") == 1
