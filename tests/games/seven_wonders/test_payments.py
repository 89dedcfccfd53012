"""Payment search against a brute-force reference, on random small cities."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from agon.games.seven_wonders.payments import payment_options

Vec = tuple[int, ...]


def reference(
    cost: Vec,
    own_fixed: Vec,
    own_choices: tuple[int, ...],
    lf: Vec,
    lc: tuple[int, ...],
    rf: Vec,
    rc: tuple[int, ...],
    pl: Vec,
    pr: Vec,
) -> tuple[tuple[int, int], ...]:
    """Own production covers as many units as it can (any assignment achieving that); the rest
    is bought unit by unit from any neighbour source with capacity."""
    rem = [max(0, c - f) for c, f in zip(cost, own_fixed, strict=True)]
    leftovers = set()
    for pick in itertools.product(*[[-1, *range(7)] for _ in own_choices]):
        r2 = rem[:]
        ok = True
        for m, r in zip(own_choices, pick, strict=True):
            if r == -1:
                continue
            if m >> r & 1 and r2[r] > 0:
                r2[r] -= 1
            else:
                ok = False
        # an own card left unused must be unable to cover any still-missing unit
        if ok and all(
            not (r == -1 and any(m >> x & 1 and r2[x] > 0 for x in range(7)))
            for m, r in zip(own_choices, pick, strict=True)
        ):
            leftovers.add(tuple(r2))
    found = set()
    fewest = min(sum(r2) for r2 in leftovers)
    for r2 in leftovers:
        if sum(r2) != fewest:
            continue
        units = [r for r in range(7) for _ in range(r2[r])]
        sources = (
            [("lf", r) for r in range(7) for _ in range(lf[r])]
            + [("rf", r) for r in range(7) for _ in range(rf[r])]
            + [("lc", j) for j in range(len(lc))]
            + [("rc", j) for j in range(len(rc))]
        )
        for chosen in itertools.permutations(range(len(sources)), len(units)):
            lp = rp = 0
            ok = True
            for u, si in zip(units, chosen, strict=True):
                kind, x = sources[si]
                if kind == "lf" and x == u:
                    lp += pl[u]
                elif kind == "rf" and x == u:
                    rp += pr[u]
                elif kind == "lc" and lc[x] >> u & 1:
                    lp += pl[u]
                elif kind == "rc" and rc[x] >> u & 1:
                    rp += pr[u]
                else:
                    ok = False
                    break
            if ok:
                found.add((lp, rp))
    return tuple(sorted(found))


small = st.lists(st.integers(0, 2), min_size=7, max_size=7).map(tuple)
choices = st.lists(st.integers(1, 127), max_size=2).map(tuple)
prices = st.lists(st.sampled_from([1, 2]), min_size=7, max_size=7).map(tuple)


@settings(max_examples=100, deadline=None)
@given(
    cost=st.lists(st.integers(0, 6), max_size=3).map(
        lambda rs: tuple(rs.count(r) for r in range(7))
    ),
    own=small,
    oc=choices,
    lf=small,
    lc=choices,
    rf=small,
    rc=choices,
    pl=prices,
    pr=prices,
)
def test_payment_options_match_brute_force(
    cost: Vec,
    own: Vec,
    oc: tuple[int, ...],
    lf: Vec,
    lc: tuple[int, ...],
    rf: Vec,
    rc: tuple[int, ...],
    pl: Vec,
    pr: Vec,
) -> None:
    assert payment_options(cost, own, oc, lf, lc, rf, rc, pl, pr) == reference(
        cost, own, oc, lf, lc, rf, rc, pl, pr
    )
