"""The random bot draws uniformly over the legal actions by rejection, the same draw in both
engines.

``random_pick`` (the core's ``RandomBot.act``) does not count every card's payments: it draws
below a total of upper bounds (``pay_bound``), accepts a draw that falls on an action and draws
again otherwise.  The pick must be the Python engine's ``RandomBot.pick`` at every decision
(lockstep games), the bounds must be the same number in both engines and never below the count,
and the picks must be uniform over the legal actions (a chi-square test, which a sampler that
is not uniform fails).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from agon.games.seven_wonders import fast
from agon.games.seven_wonders.bots.base import RandomBot, SplitMix64
from agon.games.seven_wonders.engine import Action, Game
from agon.games.seven_wonders.payments import payment_bound, payment_options
from tests.games.seven_wonders.lockstep_games import setups

_native = fast.native()
assert _native is not None, "the compiled core is not installed: run make"
core = _native


def inexact(game: Game, p: int) -> bool:
    """Whether some bound of ``p``'s draw now is not the count (the rejection can happen)."""
    if game.phase == "revive" or not game.legal_actions(p):
        return False
    return game.draw_bounds(p) is not None


def games() -> list[tuple[int, Game, object]]:
    """40 games set up alike in both engines (:func:`lockstep_games.setups`)."""
    return setups(40)


def test_random_pick_equals_the_python_bot_at_every_decision() -> None:
    counts = lockstep(games())
    assert all(counts[k] > 0 for k in ("main", "seventh", "revive", "inexact", "moved")), counts


def test_random_pick_equals_the_python_bot_in_two_games() -> None:
    # the inner loop's share of the test above (which is slow): a 3- and a 4-player game
    counts = lockstep(games()[:2])
    assert counts["inexact"] > 0 and counts["moved"] > 0, counts


def lockstep(setups: list[tuple[int, Game, object]]) -> Counter[str]:
    """Play the games of ``setups`` to the end in both engines; at every decision of every seat
    the core's pick from a few generator seeds is ``RandomBot(s).pick``'s.  Counts decisions by
    phase, those with a bound that is not the count, and the picks that differ from the old draw
    (``legal[SplitMix64(s).below(n)]``)."""
    counts: Counter[str] = Counter()
    for seed, game, ng in setups:
        assert isinstance(ng, core.NativeGame)
        mover = random.Random(seed)
        while not game.over:
            acting = game.to_act()
            for p in range(game.n):
                legal = game.legal_actions(p)
                assert ng.legal(p) == [fast.encode(a) for a in legal]
                hard = inexact(game, p)
                for s in (seed, seed * 7919 + p, -seed - 1, 2**40 + seed):
                    got = ng.random_pick(p, s)
                    if not legal:
                        assert got is None
                        continue
                    k = RandomBot(s).pick(game, p, legal)
                    assert got == fast.encode(legal[k]), (game.phase, p, s)
                    if hard:
                        counts["inexact"] += 1
                        # the draw the old bot made: the rejection changes some picks
                        counts["moved"] += k != SplitMix64(s).below(len(legal))
                if p in acting:
                    counts[game.phase] += 1
            joint = {p: mover.choice(game.legal_actions(p)) for p in acting}
            game.step_unchecked(joint)
            ng.step({p: fast.encode(a) for p, a in joint.items()})
    return counts


def test_random_pick_of_no_player() -> None:
    ng = fast.native_game(3, 5)
    assert ng.random_pick(3, 1) is None
    assert ng.random_pick(-1, 1) is None


_vec = st.lists(st.integers(0, 3), min_size=7, max_size=7).map(tuple)
_choices = st.lists(st.integers(1, 127), max_size=4)
_prices = st.lists(st.integers(1, 2), min_size=7, max_size=7).map(tuple)


