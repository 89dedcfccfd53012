"""Seeding by rating (issue 14): a Swiss round 1 spread by the ratings, the ratings kept in the
journal and the export, the standings (and so the final) decided by rating before the lot, and
``agon verify`` recomputing the seeded round from the export."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session
from tests.commands.test_director_cli import Agon
from tests.commands.test_verify_export import _finish, check
from tests.services.svc_helpers import new_tournament

from agon.errors import IllegalAction, InvalidInput
from agon.i18n.explain import explain_in
from agon.services import exchange, journal, rounds
from agon.tournament.event import Event, Player, Result, Round, Table, parse_event
from agon.tournament.ruleset import load_ruleset
from agon.tournament.seating import seat_swiss_round, spread_by_rating
from agon.tournament.standings import compute_standings

LUDO = load_ruleset("ludolimpico-2015")
#: Player 01 is the strongest, Player 10 the weakest.
RATINGS = {f"Player {i:02d}": float(11 - i) for i in range(1, 11)}


def _sets(tables: Any) -> list[set[str]]:
    return [set(t) for t in tables]


def test_snake_order_by_hand() -> None:
    """Ten players in two tables of five, ratings 10…1: the snake 1 2 2 1 1 2 2 1 1 2."""
    names = sorted(RATINGS)
    random.Random(1).shuffle(names)  # the input order does not matter, only the ratings
    groups = spread_by_rating(names, [5, 5], RATINGS)
    assert _sets(groups) == [
        {"Player 01", "Player 04", "Player 05", "Player 08", "Player 09"},
        {"Player 02", "Player 03", "Player 06", "Player 07", "Player 10"},
    ]
    # three tables of 5, 4, 4 for 13: the snake skips the full table
    thirteen = {f"p{i:02d}": float(-i) for i in range(1, 14)}
    groups = spread_by_rating(sorted(thirteen), [5, 4, 4], thirteen)
    assert groups == [
        ["p01", "p06", "p07", "p12", "p13"],
        ["p02", "p05", "p08", "p11"],
        ["p03", "p04", "p09", "p10"],
    ]


def test_unrated_players_count_zero_and_equal_ratings_keep_the_seeded_order() -> None:
    groups = spread_by_rating(["x", "y", "a", "b"], [2, 2], {"a": 3.0, "b": -1.0})
    # a (3) first, then x and y (0, in the given order), b (-1) last: 1 2 2 1
    assert groups == [["a", "b"], ["x", "y"]]


def test_swiss_round_one_follows_the_ratings_and_is_deterministic() -> None:
    names = sorted(RATINGS)
    seeded = seat_swiss_round(
        names, round_number=1, seed="s", ruleset=LUDO, history=[], ratings=RATINGS
    )
    assert _sets(t.seats for t in seeded.tables) == _sets(spread_by_rating(names, [5, 5], RATINGS))
    again = seat_swiss_round(
        names, round_number=1, seed="s", ruleset=LUDO, history=[], ratings=RATINGS
    )
    assert again == seeded
    # other ratings, other tables: the ratings decide, not the seed
    reversed_ratings = {n: -v for n, v in RATINGS.items()}
    other = seat_swiss_round(
        names, round_number=1, seed="s", ruleset=LUDO, history=[], ratings=reversed_ratings
    )
    assert _sets(t.seats for t in other.tables) == _sets(
        spread_by_rating(names, [5, 5], reversed_ratings)
    )


def _tied_event(ratings: dict[str, float]) -> Event:
    """A and B win their tables with the same VP: equal on points and PP, the lot would decide."""
    t1 = Table((Result("A", 50), Result("C", 40), Result("D", 30), Result("E", 20)))
    t2 = Table((Result("B", 50), Result("F", 40), Result("G", 30), Result("H", 20)))
    players = tuple(Player(n) for n in "ABCDEFGH")
    return Event("tie", "ludolimpico-2015", "seed", players, (Round((t1, t2)),), {}, ratings)


def test_the_rating_decides_where_the_ruleset_reaches_the_lot() -> None:
    by_lot = compute_standings(_tied_event({}), LUDO)
    assert by_lot.rows[1].decided_by == "lot"
    loser = by_lot.rows[1].player  # the one the lot puts second …
    rated = compute_standings(_tied_event({loser: 5.0}), LUDO)
    assert [r.player for r in rated.rows[:2]] == [loser, by_lot.rows[0].player]  # … goes first
    assert rated.rows[1].decided_by == "rating"
    assert "seeding rating" in rated.explain("A", "B")
    german = explain_in(rated, "A", "B", "de")
    assert "Setzwertung" in german and "Los aus" not in german
    # tournament points still come first: a rating never lifts a player over more points
    assert rated.rows[2].decided_by == "points"


def _ludo_seeded(session: Session) -> dict[str, Any]:
    new_tournament(session, "r", "ludolimpico-2015", 10)
    first = rounds.start_round(session, tournament="r", actor="d", ratings=RATINGS)
    assert first.info["method"] == "swiss-rating"
    assert first.info["seed_ratings"] == RATINGS
    assert _sets(t.seats for t in first.tables) == _sets(
        spread_by_rating(sorted(RATINGS), [5, 5], RATINGS)
    )
    rng = random.Random(4)
    _finish(session, "r", 1, rng, True, seed="seed-r")
    for number in (2, 3):
        rounds.start_round(session, tournament="r", actor="d")
        _finish(session, "r", number, rng, True, seed="seed-r")
    rounds.start_final(session, tournament="r", actor="d")
    _finish(session, "r", 4, rng, True, seed="seed-r")
    return exchange.export_event(session, tournament="r")


def test_seeded_event_exports_its_ratings_and_verifies(session: Session, tmp_path: Path) -> None:
    doc = _ludo_seeded(session)
    assert doc["seed_ratings"] == RATINGS
    assert check(doc) == []
    # the export reads back with its ratings, standings equal to the live ones
    event = parse_event(doc)
    assert event.seed_ratings == RATINGS
    live = exchange.standings(session, tournament="r")
    assert [r.player for r in compute_standings(event, LUDO).rows] == [r.player for r in live.rows]
    # other ratings in the file: round 1 no longer follows, verify names it
    tampered = copy.deepcopy(doc)
    tampered["seed_ratings"] = {n: -v for n, v in RATINGS.items()}
    assert any(p.startswith("round 1: tables differ") for p in check(tampered))
    # ratings removed: round 1 would have been random
    bare = copy.deepcopy(doc)
    bare.pop("seed_ratings")
    assert any(p.startswith("round 1: tables differ") for p in check(bare))
    # the import keeps them (round 1's entry), so a re-export is the same
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    exchange.import_event(session, slug="r2", path=path, actor="d")
    again = exchange.export_event(session, tournament="r2")
    assert again["seed_ratings"] == RATINGS


def test_undo_of_round_one_takes_the_ratings_with_it(session: Session) -> None:
    new_tournament(session, "u", "ludolimpico-2015", 10)
    rounds.start_round(session, tournament="u", actor="d", ratings=RATINGS)
    journal.undo(session, tournament="u", actor="d")
    plain = rounds.start_round(session, tournament="u", actor="d")
    assert "seed_ratings" not in plain.info and plain.info["method"] == "swiss"
    assert "seed_ratings" not in exchange.export_event(session, tournament="u")


def test_ratings_are_refused_where_they_change_nothing(session: Session) -> None:
    new_tournament(session, "b", "bonn-2018", 12)
    with pytest.raises(InvalidInput, match="would change nothing"):
        rounds.start_round(session, tournament="b", actor="d", ratings={"Player 01": 3.0})
    new_tournament(session, "l", "ludolimpico-2015", 10)
    with pytest.raises(InvalidInput, match="none of the registered players"):
        rounds.start_round(session, tournament="l", actor="d", ratings={"Nobody": 3.0})
    with pytest.raises(InvalidInput, match="within"):  # an event file could not hold it
        rounds.start_round(session, tournament="l", actor="d", ratings={"Player 01": 1e9})
    rounds.start_round(session, tournament="l", actor="d")
    _finish(session, "l", 1, random.Random(1), True, seed="seed-l")
    with pytest.raises(IllegalAction, match="when round 1 starts"):
        rounds.start_round(session, tournament="l", actor="d", ratings=RATINGS)


@pytest.fixture
def agon(db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Agon:
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)
    monkeypatch.setenv("AGON_ACTOR", "Marco")
    monkeypatch.delenv("AGON_TOURNAMENT", raising=False)
    return Agon(capsys)


def test_cli_seeds_from_a_ratings_file_matched_by_name_and_tag(agon: Agon, tmp_path: Path) -> None:
    agon("tournament", "create", "cup", "--name", "Cup", "--ruleset", "ludolimpico-2015")
    agon("tournament", "use", "cup")
    for i in range(1, 11):
        name = f"Player {i:02d}"
        agon("player", "add", name, *(["--tag", "Köln"] if i == 1 else []), "--paid")
        agon("player", "checkin", name + (" (Köln)" if i == 1 else ""))
    ratings = [{"player": name, "ordinal": value} for name, value in RATINGS.items()]
    ratings[0]["player"] = "Player 01 (Köln)"  # the rating list names him with his tag
    path = tmp_path / "ratings.json"
    path.write_text(json.dumps({"ratings": ratings}), encoding="utf-8")
    out = agon("round", "start", "--seed-by-rating", str(path))
    assert "seated Swiss by rating" in out
    assert "Player 01 (Köln) 10.00" in out
    err = agon.fails("round", "start", "--seed-by-rating", str(path), "--seed-by-rating", "x")
    assert "a ratings file seeds alone" in err
    path.write_text(json.dumps({"ratings": [{"player": "A"}]}), encoding="utf-8")
    assert "needs 'player'" in agon.fails("round", "start", "--seed-by-rating", str(path))
    path.write_text('{"ratings": [{"player": "A", "ordinal": 1e300}]}', encoding="utf-8")
    assert "within ±1e6" in agon.fails("round", "start", "--seed-by-rating", str(path))
    missing = agon.fails("round", "start", "--seed-by-rating", str(tmp_path / "none.json"))
    assert "none.json" in missing
    assert "no tournament 'no-such'" in agon.fails("round", "start", "--seed-by-rating", "no-such")


def _tied_for_the_final(ratings: dict[str, float]) -> dict[str, Any]:
    """Three rounds with the same two tables: A…E and F…J take places 1…5 every time, so C and H
    tie on everything for the fifth place of the final (Ludolimpico: the best five)."""
    tables = ["ABCDE", "FGHIJ"]
    rnd = {
        "tables": [
            {"results": [{"player": p, "vp": 50 - 10 * k, "coins": 0} for k, p in enumerate(t)]}
            for t in tables
        ]
    }
    doc: dict[str, Any] = {
        "name": "Tied",
        "ruleset": "ludolimpico-2015",
        "seed": "tied",
        "players": list("ABCDEFGHIJ"),
        "rounds": [rnd, rnd, rnd],
    }
    if ratings:
        doc["seed_ratings"] = ratings
    return doc


def test_the_final_is_filled_and_ordered_by_rating_where_the_lot_would_decide(
    session: Session, tmp_path: Path
) -> None:
    path = tmp_path / "tied.json"
    path.write_text(json.dumps(_tied_for_the_final({})), encoding="utf-8")
    exchange.import_event(session, slug="lot", path=path, actor="d")
    by_lot = rounds.start_final(session, tournament="lot", actor="d").tables[0].seats
    fifth = by_lot[4]
    assert fifth in ("C", "H")
    other = "H" if fifth == "C" else "C"
    # the one the lot left out has the better rating: now he is in, and A/F are seated by rating
    path.write_text(
        json.dumps(_tied_for_the_final({other: 2.0, "F": 1.0, "A": -1.0})), encoding="utf-8"
    )
    exchange.import_event(session, slug="rated", path=path, actor="d")
    seats = rounds.start_final(session, tournament="rated", actor="d").tables[0].seats
    assert seats[:2] == ("F", "A")  # equal on points and PP: the rating orders them
    assert set(seats[2:4]) == {"B", "G"}
    assert seats[4] == other
    standings = exchange.standings(session, tournament="rated")
    assert [r.decided_by for r in standings.rows[:5]] == [None, "rating", "points", "lot", "points"]
