"""The public pages and printouts after a day with everything in it (issue 32, points 7-9, 12):
a player who withdrew during a game has no numbers but words (page, API, PDF); the round's
results show the tournament points of each game and the virtual player's score; the standings
and their PDF mark dropped players, late entries and the absent finalist; card costs read
"1 coin", "2 Münzen", "1 moneta"."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import markupsafe
import pytest
from sqlalchemy.orm import Session

from agon.games.seven_wonders import data as sw
from agon.i18n.marks import Mark, event_marks, mark_text
from agon.printing import render
from agon.services import exchange, players, results, rounds
from agon.services.schemas import PlayerCreate, ResultIn
from agon.store.db import Settings, make_engine, make_session_factory
from agon.tournament.event import parse_event
from agon.tournament.ruleset import load_ruleset
from agon.tournament.standings import compute_standings
from agon.web import printouts
from agon.web.playview import ocw_cost, sw_card, sw_cost
from agon.web.settings import WebSettings
from tests.pdf_tools import read_pdf_text
from tests.web.conftest import TestClient, make_bonn
from tests.web.helpers import play_round
from tests.web.test_table import open_table

LUDO = ("Daniela Ferri", "Bruno Rossi", "Carla Neri", "Dario Gallo", "Elena Riva", "Fabio Conte",
        "Gina Sala", "Ivo Lanza", "Lia Greco")  # fmt: skip
LATE = "Marta Villa"
WITHDREW = {"en": "withdrew during the game", "de": "während der Partie ausgestiegen",
            "it": "ritiro durante la partita"}  # fmt: skip


def ludo_day(db: Session) -> str:
    """Ludolimpico, 9 players: round 1 at tables of 5 and 4 (a virtual player at the second),
    Daniela withdraws during her game at table 1; after round 1 Marta checks in late and Ivo
    drops out; rounds 2 and 3; the final with the leader of the standings absent (returned)."""
    make_bonn(db, slug="ludo", names=LUDO, ruleset="ludolimpico-2015")
    rounds.start_round(db, tournament="ludo", actor="t", tables=[list(LUDO[:5]), list(LUDO[5:])])
    enter(db, 1, 1, list(LUDO[:5]), left=LUDO[0])
    enter(db, 1, 2, list(LUDO[5:]))
    rounds.close_round(db, tournament="ludo", number=1, actor="t")
    players.import_players(
        db, tournament="ludo", players=[PlayerCreate(name=LATE, fee_paid=True)], actor="t"
    )
    players.check_in(db, tournament="ludo", player=LATE, actor="t", late=True)
    players.drop_player(
        db, tournament="ludo", player="Ivo Lanza", kind="drop", reason="", actor="t"
    )
    for number in (2, 3):
        seated = [n for n in (*LUDO, LATE) if n != "Ivo Lanza"]
        rounds.start_round(
            db, tournament="ludo", actor="t", tables=[seated[:5], seated[5:]] if number == 2
            else [seated[4:], seated[:4]]
        )  # fmt: skip
        enter(db, number, 1, rounds.get_round(db, tournament="ludo", number=number).tables[0].seats)
        enter(db, number, 2, rounds.get_round(db, tournament="ludo", number=number).tables[1].seats)
        rounds.close_round(db, tournament="ludo", number=number, actor="t")
    absent = exchange.standings(db, tournament="ludo").rows[0].player
    rounds.start_final(db, tournament="ludo", actor="t", absent=[absent])
    db.rollback()
    return absent


def enter(
    db: Session,
    number: int,
    table: int,
    seats: list[str] | tuple[str, ...],
    left: str = "",
    *,
    confirm: bool = True,
) -> None:
    """Seat k scores 40 + 3k VP and k coins; ``left`` withdrew during the game."""
    results.enter_result(
        db,
        tournament="ludo",
        round_number=number,
        table=table,
        actor="t",
        results=[
            ResultIn(p, 0, left=True) if p == left else ResultIn(p, 40 + 3 * k, coins=k)
            for k, p in enumerate(seats)
        ],
    )
    if confirm:
        results.confirm_result(db, tournament="ludo", round_number=number, table=table, actor="t")


@pytest.fixture(scope="module")
def ludo_file(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A database holding the day of :func:`ludo_day`, played once per module (through the
    services, as every test played it for itself before); each test gets a copy of its own."""
    path = tmp_path_factory.mktemp("ludo") / "agon.db"
    shutil.copy(migrated_db, path)
    engine = make_engine(Settings(database_url=f"sqlite:///{path}"))
    try:
        with make_session_factory(engine)() as session:
            absent = ludo_day(session)
    finally:
        engine.dispose()  # the last connection: SQLite folds the WAL into the file
    assert not path.with_name("agon.db-wal").exists()
    return path, absent


