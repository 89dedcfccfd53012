"""The search bots' play-out policy is valued by (kind, card) groups in the compiled core.

``heuristic_act_noisy`` with a SplitMix64 (``MctsBot``'s rollouts, ``IsmctsBot``'s play-outs)
no longer lists the legal actions nor draws one number per action: it values each group's
cheapest payment, bounds the rest by the noise and reads only the draws it needs at their
index.  It must pick exactly what the listed rule picks — the first maximum of
``action_value(legal[i]) + draw_i * noise`` over ``legal()``, ``draw_i`` the generator's
``i``-th number — and leave the generator where ``len(legal)`` draws leave it.
"""

from __future__ import annotations

import random

from agon.games.seven_wonders import fast
from agon.games.seven_wonders.bots.base import SplitMix64
from agon.games.seven_wonders.data import heuristic_weights, wonders

_native = fast.native()
assert _native is not None, "the compiled core is not installed: run make"
core = _native

DEFAULT = heuristic_weights("default").vector()


def listed_pick(
    ng: object, p: int, seed: int, noise: float, weights: list[float] | None
) -> tuple[tuple[int, int, int, int], int] | None:
    """The rule on the listed actions, in Python: a draw per legal action, the first maximum."""
    legal = ng.legal(p)  # type: ignore[attr-defined]
    if not legal:
        return None
    values, _ = core.heuristic_values(ng, p, 0, weights)
    rng = SplitMix64(seed)
    best, best_v = -1, 0.0
    for i, v in enumerate(values):
        v = v + rng.random() * noise
        if best < 0 or v > best_v:
            best, best_v = i, v
    return legal[best], rng.state


def weight_sets(seed: int) -> list[list[float] | None]:
    """The default weights, a perturbed set, and one paying coins a negative value (the core
    then falls back to the listed rule: a dearer payment is no longer worth less)."""
    r = random.Random(seed)
    perturbed = [w * r.uniform(0.5, 1.5) for w in DEFAULT]
    negative = list(DEFAULT)
    negative[18] = -abs(DEFAULT[18]) - 1.0  # W_RATE, the coins per point
    return [None, perturbed, negative]


def walk(ng: object, players: int, seed: int, counts: dict[str, int]) -> None:
    assert isinstance(ng, core.NativeGame)
    mover = random.Random(seed)
    sets = weight_sets(seed)
    while not ng.over:
        acting = ng.to_act()
        for p in range(players):
            for k, (s, noise) in enumerate(
                ((seed, 1e-3), (seed * 7919 + p, 0.0), (-seed - 1, 0.5), (seed + 11, 40.0))
            ):
                weights = sets[k % len(sets)]
                got = ng.search_pick(p, s, noise, weights)
                assert got == listed_pick(ng, p, s, noise, weights), (ng.phase, p, s, noise, k)
            if p in acting:
                counts[ng.phase] += 1
        ng.step({p: mover.choice(ng.legal(p)) for p in acting})


def test_search_pick_is_the_listed_rule() -> None:
    counts: dict[str, int] = {"main": 0, "seventh": 0, "revive": 0}
    names = [w.en for w in wonders()]
    for seed in range(16):
        players = 3 + seed % 5
        if seed % 2:
            ng = fast.native_game(players, seed)
        else:  # every wonder and side in turn: the seventh card, revivals, free builds
            boards = [names[(seed // 2 + k) % 7] for k in range(players)]
            sides = "".join("AB"[(seed // 14 + k) % 2] for k in range(players))
            ng = fast.native_game(players, seed, wonders=boards, sides=sides)
        walk(ng, players, seed, counts)
    assert all(counts[k] > 0 for k in ("main", "seventh", "revive")), counts


def test_search_pick_of_no_player() -> None:
    ng = fast.native_game(3, 5)
    assert ng.search_pick(3, 1) is None
    assert ng.search_pick(-1, 1) is None
