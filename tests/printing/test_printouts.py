"""Printouts: every one rendered to PDF in de/it/en and read back with pypdf; one page of each
rendered to PNG (saved under test-artifacts/printing/ to look at)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from agon.errors import InvalidInput
from agon.i18n import guild_ids, wonder_ids
from agon.printing import (
    TableLink,
    derive_pin,
    links_for,
    round_from_event,
    score_sheets_html,
    seating_by_name_html,
    seating_by_table_html,
    standings_html,
    table_cards_html,
    to_pdf,
)
from agon.printing.model import seats_of, table_guilds
from agon.tournament.event import Event, load_event
from agon.tournament.ruleset import Ruleset, load_ruleset
from agon.tournament.standings import compute_standings
from tests.cli_runner import run_agon
from tests.pdf_tools import read_pdf_text, render_first_page

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "printing"
EVIL = "<b>Eve</b> & <script>alert(1)</script>"
GUILDS = [
    "shipowners",
    "spies",
    "workers",
    "craftsmens",
    "traders",
    "philosophers",
    "strategists",
    "scientists",
    "magistrates",
    "builders",
]


def _result(player: str, vp: int, coins: int, side: str | None = None) -> dict[str, object]:
    out: dict[str, object] = {"player": player, "vp": vp, "coins": coins}
    if side:
        out["side"] = side
    return out


@pytest.fixture(scope="module")
def event_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Bonn-ruleset event with umlauts, accents, an apostrophe and a name full of HTML."""
    data = {
        "name": "Größte Weltwunder-Nacht & Co",
        "ruleset": "bonn-2018",
        "seed": "print-test",
        "date": "2026-11-22",
        "location": "Köln",
        "players": [
            "Jürgen Größe",
            "Zoë Ölmann",
            "Ärne Åberg",
            "Anna",
            "Ben",
            EVIL,
            "Çelik",
            "Şule Ünal",
            "Mattia D'Angelo",
        ],
        "rounds": [
            {
                "wonders": ["rhodos", "gizah", "babylon", "olympia", "ephesos"],
                "guilds": GUILDS,
                "tables": [
                    {
                        "results": [
                            _result("Jürgen Größe", 61, 3, "A"),
                            _result("Zoë Ölmann", 55, 7, "B"),
                            _result(EVIL, 48, 2, "A"),
                            _result("Anna", 50, 4, "B"),
                            _result("Ben", 39, 0, "A"),
                        ]
                    },
                    {
                        "results": [
                            _result("Ärne Åberg", 52, 5, "B"),
                            _result("Çelik", 47, 1, "A"),
                            _result("Şule Ünal", 57, 6, "A"),
                            _result("Mattia D'Angelo", 44, 9, "B"),
                        ]
                    },
                ],
            },
            {
                "tables": [
                    {
                        "results": [
                            _result("Ärne Åberg", 50, 1),
                            _result("Jürgen Größe", 50, 2),
                            _result("Şule Ünal", 45, 3),
                            _result("Ben", 41, 4),
                            _result("Mattia D'Angelo", 38, 5),
                        ]
                    },
                    {
                        "results": [
                            _result("Anna", 60, 0),
                            _result(EVIL, 58, 0),
                            _result("Zoë Ölmann", 49, 3),
                            _result("Çelik", 40, 2),
                        ]
                    },
                ],
            },
        ],
    }
    path = tmp_path_factory.mktemp("event") / "event.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def loaded(event_file: Path) -> tuple[Event, Ruleset]:
    return load_event(event_file)


def pdf_text(pdf: bytes, tmp_path: Path, name: str) -> str:
    """The PDF's text, read back with pypdf (pure Python: no poppler needed)."""
    (tmp_path / f"{name}.pdf").write_bytes(pdf)
    return read_pdf_text(pdf)


def flat(text: str) -> str:
    """The text without any whitespace: table cells wrap lines anywhere, even inside a word."""
    return "".join(text.split())


