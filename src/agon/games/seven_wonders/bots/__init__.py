"""Bots: random, a rule-based heuristic, and determinized Monte Carlo tree search.

Every bot is seeded explicitly.  A bot receives the whole :class:`Game` for speed but uses only
what its player can see: the search bot re-deals the other players' hands at random before
each simulation (determinization) and reseeds the future decks.

The modules (this package re-exports the public names; :func:`make_bot` and :func:`play_game`
live here):

- :mod:`~agon.games.seven_wonders.bots.base` — the :class:`Bot` protocol and :class:`RandomBot`;
- :mod:`~agon.games.seven_wonders.bots.heuristic` — :class:`HeuristicBot`, :func:`action_value`;
- :mod:`~agon.games.seven_wonders.bots.mcts` — :class:`MctsBot` (flat determinized search);
- :mod:`~agon.games.seven_wonders.bots.knowledge` — what a player knows of the hidden cards
  (:class:`Knowledge`) and the re-deals consistent with it;
- :mod:`~agon.games.seven_wonders.bots.ismcts` — information-set MCTS (:class:`IsmctsBot`).
"""

from __future__ import annotations

from agon.errors import InvalidInput
from agon.games.seven_wonders.bots.base import Bot, RandomBot
from agon.games.seven_wonders.bots.heuristic import HeuristicBot, action_value
from agon.games.seven_wonders.bots.ismcts import IsmctsBot
from agon.games.seven_wonders.bots.knowledge import Knowledge
from agon.games.seven_wonders.bots.mcts import MctsBot
from agon.games.seven_wonders.engine import Game

#: The bot kinds :func:`make_bot` knows (the command line, the ladder and online play use them).
BOTS = ("random", "heuristic", "mcts", "ismcts")


def make_bot(kind: str, seed: int, *, seconds: float = 0.5, engine: str = "auto") -> Bot:
    """A bot by name (see :data:`BOTS`; ``engine``: see :class:`MctsBot`).

    Raises:
        InvalidInput: for an unknown name.
    """
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    if kind == "mcts":
        return MctsBot(seed, seconds=seconds, engine=engine)
    if kind == "ismcts":
        return IsmctsBot(seed, seconds=seconds, engine=engine)
    raise InvalidInput(f"unknown bot {kind!r} ({', '.join(BOTS)})")


def play_game(game: Game, bots: list[Bot]) -> Game:
    """Play ``game`` to the end with one bot per seat; returns the finished game."""
    while not game.over:
        game.step_unchecked({p: bots[p].act(game, p) for p in game.to_act()})
    return game


__all__ = [
    "BOTS",
    "Bot",
    "HeuristicBot",
    "IsmctsBot",
    "Knowledge",
    "MctsBot",
    "RandomBot",
    "action_value",
    "make_bot",
    "play_game",
]