@settings(max_examples=200, deadline=None)
@given(
    cost=_vec,
    own=_vec,
    own_choices=_choices,
    left=_vec,
    left_choices=_choices,
    right=_vec,
    right_choices=_choices,
    pl=_prices,
    pr=_prices,
    budget=st.integers(0, 20),
)
def test_payment_bound_is_the_same_in_both_engines_and_never_below_the_count(
    cost: tuple[int, ...],
    own: tuple[int, ...],
    own_choices: list[int],
    left: tuple[int, ...],
    left_choices: list[int],
    right: tuple[int, ...],
    right_choices: list[int],
    pl: tuple[int, ...],
    pr: tuple[int, ...],
    budget: int,
) -> None:
    pays = payment_options(
        cost, own, (*own_choices,), left, (*left_choices,), right, (*right_choices,), pl, pr
    )
    count = len([lr for lr in pays if lr[0] + lr[1] <= budget])
    args = (cost, own, own_choices, left, left_choices, right, right_choices, pl, pr)
    bound = payment_bound(*args, budget)
    assert core.payment_bound(*args, budget) == ((count, True) if bound is None else (bound, False))
    assert bound is None or bound >= count


# ---------------------------------------------------------------------- uniformity
def chi_square_uniform(picks: Sequence[int], n: int) -> bool:
    """Whether ``picks`` (indices below ``n``) pass a chi-square test of uniformity at level
    1e-5 (the critical value by Wilson and Hilferty's approximation)."""
    expected = len(picks) / n
    seen = Counter(picks)
    stat = sum((seen.get(i, 0) - expected) ** 2 / expected for i in range(n))
    df = n - 1
    z = 4.265  # the upper 1e-5 point of the standard normal
    critical = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    return stat < critical


def states() -> list[tuple[Game, object, int]]:
    """Decisions where some bound is not the count, from a few lockstep games."""
    out: list[tuple[Game, object, int]] = []
    for seed, game, ng in games()[:12]:
        mover = random.Random(seed)
        while not game.over and len(out) < 2 * (seed + 1):
            acting = game.to_act()
            for p in acting:
                if inexact(game, p) and len(game.legal_actions(p)) > 8:
                    out.append((game.clone(), ng.clone(), p))  # type: ignore[attr-defined]
            joint = {p: mover.choice(game.legal_actions(p)) for p in acting}
            game.step_unchecked(joint)
            ng.step({p: fast.encode(a) for p, a in joint.items()})  # type: ignore[attr-defined]
    return out[::4][:6]


def card_first(legal: Sequence[Action], rng: random.Random) -> int:
    """A sampler that is not uniform: a card first, then one of its actions."""
    cards = list(dict.fromkeys(a.card for a in legal))
    card = rng.choice(cards)
    return rng.choice([i for i, a in enumerate(legal) if a.card == card])


def test_the_random_pick_is_uniform_over_the_legal_actions() -> None:
    found = states()
    assert len(found) >= 4
    draws = 30_000
    for game, ng, p in found:
        legal = [fast.encode(a) for a in game.legal_actions(p)]
        index = {a: i for i, a in enumerate(legal)}
        picks = [index[ng.random_pick(p, s)] for s in range(draws)]  # type: ignore[attr-defined]
        assert chi_square_uniform(picks, len(legal)), (len(legal), Counter(picks))
    # the Python bot (the same draws, checked above) on one state, with fewer draws
    game, _, p = found[0]
    legal_py = game.legal_actions(p)
    picks = [RandomBot(s).pick(game, p, legal_py) for s in range(draws // 3)]
    assert chi_square_uniform(picks, len(legal_py))


def test_the_uniformity_test_rejects_a_sampler_that_is_not_uniform() -> None:
    # the same test fails for a card-first draw (where cards have different numbers of
    # actions) and for a draw that gives builds twice the weight of the other actions
    rng = random.Random(1)
    rejected = 0
    samplers: list[Callable[[Sequence[Action]], int]] = [
        lambda legal: card_first(legal, rng),
        lambda legal: rng.choice(
            [i for i, a in enumerate(legal) for _ in range(2 if a.kind == "build" else 1)]
        ),
    ]
    found = states()
    for sampler in samplers:
        for game, _, p in found[:2]:
            legal = game.legal_actions(p)
            picks = [sampler(legal) for _ in range(10_000)]
            rejected += not chi_square_uniform(picks, len(legal))
    assert rejected == 4
