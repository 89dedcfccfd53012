"""Settings for the whole suite.

Hypothesis: no per-example deadline. A deadline is a timed test, and on a shared machine a slow
example says nothing about agon (speed goals live in bench/); every example is still checked.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("agon", deadline=None)
settings.load_profile("agon")
