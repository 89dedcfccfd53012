"""``--starts-at`` takes a time from now (``+2h``), so a guide's example never lies in the past."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agon.commands.tournament import _parse_time
from agon.errors import InvalidInput

NOW = datetime(2026, 11, 22, 23, 57, 41, 123, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "delta"),
    [
        ("+2h", timedelta(hours=2)),
        ("+1d", timedelta(days=1)),
        ("+90m", timedelta(minutes=90)),
        ("+1h30m", timedelta(hours=1, minutes=30)),
        ("+1d2h", timedelta(days=1, hours=2)),
    ],
)
def test_a_time_from_now_counts_from_the_current_minute(text: str, delta: timedelta) -> None:
    assert _parse_time(text, now=NOW) == datetime(2026, 11, 22, 23, 57, tzinfo=UTC) + delta


def test_an_iso_time_with_zone_is_taken_as_written() -> None:
    moment = _parse_time("2018-03-18T11:00+01:00", now=NOW)
    assert moment is not None and moment.isoformat() == "2018-03-18T11:00:00+01:00"


@pytest.mark.parametrize("text", ["+", "+2x", "+h", "in 2 hours", "2h"])
def test_anything_else_is_refused_with_both_forms_named(text: str) -> None:
    with pytest.raises(InvalidInput, match=r"use ISO time.*or a time from now, e\.g\. \+2h"):
        _parse_time(text, now=NOW)


def test_an_iso_time_without_zone_is_refused() -> None:
    with pytest.raises(InvalidInput, match="add the time zone"):
        _parse_time("2026-03-18T10:00", now=NOW)
