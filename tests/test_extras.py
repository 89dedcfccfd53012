"""A command whose pip extra is missing says so in one line with the pip command, exit code 2;
the core commands run without any extra."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from agon.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "examples" / "bonn-2018-sample.json")
EXTRA_MODULES = [
    "fastapi", "starlette", "uvicorn", "jinja2", "babel", "multipart", "python_multipart",
    "itsdangerous", "argon2", "psycopg", "weasyprint", "segno", "pettingzoo", "gymnasium",
    "numpy", "pyspiel", "open_spiel", "matplotlib", "ray",
]  # fmt: skip


def forget_modules(monkeypatch: pytest.MonkeyPatch, forget: Callable[[str], bool]) -> None:
    """Take the modules ``forget`` names out of sys.modules until the test ends.

    A later import makes new module objects and binds them as attributes of their parent
    packages (``agon.printing`` on ``agon``); monkeypatch puts back the old sys.modules entries,
    and here the old attributes too, so no test after this one meets a mix of old and new
    modules (doctest.testmod of a new ``agon.printing.render`` found no examples)."""
    for name in list(sys.modules):
        if forget(name):
            parent, _, child = name.rpartition(".")
            package = sys.modules.get(parent) if parent else None
            if package is not None and hasattr(package, child):
                monkeypatch.setattr(package, child, getattr(package, child))
            monkeypatch.delitem(sys.modules, name)


def run_without(monkeypatch: pytest.MonkeyPatch, modules: list[str], args: list[str]) -> int:
    """Run ``agon ARGS`` as if ``modules`` were not installed (None in sys.modules)."""
    forget_modules(
        monkeypatch,
        lambda name: (
            name.partition(".")[0] in modules or name.startswith(("agon.web", "agon.printing"))
        ),
    )
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(SystemExit) as exit_:
        main(args)
    code = exit_.value.code
    assert isinstance(code, int)
    return code


@pytest.mark.parametrize(
    ("missing", "args", "extra"),
    [
        ("uvicorn", ["serve"], "web"),
        ("jinja2", ["serve"], "web"),
        ("weasyprint", ["print", "standings", EXAMPLE, "-o", "/nonexistent/x.pdf"], "print"),
        ("psycopg", ["tournament", "list"], "postgresql"),
    ],
)  # fmt: skip
def test_missing_extra_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    missing: str,
    args: list[str],
    extra: str,
) -> None:
    monkeypatch.setenv("AGON_DATABASE_URL", "postgresql+psycopg://agon@127.0.0.1:9/agon")
    assert run_without(monkeypatch, [missing], args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"pip install 'agon-tournaments[{extra}]'" in err
    assert err.startswith("agon: error: ")


def test_a_missing_module_of_no_extra_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    monkeypatch.setattr("agon.extras.MODULE_EXTRAS", {})
    with pytest.raises(ModuleNotFoundError):
        main(["serve"])


def test_core_commands_run_without_any_extra(tmp_path: Path) -> None:
    """standings, schedule, verify, the director commands on SQLite, the engines, rating and
    series, with every extra's module made unimportable."""
    db = f"sqlite:///{tmp_path / 'agon.db'}"
    commands = [
        ["standings", EXAMPLE],
        ["schedule", "--players", "12", "--rounds", "3", "--seed", "1"],
        ["rating", EXAMPLE],
        ["series", str(ROOT / "examples" / "series-2018.toml")],
        ["7w", "simulate", "--games", "2"],
        ["ocw", "simulate", "--games", "2"],
        ["tournament", "create", "club", "--name", "Club", "--ruleset", "bonn-2018"],
        ["tournament", "list"],
    ]
    script = (
        "import sys\n"
        f"for name in {EXTRA_MODULES!r}:\n"
        "    sys.modules[name] = None\n"
        "from agon.cli import main\n"
        f"for args in {commands!r}:\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit as e:\n"
        "        assert not e.code, (args, e.code)\n"
        "print('core ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "AGON_DATABASE_URL": db},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "core ok" in done.stdout


def test_help_lists_a_command_whose_extra_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    forget_modules(
        monkeypatch,
        lambda name: name.startswith(
            ("babel", "agon.i18n", "agon.commands.printing", "agon.printing")
        ),
    )
    monkeypatch.setitem(sys.modules, "babel", None)
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "print" in out
    assert "standings" in out
    with pytest.raises(SystemExit) as exit_:
        main(["print", "standings", EXAMPLE])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == (
        "agon: error: agon print needs the optional print dependencies: pip install 'agon-tournaments[print]'\n"
    )
