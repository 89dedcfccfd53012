"""The plausibility checks' median is the standard library's, value for value and type for type."""

from __future__ import annotations

import statistics

from hypothesis import given
from hypothesis import strategies as st

from agon.tournament.sanity import Score, median, table_warnings


@given(st.lists(st.integers(min_value=-1000, max_value=10_000), min_size=1, max_size=9))
def test_the_median_is_the_standard_librarys(values: list[int]) -> None:
    expected = statistics.median(values)
    got = median(values)
    assert got == expected
    assert type(got) is type(expected)


def test_a_digit_typed_twice_is_measured_against_the_even_tables_median() -> None:
    # median of 48, 50, 52, 600 is 51.0: 600 >= 10 × 51 → flagged; with the lower middle (50)
    # or the upper (52) alone the text would differ
    scores = [Score("Anna", 48), Score("Ben", 50), Score("Carla", 52), Score("Dora", 600)]
    assert table_warnings(scores)[0] == "Dora: 600 VP is 11× the table's median (51): a typo?"
    assert table_warnings([]) == ()
