"""The shipped JSON Schema agrees with the parser on good and bad event documents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agon.errors import InvalidInput
from agon.schemas import load_schema
from agon.tournament.event import parse_event
from tests.tournament.builders import event_doc

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
VALIDATOR = jsonschema.Draft202012Validator(load_schema("event"))


def test_the_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(load_schema("event"))


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_examples_are_valid_for_schema_and_parser(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    VALIDATOR.validate(doc)
    parse_event(doc)


def _bad_docs() -> list[dict[str, Any]]:
    base = event_doc("bonn-2018", [[[("A", 40), ("B", 30), ("C", 20)]]])
    docs = []
    for key, value in (("vp", 1.5), ("vp", "3"), ("coins", -1), ("bid", -1), ("color", "red")):
        doc = json.loads(json.dumps(base))
        doc["rounds"][0]["tables"][0]["results"][0][key] = value
        docs.append(doc)
    docs.append({k: v for k, v in base.items() if k != "players"})
    docs.append(dict(base, extra=True))
    for left in (
        {"left": True, "vp": 0},
        {"left": True, "coins": 2},
        {"left": "yes"},
        {"left": False},
    ):
        doc = json.loads(json.dumps(base))
        row = doc["rounds"][0]["tables"][0]["results"][1]
        row.pop("vp")
        row.pop("coins", None)
        row.update(left)
        docs.append(doc)
    return docs


def test_a_player_who_left_is_valid_for_schema_and_parser() -> None:
    doc = event_doc("ludolimpico-2015", [[[("A", 40), ("B", 30), ("C", 20)]]])
    row = doc["rounds"][0]["tables"][0]["results"][1]
    row.pop("vp")
    row.pop("coins", None)
    row["left"] = True
    VALIDATOR.validate(doc)
    assert parse_event(doc).rounds[0].tables[0].results[1].left


@pytest.mark.parametrize("doc", _bad_docs())
def test_bad_documents_are_refused_by_both(doc: dict[str, Any]) -> None:
    assert not VALIDATOR.is_valid(doc)
    with pytest.raises(InvalidInput):
        parse_event(doc)


def test_score_pad_breakdown_must_add_up() -> None:
    doc = event_doc("bonn-2018", [[[("A", 40), ("B", 30), ("C", 20)]]])
    row = doc["rounds"][0]["tables"][0]["results"][0]
    row["breakdown"] = {"military": 9, "treasury": 3, "wonder": 10, "civilian": 12, "science": 6}
    parse_event(doc)
    VALIDATOR.validate(doc)
    row["breakdown"]["science"] = 7
    with pytest.raises(InvalidInput, match="categories add up to 41, but vp is 40"):
        parse_event(doc)
