"""A finished online game step by step (issue 28; docs/online-play.md, "Replays").

:func:`replay_document` is ``GET /api/play/{id}/replay``: the game's setup, its revealed seed and
the seed's SHA-256 (the commitment every state carried while it ran), and every step of its log —
the seat, the action and the public state that resulted — enough for another tool to replay the
game with agon's engines (:func:`agon.play.adapters.new_adapter`, then ``apply(seat, action)`` per
step) and compare. :func:`replay_position` is the replay page's: the game as it stood after a
step, from any seat's point of view (its hand too: the game is over).

Only a finished game has a replay: while it runs its seed and hands are nobody's to know
(:class:`agon.play.gamefile.GameNotOver`, HTTP 409).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agon.errors import InvalidInput
from agon.play.adapters import Adapter, Setup, new_adapter
from agon.play.gamefile import export_game, setup_of

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

FORMAT = "agon-replay/1"


def replay_document(session: Session, game_id: str) -> dict[str, Any]:
    """The replay of a finished game (see the module docstring): the game file's fields
    (:func:`agon.play.gamefile.export_game`) with ``steps`` instead of ``log``; each step is
    ``{"seq", "seat", "action", "state"}``, ``state`` the public view after the action
    (:meth:`agon.play.adapters.Adapter.view` of ``None``), as every spectator saw it;
    ``initial`` is the public view before the first step.

    Raises:
        NotFound: no such game.  GameNotOver: the game runs (409).
    """
    doc = export_game(session, game_id)
    log = doc.pop("log")
    adapter = new_adapter(setup_of(doc, doc["seed"]))
    steps = []
    for seq, seat, action in log:
        adapter.apply(seat, action)
        steps.append({"seq": seq, "seat": seat, "action": action, "state": adapter.view(None)})
    initial = new_adapter(adapter.setup).view(None)
    return {**doc, "format": FORMAT, "initial": initial, "steps": steps}


@dataclass(frozen=True, slots=True)
class Position:
    """A finished game as it stood after ``step`` entries of its log (0: before the first)."""

    game_id: str
    setup: Setup
    step: int
    steps: int
    log: list[tuple[int, int, str]]
    names: list[str]
    kinds: list[str]
    adapter: Adapter
    scores: Any

    def state(self, seat: int | None) -> dict[str, Any]:
        """The position in the shape of a seat's state (``GET /api/play/{id}``), as the table
        pages draw it: ``seat``'s hand included (the game is over), no legal moves."""
        adapter = self.adapter
        view = adapter.view(seat) | {"names": self.names, "kinds": self.kinds}
        if seat is not None:
            view["moves"] = []
        return {
            "seat": seat,
            "version": self.step,
            "over": adapter.over,
            "to_act": False,
            "legal": [],
            "view": view,
            "scores": adapter.scores(self.names) if adapter.over else None,
            "seed_sha256": None,
            "seed": None,
        }


def replay_position(session: Session, game_id: str, step: int | None) -> Position:
    """The finished game ``game_id`` after ``step`` log entries (``None``: the last).

    Raises:
        NotFound: no such game.  GameNotOver: the game runs (409).  InvalidInput: a step the
            log does not have.
    """
    doc = export_game(session, game_id)
    log = [(int(e[0]), int(e[1]), str(e[2])) for e in doc["log"]]
    if step is None:
        step = len(log)
    if not 0 <= step <= len(log):
        raise InvalidInput(f"game {game_id}: steps 0 to {len(log)}, got {step}")
    setup = setup_of(doc, doc["seed"])
    adapter = new_adapter(setup)
    for _seq, seat, action in log[:step]:
        adapter.apply(seat, action)
    return Position(
        game_id=game_id,
        setup=setup,
        step=step,
        steps=len(log),
        log=log,
        names=[str(s["name"]) for s in doc["seats"]],
        kinds=[str(s.get("kind")) for s in doc["seats"]],
        adapter=adapter,
        scores=doc["scores"],
    )
