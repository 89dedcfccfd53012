"""Replaying a stored online game: does its log still play, action by action, from its setup?

A game's state is never stored, only its setup (seed included) and its log; whatever a server
process did, the log must replay. :func:`first_divergence` names the first step that does not
(an action that is not legal where it stands, a hole in the numbering); ``agon db verify``
checks every stored game this way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import AgonError
from agon.play.adapters import TABLE, Adapter, Setup, new_adapter
from agon.play.store import chain_hash, load_game
from agon.store.models import PlayActionRow, PlayGameRow


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first step of a log that does not replay."""

    step: int
    reason: str

    def __str__(self) -> str:
        return f"step {self.step}: {self.reason}"


def replay(setup: Setup, log: Iterable[tuple[int, int, str]]) -> tuple[Adapter, Divergence | None]:
    """Apply ``log`` (``(seq, seat, action)`` from seq 1 on) to a new game of ``setup``; the
    game as far as it replayed, and the first divergent step (``None``: all of it replayed)."""
    adapter = new_adapter(setup)
    expected = 1
    for seq, seat, action in log:
        if seq != expected:
            return adapter, Divergence(expected, f"the log jumps to step {seq}")
        who = "the table" if seat == TABLE else f"seat {seat}"
        if adapter.over:
            return adapter, Divergence(seq, f"{who} {action!r} after the game ended")
        try:
            adapter.apply(seat, action)
        except (AgonError, ValueError, IndexError) as exc:
            return adapter, Divergence(seq, f"{who} {action!r}: {exc}")
        expected += 1
    return adapter, None


def check_stored(session: Session, game_id: str) -> Divergence | None:
    """The first step of the stored game ``game_id`` that does not replay, or whose hash chain
    (:func:`agon.play.store.chain_hash`) is not its log's (``None``: all of it is right)."""
    record = load_game(session, game_id)
    rows = session.execute(
        select(PlayActionRow.seq, PlayActionRow.seat, PlayActionRow.action, PlayActionRow.chain)
        .where(PlayActionRow.game_id == game_id)
        .order_by(PlayActionRow.seq)
    ).all()
    prev: str | None = None
    for seq, seat, action, chain in rows:
        prev = chain_hash(prev, seq, seat, action)
        if chain != prev:
            return Divergence(seq, "the stored hash chain is not the log's (rewritten?)")
    _adapter, divergence = replay(record.setup, [(r[0], r[1], r[2]) for r in rows])
    return divergence


def check_all(session: Session) -> dict[str, Divergence | None]:
    """:func:`check_stored` for every stored game, by id."""
    ids = session.scalars(select(PlayGameRow.id).order_by(PlayGameRow.id)).all()
    return {game_id: check_stored(session, game_id) for game_id in ids}
