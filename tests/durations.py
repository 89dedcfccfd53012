"""What each test costs, measured, kept in ``tests/durations.json`` (one fact in one place).

``make durations`` runs the whole suite as ``make test`` does, without coverage, with
``AGON_RECORD_DURATIONS`` set: every pytest-xdist worker writes each test's CPU seconds (its own
and its finished child processes') and wall seconds to a part file, and ``python -m
tests.durations merge`` joins the parts into the JSON file. tests/conftest.py reads it:

* a test of at least :data:`INNER_LOOP_CPU` seconds of CPU or :data:`INNER_LOOP_WALL` of wall
  time is marked ``slow``: the inner loop (``make test-fast``, ``pytest -m "not slow"``) leaves
  it out, ``make test`` runs it;
* the ``slow`` tests start first, the longest first, so that pytest-xdist's workers end together.

A test that is not in the file (a new one) counts as fast until the file is measured again.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

DURATIONS = Path(__file__).with_name("durations.json")
RECORD_VARIABLE = "AGON_RECORD_DURATIONS"
#: A test this costly (CPU seconds; wall seconds) is left out of the inner loop.
INNER_LOOP_CPU = 0.2
INNER_LOOP_WALL = 3.0


def load(path: Path = DURATIONS) -> dict[str, tuple[float, float]]:
    """``{node id: (CPU seconds, wall seconds)}``; empty when the file is missing."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {node: (float(cpu), float(wall)) for node, (cpu, wall) in data["tests"].items()}


def is_costly(cost: tuple[float, float] | None) -> bool:
    return cost is not None and (cost[0] >= INNER_LOOP_CPU or cost[1] >= INNER_LOOP_WALL)


#: CPU seconds of processes this process started but did not wait for itself, said by the process
#: that did (the real-server tests' fork server, tests/play/server.py): counted as children's.
_waited_elsewhere = [0.0]


def add_children_cpu(seconds: float) -> None:
    """Count ``seconds`` of CPU of a finished process another process waited for as this
    process's children's."""
    _waited_elsewhere[0] += seconds


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime + _waited_elsewhere[0]


class Recorder:
    """The plugin ``make durations`` turns on: each test's cost, written to a part file per
    process when the session ends."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.costs: dict[str, tuple[float, float]] = {}

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, Any, Any]:
        wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
        try:
            return (yield)
        finally:
            spent = time.process_time() - cpu + _children_cpu() - children
            self.costs[item.nodeid] = (round(spent, 3), round(time.perf_counter() - wall, 3))

    def pytest_sessionfinish(self) -> None:
        if self.costs:
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            self.folder.mkdir(parents=True, exist_ok=True)
            part = self.folder / f"part-{worker}.json"
            part.write_text(json.dumps(self.costs), encoding="utf-8")


def merge(folder: Path, target: Path = DURATIONS, *, keep: bool = False) -> int:
    """Join the part files of ``folder`` into ``target``; the number of tests. ``keep``: the
    tests ``target`` has and the parts do not keep their figures (a run of some files only)."""
    costs: dict[str, tuple[float, float]] = load(target) if keep else {}
    for part in sorted(folder.glob("part-*.json")):
        costs.update({k: tuple(v) for k, v in json.loads(part.read_text("utf-8")).items()})
    if not costs:
        raise SystemExit(f"no part files in {folder}: run make durations")
    lines = [
        f"  {json.dumps(node)}: [{cpu}, {wall}]" for node, (cpu, wall) in sorted(costs.items())
    ]
    about = "CPU and wall seconds per test, measured by make durations (tests/durations.py)"
    body = ",\n".join(lines)
    text = f'{{\n "about": {json.dumps(about)},\n "tests": {{\n{body}\n }}\n}}\n'
    json.loads(text)  # one test per line, and still JSON
    target.write_text(text, encoding="utf-8")
    return len(costs)


if __name__ == "__main__":
    if sys.argv[1:2] not in (["merge"], ["update"]) or len(sys.argv) != 3:
        raise SystemExit("usage: python -m tests.durations merge|update FOLDER")
    total = merge(Path(sys.argv[2]), keep=sys.argv[1] == "update")
    print(f"{total} tests in {DURATIONS}")
