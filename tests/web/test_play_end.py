"""The end screen and the table's story on the seat and watch pages (issue 28): the winner and
the ranks first, the coin tie-break in words, the categories as a table, a bar chart (SVG with a
title and a description), the link to the replay; the last turn highlighted while the game runs."""

from __future__ import annotations

from typing import Any

import pytest

from agon.web import playgate
from agon.web.endview import end_screen, ranking
from tests.play.helpers import wait_until
from tests.web.conftest import TestClient
from tests.web.test_play_replay import create, play_out


def row(player: str, total: int, **cats: int) -> dict[str, Any]:
    base = dict.fromkeys(
        ("military", "coins", "wonder", "civilian", "commercial", "guilds", "science"), 0
    )
    return {"player": player, **base, **cats, "total": total}


def test_the_coins_break_a_tie_and_say_so() -> None:
    scores = [row("Ann", 40, civilian=40), row("Bo", 45, science=45), row("Cy", 40, wonder=40)]
    end = end_screen(scores, "en", "7w", coins=[3, 1, 7])
    assert end["winners"] == ["Bo"]
    assert [(r["rank"], r["name"]) for r in end["rows"]] == [(1, "Bo"), (2, "Cy"), (3, "Ann")]
    assert end["tie_breaks"] == [
        "Cy and Ann both have 40 points: Cy ranks ahead with more coins (7 to 3)."
    ]
    de = end_screen(scores, "de", "7w", coins=[3, 1, 7])
    assert "liegt mit mehr Münzen vorn" in de["tie_breaks"][0]


def test_equal_points_and_coins_share_a_rank() -> None:
    scores = [row("Ann", 40), row("Bo", 40), row("Cy", 30)]
    assert ranking(scores, [5, 5, 9], "7w") == [(1, 0), (1, 1), (3, 2)]
    end = end_screen(scores, "it", "7w", coins=[5, 5, 9])
    assert end["winners"] == ["Ann", "Bo"]
    assert "condividono la posizione" in end["tie_breaks"][0]


def test_the_chart_draws_every_category_of_every_player() -> None:
    scores = [row("Ann", 12, military=-2, civilian=6, science=8), row("Bo", 3, coins=3)]
    chart = end_screen(scores, "en", "7w", coins=[0, 9])["chart"]
    ann = next(b for b in chart["bars"] if b["name"] == "Ann")
    assert [p["key"] for p in ann["parts"]] == ["civilian", "science"]  # losses: in the table
    assert "Ann: 12" in chart["desc"] and "Bo: 3" in chart["desc"]


def test_the_seat_and_watch_pages_show_the_last_turn_then_the_end_screen(
    client: TestClient,
) -> None:
    data = create(client)
    gid, token = data["game_id"], data["seats"][0]["token"]
    first = client.get(f"/play/{gid}?token={token}&lang=en")
    assert "last-turn" not in first.text  # nothing was played yet
    state = client.get(f"/api/play/{gid}", params={"token": token}).json()
    r = client.post(
        f"/api/play/{gid}/act",
        json={"token": token, "action": state["legal"][0], "version": state["version"]},
    )
    assert r.status_code == 200
    wait_until(lambda: client.get(f"/api/play/{gid}").json()["view"]["turn"] == 2)
    for url in (f"/play/{gid}?token={token}&lang=en", f"/play/{gid}/watch?lang=en"):
        page = client.get(url).text
        assert 'class="last-turn"' in page and "Age I, turn 1" in page
        for name in ("Ann", "Bot 2 (random)", "Bot 3 (random)"):
            assert f"<li>{name} " in page  # what every seat did last turn
        assert "The table’s story" in page
    play_out(client, gid, token)
    end = client.get(f"/play/{gid}?token={token}&lang=en").text
    head = end.index('class="end"')
    assert end.index("Winner", head) < end.index('class="end-table"', head)  # the winner first
    assert end.count('class="rank-row') == 3
    assert 'role="img"' in end and "<desc" in end  # the chart, described
    assert f'href="/play/{gid}/replay"' in end
    assert "End of age III: military conflicts" in end
    watch = client.get(f"/play/{gid}/watch?lang=it").text
    assert "Punti per categoria" in watch and "Guarda il replay" in watch


def test_one_card_wonder_ranks_the_winner_first_then_by_wonders_completed() -> None:
    scores = [
        {"player": "Ann", "stages": 1, "buildings": 4, "coins": 2, "winner": False, "total": 0},
        {"player": "Bo", "stages": 2, "buildings": 1, "coins": 0, "winner": True, "total": 1},
        {"player": "Cy", "stages": 1, "buildings": 2, "coins": 5, "winner": False, "total": 0},
    ]
    end = end_screen(scores, "de", "ocw")
    assert end["winners"] == ["Bo"]
    assert [(r["rank"], r["name"]) for r in end["rows"]] == [(1, "Bo"), (2, "Ann"), (2, "Cy")]
    assert end["tie_breaks"] == [] and end["heads"][0]["label"] == "Vollendete Weltwunder"


def test_a_story_that_cannot_be_told_never_breaks_the_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object) -> None:
        raise RuntimeError("a story that does not replay")

    monkeypatch.setattr(playgate.STORIES, "get", broken)
    data = create(client)
    gid, token = data["game_id"], data["seats"][0]["token"]
    page = client.get(f"/play/{gid}?token={token}&lang=en")
    assert page.status_code == 200 and "pcard" in page.text and "last-turn" not in page.text
    assert client.get("/play/nosuchgame/watch").status_code == 404