def save_png(pdf: bytes, name: str) -> Path:
    """Render page 1 to PNG with PDFium into the test artefacts; check the page is not blank."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.pdf").write_bytes(pdf)
    png = ARTIFACTS / f"{name}.png"
    render_first_page(pdf, png, dpi=50)
    with Image.open(png) as image:
        width, height = image.size
        assert abs(width - 413) <= 1 and abs(height - 585) <= 1  # A4 portrait at 50 dpi
        grey = image.convert("L")
        dark = sum(grey.histogram()[:128])
    assert 0.005 < dark / (width * height) < 0.5, f"{name}: page looks blank or black"
    return png


LANG_WORDS = {
    "en": {
        "title": "BONN-SPIELT 2018 (German championship qualifier)",
        "table": "Table 1",
        "round": "Round 1",
        "categories": [
            "Military conflicts",
            "Wonder",
            "Civilian structures",
            "Commercial structures",
            "Guilds",
            "Scientific structures",
        ],
        "signature": "Signature",
        "total": "Total (VP)",
        "coins": "Coins at the end",
        "rhodos_full": "The Colossus of Rhodes",
        "guild": "Shipowners Guild",
        "standings": "Standings after 2 rounds",
        "seating": "Seating for round 1",
    },
    "de": {
        "title": "BONN-SPIELT 2018 (Qualifikation zur Deutschen Meisterschaft)",
        "table": "Tisch 1",
        "round": "Runde 1",
        "categories": [
            "Militärische Konflikte",
            "Weltwunder",
            "Profanbauten",
            "Handelsgebäude",
            "Gilden",
            "Forschungsgebäude",
        ],
        "signature": "Unterschrift",
        "total": "Summe (SP)",
        "coins": "Münzen am Ende",
        "rhodos_full": "Der Koloss von Rhodos",
        "guild": "Gilde der Reeder",
        "standings": "Tabelle nach 2 Runden",
        "seating": "Sitzordnung Runde 1",
    },
    "it": {
        "title": "BONN-SPIELT 2018 (qualificazione al campionato tedesco)",
        "table": "Tavolo 1",
        "round": "Turno 1",
        "categories": [
            "Conflitti militari",
            "Meraviglia",
            "Edifici civili",
            "Edifici commerciali",
            "Gilde",
            "Edifici scientifici",
        ],
        "signature": "Firma",
        "total": "Totale (PV)",
        "coins": "Monete a fine partita",
        "rhodos_full": "Il Colosso di Rodi",
        "guild": "Gilda degli armatori",
        "standings": "Classifica dopo 2 turni",
        "seating": "Posti a sedere turno 1",
    },
}
PLAYERS = [
    "Jürgen Größe",
    "Zoë Ölmann",
    "Ärne Åberg",
    "Anna",
    "Ben",
    "Çelik",
    "Şule Ünal",
    "Mattia D'Angelo",
]
LANGS = ["en", "de", "it"]


def _render(kind: str, event: Event, ruleset: Ruleset, lang: str) -> str:
    plan = round_from_event(event, 1)
    makers: Mapping[str, Callable[[], str]] = {
        "standings": lambda: standings_html(event, compute_standings(event, ruleset), lang=lang),
        "seating-by-name": lambda: seating_by_name_html(event, ruleset, plan, lang=lang),
        "seating-by-table": lambda: seating_by_table_html(event, ruleset, plan, lang=lang),
        "table-cards": lambda: table_cards_html(event, ruleset, plan, lang=lang),
        "score-sheets": lambda: score_sheets_html(
            event,
            ruleset,
            plan,
            lang=lang,
            links={1: TableLink("https://agon.example/r1/t1", "4711")},
        ),
    }
    return makers[kind]()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "kind", ["standings", "seating-by-name", "seating-by-table", "table-cards", "score-sheets"]
)
def test_printout_in_every_language(
    kind: str, lang: str, loaded: tuple[Event, Ruleset], tmp_path: Path
) -> None:
    event, ruleset = loaded
    words = LANG_WORDS[lang]
    html = _render(kind, event, ruleset, lang)
    assert f'<html lang="{lang}">' in html
    assert "<script>" not in html and "&lt;script&gt;" in html  # names are escaped
    pdf = to_pdf(html)
    assert pdf.startswith(b"%PDF-")
    text = pdf_text(pdf, tmp_path, f"{kind}-{lang}")
    plain = flat(text)
    assert flat("Größte Weltwunder-Nacht & Co") in plain
    assert flat(words["title"]) in plain
    assert flat(EVIL) in plain  # printed as written, not interpreted
    for player in PLAYERS:
        if kind == "score-sheets" or kind == "table-cards":
            continue  # checked per table below
        assert flat(player) in plain, f"{player!r} missing from {kind}/{lang}"
    if kind == "score-sheets":
        pages = text.split("\f")
        assert len([p for p in pages if p.strip()]) == 2  # one page per table
        first = flat(pages[0])
        for player in ["Jürgen Größe", "Zoë Ölmann", EVIL, "Anna", "Ben"]:
            assert flat(player) in first
        assert "Çelik" not in first and "Çelik" in flat(pages[1])
        for label in [*words["categories"], words["signature"], words["total"], words["coins"]]:
            assert flat(label) in plain, f"{label!r} missing from score sheet ({lang})"
        assert flat(words["table"]) in first and flat(words["round"]) in first
        assert flat("https://agon.example/r1/t1") in first and "4711" in first
        assert flat("Rhodos A") in first or flat("Rodi A") in first
        assert flat(words["guild"]) in first  # the table's guilds (5 players -> first 7 drawn)
    if kind == "table-cards":
        pages = [flat(p) for p in text.split("\f") if p.strip()]
        assert len(pages) == 2
        assert flat(words["table"]) in pages[0] and flat(words["rhodos_full"]) in pages[0]
        assert flat("Jürgen Größe") in pages[0] and flat("Ärne Åberg") in pages[1]
        assert flat(words["guild"]) in pages[0]
    if kind == "standings":
        assert flat(words["standings"]) in plain
    if kind.startswith("seating"):
        assert flat(words["seating"]) in plain
    if lang == "de":
        save_png(pdf, f"{kind}-{lang}")


def test_seating_by_name_is_alphabetical_ignoring_accents(
    loaded: tuple[Event, Ruleset], tmp_path: Path
) -> None:
    event, ruleset = loaded
    html = seating_by_name_html(event, ruleset, round_from_event(event, 1), lang="de")
    text = flat(pdf_text(to_pdf(html), tmp_path, "by-name"))
    order = ["Anna", "Ärne Åberg", "Ben", "Çelik", "Jürgen Größe", "Mattia D'Angelo", "Şule Ünal"]
    positions = [text.index(flat(name)) for name in order]
    assert positions == sorted(positions), text
    assert text.index(flat("Şule Ünal")) < text.index(flat("Zoë Ölmann"))


def test_standings_show_decimal_comma_and_the_deciding_criterion(
    loaded: tuple[Event, Ruleset],
) -> None:
    event, ruleset = loaded
    standings = compute_standings(event, ruleset)
    html_de = standings_html(event, standings, lang="de")
    html_en = standings_html(event, standings, lang="en")
    # shares are printed with four decimals: a comma in German, a point in English
    assert re.search(r">0,\d{4}<", html_de) and re.search(r">0\.\d{4}<", html_en)
    decided = {row.decided_by for row in standings.rows if row.decided_by}
    assert decided  # something decided every place below the first
    for criterion in decided:
        from agon.i18n import criterion_label

        assert criterion_label(criterion, "de") in html_de


@dataclass(frozen=True, slots=True)
class _Table:
    seats: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Plan:
    """The seating contract's RoundPlan, rebuilt here: the printouts depend only on its shape."""

    number: int
    tables: tuple[_Table, ...]
    wonders: tuple[str, ...]
    guilds: tuple[str, ...]
    sides: Mapping[str, str] | None