@pytest.fixture
def settings(settings: WebSettings, request: pytest.FixtureRequest) -> WebSettings:
    """The test's database (a copy of its own, as in tests/web/conftest.py): the day of
    :func:`ludo_day` for the tests that ask for ``ludo``, else an empty one."""
    if "ludo" in request.fixturenames:
        played, _absent = request.getfixturevalue("ludo_file")
        shutil.copy(played, settings.database_url.removeprefix("sqlite:///"))
    return settings


@pytest.fixture
def ludo(settings: WebSettings, ludo_file: tuple[Path, str]) -> str:
    """The day of :func:`ludo_day` in the test's database; the name of the absent finalist."""
    return ludo_file[1]


def esc(text: str) -> str:
    """``text`` as the templates write it (Jinja's escaping)."""
    return str(markupsafe.escape(text))


def text_of(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_the_api_gives_no_numbers_for_a_player_who_withdrew(client: TestClient, ludo: str) -> None:
    """Point 7: ``vp`` and ``coins`` are null beside ``left: true`` (were 0 and 0)."""
    for url in ("/api/tournaments/ludo/rounds/1", "/api/tournaments/ludo/rounds/1/tables/1"):
        body = client.get(url).json()
        table = body["tables"][0] if "tables" in body else body
        seat = next(r for r in table["results"] if r["player"] == LUDO[0])
        assert (seat["left"], seat["vp"], seat["coins"]) == (True, None, None), url
        others = [r for r in table["results"] if r["player"] != LUDO[0]]
        assert all(isinstance(r["vp"], int) and not r["left"] for r in others)
    spec = client.get("/api/openapi.json").json()["components"]["schemas"]["ResultPublic"]
    assert {"type": "null"} in spec["properties"]["vp"]["anyOf"]


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_the_round_page_says_withdrew_instead_of_numbers(
    client: TestClient, ludo: str, lang: str
) -> None:
    """Point 7: "Daniela Ferri 0 0 3" becomes "Daniela Ferri — withdrew during the game"."""
    page = client.get(f"/p/ludo/rounds/1?lang={lang}").text
    row = re.search(r'<tr class="left">(.*?)</tr>', page, re.S)
    assert row is not None
    assert LUDO[0] in row.group(1) and WITHDREW[lang] in row.group(1)
    # no VP, no coins: the words span both columns; the auction's bid stays, no points
    assert re.findall(r"<td>([^<]*)</td>", row.group(1)) == ["0", "–"]
    assert re.search(r'<td colspan="2" class="withdrew">', row.group(1))


def test_the_round_page_shows_points_and_the_virtual_player(client: TestClient, ludo: str) -> None:
    """Point 9: each player's tournament points from the game, the virtual player's score at the
    table of four (Ludolimpico 4: the mean placing score of the four, rounded down)."""
    ruleset = load_ruleset("ludolimpico-2015")
    page = client.get("/p/ludo/rounds/1?lang=en").text
    cards = page.split('<section class="table-card')[1:]
    assert len(cards) == 2
    # table 2 (4 players): real placing scores 40, 43, 46, 49 -> virtual 44 (floor of 44.5)
    assert "Virtual player: 44 net VP, place 3" in text_of(cards[1])
    rows = re.findall(r'<td class="name">\d+\. ([^<]+)</td>(.*?)</tr>', cards[1], re.S)
    points = {name: re.findall(r"<td>([^<]*)</td>", cells)[-1] for name, cells in rows}
    # 10-7-5-3-1 (Ludolimpico 4); the virtual player's 5 points of place 3 are discarded
    assert ruleset.rank_points(5) == (10, 7, 5, 3, 1)
    assert points == {"Lia Greco": "10", "Ivo Lanza": "7", "Gina Sala": "3", "Fabio Conte": "1"}
    # table 1: Daniela withdrew, the four others scored without her seat
    assert "Virtual player" in text_of(cards[0])  # four real seats left: a virtual one again
    assert "Tournament points from this game" in page


def test_the_round_page_of_the_final_shows_places(
    client: TestClient, db: Session, ludo: str
) -> None:
    final = rounds.get_round(db, tournament="ludo")
    db.rollback()
    assert final.final
    page = client.get(f"/p/ludo/rounds/{final.number}?lang=en").text
    assert "Place in the final" in page  # no result yet: dashes, the column named


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_the_standings_mark_dropped_late_and_absent_players(
    client: TestClient, ludo: str, lang: str
) -> None:
    """Point 8: short words beside the name, the long sentence as title and in a legend."""
    page = client.get(f"/p/ludo?lang={lang}").text
    expected = {
        "Ivo Lanza": mark_text(Mark("dropped", 1), lang),
        LATE: mark_text(Mark("late", 2), lang),
        ludo: mark_text(Mark("absent-final"), lang),
    }
    for name, mark in expected.items():
        cell = re.search(rf'<td class="name">{re.escape(name)}(.*?)</td>', page, re.S)
        assert cell is not None, name
        assert f'title="{esc(mark.long)}">({esc(mark.short)})' in cell.group(1)
    legend = page.split('<ul class="legend')[1]
    assert all(esc(m.long) in legend for m in expected.values())
    plain = next(n for n in ("Carla Neri", "Dario Gallo") if n != ludo)
    cell = re.search(rf'<td class="name">{plain}(.*?)</td>', page, re.S)
    assert cell is not None and 'class="mark' not in cell.group(1)


@pytest.mark.parametrize("lang", ["de", "it"])
def test_the_standings_pdf_marks_them_too(db: Session, ludo: str, lang: str) -> None:
    """Point 8 (and 7) in the printout: the marks, a game left during play, and the legend."""
    page = printouts.standings_printout_html(db, tournament="ludo", lang=lang)
    for name, mark in (
        ("Ivo Lanza", Mark("dropped", 1)),
        (LATE, Mark("late", 2)),
        (ludo, Mark("absent-final")),
        (LUDO[0], Mark("left-game", 1)),
    ):
        text = mark_text(mark, lang)
        row = re.search(rf"<td>{re.escape(name)}(.*?)</td>", page, re.S)
        assert row is not None and esc(text.short) in row.group(1), name
        assert esc(text.long) in page.split('class="legend marks"')[1]


def test_the_pdf_of_an_event_file_marks_what_the_file_tells() -> None:
    """``agon print standings`` reads the marks from the players' registration (agon export)."""
    doc = {
        "name": "x",
        "ruleset": "bonn-2018",
        "seed": "s",
        "players": [
            {"name": n, "registration": reg}
            for n, reg in [
                ("A", {"status": "withdrawn", "status_round": 1}),
                ("B", {"late": True}),
                ("C", {}),
                ("D", {}),
            ]
        ],
        "rounds": [
            {"tables": [{"results": [{"player": p, "vp": 40 + k} for k, p in enumerate("ACD")]}]},
            {"tables": [{"results": [{"player": p, "vp": 40 + k} for k, p in enumerate("BCD")]}]},
        ],
    }
    event = parse_event(doc)
    assert event_marks(event.players, event.rounds) == {
        "A": [Mark("withdrawn", 1)],
        "B": [Mark("late", 2)],
    }
    out = render.standings_html(
        event, compute_standings(event, load_ruleset("bonn-2018")), lang="en"
    )
    assert "(withdrew after round 1)" in out and "(late entry (from round 2))" in out


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [("en", "1 coin", "2 coins"), ("de", "1 Münze", "2 Münzen"), ("it", "1 moneta", "2 monete")],
)
def test_card_costs_say_how_many_coins(lang: str, one: str, two: str) -> None:
    """Point 12: "Cost: 1×coins" becomes "1 coin" (the language's plural)."""
    assert [c["text"] for c in sw_cost((0,) * len(sw.RESOURCES), 1, lang)] == [one]
    assert [c["text"] for c in sw_cost((0,) * len(sw.RESOURCES), 2, lang)] == [two]
    assert [c["text"] for c in ocw_cost("$", lang) if c["res"] == "coin"] == [one]
    assert [c["text"] for c in ocw_cost("KK$$", lang) if c["res"] == "coin"] == [two]
    paid = [c for c in sw.cards() if c.coins]
    assert paid and all("×" not in x["text"] for c in paid for x in sw_card(c, lang)["cost"])


