"""Every doctest in src/agon runs: the modules are found by their ``>>>`` lines, so none is left out."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def modules_with_doctests() -> list[str]:
    names = []
    for path in sorted((SRC / "agon").rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = list(path.relative_to(SRC).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


def test_modules_are_found() -> None:
    assert "agon.errors" in modules_with_doctests()
    assert "agon.extras" in modules_with_doctests()


@pytest.mark.parametrize("module", modules_with_doctests())
def test_doctests(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(module))
    assert failures == 0
    assert tried > 0
