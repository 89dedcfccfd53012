"""How many cases the fuzzers try: ``make test`` and CI try the counts the fuzzers give, and a
deeper run multiplies them by ``AGON_FUZZ_DEPTH`` (``make fuzz``: 4 times; any number, e.g. 25
for a night). Each run draws new cases (no example database is kept), so every ``make test`` adds
to what earlier runs tried; the web API's fuzzing is derandomized and tries the same cases at
one depth, more of them at a greater one.
"""

from __future__ import annotations

import os

DEPTH_VARIABLE = "AGON_FUZZ_DEPTH"


def depth() -> float:
    """``AGON_FUZZ_DEPTH`` (a positive number; 1 when unset)."""
    text = os.environ.get(DEPTH_VARIABLE, "").strip() or "1"
    try:
        value = float(text)
    except ValueError:
        raise SystemExit(f"{DEPTH_VARIABLE} must be a positive number, not {text!r}") from None
    if not value > 0:
        raise SystemExit(f"{DEPTH_VARIABLE} must be a positive number, not {text!r}")
    return value


def examples(count: int) -> int:
    """``count`` cases at depth 1, ``count`` times the depth in a deeper run (at least 1)."""
    return max(1, round(count * depth()))
