"""The one-pass standings of an event document (agon.tournament.bulk) against the full reader:
the same standings, or the same error, for clean and for damaged documents."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.tournament.bulk import quick_standings, standings_of_file
from agon.tournament.event import check_against_ruleset, load_event, parse_event
from agon.tournament.ruleset import load_ruleset
from agon.tournament.scoring import full_table_contributions, rank_points_scale, score_rows
from agon.tournament.standings import Standings, compute_standings
from tests.tournament.test_properties import RULESETS, events, rulesets

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bonn-2018-sample.json"


def document(event: Any) -> dict[str, Any]:
    """The event as the JSON document an event file holds (the common shape)."""
    return {
        "name": event.name,
        "ruleset": event.ruleset_ref,
        "seed": event.seed,
        "players": [p.name for p in event.players],
        "rounds": [
            {
                "tables": [
                    {
                        "results": [
                            {"player": r.player, "vp": r.vp, "coins": r.coins, "bid": r.bid}
                            for r in table.results
                        ]
                    }
                    for table in rnd.tables
                ]
            }
            for rnd in event.rounds
        ],
    }


def full_path(doc: Any) -> tuple[str, Standings | str]:
    """``load_event`` + ``compute_standings`` on a decoded document: (name, standings or error)."""
    try:
        event = parse_event(doc, origin="e.json")
        try:
            ruleset = load_ruleset(event.ruleset_ref)
        except InvalidInput as exc:
            raise InvalidInput(f"e.json: field 'ruleset': {exc}") from None
        check_against_ruleset(event, ruleset, origin="e.json")
        return event.name, compute_standings(event, ruleset)
    except InvalidInput as exc:
        return "", str(exc)


def quick_path(doc: Any) -> tuple[str, Standings | str] | None:
    try:
        quick = quick_standings(doc, origin="e.json")
    except InvalidInput as exc:
        return "", str(exc)
    return None if quick is None else (quick.name, quick.standings)


def _seat(doc: dict[str, Any], draw: st.DrawFn) -> dict[str, Any] | None:
    tables = [t for rnd in doc["rounds"] for t in rnd["tables"]]
    if not tables:
        return None
    table = draw(st.sampled_from(tables))
    seat: dict[str, Any] = draw(st.sampled_from(table["results"]))
    return seat


@st.composite
def damaged(draw: st.DrawFn) -> dict[str, Any]:
    """A clean document, or one with a damage the fast path must leave to the full reader."""
    doc = document(draw(events()))
    kind = draw(
        st.sampled_from(
            [
                "none",
                "vp out of range",
                "vp float",
                "negative coins",
                "left",
                "breakdown",
                "unknown key",
                "twice in a round",
                "short table",
                "final",
                "ratings",
                "bad ratings",
                "unknown ruleset",
                "wonders",
                "bad sides",
                "unknown player",
                "bool vp",
            ]
        )
    )
    seat = _seat(doc, draw)
    rnd = draw(st.sampled_from(doc["rounds"])) if doc["rounds"] else None
    if kind == "vp out of range" and seat:
        seat["vp"] = draw(st.sampled_from([10**6, -(10**6)]))
    elif kind == "vp float" and seat:
        seat["vp"] = float(seat["vp"])
    elif kind == "negative coins" and seat:
        seat["coins"] = -1
    elif kind == "left" and seat:
        seat.pop("vp")
        seat.pop("coins")
        seat["left"] = True
    elif kind == "breakdown" and seat:
        seat["breakdown"] = {"military": seat["vp"]}
    elif kind == "unknown key" and seat:
        seat["wonderr"] = "x"
    elif kind == "twice in a round" and rnd and rnd["tables"]:
        first = rnd["tables"][0]["results"]
        first[-1] = copy.deepcopy(first[0])
    elif kind == "short table" and rnd and rnd["tables"]:
        rnd["tables"][0]["results"].pop()
    elif kind == "final" and rnd:
        rnd["final"] = True
    elif kind == "ratings":
        doc["seed_ratings"] = {doc["players"][0]: 12.5}
    elif kind == "bad ratings":
        doc["seed_ratings"] = {doc["players"][0]: "high"}
    elif kind == "unknown ruleset":
        doc["ruleset"] = "no-such-ruleset"
    elif kind == "wonders" and rnd:
        rnd["wonders"] = ["babylon", "giza"]
        rnd["sides"] = {"babylon": "A"}
    elif kind == "bad sides" and rnd:
        rnd["sides"] = {"babylon": "C"}
    elif kind == "unknown player" and seat:
        seat["player"] = "Nobody"
    elif kind == "bool vp" and seat:
        seat["vp"] = True
    return doc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_the_fast_path_gives_what_the_full_reader_gives(doc: dict[str, Any]) -> None:
    full = full_path(copy.deepcopy(doc))
    quick = quick_path(copy.deepcopy(doc))
    if quick is not None:  # None: the fast path leaves it to the full reader (standings_of_file)
        assert quick == full


@settings(max_examples=60, deadline=None)
@given(events())
def test_a_clean_document_takes_the_fast_path(event: Any) -> None:
    doc = document(event)
    quick = quick_path(doc)
    assert quick is not None
    assert quick == full_path(doc)


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"breakdown": {"military": 1}}, "fast path declines a breakdown"),
        ({"vp": 10**6}, "fast path declines a VP out of range"),
        ({"left": True}, "fast path declines a player who left"),
    ],
)
def test_standings_of_file_reads_what_the_fast_path_declines(
    tmp_path: Path, change: dict[str, Any], path: str
) -> None:
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    seat = doc["rounds"][0]["tables"][0]["results"][0]
    if "left" in change:
        for key in ("vp", "coins", "breakdown", "side"):
            seat.pop(key, None)
    elif "breakdown" in change:
        seat.pop("breakdown", None)
        change = {"breakdown": {"military": seat["vp"]}}
    seat.update(change)
    assert quick_standings(copy.deepcopy(doc), origin="e.json") is None, path
    file = tmp_path / "e.json"
    file.write_text(json.dumps(doc), encoding="utf-8")
    try:
        event, ruleset = load_event(file)
    except InvalidInput as exc:
        with pytest.raises(InvalidInput) as got:
            standings_of_file(file)
        assert str(got.value) == str(exc)
        return
    result = standings_of_file(file)
    assert result.standings == compute_standings(event, ruleset)
    assert (result.name, result.rounds) == (event.name, len(event.rounds))


def test_the_example_event_gives_the_same_standings_both_ways() -> None:
    event, ruleset = load_event(EXAMPLE)
    result = standings_of_file(EXAMPLE)
    assert result.standings == compute_standings(event, ruleset)
    assert result.ruleset == ruleset


@given(st.data())
def test_a_full_table_is_scored_as_the_general_rules_score_it(data: st.DataObject) -> None:
    ruleset = data.draw(rulesets)
    size = data.draw(
        st.sampled_from([s for s in ruleset.table_sizes if s >= ruleset.virtual_fill_to])
    )
    bids = st.integers(0, 6) if ruleset.auction else st.just(0)
    seats = [
        (
            f"P{i}",
            data.draw(st.integers(-5, 12)),
            data.draw(st.integers(0, 4)),
            data.draw(bids),
            False,
        )
        for i in range(size)
    ]
    scale = rank_points_scale(ruleset)
    general = score_rows(ruleset, [(s, s[1], s[2], s[3]) for s in seats], scale)[0]
    expected = sorted((seat, pts, num, den) for seat, _, _, _, pts, num, den in general)
    assert sorted(full_table_contributions(ruleset, seats, scale)) == expected


def test_every_builtin_ruleset_has_a_full_table_size() -> None:
    """The fast scoring is used at all: each ruleset allows tables without virtual seats."""
    for ruleset in RULESETS:
        assert any(s >= ruleset.virtual_fill_to for s in ruleset.table_sizes)
