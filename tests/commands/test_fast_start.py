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