def test_seats_follow_the_seating_contract() -> None:
    plan = _Plan(
        number=3,
        tables=(_Table(("A", "B", "C", "D", "E")), _Table(("F", "G", "H"))),
        wonders=("olympia", "rhodos", "gizah", "babylon", "ephesos"),
        guilds=tuple(GUILDS),
        sides={"olympia": "B", "rhodos": "A", "gizah": "A", "babylon": "B", "ephesos": "A"},
    )
    small = seats_of(plan, plan.tables[1])
    assert [(s.number, s.player, s.wonder, s.side) for s in small] == [
        (1, "F", "olympia", "B"),
        (2, "G", "rhodos", "A"),
        (3, "H", "gizah", "A"),
    ]
    assert small[0].is_start and not small[1].is_start
    assert table_guilds(plan, plan.tables[1]) == tuple(GUILDS[:5])  # 3 players + 2
    assert table_guilds(plan, plan.tables[0]) == tuple(GUILDS[:7])
    # auction rulesets: N+1 wonders go to bidders, seats do not map to wonders
    assert all(s.wonder is None for s in seats_of(plan, plan.tables[0], auction=True))
    # players choose sides: no side printed
    choose = _Plan(3, plan.tables, plan.wonders, plan.guilds, None)
    assert {s.side for s in seats_of(choose, choose.tables[0])} == {None}


