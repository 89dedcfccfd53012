"""Ways to pay a resource cost with one's own production and neighbour trading.

This is the engine's hot spot, so it works on plain tuples and caches its answers by
(cost, own production, each neighbour's tradable production, prices).

Rules applied (rulebook "Commerce", Bonn 2018 "Ergänzungen zum Handeln"):

- a city first uses its own production (fixed units, then every "either/or" card that can
  still cover a missing unit): nothing is bought that the city makes itself, and a bought
  resource must be used, so trading cannot be used merely to shift coins;
- only brown and grey cards and the wonder's starting resource are tradable (a neighbour's
  Forum, Caravansery or Alexandria stage is not), each unit bought separately at its price;
- a unit costs 2 coins, or 1 with a discount; discounts do not add up (minimum 1).
"""

from __future__ import annotations

Vec = tuple[int, ...]
Pays = tuple[tuple[int, int], ...]

_CACHE: dict[tuple[object, ...], Pays] = {}
_CACHE_LIMIT = 400_000


def _bits(mask: int) -> list[int]:
    return [r for r in range(7) if mask >> r & 1]


def _own_remainders(rem: list[int], choices: tuple[int, ...], k: int, out: set[Vec]) -> None:
    """Every missing-units vector left after assigning own either/or cards maximally."""
    while k < len(choices):
        opts = [r for r in _bits(choices[k]) if rem[r] > 0]
        if opts:
            for r in opts:
                rem[r] -= 1
                _own_remainders(rem, choices, k + 1, out)
                rem[r] += 1
            return
        k += 1
    out.add(tuple(rem))


def _buy(
    rem: Vec,
    lf: Vec,
    lc: tuple[int, ...],
    lmask: int,
    rf: Vec,
    rc: tuple[int, ...],
    rmask: int,
    pl: Vec,
    pr: Vec,
    memo: dict[tuple[object, ...], frozenset[tuple[int, int]]],
) -> frozenset[tuple[int, int]]:
    """All (left, right) coin splits that buy exactly the units in ``rem``."""
    r = next((i for i in range(7) if rem[i]), -1)
    if r < 0:
        return frozenset({(0, 0)})
    key = (rem, lf, lmask, rf, rmask)
    hit = memo.get(key)
    if hit is not None:
        return hit
    rem2 = list(rem)
    rem2[r] -= 1
    nrem = tuple(rem2)
    out: set[tuple[int, int]] = set()
    if lf[r]:
        lf2 = list(lf)
        lf2[r] -= 1
        for a, b in _buy(nrem, tuple(lf2), lc, lmask, rf, rc, rmask, pl, pr, memo):
            out.add((a + pl[r], b))
    if rf[r]:
        rf2 = list(rf)
        rf2[r] -= 1
        for a, b in _buy(nrem, lf, lc, lmask, tuple(rf2), rc, rmask, pl, pr, memo):
            out.add((a, b + pr[r]))
    for j, m in enumerate(lc):
        if m >> r & 1 and not lmask >> j & 1:
            for a, b in _buy(nrem, lf, lc, lmask | 1 << j, rf, rc, rmask, pl, pr, memo):
                out.add((a + pl[r], b))
    for j, m in enumerate(rc):
        if m >> r & 1 and not rmask >> j & 1:
            for a, b in _buy(nrem, lf, lc, lmask, rf, rc, rmask | 1 << j, pl, pr, memo):
                out.add((a, b + pr[r]))
    res = frozenset(out)
    memo[key] = res
    return res


def payment_options(
    cost: Vec,
    own_fixed: Vec,
    own_choices: tuple[int, ...],
    left_fixed: Vec,
    left_choices: tuple[int, ...],
    right_fixed: Vec,
    right_choices: tuple[int, ...],
    price_left: Vec,
    price_right: Vec,
) -> Pays:
    """Every (coins to the left, coins to the right) that pays ``cost``, sorted; ``()`` if none.

    Choice productions are bitmasks over the 7 resources.

    >>> payment_options((1, 0, 0, 0, 0, 0, 0), (0,) * 7, (), (1, 0, 0, 0, 0, 0, 0), (),
    ...                 (1, 0, 0, 0, 0, 0, 0), (), (2,) * 7, (1,) * 7)
    ((0, 1), (2, 0))
    """
    key = (
        cost,
        own_fixed,
        own_choices,
        left_fixed,
        left_choices,
        right_fixed,
        right_choices,
        price_left,
        price_right,
    )
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    rem = [c - f if c > f else 0 for c, f in zip(cost, own_fixed, strict=True)]
    if not any(rem):
        res: Pays = ((0, 0),)
    else:
        remainders: set[Vec] = set()
        _own_remainders(rem, own_choices, 0, remainders)
        found: set[tuple[int, int]] = set()
        memo: dict[tuple[object, ...], frozenset[tuple[int, int]]] = {}
        for left_over in remainders:
            found.update(
                _buy(
                    left_over,
                    left_fixed,
                    left_choices,
                    0,
                    right_fixed,
                    right_choices,
                    0,
                    price_left,
                    price_right,
                    memo,
                )
            )
        res = tuple(sorted(found))
    if len(_CACHE) > _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[key] = res
    return res
