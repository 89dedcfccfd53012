"""The play pages for tournament tables: the side choice (Bonn 2018) as the game's first step on
the seat's page, hidden from the other seats and the spectator until everybody has chosen."""

from __future__ import annotations

import re

from agon.play.service import PlayService
from agon.play.store import SeatSpec
from tests.web.conftest import TestClient, form_token

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
    for url in (f"/play/{gid}?token={bea}", f"/play/{gid}/watch"):
        other = client.get(url + ("&" if "?" in url else "?") + "lang=en").text
        assert "Ann</span>: has chosen" in other
        assert "side B" not in other and "side not chosen yet" in other