def test_a_contract_round_plan_prints(tmp_path: Path) -> None:
    ruleset = load_ruleset("ludolimpico-2015")
    players = [f"Giocatore {i}" for i in range(1, 10)]
    event = Event(
        name="Ludolimpico prova", ruleset_ref="ludolimpico-2015", seed="s", players=(), rounds=()
    )
    plan = _Plan(
        number=1,
        tables=(_Table(tuple(players[:5])), _Table(tuple(players[5:]))),
        wonders=("rhodos", "gizah", "babylon", "olympia", "ephesos", "alexandria"),
        guilds=tuple(GUILDS),
        sides=None,
    )
    html = table_cards_html(event, ruleset, plan, lang="it")
    text = flat(pdf_text(to_pdf(html), tmp_path, "cards-it"))
    assert flat("all'asta") in text  # auction: the wonders are bid for
    assert flat("Meraviglie all'asta") in text and flat("Il Faro di Alessandria") in text
    assert flat("Giocatore 9") in text and flat("Tavolo 2") in text


def test_blank_qr_box_without_a_link(loaded: tuple[Event, Ruleset], tmp_path: Path) -> None:
    event, ruleset = loaded
    html = score_sheets_html(event, ruleset, round_from_event(event, 2), lang="en")
    assert "data:image/svg+xml" not in html
    text = flat(pdf_text(to_pdf(html), tmp_path, "blank"))
    assert flat("Table link (QR code)") in text and flat("PIN: ________") in text


def test_links_and_pins() -> None:
    plan = _Plan(2, (_Table(("a", "b", "c")), _Table(("d", "e", "f"))), (), (), None)
    links = links_for(plan, url_base="https://x.example/event/", seed="secret")
    assert links[1].url == "https://x.example/event/r2/t1"
    assert links[2].url == "https://x.example/event/r2/t2"
    assert re.fullmatch(r"\d{4}", links[1].pin)
    assert links[1].pin == derive_pin("secret", 2, 1)
    pins = {derive_pin("secret", r, t) for r in range(1, 6) for t in range(1, 9)}
    assert len(pins) > 30  # 40 tables: PINs differ (a few collisions among 10,000 are allowed)
    assert derive_pin("other", 2, 1) != derive_pin("secret", 2, 1) or derive_pin(
        "other", 2, 2
    ) != derive_pin("secret", 2, 2)
    with pytest.raises(InvalidInput, match="http"):
        links_for(plan, url_base="ftp://x", seed="s")


def test_qr_code_is_embedded_for_a_link(loaded: tuple[Event, Ruleset]) -> None:
    event, ruleset = loaded
    plan = round_from_event(event, 1)
    html = score_sheets_html(
        event,
        ruleset,
        plan,
        lang="de",
        links=links_for(plan, url_base="https://t.example", seed="k"),
    )
    assert html.count("data:image/svg+xml") == 2


def test_round_from_event_names_the_missing_round(loaded: tuple[Event, Ruleset]) -> None:
    event, _ = loaded
    with pytest.raises(InvalidInput, match=r"no round 3 \(the file has rounds 1 to 2\)"):
        round_from_event(event, 3)
    plan = round_from_event(event, 2)
    assert plan.number == 2 and plan.tables[1].seats[0] == "Anna"


