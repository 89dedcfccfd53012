"""Ways to pay a resource cost with one's own production and neighbour trading.

This is the engine's hot spot, so it works on plain tuples and caches its answers by
(cost, own production, each neighbour's tradable production, prices).

Rules applied (rulebook "Commerce", Bonn 2018 "Ergänzungen zum Handeln"):

- a city first uses its own production as fully as possible (fixed units, then its
  "either/or" cards in the assignment that leaves the fewest units missing): nothing is bought
  that the city could make itself, and a bought resource must be used, so trading cannot be
  used merely to shift coins;
- only brown and grey cards and the wonder's starting resource are tradable (a neighbour's
  Forum, Caravansery or Alexandria stage is not), each unit bought separately at its price;
- a unit costs 2 coins, or 1 with a discount; discounts do not add up (minimum 1).
"""

from __future__ import annotations

Vec = tuple[int, ...]
Pays = tuple[tuple[int, int], ...]

_CACHE: dict[tuple[object, ...], Pays] = {}
_FREE: Pays = ((0, 0),)
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


def _missing(
    cost: Vec, own_fixed: Vec, left_fixed: Vec, right_fixed: Vec, price_left: Vec, price_right: Vec
) -> tuple[list[int], int]:
    """The missing units of ``cost`` flattened per missing resource (resource, units missing,
    units the left and the right neighbour can sell of them, the two prices), and the set of
    missing resources as a bitmask."""
    flat: list[int] = []
    need = 0
    for r in range(7):
        n = cost[r] - own_fixed[r]
        if n > 0:
            need |= 1 << r
            lf_r = left_fixed[r]
            rf_r = right_fixed[r]
            flat += (r, n, lf_r if lf_r < n else n, rf_r if rf_r < n else n)
            flat += (price_left[r], price_right[r])
    return flat, need


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
    # Normalise to what matters for this cost (the missing resources only), so that many
    # different cities share one cache entry.
    flat, need = _missing(cost, own_fixed, left_fixed, right_fixed, price_left, price_right)
    if not need:
        return _FREE
    return missing_options(flat, need, own_choices, left_choices, right_choices)


def missing_options(
    flat: list[int],
    need: int,
    own_choices: tuple[int, ...] | list[int],
    left_choices: tuple[int, ...] | list[int],
    right_choices: tuple[int, ...] | list[int],
) -> Pays:
    """The core of :func:`payment_options` on the missing units only.

    ``flat`` holds six ints per missing resource: resource, units missing after own fixed
    production, the left and right neighbours' tradable units (capped at the units missing),
    and the left and right unit prices; ``need`` is the bitmask of those resources.
    """
    if not own_choices and not left_choices and not right_choices:
        # No either/or cards anywhere: each missing resource is split between the neighbours
        # on its own, so the answer is the sum of independent splits (no search needed).
        combos = {(0, 0)}
        for k in range(0, len(flat), 6):
            n, lf_r, rf_r, p_l, p_r = (
                flat[k + 1],
                flat[k + 2],
                flat[k + 3],
                flat[k + 4],
                flat[k + 5],
            )
            splits = [(a * p_l, (n - a) * p_r) for a in range(n - rf_r, lf_r + 1) if a >= 0]
            if not splits:
                return ()
            combos = {(x + a, y + b) for x, y in combos for a, b in splits}
        return tuple(sorted(combos))
    oc = tuple(sorted(m & need for m in own_choices if m & need)) if own_choices else ()
    lc = tuple(sorted(m & need for m in left_choices if m & need)) if left_choices else ()
    rc = tuple(sorted(m & need for m in right_choices if m & need)) if right_choices else ()
    key = (tuple(flat), oc, lc, rc)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    rem = [0] * 7
    lf_l = [0] * 7
    rf_l = [0] * 7
    pl_l = [0] * 7
    pr_l = [0] * 7
    for k in range(0, len(flat), 6):
        r = flat[k]
        rem[r], lf_l[r], rf_l[r] = flat[k + 1], flat[k + 2], flat[k + 3]
        pl_l[r], pr_l[r] = flat[k + 4], flat[k + 5]
    lf, rf, pl, pr = tuple(lf_l), tuple(rf_l), tuple(pl_l), tuple(pr_l)
    remainders: set[Vec] = set()
    _own_remainders(rem, oc, 0, remainders)
    found: set[tuple[int, int]] = set()
    memo: dict[tuple[object, ...], frozenset[tuple[int, int]]] = {}
    fewest = min(sum(v) for v in remainders)
    for left_over in remainders:
        if sum(left_over) != fewest:
            continue  # own production covers as much as it can: buy only what is missing
        found.update(_buy(left_over, lf, lc, 0, rf, rc, 0, pl, pr, memo))
    res: Pays = tuple(sorted(found))
    if len(_CACHE) > _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[key] = res
    return res


