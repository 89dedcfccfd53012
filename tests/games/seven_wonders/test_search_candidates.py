"""The search's candidates (``IsmctsBot``: the ``width`` best actions by the heuristic, the
cheapest payment each) made from the hand, without listing ``legal()``, are the same as from
the list.

The core's ``s_candidates`` builds the groups of ``legal()``'s order from the hand, values each
once from its cheapest payment and inserts it into the ``width`` best as it comes.  At every
decision of lockstep games (every wonder and side: the seventh card, revivals, free builds),
for every seat, several widths, with and without ``distinct`` and with several heuristic
weights, it must give exactly what ``s_candidates_listed`` gives from ``legal()``'s list, and
what the Python engine's search (``_PythonIsmcts._candidates``) gives.
"""

from __future__ import annotations

import random

import pytest

from agon.games.seven_wonders import fast
from agon.games.seven_wonders.bots.ismcts import _PythonIsmcts
from agon.games.seven_wonders.data import HeuristicWeights, heuristic_weights
from agon.games.seven_wonders.engine import Game
from tests.games.seven_wonders.lockstep_games import decisions, setups

_native = fast.native()
assert _native is not None, "the compiled core is not installed: run make"
core = _native

WIDTHS = (1, 2, 5, 6, 32)


def weight_sets(seed: int) -> list[tuple[HeuristicWeights | None, list[float] | None]]:
    """The default weights, the tuned ones, and two drawn around the default (one with a
    negative coin rate: paying more is then worth more)."""
    rng = random.Random(seed)
    default = heuristic_weights("default").vector()
    drawn = [x * rng.uniform(0.2, 3.0) for x in default]
    negative = list(drawn)
    rate = 18  # the coin rate's place in the vector (the core's W_RATE)
    assert default[rate] == heuristic_weights("default").coin_rate
    negative[rate] = -abs(negative[rate])
    tuned = heuristic_weights("tuned")
    return [(None, None), (tuned, tuned.vector()), (None, drawn), (None, negative)]


def check(setups_: list[tuple[int, Game, object]]) -> dict[str, int]:
    counts = {"decisions": 0, "phases": 0}
    phases: set[str] = set()
    for seed, game, ng in setups_:
        assert isinstance(ng, core.NativeGame)
        weights = weight_sets(seed)
        for acting in decisions(seed, game, ng):
            for p in range(game.n):
                assert ng.legal(p) == [fast.encode(a) for a in game.legal_actions(p)]
                for distinct in (False, True):
                    for obj, vec in weights:
                        for width in WIDTHS:
                            args = (ng, p, width, distinct, vec, vec)
                            got = core.search_candidates(*args)
                            assert got == core.search_candidates(*args, listed=True), (
                                game.phase,
                                p,
                                width,
                                distinct,
                                seed,
                            )
                            if vec is None or obj is not None:
                                want = _PythonIsmcts._candidates(game, p, width, distinct, obj, obj)
                                assert got == want, (game.phase, p, width, distinct, seed)
                if p in acting:
                    counts["decisions"] += 1
                    phases.add(game.phase)
    counts["phases"] = len(phases)
    return counts


def test_search_candidates_equal_the_listed_ones_in_two_games() -> None:
    counts = check(setups(2))
    assert counts["decisions"] > 50


@pytest.mark.slow
def test_search_candidates_equal_the_listed_ones_at_every_decision() -> None:
    counts = check(setups(40))
    assert counts["phases"] == 3, counts  # main, seventh, revive


def test_search_candidates_reject_a_bad_player_or_width() -> None:
    ng = fast.native_game(3, 1)
    with pytest.raises(ValueError, match="bad player or width"):
        core.search_candidates(ng, 3, 5)
    with pytest.raises(ValueError, match="bad player or width"):
        core.search_candidates(ng, 0, -1)
    assert core.search_candidates(ng, 0, 0) == []
