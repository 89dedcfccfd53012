"""Table sizes: fewest tables below four, then most tables of the preferred size."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.tournament.ruleset import load_ruleset
from agon.tournament.tables import table_sizes

BONN = load_ruleset("bonn-2018")
DE = load_ruleset("de-championship")


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (13, (5, 4, 4)),
        (11, (4, 4, 3)),
        (6, (3, 3)),
        (12, (4, 4, 4)),
        (15, (5, 5, 5)),
        (16, (4, 4, 4, 4)),
        (17, (5, 4, 4, 4)),
        (7, (4, 3)),
        (3, (3,)),
        (40, (5,) * 8),
    ],
)
def test_bonn_examples(n: int, expected: tuple[int, ...]) -> None:
    assert table_sizes(n, BONN) == expected


def test_preferred_four_in_de_championship() -> None:
    assert table_sizes(13, DE) == (4, 3, 3, 3)
    assert table_sizes(16, DE) == (4, 4, 4, 4)
    assert table_sizes(6, DE) == (3, 3)


@pytest.mark.parametrize("n", [0, 1, 2, -1])
def test_too_few_players_raise(n: int) -> None:
    with pytest.raises(InvalidInput, match="players"):
        table_sizes(n, BONN)


def test_five_players_cannot_sit_at_fours_and_threes() -> None:
    with pytest.raises(InvalidInput, match="5 players cannot be split into tables of 4, 3"):
        table_sizes(5, DE)


def _brute(n: int, sizes: tuple[int, ...], preferred: int) -> tuple[int, int, int]:
    best = None
    for counts in itertools.product(*(range(n // s + 1) for s in sizes)):
        if sum(c * s for c, s in zip(counts, sizes, strict=True)) != n:
            continue
        small = sum(c for c, s in zip(counts, sizes, strict=True) if s < 4)
        pref = sum(c for c, s in zip(counts, sizes, strict=True) if s == preferred)
        key = (small, -pref, sum(counts))
        best = key if best is None or key < best else best
    assert best is not None
    return best


@given(st.integers(min_value=3, max_value=80))
def test_sizes_are_lexicographically_best(n: int) -> None:
    split = table_sizes(n, BONN)
    assert sum(split) == n
    assert list(split) == sorted(split, reverse=True)
    assert set(split) <= {3, 4, 5}
    key = (sum(s < 4 for s in split), -sum(s == 5 for s in split), len(split))
    assert key == _brute(n, (5, 4, 3), 5)


def test_large_room_without_recursion_trouble() -> None:
    assert table_sizes(1000, BONN) == (5,) * 200
    assert sum(table_sizes(4001, BONN)) == 4001
