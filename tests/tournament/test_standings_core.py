"""The compiled standings core (agon.cores.standings) against the pure-Python standings: the
same totals, digest and standings on random events — ties, players who left (tables scored
with fewer seats, virtual players filling them), every built-in ruleset — and the same
decisions of the one-pass reader on damaged documents."""

from __future__ import annotations

import copy
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.tournament.bulk import quick_standings
from agon.tournament.standings import digest_seats, rank_totals, standings_core, sum_tables
from tests.tournament.test_bulk import damaged
from tests.tournament.test_properties import events

core = pytest.importorskip("agon.cores.standings", reason="agon built without its cores")

Seat = tuple[str, int, int, int, bool]


def _tables(event: Any, rng: random.Random, leave: float) -> list[tuple[bool, list[Seat]]]:
    """Per table (final, its seats), some players removed as if they left during the game."""
    out = []
    for rnd in event.rounds:
        for table in rnd.tables:
            seats = [(r.player, r.vp, r.coins, r.bid, False) for r in table.results]
            kept = [s for s in seats if rng.random() >= leave] or seats[:1]
            out.append((rnd.final, kept))
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events(), st.integers(0, 2**32), st.sampled_from([0.0, 0.0, 0.15, 0.4]), st.booleans())
def test_the_core_sums_what_python_sums(event: Any, seed: int, leave: float, ties: bool) -> None:
    from agon.tournament.ruleset import load_ruleset

    ruleset = load_ruleset(event.ruleset_ref)
    rng = random.Random(seed)
    tables = _tables(event, rng, leave)
    if ties:  # few distinct scores: many tied places, equal shares, total 0 tables
        tables = [
            (f, [(p, rng.choice([0, 0, 5]), rng.choice([0, 1]), b, x) for p, _, _, b, x in seats])
            for f, seats in tables
        ]
    names = [p.name for p in event.players]
    ratings = {names[0]: 3.5} if rng.random() < 0.3 else None
    native = sum_tables(ruleset, names, (s for _, s in tables), ratings, native=True)
    python = sum_tables(ruleset, names, (s for _, s in tables), ratings, native=False)
    assert native == python
    rounds = [(f, [*s]) for f, s in tables]
    assert digest_seats(copy.deepcopy(rounds), native=True) == digest_seats(rounds, native=False)
    assert rank_totals(ruleset, native, "s") == rank_totals(ruleset, python, "s")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_the_one_pass_reader_decides_alike_with_and_without_the_core(doc: dict[str, Any]) -> None:
    try:
        python = quick_standings(copy.deepcopy(doc), origin="e.json", native=False)
    except InvalidInput as exc:
        with pytest.raises(InvalidInput) as got:
            quick_standings(copy.deepcopy(doc), origin="e.json", native=True)
        assert str(got.value) == str(exc)
        return
    assert quick_standings(copy.deepcopy(doc), origin="e.json", native=True) == python


def test_shares_beyond_128_bits_stay_exact() -> None:
    """Forty games at tables whose totals are large distinct primes: the common denominator
    outgrows 128 bits and the core continues in Python integers."""
    primes = [p for p in range(10**6, 10**6 + 2000) if all(p % d for d in range(2, 1001))][:40]
    sums = core.Sums({"A": 0, "B": 1}, False, (), {2: (2, 1)}, 2)
    expected = Fraction(0)
    for i, p in enumerate(primes):
        sums.add(0, 4, 1, 0, 0, i + 1, p)
        expected += Fraction(i + 1, p)
    points, num, den, vp, coins, bids, games = sums.result()[0]
    assert den > 2**127 and Fraction(num, den) == expected
    assert (points, vp, coins, bids, games) == (160, 40, 0, 0, 40)
    assert sums.result()[1] == (0, 0, 1, 0, 0, 0, 0)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-500, 10**4), st.integers(1, 10**7), st.sampled_from([1, 2, 6, 360])),
        min_size=1,
        max_size=30,
    )
)
def test_shares_with_common_factors_are_summed_exactly(parts: list[tuple[int, int, int]]) -> None:
    """Shares whose denominators share factors (tables' totals), the sums growing through 64
    and 128 bits: the core's fraction is the exact sum (the gcd of a 128-bit denominator and a
    table's total is taken in 64 bits after one remainder)."""
    sums = core.Sums({"A": 0}, False, (), {2: (2, 1)}, 2)
    expected = Fraction(0)
    for num, den, factor in parts:
        sums.add(0, 0, 0, 0, 0, num * factor, den * factor)
        expected += Fraction(num * factor, den * factor)
    _, got_num, got_den, *_ = sums.result()[0]
    assert Fraction(got_num, got_den) == expected


