"""Replaying a stored online game: does its log still play, action by action, from its setup?

A game's state is never stored, only its setup (seed included) and its log; whatever a server
process did, the log must replay. :func:`first_divergence` names the first step that does not
(an action that is not legal where it stands, a hole in the numbering). ``agon db verify``
checks every stored game this way (:func:`agon.play.store.check_stored`), ``agon verify`` a
finished game's file (:mod:`agon.play.gamefile`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from agon.errors import AgonError, IllegalAction
from agon.play.adapters import TABLE, Adapter, Setup, new_adapter


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first step of a log that does not replay."""

    step: int
    reason: str

    def __str__(self) -> str:
        return f"step {self.step}: {self.reason}"


def replay(setup: Setup, log: Iterable[tuple[int, int, str]]) -> tuple[Adapter, Divergence | None]:
    """Apply ``log`` (``(seq, seat, action)`` from seq 1 on) to a new game of ``setup``; the
    game as far as it replayed, and the first divergent step (``None``: all of it replayed).

    Raises:
        AgonError: the setup makes no game.
    """
    adapter = new_adapter(setup)
    expected = 1
    for seq, seat, action in log:
        who = "the table" if seat == TABLE else f"seat {seat}"
        if seq != expected:
            return adapter, Divergence(expected, f"the log numbers it {seq}")
        if seat != TABLE and not 0 <= seat < setup.seats:
            return adapter, Divergence(seq, f"there is no seat {seat}")
        if adapter.over:
            return adapter, Divergence(seq, f"{who} acts after the game is over")
        try:
            if seat != TABLE and action not in adapter.legal(seat):
                raise IllegalAction(action)
            adapter.apply(seat, action)
        except (AgonError, IndexError):
            return adapter, Divergence(seq, f"{who} {action[:80]!r} is not legal")
        expected += 1
    return adapter, None
