"""The compiled 7 Wonders core kept in step with an online game's engine (issue 30).

An online 7 Wonders game needs every acting seat's legal actions after each turn — for the seat's
state, each bot's decision and the check of each action — and the Python engine's
:meth:`~agon.games.seven_wonders.engine.Game.legal_actions` (every payment split of every card)
was the biggest cost of a move on the server. :class:`Lockstep` holds the same game in the
compiled core (:mod:`agon.cores.seven_wonders`, the core the simulations use, proven to make the
same legal actions in the same order) and answers the legal actions from it; the Python engine
stays the game itself (views, scores, the step), and the adapter steps both with the same
actions. Without the core (agon built without a C compiler), for a game with a withdrawal, or
once the table's clock has cut the game short (the core knows no last age), :func:`start` gives
``None`` and the adapter asks the Python engine — the same lists, slower.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from agon.games.seven_wonders.core import ActionCode, decode, encode, native, to_native
from agon.games.seven_wonders.engine import Action, Game

if TYPE_CHECKING:
    from agon.cores.seven_wonders import NativeGame

#: The engine's action and its text per code of the core: a game names a few hundred codes, the
#: same in every game (codes are (kind, card, coins left, coins right))
_ACTIONS: dict[ActionCode, tuple[Action, str]] = {}


class Lockstep:
    """The game in the compiled core, one step behind nothing: see the module docstring."""

    __slots__ = ("core",)

    def __init__(self, core: NativeGame) -> None:
        self.core = core

    def clone(self) -> Lockstep:
        return Lockstep(self.core.clone())

    def legal(self, seat: int) -> tuple[list[Action], list[str]]:
        """The seat's legal actions, as :meth:`Game.legal_actions` lists them, and their texts."""
        codes = self.core.legal(seat)
        try:
            hits = [_ACTIONS[code] for code in codes]
        except KeyError:  # a code no game named before
            for code in codes:
                if code not in _ACTIONS:
                    action = decode(code)
                    _ACTIONS[code] = (action, str(action))
            hits = [_ACTIONS[code] for code in codes]
        return [hit[0] for hit in hits], [hit[1] for hit in hits]

    def heuristic(self, seat: int, seed: int) -> str:
        """The heuristic bot's choice for ``seat`` (the default weights): the action
        ``HeuristicBot(seed)`` picks, float for float and draw for draw (the core's parity
        tests), about four times faster."""
        module = native()  # loaded: this game's core came from it
        assert module is not None
        _values, code = module.heuristic_values(self.core, seat, seed)
        hit = _ACTIONS.get(code)
        if hit is None:
            action = decode(code)
            hit = _ACTIONS[code] = (action, str(action))
        return hit[1]

    def step(self, actions: Mapping[int, Action]) -> None:
        """The turn the engine resolves with ``actions`` (legal ones: the caller checked)."""
        self.core.step({seat: encode(a) for seat, a in actions.items()})


def start(game: Game, *, engine: str = "auto") -> Lockstep | None:
    """The core holding ``game`` (``None``: the Python engine answers, see the module
    docstring); ``engine="python"`` always gives ``None`` (the parity tests' reference)."""
    if engine == "python" or game.last_age != 3:
        return None
    core = to_native(game)
    return None if core is None else Lockstep(core)
