"""Compiled core of agon's standings: the caps check of a decoded event file, reading a round's
seats, scoring full tables with exact sums, the bytes of the results' digest, and the one pass
over an event's rounds that also orders the players (``EventPass``), reading the seats straight from the JSON text
(``JsonScan``) and writing the printed table (``EventPass.table_text``), and the name rule's
common case (``plain_names``); see ``_core``."""

from agon.cores.standings._core import (
    BREAKERS,
    NAME_MAX,
    PASS_CRITERIA,
    EventPass,
    JsonScan,
    Sums,
    close_runs,
    digest_bytes,
    plain_names,
    round_seats,
    within_caps,
)

__all__ = [
    "BREAKERS",
    "NAME_MAX",
    "PASS_CRITERIA",
    "EventPass",
    "JsonScan",
    "Sums",
    "close_runs",
    "digest_bytes",
    "plain_names",
    "round_seats",
    "within_caps",
]
