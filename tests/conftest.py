"""Settings for the whole suite.

Hypothesis: one profile, ``agon``, for ``make test``, ``make test-fast`` and CI alike: no
per-example deadline (a deadline is a timed test, and on a shared machine a slow example says
nothing about agon; speed goals live in bench/), every example still checked. The number of
examples is bounded per test where it is set (``@settings(max_examples=…)``: 12–300 for the
property tests, by what one example costs) and 100 elsewhere. The fuzzers keep the counts with
which they found real defects: 1,000 examples each in tests/fuzz (marked ``slow``: the inner loop
``pytest -m "not slow"`` leaves them out, ``make test`` runs them), and the web API's fuzzing
(tests/web/test_fuzz_api.py) its per-operation counts.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

settings.register_profile("agon", deadline=None)
settings.load_profile("agon")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` run first (otherwise in the order collected).

    ``make test`` runs on two workers (pytest-xdist, ``--dist load``): a test of a minute that
    starts last keeps one worker busy alone at the end while the other is idle. Started first, the
    long tests run side by side and the many short ones fill the gaps (longest first is the classic
    rule for balancing jobs over machines). The order within each group is kept, so module-scoped
    fixtures are still set up once per module and group."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