def payment_bound(
    cost: Vec,
    own_fixed: Vec,
    own_choices: tuple[int, ...] | list[int],
    left_fixed: Vec,
    left_choices: tuple[int, ...] | list[int],
    right_fixed: Vec,
    right_choices: tuple[int, ...] | list[int],
    price_left: Vec,
    price_right: Vec,
    budget: int,
) -> int | None:
    """An upper bound, found without searching, on how many :func:`payment_options` of this
    question cost at most ``budget`` coins; None where it would be that count itself (see
    :func:`missing_bound`).

    >>> payment_bound((1, 1, 0, 0, 0, 0, 0), (0,) * 7, (), (1, 1, 0, 0, 0, 0, 0), (),
    ...               (1, 1, 0, 0, 0, 0, 0), (), (2,) * 7, (2,) * 7, 9)
    3
    >>> payment_bound((2, 0, 0, 0, 0, 0, 0), (0,) * 7, (), (1,) * 7, (), (1,) * 7, (), (2,) * 7,
    ...               (2,) * 7, 9) is None  # one resource missing: counted
    True
    """
    flat, need = _missing(cost, own_fixed, left_fixed, right_fixed, price_left, price_right)
    return missing_bound(flat, need, own_choices, left_choices, right_choices, budget)


def missing_bound(
    flat: list[int],
    need: int,
    own_choices: tuple[int, ...] | list[int],
    left_choices: tuple[int, ...] | list[int],
    right_choices: tuple[int, ...] | list[int],
    budget: int,
) -> int | None:
    """:func:`payment_bound` on :func:`missing_options`' arguments.  The random bot draws among
    the legal actions with these bounds in place of the counts
    (:meth:`~agon.games.seven_wonders.bots.RandomBot.pick`); the compiled core computes the same
    number (``pay_bound`` in ``_core.pyx``).

    None (the count is the bound) where nothing or one resource is missing, where more units
    are missing than the own either/or cards meeting them and ``budget`` can cover (none), or
    where the own either/or cards cover all (one).  Else every payment buys ``W`` units (the
    same ``W`` for all, at least 1, at most the units missing less one if an own either/or card
    meets them), ``i`` of them from the left (at most what the left trades of the missing
    resources: its fixed units, capped by the units missing, plus its either/or cards meeting
    them), ``W - i`` from the right, at the prices of the missing resources; the bound counts
    the (left, right) coin points that fit ``budget``, the largest count over the possible
    ``W``."""
    if not need & (need - 1):
        return None
    units = sum(flat[1::6])
    hall = sum(1 for m in own_choices if m & need)
    if units - hall > budget:
        return None
    if (
        units <= hall
        and missing_options(flat, need, own_choices, left_choices, right_choices) == _FREE
    ):
        return None
    cap_l = sum(1 for m in left_choices if m & need) + sum(flat[2::6])
    cap_r = sum(1 for m in right_choices if m & need) + sum(flat[3::6])
    pl, pr = flat[4::6], flat[5::6]
    pl_min, pl_max, pr_min, pr_max = min(pl), max(pl), min(pr), max(pr)
    best = 0
    for w in range(max(1, units - hall), min(units - 1 if hall else units, budget) + 1):
        lo, hi = max(0, w - cap_r), min(w, cap_l)
        if pl_min == pl_max and pr_min == pr_max:
            # one price a side: one point per i, within the budget on one side of a bound
            if pl_min == pr_min:
                if w * pr_min > budget:
                    hi = -1
            elif pl_min < pr_min:
                lo = max(lo, w * pr_min - budget)
            else:
                hi = min(hi, budget - w * pr_min)
            best = max(best, hi - lo + 1)
            continue
        t = 0
        for i in range(lo, hi + 1):
            r_min, r_max = pr_min * (w - i), pr_max * (w - i)
            for left in range(pl_min * i, pl_max * i + 1):
                top = min(budget - left, r_max)
                if top >= r_min:
                    t += top - r_min + 1
        best = max(best, t)
    return best
