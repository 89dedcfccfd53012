"""The optimiser plans the very schedules it planned when ``seating_digests.json`` was written.

``agon verify`` recomputes the schedules of stored events: a change that makes the search faster
must keep every table, seat order and report field (the same random numbers drawn, the same moves
accepted). The file holds the digests of 95 inputs (``tests/tournament/seating_digests.py``,
``--check`` recomputes them all in a few minutes); the suite recomputes a sample that passes
through every part of the search: the grouping, the seat-order annealing and its exact orders of
a table, players changing tables, seat numbers first, player types in a room of more than 100,
Ludolimpico (no wonders to seat), re-plans after a drop or a late entry.
"""

from __future__ import annotations

import pytest

from tests.tournament.seating_digests import CASES, digest, plan, stored

#: the sample (about 3 s of CPU on the code the digests were written with)
SAMPLE = (
    "bonn-2018/14x1/d14/None/0-0+0",
    "bonn-2018/11x2/d11/20000/0-0+0",
    "bonn-2018/12x5/d12/20000/0-0+0",
    "bonn-2018/18x4/bench/None/0-0+0",
    "bonn-2018/19x4/bench/None/0-0+0",
    "bonn-2018/105x2/t/20000/0-0+0",
    "ludolimpico-2015/10x5/l10/20000/0-0+0",
    "ludolimpico-2015/43x2/l43/None/0-0+0",
    "bonn-2018/30x5/r30/20000/1-0+2",
    "bonn-2018/16x4/r16/20000/1-2+0",
    "bonn-2018/13x5/r13/20000/2-0+1",
)

BY_KEY = {case.key: case for case in CASES}


def test_the_sample_is_part_of_the_stored_cases() -> None:
    digests = stored()
    assert digests.keys() == BY_KEY.keys()
    assert set(SAMPLE) <= digests.keys()


@pytest.mark.parametrize("key", SAMPLE)
def test_the_same_schedule_as_when_the_digests_were_written(key: str) -> None:
    assert digest(plan(BY_KEY[key])) == stored()[key]
