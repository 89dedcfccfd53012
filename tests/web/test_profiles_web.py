"""Player profiles on the web: the public player page (de/it/en) with its rating plot as an
accessible SVG and a table of the same numbers; a hidden profile is 404 for the public and not
linked from the series page; the desk links players (journaled, undoable); the API answers 4xx
for bad input, never 500."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from agon.services import profiles
from agon.web.settings import WebSettings
from tests.web.conftest import BONN_13, TestClient, csrf_of, form_token
from tests.web.helpers import play_round


@pytest.fixture
def played(db: Session, bonn: str) -> str:
    """Bonn with round 1 played and confirmed; Player A linked to profile ``anna``."""
    play_round(db, bonn, 1)
    made = profiles.create_profile(db, name="Anna", tag="Bonn")
    profiles.link_player(db, tournament=bonn, player=BONN_13[0], profile=made.id, actor="test")
    db.rollback()
    return made.id


@pytest.mark.parametrize(
    ("lang", "heading"),
    [
        ("en", "Rating history of Anna"),
        ("de", "Rating-Verlauf von Anna"),
        ("it", "Andamento del rating di Anna"),
    ],
)
def test_the_player_page_shows_events_places_and_the_rating_plot(
    client: TestClient, played: str, lang: str, heading: str
) -> None:
    r = client.get(f"/players/{played}?lang={lang}")
    assert r.status_code == 200
    page = r.text
    assert "<h1>Anna" in page and 'href="/p/bonn"' in page
    svg = re.search(r"<svg[^>]*rating[^>]*>|<svg class=\"chart\"[^>]*>", page)
    assert svg and 'role="img"' in svg.group(0) and "aria-labelledby" in svg.group(0)
    assert '<title id="plot-title">' in page and '<desc id="plot-desc">' in page
    points = re.findall(r'<polyline points="([^"]+)"', page)
    assert len(points) == 2 and all(len(p.split()) == 1 for p in points)  # one game so far
    assert page.count("<tr><td>1</td>") == 1  # the table fallback lists the game
    assert f">{heading}<" in page
    assert '<script src="http' not in page


def test_a_hidden_profile_is_404_for_the_public_and_not_linked(
    client: TestClient, director: TestClient, played: str, db: Session, tmp_path: Path
) -> None:
    profiles.set_hidden(db, profile=played, hidden=True)
    db.rollback()
    assert director.get(f"/players/{played}").status_code == 200  # the director still sees it
    director.post("/desk/logout", data={"csrf_token": csrf_of(director)})
    assert client.get(f"/players/{played}").status_code == 404
    assert client.get(f"/api/profiles/{played}").status_code == 404
    assert played not in [p["id"] for p in client.get("/api/profiles").json()]


def test_the_series_page_links_a_public_profile_only(
    settings: WebSettings, db: Session, played: str, tmp_path: Path
) -> None:
    from agon.web.app import create_app

    series = tmp_path / "circuit.toml"
    series.write_text('name = "C"\npoints = [5, 3, 1]\n[[events]]\ntournament = "bonn"\n')
    app = create_app(settings.replace(series_files=(str(series),)))
    with TestClient(app) as c:
        assert f'href="/players/{played}"' in c.get("/series/circuit").text
        profiles.set_hidden(db, profile=played, hidden=True)
        db.rollback()
        page = c.get("/series/circuit").text
        assert "Anna" in page or "Player A" in page
        assert "/players/" not in page
    app.state.web.engine.dispose()


def test_the_desk_links_suggests_and_undo_takes_a_link_back(
    director: TestClient, db: Session, bonn: str
) -> None:
    profiles.create_profile(db, name="Player A", tag="")
    db.rollback()
    page = director.get(f"/desk/{bonn}/profiles").text
    assert '<option value="player-a">Player A · 100%' in page
    token = form_token(page)
    r = director.post(
        f"/desk/{bonn}/profiles/link",
        data={"csrf_token": token, "player": "Player A", "profile": "player-a"},
    )
    assert r.status_code == 200 and 'href="/players/player-a"' in r.text
    r = director.post(
        f"/desk/{bonn}/profiles/new", data={"csrf_token": token, "player": "Player B"}
    )
    assert 'href="/players/player-b"' in r.text
    r = director.post(
        f"/desk/{bonn}/profiles/link",
        data={"csrf_token": token, "player": "Player C", "profile": "player-a"},
    )
    assert r.status_code == 409
    listed = director.get(f"/desk/{bonn}/journal?lang=de").text
    assert "Player A mit dem Spielerprofil player-a verknüpft" in listed
    journal = director.get(f"/api/tournaments/{bonn}/journal").json()
    assert [e["action"] for e in journal][-2:] == ["player.profile", "player.profile"]
    director.post(f"/api/tournaments/{bonn}/undo", headers={"X-CSRF-Token": csrf_of(director)})
    assert 'href="/players/player-b"' not in director.get(f"/desk/{bonn}/profiles").text


def test_the_api_links_and_refuses_bad_input_with_4xx(director: TestClient, bonn: str) -> None:
    h = {"X-CSRF-Token": csrf_of(director)}
    made = director.post("/api/profiles", json={"name": "Jan Müller", "tag": "Köln"}, headers=h)
    assert made.status_code == 201 and made.json()["id"] == "jan-muller"
    base = f"/api/tournaments/{bonn}/players/Player%20A"
    assert director.get(f"{base}/profile-suggestions").json() == []
    r = director.post(f"{base}/profile", json={"profile": "jan-muller"}, headers=h)
    assert r.status_code == 200 and r.json()["extra"]["profile"] == "jan-muller"
    r = director.post(f"{base}/profile/new", json={}, headers=h)
    assert r.status_code == 409
    r = director.post(f"{base}/profile", json={"profile": None}, headers=h)
    assert r.status_code == 200 and "profile" not in r.json()["extra"]
    for path, body in [
        (f"{base}/profile", {"profile": "Bad Id"}),
        (f"{base}/profile", {"profile": "nobody"}),
        (f"{base}/profile", {}),
        (f"/api/tournaments/{bonn}/players/Nobody/profile", {"profile": "jan-muller"}),
        ("/api/profiles", {"name": ""}),
        ("/api/profiles", {"name": "A\u202eB"}),
        ("/api/profiles/jan-muller/hidden", {"hidden": "maybe"}),
        ("/api/profiles/NO/hidden", {"hidden": True}),
    ]:
        r = director.post(path, json=body, headers=h)
        assert 400 <= r.status_code < 500, (path, body, r.status_code, r.text)
    assert director.get("/api/profiles/" + "x" * 65).status_code == 422
    assert director.get("/api/profiles/nobody").status_code == 404
    r = director.post("/api/profiles/jan-muller/hidden", json={"hidden": True}, headers=h)
    assert r.json()["hidden"] is True


def test_changes_need_the_director(client: TestClient, bonn: str) -> None:
    h = {"X-CSRF-Token": csrf_of(client)}
    assert client.post("/api/profiles", json={"name": "X"}, headers=h).status_code == 401
    r = client.post(
        f"/api/tournaments/{bonn}/players/Player%20A/profile", json={"profile": None}, headers=h
    )
    assert r.status_code == 401
    assert client.get(f"/desk/{bonn}/profiles").status_code in (401, 303, 200)
