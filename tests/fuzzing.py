"""How many cases the fuzzers try: ``make test`` and CI try the counts the fuzzers give, and a
deeper run multiplies them by ``AGON_FUZZ_DEPTH`` (``make fuzz``: 4 times; any number, e.g. 25
for a night). The event-file, import and command-line fuzzers draw new cases on every run (no
example database is kept), so every ``make test`` adds to what earlier runs tried; the form and
web API fuzzers are derandomized and try the same cases at one depth, more at a greater one.
"""

from __future__ import annotations

import math
import os

DEPTH_VARIABLE = "AGON_FUZZ_DEPTH"


def depth() -> float:
    """``AGON_FUZZ_DEPTH`` (a positive number; 1 when unset)."""
    text = os.environ.get(DEPTH_VARIABLE, "").strip() or "1"
    try:
        value = float(text)
    except ValueError:
        raise SystemExit(f"{DEPTH_VARIABLE} must be a positive number, not {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise SystemExit(f"{DEPTH_VARIABLE} must be a positive number, not {text!r}")
    return value


def examples(count: int) -> int:
    """``count`` cases at depth 1, ``count`` times the depth in a deeper run (at least 1)."""
    return max(1, round(count * depth()))
