"""Layering (style guide 1): the pure domain imports no web framework, database or printing code."""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "agon"
PURE = ["tournament", "games", "ratings", "series"]
FORBIDDEN = (
    "agon.store",
    "agon.services",
    "agon.web",
    "agon.printing",
    "agon.commands",
    "agon.cli",
    "sqlalchemy",
    "alembic",
    "fastapi",
    "starlette",
    "weasyprint",
    "click",
)


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", PURE)
def test_pure_domain_has_no_io_layers(package: str) -> None:
    root = SRC / package
    if not root.exists():
        pytest.skip(f"agon.{package} not present yet")
    offenders = []
    for path in root.rglob("*.py"):
        if path.name == "cli.py" or "cli" in path.parts:
            continue  # a game's own command module is a face, not domain code
        for name in imports_of(path):
            if name.startswith(FORBIDDEN):
                offenders.append(f"{path.relative_to(SRC)} imports {name}")
    assert offenders == []


@pytest.mark.parametrize("module", ["agon.errors", "agon.tournament.scoring", "agon.ratings"])
def test_doctests(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0 and failures == 0
