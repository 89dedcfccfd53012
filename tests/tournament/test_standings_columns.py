"""The compiled one pass of ``agon standings FILE`` (agon.tournament.bulk.standings_columns and
agon.commands.standings.columns_table) against the Python standings: the very same printed
table, for clean documents, for documents full of ties, and for damaged ones (which it leaves to
the full reader)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.commands.standings import columns_table, standings_table
from agon.tournament.bulk import standings_columns
from agon.tournament.ruleset import load_ruleset
from agon.tournament.standings import standings_core
from tests.tournament.test_bulk import damaged, document, full_path
from tests.tournament.test_properties import events

pytestmark = pytest.mark.skipif(standings_core() is None, reason="agon built without its cores")


def python_table(doc: dict[str, Any]) -> str:
    """The table the Python standings print for ``doc`` (or the full reader's error)."""
    name, standings = full_path(copy.deepcopy(doc))
    if isinstance(standings, str):
        return standings
    rounds = len(doc["rounds"])
    title = f"{name} — {standings.ruleset.title_in('en')}, {rounds} round(s)"
    return standings_table(standings, title)


def has_virtual_seats(doc: dict[str, Any]) -> bool:
    """A table smaller than the ruleset fills to: scored in Python, so no one pass."""
    fill_to = load_ruleset(doc["ruleset"]).virtual_fill_to
    return any(len(t["results"]) < fill_to for rnd in doc["rounds"] for t in rnd["tables"])


def native_table(doc: dict[str, Any]) -> str | None:
    columns = standings_columns(copy.deepcopy(doc), origin="e.json")
    return None if columns is None else columns_table(columns)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_a_clean_document_prints_the_pythons_table(event: Any) -> None:
    doc = document(event)
    table = native_table(doc)
    assert (table is None) == has_virtual_seats(doc)
    if table is not None:
        assert table == python_table(doc)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events(), st.integers(0, 2**32), st.sampled_from([0, 1, 2]))
def test_ties_everywhere_are_broken_as_the_python_breaks_them(
    event: Any, seed: int, spread: int
) -> None:
    """VP, coins and bids from tiny ranges: equal points, shares, sums and so the lot decide."""
    doc = document(event)
    rng = random.Random(seed)
    for rnd in doc["rounds"]:
        for table in rnd["tables"]:
            for seat in table["results"]:
                seat["vp"] = 40 + rng.randint(0, spread)
                seat["coins"] = rng.randint(0, spread)
                if seat.get("bid"):
                    seat["bid"] = rng.randint(0, spread)
    table = native_table(doc)
    assert (table is None) == has_virtual_seats(doc)
    if table is None:
        return
    assert table == python_table(doc)
    if spread == 0 and len(table.splitlines()) > 4:
        assert " lot" in table  # all equal: the lot orders every row


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_a_damaged_document_is_left_to_the_full_reader_or_prints_the_same(
    doc: dict[str, Any],
) -> None:
    try:
        table = native_table(doc)
    except Exception as exc:  # only the header's problems, named as the full reader names them
        assert python_table(doc) == str(exc)
        return
    if table is not None:
        assert table == python_table(doc)


def test_ratings_and_virtual_seats_are_left_to_the_python_standings() -> None:
    players = [f"P{i}" for i in range(8)]
    tables = [
        {"results": [{"player": p, "vp": 30 + i} for i, p in enumerate(players[:4])]},
        {"results": [{"player": p, "vp": 30 + i} for i, p in enumerate(players[4:])]},
    ]
    doc = {"name": "E", "ruleset": "bonn-2018", "players": players, "rounds": [{"tables": tables}]}
    assert native_table(doc) is None  # tables of 4 in Bonn: a virtual fifth seat
    full = copy.deepcopy(doc)
    full["ruleset"] = "de-championship"
    assert native_table(full) == python_table(full)
    for ratings in ({"P1": 3.5}, [], 0):  # rated, or a wrong field the full reader names
        full["seed_ratings"] = ratings
        assert native_table(full) is None
