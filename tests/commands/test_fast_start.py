"""What keeps the director's commands fast: no Alembic unless a migration runs, no sub-command
imported for ``agon --help`` (speed itself is measured by bench/cli_latency.py, not here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
