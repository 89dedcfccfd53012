"""tests/durations.py: the measured cost of each test, merged from the workers' part files, and
what it decides (the inner loop leaves the costly tests out)."""

from __future__ import annotations

import json
from pathlib import Path

from tests import durations


def test_parts_are_merged_one_test_per_line_and_read_back(tmp_path: Path) -> None:
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "part-gw0.json").write_text(json.dumps({"t.py::b": [0.5, 0.6]}), encoding="utf-8")
    (parts / "part-gw1.json").write_text(
        json.dumps({'t.py::a[x-"y"]': [0.01, 3.0], "t.py::c": [0.0, 0.01]}), encoding="utf-8"
    )
    target = tmp_path / "durations.json"
    assert durations.merge(parts, target) == 3
    lines = target.read_text(encoding="utf-8").splitlines()
    assert [line.strip() for line in lines[3:6]] == [
        '"t.py::a[x-\\"y\\"]": [0.01, 3.0],',
        '"t.py::b": [0.5, 0.6],',
        '"t.py::c": [0.0, 0.01]',
    ]
    costs = durations.load(target)
    assert costs == {'t.py::a[x-"y"]': (0.01, 3.0), "t.py::b": (0.5, 0.6), "t.py::c": (0.0, 0.01)}
    assert [n for n, c in costs.items() if durations.is_costly(c)] == ['t.py::a[x-"y"]', "t.py::b"]
    assert not durations.is_costly(None)  # a test not measured yet is fast


def test_an_update_keeps_the_tests_it_did_not_measure(tmp_path: Path) -> None:
    parts = tmp_path / "parts"
    parts.mkdir()
    target = tmp_path / "durations.json"
    (parts / "part-gw0.json").write_text(json.dumps({"a::x": [1.0, 1.0]}), encoding="utf-8")
    durations.merge(parts, target)
    (parts / "part-gw0.json").write_text(json.dumps({"b::y": [0.1, 0.2]}), encoding="utf-8")
    assert durations.merge(parts, target, keep=True) == 2
    assert durations.load(target) == {"a::x": (1.0, 1.0), "b::y": (0.1, 0.2)}
    assert durations.merge(parts, target) == 1  # a whole run: what it measured, only


def test_the_committed_file_is_read() -> None:
    costs = durations.load()
    assert len(costs) > 1000 and all(cpu >= 0 and wall >= 0 for cpu, wall in costs.values())
    assert durations.load(Path("no/such/file.json")) == {}