def test_base_game_ids_match_the_seating_contract() -> None:
    assert set(wonder_ids()) == {
        "alexandria",
        "babylon",
        "ephesos",
        "gizah",
        "halikarnassos",
        "olympia",
        "rhodos",
    }
    assert set(guild_ids()) == set(GUILDS)


_agon = run_agon  # in process (tests/cli_runner.py): the same output and exit codes


def test_cli_print_commands(
    event_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from agon.cli import cli

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def run(*args: str) -> None:
        result = runner.invoke(cli, ["print", *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert result.output.startswith("wrote ")

    run("standings", str(event_file), "--lang", "de", "-o", "st.pdf")
    pdf = (tmp_path / "st.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    assert flat("Tabelle nach 2 Runden") in flat(pdf_text(pdf, tmp_path, "x"))
    run(
        "sheets", str(event_file), "--round", "2", "--lang", "it", "--html",
        "--url-base", "https://agon.example/e", "--seed", "s3cret",
    )  # fmt: skip
    html = (tmp_path / "score-sheets-round2.html").read_text(encoding="utf-8")
    assert "Foglietto segnapunti" in html and "https://agon.example/e/r2/t1" in html
    assert derive_pin("s3cret", 2, 1) in html
    for args in (["seating", "--by", "table"], ["seating"], ["cards"]):
        run(args[0], str(event_file), "--round", "1", *args[1:], "--html")
    assert (tmp_path / "seating-round1-by-table.html").exists()
    assert (tmp_path / "seating-round1-by-name.html").exists()
    assert (tmp_path / "table-cards-round1.html").exists()


def test_cli_errors_are_one_line_exit_2(event_file: Path, tmp_path: Path) -> None:
    proc = _agon("print", "sheets", str(event_file), "--round", "7", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "no round 7" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = _agon("print", "standings", str(event_file), "--lang", "fr", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_standings_explain_ties_on_points(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    event, ruleset = load_event(root / "examples" / "bonn-2018-sample.json")
    standings = compute_standings(event, ruleset)
    tied = [row for row in standings.rows if row.decided_by not in (None, "points")]
    assert tied  # the sample has places decided by a tie-break
    text = flat(pdf_text(to_pdf(standings_html(event, standings, lang="it")), tmp_path, "it"))
    assert flat("Parità di punti") in text
    for row in tied:
        assert flat(f"precede {row.player} (posizione {row.rank})") in text
    assert flat("erano pari: Punti Torneo") in text


def test_forty_players_by_name_fit_one_page(tmp_path: Path) -> None:
    players = [f"Spieler Nummer {i:02d} Ä" for i in range(39)]
    plan = _Plan(
        number=4,
        tables=tuple(_Table(tuple(players[i : i + 5])) for i in range(0, 39, 5)),
        wonders=("rhodos", "gizah", "babylon", "olympia", "ephesos"),
        guilds=tuple(GUILDS),
        sides=None,
    )
    event = Event(name="Big", ruleset_ref="bonn-2018", seed="s", players=(), rounds=())
    html = seating_by_name_html(event, load_ruleset("bonn-2018"), plan, lang="de")
    assert "halves-2" in html  # two halves side by side
    text = pdf_text(to_pdf(html), tmp_path, "forty")
    assert len([page for page in text.split("\f") if page.strip()]) == 1
    for name in players:
        assert flat(name) in flat(text)


def test_auction_score_sheet_has_bid_and_game_points(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    event, ruleset = load_event(root / "examples" / "ludolimpico-2015-sample.json")
    html = score_sheets_html(event, ruleset, round_from_event(event, 1), lang="it")
    text = flat(pdf_text(to_pdf(html), tmp_path, "ludo"))
    assert flat("Offerta (PV pagati nell'asta)") in text
    assert flat("Punti Partita (PV meno offerta)") in text
    assert flat("Ludolimpico 2015 (turni alla svizzera, asta delle meraviglie)") in text
