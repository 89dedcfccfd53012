"""A game's end sweeps the online tournament tables at once only when it is a table's game: the
play API's own games (no tournament in their meta) are no table's, and the sweep read every
tournament for nothing at each of their ends (the periodic sweep goes on for all)."""

from __future__ import annotations

from typing import Any

import pytest

from agon.play.service import FinishedGame
from agon.services import online


def finished(meta: dict[str, Any] | None) -> FinishedGame:
    return FinishedGame("g1", "7w", [], [], meta, "seed")


@pytest.mark.parametrize(
    ("meta", "sweeps"),
    [
        ({"tournament": "spring", "round": 1, "table": 2, "tournament_table": "R1 T2"}, 1),
        (None, 0),
        ({}, 0),
        ({"note": "a friendly game"}, 0),
    ],
)
def test_only_a_tournament_tables_end_sweeps_at_once(
    app: Any, monkeypatch: pytest.MonkeyPatch, meta: dict[str, Any] | None, sweeps: int
) -> None:
    calls: list[object] = []
    monkeypatch.setattr(online, "sweep_all", lambda *args, **kwargs: calls.append(args))
    hooks = app.state.play._finish_hooks
    assert len(hooks) == 1  # the app's own: the sweep
    hooks[0](finished(meta))
    assert len(calls) == sweeps
