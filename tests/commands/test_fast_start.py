"""What keeps the director's commands fast: no Alembic unless a migration runs, no sub-command
imported for ``agon --help``, no click for ``agon standings FILE`` (speed itself is measured by
bench/cli_latency.py and bench/standings.py, not here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.cli_runner import run_agon

from agon.cli import SHORT_HELP, SUBCOMMANDS
from agon.store.db import Settings, make_engine
from agon.store.migrate import current_revision, head_revision, package_head


def test_the_head_known_from_file_names_is_alembics_head(db_url: str) -> None:
    engine = make_engine(Settings(db_url))
    assert package_head() == head_revision(engine)
    engine.dispose()


def test_a_new_database_has_no_revision(tmp_path: Path) -> None:
    engine = make_engine(Settings(f"sqlite:///{tmp_path}/new.db"))
    assert current_revision(engine) is None
    engine.dispose()


def _modules_after(*args: str) -> set[str]:
    code = (
        "import sys\nfrom agon.cli import main\n"
        f"try:\n    main({list(args)!r})\nexcept SystemExit:\n    pass\n"
        "print('\\n'.join(sys.modules), file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(proc.stderr.split())


def test_help_imports_no_sub_command_and_a_current_database_no_alembic(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert set(SHORT_HELP) == set(SUBCOMMANDS)
    loaded = _modules_after("--help")
    assert not {m for m in loaded if m.startswith(("agon.commands", "sqlalchemy", "agon.games"))}
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)  # migrated by the fixture
    loaded = _modules_after("tournament", "list")
    assert "agon.services.tournaments" in loaded
    assert not {m for m in loaded if m.startswith(("alembic", "yaml"))}


def test_db_current_and_a_write_import_only_what_they_use(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``db current`` names the newest revision without Alembic; a change imports the service of
    its own action, not every handler module; a replay (undo) those of its journal's actions."""
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)
    monkeypatch.setenv("AGON_ACTOR", "test")
    loaded = _modules_after("db", "current")
    assert not {m for m in loaded if m.startswith("alembic")}
    _modules_after("tournament", "create", "fast", "--name", "Fast", "--ruleset", "bonn-2018")
    loaded = _modules_after("player", "add", "Anna", "-t", "fast")
    assert "agon.services.players" in loaded
    assert not loaded & {"agon.services.online", "agon.services.floor", "agon.services.exchange"}
    loaded = _modules_after("tournament", "undo", "-t", "fast")
    # a replay imports the handler modules of the actions its journal holds, and only those
    assert "agon.services.tournaments" in loaded  # what is left: the tournament's creation
    assert not loaded & {"agon.services.online", "agon.services.floor", "agon.services.exchange"}


def test_start_up_pauses_the_collector_and_the_command_runs_with_it() -> None:
    """Run as the process's command line, start-up runs without automatic collections and the
    command itself with them (a long ``agon serve`` must collect); with ``argv`` given (tests,
    scripts) nothing about the collector changes."""
    code = (
        "import gc, sys\nimport agon.cli\nseen = []\n"
        "cmd = agon.cli.cli.get_command\n"
        "def spy(ctx, name):\n"
        "    seen.append(('before import', gc.isenabled()))\n"
        "    got = cmd(ctx, name)\n"
        "    seen.append(('command', gc.isenabled()))\n"
        "    return got\n"
        "agon.cli.cli.get_command = spy\n"
        "sys.argv = ['agon', 'validate', '--help']\n"
        "try:\n    agon.cli.main()\nexcept SystemExit:\n    pass\n"
        "print(seen[0], seen[-1], gc.isenabled(), gc.get_freeze_count() > 0, file=sys.stderr)\n"
        "gc.unfreeze()\nseen.clear()\n"
        "try:\n    agon.cli.main(['validate', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(seen[0], file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, second = proc.stderr.strip().splitlines()
    assert first == "('before import', False) ('command', True) True True"
    assert second == "('before import', True)"


def _event_file(tmp_path: Path, **change: object) -> Path:
    """A small event of full tables (the compiled core's one pass reads it)."""
    players = [f"Player {i}" for i in range(8)]
    rounds = [
        {
            "tables": [
                {
                    "results": [
                        {"player": p, "vp": 30 + 3 * i + r, "coins": i} for i, p in enumerate(t)
                    ]
                }
                for t in (players[:4], players[4:])
            ]
        }
        for r in range(2)
    ]
    doc = {"name": "Fast", "ruleset": "de-championship", "players": players, "rounds": rounds}
    path = tmp_path / "event.json"
    path.write_text(json.dumps({**doc, **change}), encoding="utf-8")
    return path


def _launch(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``agon ARGS`` through the console script's entry point, and the modules it imported."""
    code = (
        f"import sys\nsys.argv = ['agon', *{list(args)!r}]\nfrom agon.launch import main\n"
        "try:\n    main()\nfinally:\n    print('\\n'.join(sys.modules), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    return proc, set(proc.stderr.split())


def test_standings_of_a_file_starts_without_click_and_prints_what_click_prints(
    tmp_path: Path,
) -> None:
    """``agon standings FILE`` (issue 30): the table from the compiled core's one pass, without
    importing click, the command modules or the Python standings — the very text the click
    command prints; with an option, or for a file the one pass does not take, click runs it."""
    path = _event_file(tmp_path)
    proc, loaded = _launch("standings", str(path))
    assert proc.returncode == 0
    assert not {m for m in loaded if m.split(".")[0] == "click"}
    assert not loaded & {"agon.cli", "agon.commands.standings", "agon.tournament.standings"}
    assert proc.stdout == run_agon("standings", str(path)).stdout
    assert "Player" in proc.stdout
    proc, loaded = _launch("standings", str(path), "--json")
    assert proc.returncode == 0 and "click" in loaded


@pytest.mark.parametrize(
    "change",
    [{"ruleset": "no-such-ruleset"}, {"players": []}, {"rounds": [{"tables": 3}]}],
)
def test_a_bad_file_gets_the_command_lines_own_one_line_error(
    tmp_path: Path, change: dict[str, object]
) -> None:
    path = _event_file(tmp_path, **change)
    proc, loaded = _launch("standings", str(path))
    expected = run_agon("standings", str(path))
    assert (proc.returncode, proc.stdout) == (expected.returncode, expected.stdout)
    assert proc.stderr.splitlines()[0] == expected.stderr.strip()
    assert proc.returncode == 2 and "click" in loaded
