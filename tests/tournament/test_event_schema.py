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


# --- one source: the parser's key sets are the schema's (issue 31) --------------------------
# The event file stays read by the hand-written reader (agon.tournament.event._EventReader), not
# a pydantic model that would also emit the schema: pydantic is not a core dependency and its
# import plus a first model cost ~60-300 ms, on an `agon standings` that starts in ~80-150 ms.
# So the schema is kept by hand and these tests fail when the two drift apart.


def _objects(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    rounds = schema["properties"]["rounds"]["items"]
    tables = rounds["properties"]["tables"]["items"]
    result = schema["$defs"]["result"]
    return {
        "event": schema,
        "round": rounds,
        "table": tables,
        "result": result,
        "breakdown": result["properties"]["breakdown"],
    }


def test_the_schema_names_exactly_the_keys_the_parser_reads() -> None:
    from agon.tournament import event
    from agon.tournament.score_pad import SCORE_PAD_CATEGORIES

    parser = {
        "event": event._EVENT_KEYS,
        "round": event._ROUND_KEYS,
        "table": event._TABLE_KEYS,
        "result": event._RESULT_KEYS,
        "breakdown": set(SCORE_PAD_CATEGORIES),
    }
    schema = {name: set(obj["properties"]) for name, obj in _objects(load_schema("event")).items()}
    assert schema == parser
    assert all(
        obj["additionalProperties"] is False for obj in _objects(load_schema("event")).values()
    )


def _full_doc() -> dict[str, Any]:
    """A valid document with every optional key the parser reads at each level."""
    doc = event_doc("bonn-2018", [[[("A", 40, 3), ("B", 30, 2), ("C", 20, 1)]]])
    doc.update(
        date="2026-11-28",
        location="Bonn",
        director="D",
        commitment="0" * 64,
        notes=["a note"],
        seed_ratings={"A": 1500.0, "B": 1400, "C": 1300},
    )
    rnd = doc["rounds"][0]
    rnd.update(wonders=[], guilds=[], final=False)
    row = rnd["tables"][0]["results"][0]
    row.update(
        bid=0,
        breakdown={"military": 9, "treasury": 1, "wonder": 10, "civilian": 12, "science": 8},
    )
    return doc


def _places(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    rnd = doc["rounds"][0]
    row = rnd["tables"][0]["results"][0]
    return [
        ("event", doc),
        ("round", rnd),
        ("table", rnd["tables"][0]),
        ("result", row),
        ("breakdown", row["breakdown"]),
    ]


def test_schema_and_parser_agree_on_every_missing_or_unknown_key() -> None:
    full = _full_doc()
    VALIDATOR.validate(full)
    parse_event(full)
    disagreements = []
    for i, (level, obj) in enumerate(_places(full)):
        for key in [*obj, "no_such_key"]:
            doc = json.loads(json.dumps(full))
            target = _places(doc)[i][1]
            if key == "no_such_key":
                target[key] = 1
            else:
                del target[key]
                if level == "breakdown" or key == "vp":  # vp and its breakdown go together
                    doc["rounds"][0]["tables"][0]["results"][0].pop("breakdown", None)
            try:
                parse_event(doc)
                parsed = True
            except InvalidInput:
                parsed = False
            if VALIDATOR.is_valid(doc) != parsed:
                disagreements.append(f"{level}: {key} (schema {not parsed}, parser {parsed})")
    assert disagreements == []
