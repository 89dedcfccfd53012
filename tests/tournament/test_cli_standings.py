"""``agon standings`` / ``agon validate``: output shapes and the bad-input contract (exit 2, one line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_runner import run_agon
from tests.tournament.builders import event_doc
from tests.tournament.conftest import WriteEvent

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


agon = run_agon  # in process (tests/cli_runner.py): the same output and exit codes


def good_doc() -> dict[str, Any]:
    return event_doc(
        "bonn-2018",
        [[[("Anna", 52, 7), ("Ben", 48, 2, 0), ("Clara", 40), ("Dora", 39), ("Emil", 30)]]],
    )


def test_json_output_has_exactly_the_contract_shape(write_event: WriteEvent) -> None:
    proc = agon("standings", write_event(good_doc()), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"ruleset", "standings"} and out["ruleset"] == "bonn-2018"
    first = out["standings"][0]
    assert set(first) == {"rank", "player", "points", "tiebreaks", "decided_by"}
    assert first == {
        "rank": 1,
        "player": "Anna",
        "points": 6.0,
        "tiebreaks": {"share": pytest.approx(52 / 209), "vp": 52, "coins": 7},
        "decided_by": None,
    }
    assert [row["rank"] for row in out["standings"]] == [1, 2, 3, 4, 5]
    assert out["standings"][1]["decided_by"] == "points"


@pytest.mark.parametrize(
    ("ruleset", "keys"),
    [
        ("bonn-2018", {"share", "vp", "coins"}),
        ("ludolimpico-2015", {"pp"}),
        ("de-championship", {"share", "vp"}),
    ],
)
def test_tiebreak_keys_per_ruleset(write_event: WriteEvent, ruleset: str, keys: set[str]) -> None:
    rows = [("A", 50), ("B", 40), ("C", 30), ("D", 20)]
    proc = agon("standings", write_event(event_doc(ruleset, [[rows]])), "--json")
    assert proc.returncode == 0, proc.stderr
    assert set(json.loads(proc.stdout)["standings"][0]["tiebreaks"]) == keys


def test_readable_table_and_explain(write_event: WriteEvent) -> None:
    path = write_event(good_doc())
    table = agon("standings", path)
    assert table.returncode == 0
    lines = table.stdout.splitlines()
    assert lines[1].split()[:4] == ["#", "player", "points", "share"]
    assert lines[3].split()[:3] == ["1", "Anna", "6"]
    explain = agon("standings", path, "--explain", "Ben", "Anna")
    assert explain.returncode == 0
    assert explain.stdout.strip() == (
        "Anna (rank 1) is above Ben (rank 2) on tournament points: 6 against 4."
    )


def test_validate_ok(write_event: WriteEvent) -> None:
    proc = agon("validate", write_event(good_doc()))
    assert proc.returncode == 0 and "ok — 5 players, 1 round(s)" in proc.stdout


def test_yaml_event_file(write_event: WriteEvent) -> None:
    raw = (
        "name: YAML cup\nruleset: ludolimpico-2015\nplayers: [A, B, C, D]\nrounds:\n"
        "  - tables:\n      - results:\n"
        "          - {player: A, vp: 40}\n          - {player: B, vp: 35}\n"
        "          - {player: C, vp: 25}\n          - {player: D, vp: 20}\n"
    )
    proc = agon("standings", write_event(None, name="cup.yaml", raw=raw), "--json")
    assert proc.returncode == 0, proc.stderr
    assert [r["points"] for r in json.loads(proc.stdout)["standings"]] == [10, 7, 3, 1]


def test_sample_events_score() -> None:
    for sample in sorted(EXAMPLES.glob("*.json")):
        proc = agon("standings", sample, "--json")
        assert proc.returncode == 0, (sample, proc.stderr)


def broken(change: str) -> tuple[dict[str, Any] | None, str | None]:
    doc = good_doc()
    results = doc["rounds"][0]["tables"][0]["results"]
    if change == "unknown player":
        results[2]["player"] = "Zed"
    elif change == "twice":
        results[2]["player"] = "Anna"
    elif change == "table size":
        del results[4], results[3], results[2]
    elif change == "non-integer":
        results[1]["vp"] = 48.5
    elif change == "string score":
        results[1]["vp"] = "48"
    elif change == "negative coins":
        results[1]["coins"] = -1
    elif change == "negative bid":
        results[3]["bid"] = -2
    elif change == "unknown ruleset":
        doc["ruleset"] = "no-such-rules"
    elif change == "malformed":
        return None, '{"name": "x", "players": [}'
    return doc, None


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("unknown player", "round 1, table 1, seat 3, player 'Zed': unknown player"),
        ("twice", "round 1, table 1, player 'Anna': plays twice in this round"),
        (
            "table size",
            "round 1, table 1: 2 players, but ruleset 'bonn-2018' allows tables of 3, 4, 5",
        ),
        (
            "non-integer",
            "round 1, table 1, seat 2, player 'Ben', field 'vp': must be an integer, got 48.5",
        ),
        ("string score", "field 'vp': must be an integer, got '48'"),
        ("negative coins", "seat 2, player 'Ben', field 'coins': must not be negative, got -1"),
        ("negative bid", "seat 4, player 'Dora', field 'bid': must not be negative, got -2"),
        ("unknown ruleset", "field 'ruleset': unknown ruleset 'no-such-rules'"),
        ("malformed", "malformed JSON at line 1, column 27"),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_the_place(
    write_event: WriteEvent, change: str, expected: str
) -> None:
    doc, raw = broken(change)
    path = write_event(doc, raw=raw)
    for command in ("standings", "validate"):
        proc = agon(command, path)
        assert proc.returncode == 2, proc.stderr
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1, proc.stderr
        assert lines[0].startswith(f"agon: error: {path}: ")
        assert expected in lines[0]


def test_missing_file_and_unknown_explain_player(write_event: WriteEvent, tmp_path: Path) -> None:
    proc = agon("standings", tmp_path / "nope.json")
    assert proc.returncode == 2 and "no such file" in proc.stderr
    proc = agon("standings", write_event(good_doc()), "--explain", "Anna", "Nobody")
    assert proc.returncode == 2 and "unknown player 'Nobody'" in proc.stderr
    assert "Traceback" not in proc.stderr
