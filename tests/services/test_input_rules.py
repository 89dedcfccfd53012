"""Issue 10, defects 4–6 in the services (SQLite and PostgreSQL): one name rule for every route,
numeric ranges (a ruleset may widen them), and extra fields a database could not store — each
refused with InvalidInput before anything is recorded."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy.orm import Session
from svc_helpers import journal_length, new_tournament, split, state

from agon.errors import InvalidInput
from agon.services import exchange, players, results, rounds, tournaments
from agon.services.schemas import PlayerCreate, ResultIn, TournamentCreate
from agon.tournament.auction import Auction

BAD_NAMES = [
    ("", "must not be empty"),
    ("   ", "must not be empty"),
    ("A" * 81, "81 characters, at most 80"),
    ("x" * 10_000, "10000 characters, at most 80"),
    ("Anna\x00", "control character U+0000"),
    ("Anna\nBen", "control character U+000A"),
    ("Anna\tBen", "control character U+0009"),
    ("Anna\u202eneB", "direction mark U+202E"),
    ("\u2066Anna\u2069", "direction mark U+2066"),
    ("Anna\u200f", "direction mark U+200F"),
    ("Anna\ud800", "lone surrogate U+D800"),
]


@pytest.fixture
def bonn(session: Session) -> list[str]:
    return new_tournament(session, "bonn", "bonn-2018", 12)


@pytest.mark.parametrize(("name", "message"), BAD_NAMES)
def test_every_registration_route_refuses_a_bad_name(
    session: Session, bonn: list[str], name: str, message: str
) -> None:
    before, entries = state(session, "bonn"), journal_length(session)
    with pytest.raises(InvalidInput, match=re.escape(message)):
        players.register_player(session, tournament="bonn", data=PlayerCreate(name), actor="d")
    with pytest.raises(InvalidInput, match=re.escape(message)):
        players.register_player(
            session, tournament="bonn", data=PlayerCreate("Anna", tag=name), actor="d"
        )
    with pytest.raises(InvalidInput, match=re.escape(message)):
        players.import_players(session, tournament="bonn", players=[PlayerCreate(name)], actor="d")
    if name.strip() and "\n" not in name:  # a CSV cell cannot hold a newline unquoted
        with pytest.raises(InvalidInput, match=f"line 2: .*{re.escape(message)}"):
            players.parse_players_csv(f"name\n{name}\n")
    with pytest.raises(InvalidInput, match=re.escape(message)):
        tournaments.create_tournament(
            session,
            data=TournamentCreate(slug="t2", name=name, ruleset="bonn-2018"),
            actor="d",
        )
    assert state(session, "bonn") == before and journal_length(session) == entries


def test_a_name_is_trimmed_and_may_have_80_characters(session: Session, bonn: list[str]) -> None:
    name = "Ä" * 78 + "ß😀"
    added = players.register_player(
        session, tournament="bonn", data=PlayerCreate(f"  {name}  "), actor="d"
    )
    assert added.name == name
    late = players.register_player(
        session, tournament="bonn", data=PlayerCreate("Zoë O'Brien-Ruiz", tag="Köln"), actor="d"
    )
    assert late.name == "Zoë O'Brien-Ruiz (Köln)"


def test_extra_fields_a_database_cannot_store_are_refused(
    session: Session, bonn: list[str]
) -> None:
    entries = journal_length(session)
    for extra, message in [
        ({"rating": float("nan")}, "not a number"),
        ({"rating": float("inf")}, "not a number"),
        ({"id": 2**63}, "too large"),
        ({"note": "\udcff"}, "lone surrogate"),
        ({"when": object()}, "not a plain value"),
    ]:
        with pytest.raises(InvalidInput, match=re.escape(message)):
            players.register_player(
                session, tournament="bonn", data=PlayerCreate("Eve", extra=extra), actor="d"
            )
    with pytest.raises(InvalidInput, match="reason: 501 characters"):
        players.add_sanction(
            session, tournament="bonn", player=bonn[0], kind="warning", reason="x" * 501, actor="d"
        )
    with pytest.raises(InvalidInput, match=r"round: .* out of range 1…10000"):
        players.add_sanction(
            session,
            tournament="bonn",
            player=bonn[0],
            kind="warning",
            reason="late",
            round_number=2**70,
            actor="d",
        )
    assert journal_length(session) == entries


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ("vp=501", "field 'vp': 501 is out of range -100…500"),
        ("vp=-101", "field 'vp': -101 is out of range -100…500"),
        ("vp=9223372036854775808", "field 'vp': 9223372036854775808 is out of range"),
        ("vp=10,coins=501", "field 'coins': 501 is out of range 0…500"),
    ],
)
def test_results_out_of_range_are_refused(
    session: Session, bonn: list[str], result: str, message: str
) -> None:
    tables = split(bonn, (4, 4, 4))
    rounds.start_round(session, tournament="bonn", actor="d", tables=tables)
    before, entries = state(session, "bonn"), journal_length(session)
    vp_text, _, rest = result.partition(",")
    entered = [ResultIn.parse(f"{tables[0][0]}={vp_text[3:]}" + (f",{rest}" if rest else ""))]
    entered += [ResultIn(p, 10) for p in tables[0][1:]]
    with pytest.raises(InvalidInput, match=re.escape(message)):
        results.enter_result(
            session, tournament="bonn", round_number=1, table=1, results=entered, actor="d"
        )
    assert state(session, "bonn") == before and journal_length(session) == entries


@pytest.mark.parametrize(("round_number", "table"), [(10_001, 1), (1, 2**64), (0, 1), (1, -1)])
def test_round_and_table_numbers_are_1_to_10000(
    session: Session, bonn: list[str], round_number: int, table: int
) -> None:
    with pytest.raises(InvalidInput, match=r"(round|table): .* out of range 1…10000"):
        results.enter_result(
            session,
            tournament="bonn",
            round_number=round_number,
            table=table,
            results=[ResultIn(bonn[0], 1)],
            actor="d",
        )
    with pytest.raises(InvalidInput, match="out of range 1…10000"):
        results.confirm_result(
            session, tournament="bonn", round_number=round_number, table=table, actor="d"
        )


def test_auction_bids_above_100_are_refused(session: Session) -> None:
    new_tournament(session, "ludo", "ludolimpico-2015", 8)
    rnd = rounds.start_round(session, tournament="ludo", actor="d")
    table = rnd.tables[0]
    auction = Auction.replay(
        table.seats, rnd.wonders, [], seed="seed-ludo", label="round 1 table 1"
    )
    opener = f"{auction.to_act} opens {auction.available()[0]} 101"
    entries = journal_length(session)
    with pytest.raises(InvalidInput, match="field 'bid': 101 is out of range 0…100"):
        results.record_auction(
            session, tournament="ludo", round_number=1, table=1, actions=[opener], actor="d"
        )
    assert journal_length(session) == entries


def test_a_ruleset_may_widen_the_ranges(session: Session, tmp_path: Path) -> None:
    base = (Path(__file__).parents[2] / "src/agon/tournament/rulesets/bonn-2018.toml").read_text(
        encoding="utf-8"
    )
    wide = tmp_path / "wide.toml"
    wide.write_text(base + "\n[limits]\nvp_max = 1000\nvp_min = -300\n", encoding="utf-8")
    names = new_tournament(session, "wide", str(wide), 12)
    tables = split(names, (4, 4, 4))
    rounds.start_round(session, tournament="wide", actor="d", tables=tables)
    entered = [ResultIn(tables[0][0], 900), ResultIn(tables[0][1], -250)]
    entered += [ResultIn(p, 10) for p in tables[0][2:]]
    table = results.enter_result(
        session, tournament="wide", round_number=1, table=1, results=entered, actor="d"
    )
    assert sorted(r.vp for r in table.results) == [-250, 10, 10, 900]
    entered[0] = ResultIn(tables[0][0], 1001)
    with pytest.raises(InvalidInput, match="out of range -300…1000"):
        results.enter_result(
            session,
            tournament="wide",
            round_number=1,
            table=1,
            results=entered,
            actor="d",
            expected_version=table.version,
        )


def _event_with(tmp_path: Path, registration: str) -> Path:
    path = tmp_path / "event.json"
    path.write_text(
        '{"name": "E", "ruleset": "bonn-2018", "players": ['
        f'{{"name": "Anna", "registration": {registration}}}, "Ben", "Cleo"]}}',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("registration", "message"),
    [
        ('{"status_round": "x"}', "status_round: must be an integer"),
        ('{"status_round": 99999999}', "status_round: 99999999 is out of range"),
        ('{"fee_paid": "yes"}', "fee_paid: must be true or false"),
        ('{"status_reason": 5}', "status_reason: must be text"),
        ('{"colour": 5}', "unknown key 'colour'"),
        ('{"fee_paid": NaN}', "NaN is not a number JSON allows"),
    ],
)
def test_import_refuses_wrong_types_in_extra_fields(
    session: Session, tmp_path: Path, registration: str, message: str
) -> None:
    entries = journal_length(session)
    with pytest.raises(InvalidInput, match=re.escape(message)):
        exchange.import_event(
            session, slug="imp", path=_event_with(tmp_path, registration), actor="d"
        )
    assert journal_length(session) == entries


def test_import_refuses_a_bad_sanction_round(session: Session, tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    path.write_text(
        '{"name": "E", "ruleset": "bonn-2018", "players": [{"name": "Anna", "sanctions": '
        '[{"kind": "warning", "round": "2"}]}, "Ben", "Cleo"]}',
        encoding="utf-8",
    )
    with pytest.raises(InvalidInput, match=r"'sanctions'\[1\]\.round: must be an integer"):
        exchange.import_event(session, slug="imp", path=path, actor="d")


def test_yaml_dates_in_player_fields_are_kept_as_text(session: Session, tmp_path: Path) -> None:
    path = tmp_path / "event.yaml"
    path.write_text(
        "name: E\nruleset: bonn-2018\ndate: 2018-05-12\nplayers:\n"
        "  - name: Anna\n    born: 2001-02-03\n  - Ben\n  - Cleo\n",
        encoding="utf-8",
    )
    exchange.import_event(session, slug="imp", path=path, actor="d")
    anna = players.get_player(session, tournament="imp", name="Anna")
    assert anna.extra["born"] == "2001-02-03"
    assert tournaments.get_tournament(session, slug="imp").info["date"] == "2018-05-12"
