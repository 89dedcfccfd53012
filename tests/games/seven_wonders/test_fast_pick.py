"""The compiled random bot counts the legal actions instead of listing them.

``random_pick`` (the core's ``RandomBot.act``) must pick exactly ``legal[k]`` for the ``k`` the
generator draws: the count card by card, the walk to the k-th action and the listed payments of
its card follow the order of ``legal()``.  Counting payments (``payments(..., NULL)``) must give
the number of payments listed.
"""

from __future__ import annotations

import random

from agon.games.seven_wonders import fast
from agon.games.seven_wonders.bots.base import SplitMix64
from agon.games.seven_wonders.data import wonders

_native = fast.native()
assert _native is not None, "the compiled core is not installed: run make"
core = _native


def walk(ng: object, players: int, seed: int, counts: dict[str, int]) -> None:
    """Play ``ng`` to the end with random actions; at every decision of every seat the compiled
    pick from a few generator seeds equals ``RandomBot(s)``'s: ``legal[SplitMix64(s).below(n)]``."""
    assert isinstance(ng, core.NativeGame)
    mover = random.Random(seed)
    while not ng.over:
        acting = ng.to_act()
        for p in range(players):
            legal = ng.legal(p)
            for s in (seed, seed * 7919 + p, -seed - 1):
                expected = legal[SplitMix64(s).below(len(legal))] if legal else None
                assert ng.random_pick(p, s) == expected, (ng.phase, p, s)
            if p in acting:
                counts[ng.phase] += 1
                counts["several" if len(legal) > 1 else "one"] += 1
        ng.step({p: mover.choice(ng.legal(p)) for p in acting})


def test_random_pick_is_legal_at_the_drawn_index() -> None:
    counts: dict[str, int] = {"main": 0, "seventh": 0, "revive": 0, "one": 0, "several": 0}
    names = [w.en for w in wonders()]
    for seed in range(40):
        players = 3 + seed % 5
        if seed % 2:
            ng = fast.native_game(players, seed)
        else:  # every wonder and side in turn: the seventh card, revivals, free builds
            boards = [names[(seed // 2 + k) % 7] for k in range(players)]
            sides = "".join("AB"[(seed // 14 + k) % 2] for k in range(players))
            ng = fast.native_game(players, seed, wonders=boards, sides=sides)
        walk(ng, players, seed, counts)
    assert all(counts[k] > 0 for k in ("main", "seventh", "revive", "several")), counts


def test_random_pick_of_no_player() -> None:
    ng = fast.native_game(3, 5)
    assert ng.random_pick(3, 1) is None
    assert ng.random_pick(-1, 1) is None
