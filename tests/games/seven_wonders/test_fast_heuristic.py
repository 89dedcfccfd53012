"""The compiled heuristic (``heuristic_act_noisy``, the policy of the search bots' play-outs)
values the actions in ``legal()``'s order without listing them: its values and its pick must
be the Python ``HeuristicBot``'s at every decision, in every phase (the main one, Babylon B's
seventh card, Halicarnassus' revival), for every wonder and side, with the default and the
tuned weights.
"""

from __future__ import annotations

from collections import Counter

import pytest

from agon.games.seven_wonders import fast
from agon.games.seven_wonders.bots import HeuristicBot, action_value
from agon.games.seven_wonders.data import HeuristicWeights, heuristic_weights
from agon.games.seven_wonders.engine import Game
from tests.games.seven_wonders.lockstep_games import decisions, setups

_native = fast.native()
assert _native is not None, "the compiled core is not installed: run make"
core = _native


def lockstep(setups_: list[tuple[int, Game, object]]) -> Counter[str]:
    """Play the games to the end (the heuristic and random moves mixed); at every decision of
    every seat to act the core's values and pick equal the Python bot's.  Counts decisions by
    phase."""
    counts: Counter[str] = Counter()
    tuned = heuristic_weights("tuned")
    weight_sets: list[HeuristicWeights | None] = [None, tuned]
    for seed, game, ng in setups_:
        assert isinstance(ng, core.NativeGame)
        for acting in decisions(seed, game, ng):
            for p in acting:
                legal = game.legal_actions(p)
                for weights in weight_sets:
                    vec = None if weights is None else weights.vector()
                    values, pick = core.heuristic_values(ng, p, seed + p, vec)
                    assert values == [action_value(game, p, a, weights) for a in legal]
                    bot = HeuristicBot(seed + p, weights=weights)
                    assert pick == fast.encode(bot.act(game, p)), (game.phase, p, seed)
                counts[game.phase] += 1
    return counts


def test_heuristic_pick_equals_the_python_bot_in_two_games() -> None:
    counts = lockstep(setups(2))
    assert counts["main"] > 20, counts


@pytest.mark.slow
def test_heuristic_pick_equals_the_python_bot_in_every_phase() -> None:
    counts = lockstep(setups(40))
    assert all(counts[k] > 0 for k in ("main", "seventh", "revive")), counts
