"""Compiled core of agon's standings: the caps check of a decoded event file, reading a round's
seats, scoring full tables with exact sums, the bytes of the results' digest, and the one pass
over an event's rounds that also orders the players (``EventPass``), reading the seats straight from the JSON text
(``JsonScan``); see ``_core``."""

from agon.cores.standings._core import (
    BREAKERS,
    PASS_CRITERIA,
    EventPass,
    JsonScan,
    Sums,
    close_runs,
    digest_bytes,
    round_seats,
    within_caps,
)

__all__ = [
    "BREAKERS",
    "PASS_CRITERIA",
    "EventPass",
    "JsonScan",
    "Sums",
    "close_runs",
    "digest_bytes",
    "round_seats",
    "within_caps",
]