def test_the_table_page_says_withdrew_too(client: TestClient, db: Session) -> None:
    """The table's phone page shows the stored result the same way (no "None" for the absent
    numbers, an empty field to correct)."""
    make_bonn(db, slug="ludo", names=LUDO, ruleset="ludolimpico-2015")
    rounds.start_round(db, tournament="ludo", actor="t", tables=[list(LUDO[:5]), list(LUDO[5:])])
    enter(db, 1, 1, list(LUDO[:5]), left=LUDO[0], confirm=False)
    db.rollback()
    open_table(client, "ludo", 1, 1)
    text = client.get("/t/ludo/r1/t1?lang=en").text
    assert "None" not in text
    row = re.search(rf"<tr><td class=\"name\">1\. {LUDO[0]}</td>(.*?)</tr>", text, re.S)
    assert row is not None and WITHDREW["en"] in row.group(1)
    assert re.search(r'id="vp-1" name="vp-1" type="number" inputmode="numeric" value=""', text)


def test_the_api_standings_carry_the_marks(client: TestClient, ludo: str) -> None:
    """Point 8 in the API: each row's marks, in the language asked for."""
    rows = {
        r["player"]: r for r in client.get("/api/tournaments/ludo/standings?lang=de").json()["rows"]
    }
    assert [m["kind"] for m in rows["Ivo Lanza"]["marks"]] == ["dropped"]
    assert rows[LATE]["marks"][0]["short"] == mark_text(Mark("late", 2), "de").short
    assert [m["kind"] for m in rows[ludo]["marks"]] == ["absent-final"]
    plain = next(n for n in ("Carla Neri", "Dario Gallo") if n != ludo)
    assert rows[plain]["marks"] == []


