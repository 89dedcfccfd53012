"""Layering (style guide 1): the pure domain imports no web framework, database or printing code."""

from __future__ import annotations

import ast
import doctest
import importlib
import subprocess
import sys
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
        for name in imports_of(path):
            if name.startswith(FORBIDDEN):
                offenders.append(f"{path.relative_to(SRC)} imports {name}")
    assert offenders == []


def test_games_never_import_the_command_line_face() -> None:
    """The game commands live in the CLI face (agon.commands.seven_wonders, .ocw, .ocw_terminal):
    no module under agon.games imports agon.commands or click, not even lazily."""
    offenders = sorted(
        f"{path.relative_to(SRC)} imports {name}"
        for path in (SRC / "games").rglob("*.py")
        for name in imports_of(path)
        if name == "click" or name.startswith(("click.", "agon.commands", "agon.cli"))
    )
    assert offenders == []


def test_games_import_without_click() -> None:
    """Every module of agon.games imports in a Python where click cannot be imported."""
    modules = sorted(
        ".".join(path.relative_to(SRC.parent).with_suffix("").parts).removesuffix(".__init__")
        for path in (SRC / "games").rglob("*.py")
    )
    script = (
        "import sys, importlib\n"
        "sys.modules['click'] = None  # import click -> ImportError\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "assert not any(m == 'agon.commands' or m.startswith('agon.commands.') for m in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("module", ["agon.errors", "agon.tournament.scoring", "agon.ratings"])
def test_doctests(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0 and failures == 0


def _module_graph() -> dict[str, set[str]]:
    """Every module of src/agon and the agon modules it imports (lazy and TYPE_CHECKING
    imports included: a circle hidden in a function is still a circle)."""
    modules: dict[str, Path] = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                targets.add(base)
                targets.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles_inside_agon() -> None:
    """Import arrows form no circle (style guide 1), whether at the top or inside a function."""
    graph = _module_graph()
    assert "agon.games.seven_wonders.engine" in graph
    assert _circles(graph) == []
