"""Fixtures for tournament tests: writing event files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

WriteEvent = Callable[..., Path]


@pytest.fixture
def write_event(tmp_path: Path) -> WriteEvent:
    """Write an event document to a file and return its path."""

    def write(data: Any, name: str = "event.json", raw: str | None = None) -> Path:
        path = tmp_path / name
        path.write_text(raw if raw is not None else json.dumps(data), encoding="utf-8")
        return path

    return write