@given(
    st.lists(
        st.tuples(
            st.text(min_size=1, max_size=8),
            st.integers(-(10**20), 10**20),
            st.integers(-5, 10**6),
            st.integers(0, 9),
            st.booleans(),
        ),
        max_size=20,
    ),
    st.integers(1, 30),
)
def test_the_digest_bytes_are_the_pythons(entries: list[Seat], number: int) -> None:
    line = f"\x00{number}\x00%s\x00%d\x00%d\x00%d\x00%d"
    try:
        expected = "".join(map(line.__mod__, entries)).encode()
    except UnicodeEncodeError:
        with pytest.raises(UnicodeEncodeError):
            core.digest_bytes(number, entries)
        return
    assert core.digest_bytes(number, entries) == expected


def test_the_standings_use_the_core_when_agon_has_it() -> None:
    assert standings_core() is core
    with pytest.raises(KeyError):
        sum_tables(*_one_table(), native=True)


def _one_table() -> tuple[Any, list[str], list[list[Seat]]]:
    from agon.tournament.ruleset import load_ruleset

    seats: list[Seat] = [(f"P{i}", 40, 0, 0, False) for i in range(5)]
    return load_ruleset("bonn-2018"), ["P0"], [seats]


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**19), 10**19)
    | st.sampled_from([10**18 - 1, 10**18, -(10**18) + 1, -(10**18), 2**63, -(2**63)])
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(_json, st.integers(1, 60), st.integers(0, 6))
def test_the_caps_check_answers_as_the_python_one(data: Any, nodes: int, depth: int) -> None:
    from agon.tournament.safeload import _DIGITS_LIMIT, MAX_DEPTH, MAX_NODES, _within_caps_python

    limit = _DIGITS_LIMIT
    assert core.within_caps(data, nodes, depth, limit) == _within_caps_python(
        data, nodes, depth, limit
    )
    assert core.within_caps(data, MAX_NODES, MAX_DEPTH, limit) == _within_caps_python(data)


_key_value = st.one_of(
    st.integers(-3, 3),
    st.sampled_from([0.5, 0.5 + 1e-12, 0.5 + 1e-6, 1e12, 1e12 + 1.0, -2.0, 2**64]),
)


@given(st.lists(st.tuples(_key_value, _key_value, st.integers(0, 2**64)), max_size=30))
def test_the_close_runs_are_the_pythons(rows: list[tuple[float | int, ...]]) -> None:
    from agon.tournament.standings import _close_runs

    order = sorted(range(len(rows)), key=rows.__getitem__)
    assert core.close_runs(rows, order) == _close_runs(rows, order)


def test_shares_a_float_cannot_tell_apart_are_ordered_exactly() -> None:
    """The order compares shares as doubles first and as fractions where the doubles are within
    a millionth of a millionth: shares that differ by 1e-15 (relative) are still ordered."""
    shares = {
        "A": Fraction(10**15 + 1, 3 * 10**15),
        "B": Fraction(1, 3),
        "C": Fraction(10**15 - 1, 3 * 10**15),
        "D": Fraction(1, 2),
        "E": Fraction(-1, 7),
        "F": Fraction(1, 3),
    }
    names = sorted(shares)
    one = core.EventPass(
        {n: i for i, n in enumerate(names)},
        False,
        (),
        {2: (2, 1)},
        2,
        names,
        list(range(len(names))),
        (2,),
        -100,
        500,
        500,
        100,
    )
    for i, n in enumerate(names):
        one.add(i, 4, 10, 0, 0, shares[n].numerator, shares[n].denominator)
    ranked, decided = one.order(("points", "share", "lot"), b"seed")
    got = [names[i] for i in ranked]
    assert got[:2] == ["D", "A"] and got[4:] == ["C", "E"]
    assert set(got[2:4]) == {"B", "F"}  # equal shares: the lot
    assert decided == [-1, 1, 1, 2, 1, 1]
