"""What collecting the suite costs each test process (issue 30).

``make test`` collects the whole suite once in each xdist worker, so an import at a test module's
top level is paid once per worker. Before the workers start, ``make rewrite-tests``
(tests/rewrite_ahead.py) writes pytest's rewritten test modules and hypothesis's constants of
agon's modules without collecting anything; the tests at the end pin that it writes what the
workers would otherwise make themselves. schemathesis (about 1.7 s of CPU with
its pytest plugin, measured in docs/dev-measurements.md) is needed by one test only
(tests/web/test_fuzz_api.py, which imports it in a fixture): its plugin is not loaded, and no test
module imports it at collection.
"""

from __future__ import annotations

import ast
import hashlib
import sys
from pathlib import Path

import pytest

import agon

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


# --- make test's rewrite-tests (tests/rewrite_ahead.py) ----------------------------------------


def test_rewrite_ahead_covers_every_module_pytest_rewrites_in_the_suite(
    pytestconfig: pytest.Config,
) -> None:
    """Every module of the tests folder that this process imported through pytest's rewriting
    hook (its conftest files and test modules) is one ``make rewrite-tests`` writes ahead."""
    from _pytest.assertion.rewrite import AssertionRewritingHook

    from tests.rewrite_ahead import targets

    rewritten = {
        Path(module.__file__).resolve()
        for module in list(sys.modules.values())
        if isinstance(getattr(module, "__loader__", None), AssertionRewritingHook)
        and module.__file__ is not None
        and Path(module.__file__).resolve().is_relative_to(TESTS)
        and module.__name__ != "tests.rewrite_ahead"  # the plugin itself, when it is loaded by -p
    }
    assert __file__ and Path(__file__).resolve() in rewritten
    assert any(path.name == "conftest.py" for path in rewritten)
    assert rewritten <= set(targets(pytestconfig))


def test_rewrite_ahead_writes_what_pytest_reads(
    pytestconfig: pytest.Config, tmp_path: Path
) -> None:
    """The rewritten module is written where pytest's hook looks for it, with the code the hook
    would make itself; a second run finds it and rewrites nothing."""
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, get_cache_dir

    from tests.rewrite_ahead import rewrite

    module = tmp_path / "test_sample.py"
    module.write_text("def test_sample():\n    x = 1\n    assert x + 1 == 3, 'no'\n")
    assert rewrite(pytestconfig, module)
    code = _read_pyc(module, get_cache_dir(module) / f"test_sample{PYC_TAIL}")
    assert code is not None
    assert code == _rewrite_test(module, pytestconfig)[1]
    assert not rewrite(pytestconfig, module)
    module.write_text("def test_sample():\n    assert 2 == 3\n")  # changed: written again
    assert rewrite(pytestconfig, module)


def test_rewrite_ahead_writes_the_constants_hypothesis_reads() -> None:
    """Every local module whose constants hypothesis reads in this process is one whose constants
    ``make rewrite-tests`` writes, and they land in hypothesis's cache under its own key."""
    from hypothesis.configuration import storage_directory
    from hypothesis.internal.constants_ast import is_local_module_file

    from tests.rewrite_ahead import local_modules, write_constants

    local = {
        Path(module.__file__).resolve()
        for module in list(sys.modules.values())
        if isinstance(getattr(module, "__file__", None), str)
        and module.__file__.endswith(".py")
        and is_local_module_file(module.__file__)
    }
    assert any("agon" in path.parts for path in local)
    assert local <= {path.resolve() for path in local_modules()}
    source = Path(agon.__file__)
    cached = (
        storage_directory("constants").path / hashlib.sha1(source.read_bytes()).hexdigest()[:16]
    )
    cached.unlink(missing_ok=True)
    write_constants([source])
    assert cached.is_file()
