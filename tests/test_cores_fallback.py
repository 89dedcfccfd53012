"""Without the compiled cores (agon built with no C compiler) ``engine=auto`` plays on the Python
engines and says so in one note on stderr; with them it says nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from agon.commands import ocw as ocw_cli
from agon.commands import seven_wonders as sw_cli
from agon.cores import FALLBACK_NOTE
from agon.games.one_card_wonder import native as ocw_native


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


def test_the_seven_wonders_search_bot_falls_back_to_python_and_chooses_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agon.games.seven_wonders import core
    from agon.games.seven_wonders.bots import HeuristicBot, IsmctsBot
    from agon.games.seven_wonders.engine import Game

    g = Game(4, 12)
    heur = [HeuristicBot(p) for p in range(4)]
    g.step({p: heur[p].act(g, p) for p in g.to_act()})
    with_core = IsmctsBot(3, iterations=12)
    chosen = with_core.act(g, 0)
    monkeypatch.setattr(core, "native", lambda: None)  # as if built without a C compiler
    without = IsmctsBot(3, iterations=12)
    choice = without.act(g, 0)
    assert without.last_engine == "python" and without.last_iterations >= 12
    if with_core.last_engine == "native":  # this agon has the compiled core: the same search
        assert choice == chosen and without.last_totals == with_core.last_totals


def test_agon_standings_without_the_standings_core_prints_the_same(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Built without a C compiler, ``agon standings`` reads, scores and prints in Python: the
    same output as with the compiled standings core (when this agon has it)."""
    import json
    import random

    from agon.cli import cli
    from agon.tournament import safeload
    from agon.tournament import standings as standings_module

    rng = random.Random(5)
    names = [f"P{i:03d}" for i in range(40)]
    rounds = []
    for _ in range(3):
        rng.shuffle(names)
        rounds.append(
            {
                "tables": [
                    {
                        "results": [
                            {"player": p, "vp": rng.randint(30, 60), "coins": rng.randint(0, 3)}
                            for p in names[i : i + 5]
                        ]
                    }
                    for i in range(0, 40, 5)
                ]
            }
        )
    doc = {"name": "t", "ruleset": "bonn-2018", "seed": "s", "players": names, "rounds": rounds}
    path = tmp_path / "e.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with_core = CliRunner().invoke(cli, ["standings", str(path)])
    monkeypatch.setattr(standings_module, "_CORE", [None])
    monkeypatch.setattr(safeload, "_caps_core", lambda: None)
    without = CliRunner().invoke(cli, ["standings", str(path)])
    assert with_core.exit_code == without.exit_code == 0, without.output
    assert without.stdout == with_core.stdout
    assert "P0" in without.stdout and len(without.stdout.splitlines()) == 43
