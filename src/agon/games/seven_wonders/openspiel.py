"""7 Wonders as an OpenSpiel game (optional: ``pip install open-spiel``; module ``pyspiel``).

Importing this module registers ``agon_seven_wonders`` with OpenSpiel, so its algorithms and
tests run on agon's engine: ``pyspiel.load_game("agon_seven_wonders(players=4)")``.

- A simultaneous-move game (every player chooses at once, as at the table), with one explicit
  chance node at the start: the deal, one of ``deals`` equally likely seeds of the engine (the
  engine deals all three ages from its seed). ``pyspiel.convert_to_turn_based`` turns it into a
  sequential game for algorithms that need one (MCTS).
- Actions are the integer codes of :mod:`agon.games.seven_wonders.codes` (the PettingZoo
  adapter's): ``kind * C + card``, ``PASS``; a build or stage pays the cheapest legal way.
  A player who need not act in a phase (Babylon's seventh card, Halikarnassos) has only ``PASS``.
- Imperfect information: a player's observation is the table's phase, the own hand and every
  city (:func:`~agon.games.seven_wonders.codes.observation_vector`), as a tensor and a string.
- Terminal rewards: 1 for a win, shared on ties (coins break ties, as the rulebook says), else 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from agon.games.seven_wonders.codes import (
    KINDS,
    N_ACTIONS,
    PASS,
    C,
    legal_codes,
    observation_vector,
)
from agon.games.seven_wonders.engine import Game

SHORT_NAME = "agon_seven_wonders"
_DEFAULTS: dict[str, Any] = {"players": 3, "deals": 1000}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="7 Wonders (agon, first edition base game)",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=7,
    min_num_players=3,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS,
)


def _card_name(card: int) -> str:
    from agon.games.seven_wonders.data import cards

    return cards()[card].en


def action_text(code: int) -> str:
    """A code in words, e.g. ``build Lumber Yard (card 0)`` or ``pass`` (cards of the same name
    in different ages are different cards, so the card number is part of the text)."""
    if code == PASS:
        return "pass"
    return f"{KINDS[code // C]} {_card_name(code % C)} (card {code % C})"


class SevenWondersGame(pyspiel.Game):  # type: ignore[misc]
    """The game: ``players`` (3–7) and the number of different ``deals`` the chance node picks."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        players, deals = int(params["players"]), int(params["deals"])
        if not 3 <= players <= 7:
            raise ValueError(f"players must be 3…7, got {players}")
        if not 1 <= deals <= 1_000_000:
            raise ValueError(f"deals must be 1…1000000, got {deals}")
        self.players = players
        self.deals = deals
        super().__init__(
            GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=N_ACTIONS,
                max_chance_outcomes=deals,
                num_players=players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=1.0,
                max_game_length=3 * 7 + 3,  # 21 turns, Babylon's seventh cards, Halikarnassos
            ),
            params,
        )

    def new_initial_state(self) -> SevenWondersState:
        return SevenWondersState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SevenWondersObserver:
        return SevenWondersObserver(self.players)


class SevenWondersState(pyspiel.State):  # type: ignore[misc]
    """A state: before the deal (chance), then the engine's game."""

    def __init__(self, game: SevenWondersGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._deals = game.deals
        self.engine: Game | None = None

    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.engine.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.engine is None
        p = 1.0 / self._deals
        return [(deal, p) for deal in range(self._deals)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None and player >= 0
        if player not in self.engine.to_act():
            return [PASS]
        return sorted(legal_codes(self.engine, player)) or [PASS]

    def _apply_action(self, action: int) -> None:
        assert self.engine is None, "only the deal is a single action"
        self.engine = Game(self._players, int(action))

    def _apply_actions(self, actions: list[int]) -> None:
        engine = self.engine
        assert engine is not None
        joint = {}
        for p in engine.to_act():
            legal = legal_codes(engine, p)
            joint[p] = legal[int(actions[p])]
        engine.step(joint)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return action_text(int(action))

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._players
        assert self.engine is not None
        winners = self.engine.winners()
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self._players)]

    def __str__(self) -> str:
        if self.engine is None:
            return "before the deal"
        g = self.engine
        cities = "; ".join(
            f"p{p}: {g.cities[p].coins} coins, {g.cities[p].stages_built} stages"
            for p in range(self._players)
        )
        return f"age {g.age}, turn {g.turn}, phase {g.phase}: {cities}"


class SevenWondersObserver:
    """A player's observation as a tensor (the codes module's vector) and a string."""

    def __init__(self, players: int) -> None:
        from agon.games.seven_wonders.codes import CITY_FIELDS, OBS_HEAD

        self.tensor = np.zeros(OBS_HEAD + CITY_FIELDS * players, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SevenWondersState, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is not None:
            self.tensor[:] = observation_vector(state.engine, player)

    def string_from(self, state: SevenWondersState, player: int) -> str:
        if state.engine is None:
            return "before the deal"
        g = state.engine
        hand = ", ".join(sorted(_card_name(c) for c in g.hands[player]))
        return (
            f"age {g.age}, turn {g.turn}, phase {g.phase}; player {player} holds: {hand}; {state}"
        )


pyspiel.register_game(GAME_TYPE, SevenWondersGame)