def test_two_virtual_players_read_as_one_sentence(client: TestClient, db: Session) -> None:
    """Bonn 2018 fills a table of three with two virtual players (the exact mean): one line."""
    names = tuple(f"Spieler {c}" for c in "ABCDEFGHIJKLM")
    make_bonn(db, slug="bonn", names=names)
    tables = [list(names[:5]), list(names[5:10]), list(names[10:])]
    rounds.start_round(db, tournament="bonn", actor="t", tables=tables)
    play_round(db, "bonn", 1)  # table 3: 43, 46, 49 VP (seat k: 40 + 3k + 3) -> mean 46
    page = client.get("/p/bonn/rounds/1?lang=de").text
    cards = page.split('<section class="table-card')[1:]
    assert "virtual" not in cards[0] and "virtual" not in cards[1]  # full tables
    assert re.findall(r'<p class="muted virtual">([^<]*)</p>', cards[2]) == [
        "2 virtuelle Spieler: je 46 SP, Platz 2"
    ]


def test_the_standings_pdf_prints_the_marks(db: Session, ludo: str) -> None:
    """The PDF itself (WeasyPrint), not only its HTML: the marks and their legend are printed."""
    text = " ".join(
        read_pdf_text(printouts.standings_printout(db, tournament="ludo", lang="it")).split()
    )
    assert "(abbandono dopo il turno 1)" in text
    assert "(iscrizione tardiva (dal turno 2))" in text
    assert "(assenza in finale)" in text
    assert "(ritiro durante la partita (turno 1))" in text
    assert "Qualificazione alla finale, ma assenza" in text
