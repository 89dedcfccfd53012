"""What collecting the suite costs each test process (issue 30).

``make test`` collects the whole suite four times (``collect-tests`` and each xdist worker), so
an import at a test module's top level is paid four times. schemathesis (about 1.7 s of CPU with
its pytest plugin, measured in docs/dev-measurements.md) is needed by one test only
(tests/web/test_fuzz_api.py, which imports it in a fixture): its plugin is not loaded, and no test
module imports it at collection.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
#: Imported only by the tests that use them, never at a test module's top level.
RUN_TIME_ONLY = ("schemathesis",)


def top_level_imports(source: str) -> set[str]:
    """The modules a file imports as it is imported (its body and the ``if``/``try`` blocks there,
    not ``if TYPE_CHECKING:``, not in functions)."""
    found: set[str] = set()
    body = list(ast.parse(source).body)
    while body:
        node = body.pop()
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
        elif isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                body.extend(node.body)
            body.extend(node.orelse)
        elif isinstance(node, ast.Try):
            body.extend(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                body.extend(handler.body)
    return found


def test_no_test_module_imports_schemathesis_at_collection() -> None:
    sources = {path: path.read_text(encoding="utf-8") for path in TESTS.rglob("*.py")}
    offenders = sorted(
        str(path.relative_to(TESTS))
        for path, source in sources.items()
        if any(module in source for module in RUN_TIME_ONLY)  # parse only those that name one
        for name in top_level_imports(source)
        if name.split(".")[0] in RUN_TIME_ONLY
    )
    assert offenders == []


def test_the_checker_sees_a_top_level_import() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import schemathesis.openapi\n"
        "if TYPE_CHECKING:\n    import typing_only\n"
        "try:\n    from hidden import x\nexcept ImportError:\n    import fallback\n"
        "def f():\n    import lazy\n"
    )
    assert top_level_imports(source) == {"typing", "schemathesis.openapi", "hidden", "fallback"}


def test_schemathesis_pytest_plugin_is_not_loaded(pytestconfig: pytest.Config) -> None:
    assert not pytestconfig.pluginmanager.has_plugin("schemathesis")
