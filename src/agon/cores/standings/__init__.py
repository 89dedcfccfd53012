"""Compiled core of agon's standings: the caps check of a decoded event file, reading a round's
seats, scoring full tables with exact sums, and the bytes of the results' digest; see ``_core``."""

from agon.cores.standings._core import (
    BREAKERS,
    Sums,
    close_runs,
    digest_bytes,
    round_seats,
    within_caps,
)

__all__ = [
    "BREAKERS",
    "Sums",
    "close_runs",
    "digest_bytes",
    "round_seats",
    "within_caps",
]
