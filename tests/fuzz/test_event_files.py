"""Fuzzing the event-file surface (issue 10): documents generated from the JSON Schema
(hypothesis-jsonschema), mutations of a valid event with hostile values, hostile YAML (aliases,
bombs, tags, dates, non-text keys, deep nesting) and random bytes — read by ``agon validate`` and
``agon standings``. Every one ends in exit 0 or in ONE line with exit 2, never a traceback."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings

from tests.fuzz.contract import check_contract, invoke
from tests.fuzz.strategies import event_files
from tests.fuzzing import examples

#: 300 cases in make test; AGON_FUZZ_DEPTH times as many in a deeper run (tests/fuzzing.py)
EXAMPLES = examples(300)


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def write(folder: Path, suffix: str, content: str | bytes) -> Path:
    path = folder / f"event{suffix}"
    data = content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass")
    path.write_bytes(data)
    return path


@pytest.mark.slow  # ~5–7 s CPU for 300 examples
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(file=event_files)
def test_event_files_never_crash(folder: Path, file: tuple[str, str | bytes]) -> None:
    path = write(folder, *file)
    args = ["validate", str(path)]
    result = invoke(args)
    check_contract(args, result)
    event(f"exit {result.exit_code}")
    if result.exit_code == 0:  # a valid file is scored too
        args = ["standings", str(path)]
        check_contract(args, invoke(args))
