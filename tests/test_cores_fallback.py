"""Without the compiled cores (agon built with no C compiler) ``engine=auto`` plays on the Python
engines and says so in one note on stderr; with them it says nothing."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from agon.cores import FALLBACK_NOTE
from agon.games.one_card_wonder import cli as ocw_cli
from agon.games.one_card_wonder import native as ocw_native
from agon.games.seven_wonders import cli as sw_cli


@pytest.mark.parametrize("core", [True, False])
def test_seven_wonders_auto_notes_a_missing_core(
    monkeypatch: pytest.MonkeyPatch, core: bool
) -> None:
    if not core:
        monkeypatch.setattr(sw_cli, "native_available", lambda: False)
    elif not sw_cli.native_available():
        pytest.skip("this agon was built without the compiled cores")
    result = CliRunner().invoke(sw_cli.group, ["simulate", "--games", "1", "--engine", "auto"])
    assert result.exit_code == 0, result.output
    assert result.stderr.count(FALLBACK_NOTE) == (0 if core else 1)
    assert result.stderr.count("\n") == (0 if core else 1)


@pytest.mark.parametrize("core", [True, False])
def test_one_card_wonder_auto_notes_a_missing_core(
    monkeypatch: pytest.MonkeyPatch, core: bool
) -> None:
    if not core:
        monkeypatch.setattr(ocw_native, "_native", None)
    elif not ocw_native.available():
        pytest.skip("this agon was built without the compiled cores")
    result = CliRunner().invoke(ocw_cli.group, ["simulate", "--games", "2", "--engine", "auto"])
    assert result.exit_code == 0, result.output
    assert result.stderr.count(FALLBACK_NOTE) == (0 if core else 1)
    assert "2 games" in result.stdout
