"""The compiled one pass of ``agon standings FILE`` (agon.tournament.bulk.standings_columns and
agon.commands.standings.columns_table) against the Python standings: the very same printed
table, for clean documents, for documents full of ties, and for damaged ones (which it leaves to
the full reader)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.commands._standings_text import columns_table
from agon.commands.standings import standings_table
from agon.errors import InvalidInput
from agon.tournament.bulk import standings_columns, standings_columns_of_bytes
from agon.tournament.ruleset import load_ruleset
from agon.tournament.safeload import loads_json
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


def bytes_table(raw: bytes) -> str | None:
    """The table from the file's bytes (the byte reader), or the header's error."""
    try:
        columns = standings_columns_of_bytes(raw, origin="e.json")
    except InvalidInput as exc:
        return f"error: {exc}"
    return None if columns is None else columns_table(columns)


def decoded_table(raw: bytes) -> str | None:
    """The table from the decoded document, as the safe loader decodes it; ``None`` when the
    one pass over the decoded document does not apply, "refused" when the loader refuses."""
    try:
        doc = loads_json(raw.decode("utf-8"), origin="e.json")
    except (InvalidInput, UnicodeDecodeError):
        return "refused"
    try:
        columns = standings_columns(doc, origin="e.json")
    except InvalidInput as exc:
        return f"error: {exc}"
    except (AttributeError, TypeError):  # a document that is no object: the full reader's
        return None
    return None if columns is None else columns_table(columns)


_NAMES = st.sampled_from(["Anna", "Jürgen Groß", 'Zoë "Z" O\'Neil', "李小龙", "Ærø\\x", "👍 Bo"])


@st.composite
def full_tables(draw: st.DrawFn) -> dict[str, Any]:
    """An event document whose tables are all full (no virtual seat): the byte reader's shape."""
    ruleset = load_ruleset(
        draw(st.sampled_from(["bonn-2018", "ludolimpico-2015", "de-championship"]))
    )
    size = max(ruleset.table_sizes)
    tables = draw(st.integers(1, 4))
    names = [f"{draw(_NAMES)} {i}" for i in range(size * tables + draw(st.integers(0, 3)))]
    rng = random.Random(draw(st.integers(0, 2**32)))
    spread = draw(st.sampled_from([2, 15, 60]))
    rounds = []
    for _ in range(draw(st.integers(1, 4))):
        rng.shuffle(names)
        seats = [
            {
                "player": p,
                "vp": 30 + rng.randint(0, spread),
                "coins": rng.randint(0, min(spread, 20)),
                "bid": rng.randint(0, 3) if ruleset.auction else 0,
            }
            for p in names[: size * tables]
        ]
        for seat in seats:
            if rng.random() < 0.3 and seat["coins"] == 0:
                del seat["coins"]
        rounds.append(
            {"tables": [{"results": seats[i : i + size]} for i in range(0, len(seats), size)]}
        )
    if draw(st.booleans()):
        rounds[-1]["final"] = draw(st.booleans())
        rounds[-1]["wonders"] = ["giza"]
    return {"name": "Ev", "ruleset": ruleset.name, "players": sorted(names), "rounds": rounds}


@st.composite
def serialized(draw: st.DrawFn) -> bytes:
    """An event document written as json.dumps may write it: escaped or raw Unicode, indented
    or not, keys sorted or not, odd names."""
    doc = draw(full_tables())
    text = json.dumps(
        doc,
        ensure_ascii=draw(st.booleans()),
        indent=draw(st.sampled_from([None, 1, "\t"])),
        sort_keys=draw(st.booleans()),
    )
    return text.encode("utf-8")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(serialized())
def test_the_byte_reader_prints_what_the_decoded_document_prints(raw: bytes) -> None:
    got = bytes_table(raw)
    assert got is not None
    assert got == decoded_table(raw)
    doc = json.loads(raw)
    assert got == python_table(doc)


_JUNK = st.sampled_from([*b'{}[],:"\\ 0123-.eEtfnu\x00\x1f', 0xC3, 0xFF, 0xED])


def damaged(raw: bytes, data: st.DataObject) -> bytes:
    """``raw`` with one byte changed, inserted or cut off anywhere (drawn from ``data``)."""
    at = data.draw(st.integers(0, len(raw) - 1))
    kind = data.draw(st.sampled_from(["change", "insert", "cut"]))
    junk = bytes([data.draw(_JUNK)])
    if kind == "change":
        return raw[:at] + junk + raw[at + 1 :]
    if kind == "insert":
        return raw[:at] + junk + raw[at:]
    return raw[:at]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(serialized(), st.data())
def test_damaged_bytes_are_declined_or_read_as_the_safe_loader_reads_them(
    raw: bytes, data: st.DataObject
) -> None:
    """A byte changed, inserted or cut anywhere: the byte reader declines (None) or prints the
    very table the decoded document gives; never a table for a document the loader refuses."""
    raw = damaged(raw, data)
    got = bytes_table(raw)
    if got is not None:
        assert got == decoded_table(raw)


def test_the_byte_reader_declines_what_the_caps_refuse() -> None:
    doc = {"name": "E", "ruleset": "de-championship", "players": ["A", "B", "C"], "rounds": []}
    deep: Any = 1
    for _ in range(40):
        deep = [deep]
    for extra in ({"date": 10**18}, {"date": 1e400}, {"date": "\ud800"}, {"notes": deep}):
        raw = json.dumps({**doc, **extra}).encode()
        assert decoded_table(raw) == "refused"
        assert bytes_table(raw) is None
    assert bytes_table(json.dumps(doc).encode()) is not None  # the same, within the caps
    assert bytes_table(b"\xef\xbb\xbf" + json.dumps(doc).encode()) is None  # a BOM
    assert bytes_table(json.dumps(doc).encode() + b" {}") is None  # more after the document
