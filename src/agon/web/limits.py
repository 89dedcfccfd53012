"""The ranges the web face accepts for numbers (issue 10, defect 5).

The web refuses (422) only what cannot be a sane value: a round or table number outside
1…10,000, a version outside 0…2^31, and any other whole number beyond ±1,000,000 (VP, coins,
bids, score-pad categories, player counts, minutes). The exact ranges of the rules — VP −100…500,
coins 0…500, bid 0…100 unless a ruleset widens them — are the services' to check
(:class:`agon.errors.InvalidInput`, answered with 422 too), so a ruleset that widens them is not
refused here. Every bound keeps a number far inside the database's 64-bit integers.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Form, Header, Path
from pydantic import Field

from agon.errors import N_, InvalidInput, Text

#: No score, count or minute the web takes is larger than this (in either direction).
SANE = 1_000_000
#: Round and table numbers run from 1 to this.
MAX_NUMBER = 10_000
#: Versions of a table's result (a counter that grows by one per change).
MAX_VERSION = 2**31

#: A whole number in a JSON body (VP, coins, bid, a score-pad category, minutes …).
SaneInt = Annotated[int, Field(ge=-SANE, le=SANE)]
#: A count that cannot be negative (players, minutes).
Count = Annotated[int, Field(ge=0, le=SANE)]
#: A table's result version in a JSON body.
Version = Annotated[int, Field(ge=0, le=MAX_VERSION)]
#: A round number in a JSON body.
RoundNumber = Annotated[int, Field(ge=1, le=MAX_NUMBER)]
#: Round and table numbers in a path.
RoundPath = Annotated[int, Path(ge=1, le=MAX_NUMBER)]
TablePath = Annotated[int, Path(ge=1, le=MAX_NUMBER)]
#: A result version in a form.
VersionForm = Annotated[int, Form(ge=0, le=MAX_VERSION)]


def parse_int(
    text: str, what: str, *, low: int = -SANE, high: int = SANE, label: str | None = None
) -> int:
    """A whole number typed into a form, within ``low…high``.

    >>> parse_int(" 42 ", "vp")
    42
    >>> parse_int("12345678901234567890", "vp")
    Traceback (most recent call last):
    ...
    agon.errors.InvalidInput: vp: '12345678901234567890' is out of range (-1000000 to 1000000)

    ``label`` names the field for the web (a catalogue text marked with ``N_``, as the form's label
    says it); the web page shows the message in its language.

    Raises:
        InvalidInput: not a whole number, or outside the range (naming ``what`` and the text).
    """
    cleaned = text.strip()
    params = {"field": Text(label or what), "text": _short(cleaned).strip("'\"")}

    def out_of_range() -> InvalidInput:
        return InvalidInput(
            f"{what}: {_short(cleaned)} is out of range ({low} to {high})",
            msgid=N_("%(field)s: “%(text)s” is out of range (%(low)d to %(high)d)."),
            params={**params, "low": low, "high": high},
        )

    def not_a_number() -> InvalidInput:
        return InvalidInput(
            f"{what}: {_short(cleaned)} is not a whole number",
            msgid=N_("%(field)s: “%(text)s” is not a whole number."),
            params=params,
        )

    if len(cleaned) > 20 and cleaned.isascii() and cleaned.lstrip("+-").isdigit():
        raise out_of_range()
    if len(cleaned) > 20 or not cleaned.isascii():
        raise not_a_number()
    try:
        value = int(cleaned)
    except ValueError:
        raise not_a_number() from None
    if not low <= value <= high:
        raise out_of_range()
    return value


def _short(text: str) -> str:
    """The input as quoted in a message, cut to 24 characters."""
    return repr(text if len(text) <= 24 else text[:21] + "...")


#: The ``Idempotency-Key`` header of a result entry (issue 29).
KeyHeader = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=64,
        description="A random key per entry (a UUID): the same key again changes nothing and "
        "gets the first answer.",
    ),
]
