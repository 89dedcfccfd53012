"""What a bot is (:class:`Bot`), and the uniformly random one."""

from __future__ import annotations

import random
from typing import Protocol

from agon.games.seven_wonders.engine import Action, Game


class Bot(Protocol):
    """Chooses an action for ``player`` (who must be in ``game.to_act()``)."""

    name: str

    def act(self, game: Game, player: int) -> Action: ...


class RandomBot:
    """Uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Game, player: int) -> Action:
        return self.rng.choice(game.legal_actions(player))
