"""The play pages for tournament tables: the side choice (Bonn 2018) as the game's first step on
the seat's page, hidden from the other seats and the spectator until everybody has chosen."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from agon.play.service import PlayService
from agon.play.store import SeatSpec
from agon.services import floor, online
from tests.web.conftest import BONN_TABLES, TestClient, form_token, make_bonn

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)

FETCH = {"X-Requested-With": "fetch"}


def test_the_seat_page_offers_both_sides_and_hides_the_choice(client: TestClient) -> None:
    service: PlayService = client.app.state.play  # type: ignore[attr-defined]
    created = service.create_game(
        game="7w",
        seed="sides-page",
        seats=[SeatSpec("human", name=n) for n in ("Ann", "Bea", "Cid")],
        wonders=["Rhodos", "Gizah", "Ephesos"],
        choose_sides=True,
    )
    gid = created.game_id
    ann, bea = (created.seats[k].token or "" for k in (0, 1))
    for lang, title, button in (
        ("en", "Choose your wonder's side", "Play side B"),
        ("de", "Wähle die Seite deines Weltwunders", "Seite B spielen"),
        ("it", "Scegli il lato della tua meraviglia", "Gioca il lato B"),
    ):
        page = client.get(f"/play/{gid}?token={ann}&lang={lang}").text
        assert title in page.replace("&#39;", "'") and button in page
        assert 'value="side A"' in page and 'value="side B"' in page
    page = client.get(f"/play/{gid}?token={ann}&lang=en").text
    version = re.search(r'name="version" value="(\d+)"', page).group(1)  # type: ignore[union-attr]
    r = client.post(
        f"/play/{gid}/act",
        data={"csrf_token": form_token(page), "token": ann, "action": "side B", "version": version},
        headers=FETCH,
    )
    assert r.status_code == 200, r.text
    assert 'value="side B"' not in r.text and "Waiting for the other players." in r.text
    # Bea and the spectator see that Ann has chosen, not what
    for url in (f"/play/{gid}?token={bea}&lang=en", f"/play/{gid}/watch?lang=en"):
        other = client.get(url).text
        assert "Ann</span>: has chosen" in other
        city = re.search(r'<span class="pname">Ann</span></h3>(.*?)</section>', other, re.S)
        assert city and "side not chosen yet" in city.group(1) and "side B" not in city.group(1)
    assert "side B" not in client.get(f"/play/{gid}/watch?lang=en").text


def test_the_game_page_shows_the_round_clock_on_the_servers_time(
    client: TestClient, db: Session
) -> None:
    """A tournament table's game shows the time left on the round clock (the server's clock,
    driven here), and when the time is up; a game that is no table's shows no clock."""
    app = client.app  # type: ignore[attr-defined]
    make_bonn(db)
    seated = online.start_round_online(
        db,
        tournament="bonn",
        actor="test",
        tables=[list(t) for t in BONN_TABLES],
        host=app.state.online_host,
        now=T0,
    )
    floor.start_clock(db, tournament="bonn", round_number=1, minutes=50, actor="test", now=T0)
    db.rollback()
    game = seated.tables[0].game or ""
    links = online.seat_links(db, tournament="bonn", number=1)
    seat_url = links[(1, 0)]
    app.state.clock = lambda: T0 + timedelta(minutes=10, seconds=30)
    for lang, left in (("en", "Remaining"), ("de", "Verbleibend"), ("it", "Rimanente")):
        page = client.get(f"{seat_url}&lang={lang}").text
        assert 'data-remaining="2370"' in page and "39:30" in page and left in page
        assert 'data-state="running"' in page
    watch = client.get(f"/play/{game}/watch/board?lang=en").text
    assert "39:30" in watch  # the projector too
    app.state.clock = lambda: T0 + timedelta(minutes=51)
    over = client.get(f"{seat_url}&lang=en").text
    assert 'data-state="over"' in over and "Time is up." in over
    casual = client.post(
        "/api/play",
        json={"game": "7w", "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]},
    ).json()
    assert "Round clock" not in client.get(casual["seats"][0]["url"] + "&lang=en").text


def test_a_game_stopped_by_the_clock_says_it_ends_with_this_age(client: TestClient) -> None:
    service: PlayService = client.app.state.play  # type: ignore[attr-defined]
    created = service.create_game(
        game="7w", seed="stopped", seats=[SeatSpec("human", name=n) for n in ("Ann", "Bea", "Cid")]
    )
    url = created.seats[0].url or ""
    assert "ends with age" not in client.get(url + "&lang=en").text
    assert service.stop_after_age(created.game_id) == 1
    for lang, text in (
        ("en", "this game ends with age 1"),
        ("de", "diese Partie endet mit Zeitalter 1"),
        ("it", "questa partita finisce con l’era 1"),
    ):
        assert text in client.get(f"{url}&lang={lang}").text
