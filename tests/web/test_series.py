"""The public series pages (issue 14): the standings of the series given to ``agon serve
--series`` with the reason for every place and each player's events, in de/it/en; hostile names
in the address answer 4xx, never 500."""

from __future__ import annotations

import html
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy.orm import Session

from agon.errors import InvalidInput
from agon.services import results, rounds
from agon.services.schemas import ResultIn
from agon.services.series import series_standings
from agon.web.app import create_app
from agon.web.routes.series import series_lines
from agon.web.settings import WebSettings, web_settings
from tests.web.conftest import BONN_TABLES, TestClient, make_bonn

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

SERIES = """name = "Circuito 2018"
best = 2
qualify = 3
points = [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]

[[events]]
file = "bonn-2018-sample.json"

[[events]]
file = "ludolimpico-2015-sample.json"
name = "Ludolimpico"

[[events]]
tournament = "bonn"
name = "Bonn live"
"""


@pytest.fixture
def series_file(tmp_path: Path) -> Path:
    for name in ("bonn-2018-sample.json", "ludolimpico-2015-sample.json"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    path = tmp_path / "Circuito 2018.toml"
    path.write_text(SERIES, encoding="utf-8")
    return path


@pytest.fixture
def series_app(settings: WebSettings, series_file: Path) -> Iterator[Any]:
    app = create_app(settings.replace(series_files=(str(series_file),)))
    with app.state.web.sessions() as s:
        make_bonn(s)
        rounds.start_round(s, tournament="bonn", actor="t", tables=[list(t) for t in BONN_TABLES])
        for number, seats in enumerate(BONN_TABLES, start=1):
            results.enter_result(
                s,
                tournament="bonn",
                round_number=1,
                table=number,
                results=[ResultIn(player=p, vp=40 + k, coins=k) for k, p in enumerate(seats)],
                actor="t",
            )
    yield app
    app.state.web.engine.dispose()


@pytest.fixture
def sclient(series_app: Any) -> Iterator[TestClient]:
    with TestClient(series_app) as c:
        yield c


def _standings(app: Any, path: Path, lang: str = "en") -> Any:
    with app.state.web.readers() as session:
        standings = series_standings(session, path=path)
        return standings, series_lines(standings, lang)


def test_series_page_shows_every_place_its_reason_and_the_players_events(
    sclient: TestClient, series_app: Any, series_file: Path
) -> None:
    page = sclient.get("/series/circuito-2018?lang=en")
    assert page.status_code == 200, page.text
    text = html.unescape(page.text)
    standings, lines = _standings(series_app, series_file)
    assert len(lines) == 13 + 9 + 13  # sample Bonn, sample Ludolimpico, the live tournament
    # every row in order, each with its reason and its events
    at = 0
    for line in lines:
        at = text.index(f"<summary>{line.player}", at)
        end = text.index("</tr>", at)
        row = text[at:end]
        assert line.reason in row
        for e in line.events:
            assert f"{e.label}" in row and f"place {e.place}: {e.points} pts." in row
            assert ("not counted" in row) or e.counted
    assert text.count('<span class="badge" title="qualified">Q</span>') == 3
    assert 'href="/p/bonn">Bonn live</a>' in text  # a stored tournament links to its page
    # reasons follow the series' rules
    assert lines[0].reason == "first: most counted points"
    decided = {row.decided_by for row in standings.rows[1:]}
    assert "points" in decided and decided <= {"points", "best-place", "events", "lot"}
    for row, line in zip(standings.rows[1:], lines[1:], strict=True):
        if row.decided_by == "lot":
            assert line.reason == "equal counted points; decided by lot drawn from the series' seed"
    # the live tournament counts as it stands: a new result changes the page
    with series_app.state.web.sessions() as s:
        results.confirm_result(s, tournament="bonn", round_number=1, table=1, actor="t")
    assert sclient.get("/series/circuito-2018").status_code == 200


def test_series_page_in_german_and_italian(sclient: TestClient) -> None:
    de = html.unescape(sclient.get("/series/circuito-2018?lang=de").text)
    assert "weniger gezählte Punkte" in de and "Platz 1:" in de
    it = html.unescape(sclient.get("/series/circuito-2018?lang=it").text)
    assert "meno punti conteggiati" in it and "posto 1:" in it
    listed = sclient.get("/series?lang=de")
    assert listed.status_code == 200 and 'href="/series/circuito-2018"' in listed.text
    assert 'href="/series"' in sclient.get("/").text


@pytest.mark.parametrize(
    "url",
    [
        "/series/nope",
        "/series/..%2F..%2Fetc%2Fpasswd",
        "/series/%00",
        "/series/%C3%A9t%C3%A9",
        "/series/" + "x" * 65,
        "/series/" + "9" * 5000,
        "/series/circuito-2018%20",
        "/series/CIRCUITO-2018",
        "/series/circuito-2018/extra",
        "/series/<script>",
    ],
)
def test_hostile_series_names_are_4xx(sclient: TestClient, url: str) -> None:
    response = sclient.get(url)
    assert 400 <= response.status_code < 500, (url, response.status_code)


def test_a_broken_event_or_missing_tournament_is_4xx_not_500(
    settings: WebSettings, series_file: Path
) -> None:
    app = create_app(settings.replace(series_files=(str(series_file),)))
    try:
        with TestClient(app) as client:
            missing = client.get("/series/circuito-2018?lang=en")  # no tournament "bonn" here
            assert missing.status_code == 404 and "bonn" in missing.text
            (series_file.parent / "bonn-2018-sample.json").write_text("{", encoding="utf-8")
            broken = client.get("/series/circuito-2018")
            assert broken.status_code == 422
    finally:
        app.state.web.engine.dispose()


def test_bad_series_files_stop_the_app_at_start(settings: WebSettings, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\npoints = []\n', encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"bad\.toml"):
        create_app(settings.replace(series_files=(str(bad),)))
    one = tmp_path / "a" / "s.toml"
    two = tmp_path / "b" / "s.toml"
    for path in (one, two):
        path.parent.mkdir()
        path.write_text(SERIES, encoding="utf-8")
    with pytest.raises(InvalidInput, match="also called 's'"):
        create_app(settings.replace(series_files=(str(one), str(two))))


def test_series_from_the_environment_and_serve(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, series_file: Path
) -> None:
    monkeypatch.setenv("AGON_SERIES", f"{series_file}:{tmp_path / 'other.toml'}")
    assert web_settings().series_files == (str(series_file), str(tmp_path / "other.toml"))
    import uvicorn

    from agon.web.cli import serve

    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.update(app=app))
    monkeypatch.delenv("AGON_SERIES")
    monkeypatch.setenv("AGON_DATABASE_URL", f"sqlite:///{tmp_path / 'agon.db'}")
    monkeypatch.setenv("AGON_DIRECTOR_PASSWORD", "x")
    result = CliRunner().invoke(serve, ["--series", str(series_file)])
    assert result.exit_code == 0, result.output
    assert "series: /series/circuito-2018" in result.output
    bad = CliRunner().invoke(serve, ["--series", str(tmp_path / "missing.toml")])
    assert bad.exit_code != 0 and "missing.toml" in str(bad.exception) + bad.output


def test_series_page_without_series(client: TestClient, db: Session) -> None:
    assert client.get("/series/anything").status_code == 404
    listed = client.get("/series?lang=en")
    assert listed.status_code == 200 and "No series is shown here yet." in listed.text
    assert 'href="/series"' not in client.get("/").text
