"""Settings for the whole suite.

Hypothesis: no per-example deadline. A deadline is a timed test, and on a shared machine a slow
example says nothing about agon (speed goals live in bench/); every example is still checked.
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
