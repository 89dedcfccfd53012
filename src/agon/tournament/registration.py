"""Online registration before the day: capacity, the waiting list and the deadline (pure rules).

A registrant is *registered* while the places taken (registered and checked in) are fewer than the
capacity, else *waiting*. When a place frees (a registered person withdraws, the capacity grows)
the waiting list is promoted in the order people registered, one person per free place, never
more than the capacity. Registration is open until it is closed or its deadline has passed.
Nothing here reads a database or a clock: the service layer gives the entries and the time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from agon.errors import N_, IllegalAction, InvalidInput

Status = Literal["registered", "waiting", "withdrawn", "checked_in"]
STATUSES: tuple[Status, ...] = ("registered", "waiting", "withdrawn", "checked_in")
#: The statuses that hold one of the capacity's places.
TAKING_A_PLACE: frozenset[str] = frozenset({"registered", "checked_in"})
PUBLIC_NAMES = ("full", "initials")
#: The largest capacity a tournament may open registration for.
MAX_CAPACITY = 10_000
EMAIL_MAX = 254
_EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)+")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class Entry:
    """One registrant as the rules see it: the order of registration and the status."""

    number: int
    status: Status


def places_taken(entries: Iterable[Entry]) -> int:
    return sum(1 for e in entries if e.status in TAKING_A_PLACE)


def status_for_new(entries: Sequence[Entry], capacity: int) -> Status:
    """Where a new registrant goes: a free place, else the end of the waiting list."""
    waiting = sum(1 for e in entries if e.status == "waiting")
    return status_for_counts(taken=places_taken(entries), waiting=waiting, capacity=capacity)


def status_for_counts(*, taken: int, waiting: int, capacity: int) -> Status:
    """:func:`status_for_new` from the counts alone (places taken, people waiting)."""
    return "registered" if taken < capacity and not waiting else "waiting"


def to_promote(entries: Sequence[Entry], capacity: int) -> list[int]:
    """The numbers of the waiting registrants that get the free places, in registration order."""
    free = max(0, capacity - places_taken(entries))
    waiting = sorted(e.number for e in entries if e.status == "waiting")
    return waiting[:free]


def waiting_position(entries: Sequence[Entry], number: int) -> int | None:
    """1 for the first on the waiting list; ``None`` when ``number`` is not waiting."""
    waiting = sorted(e.number for e in entries if e.status == "waiting")
    return waiting.index(number) + 1 if number in waiting else None


def check_capacity(capacity: object, *, taken: int, maximum: int) -> int:
    """The capacity, between the places already taken (at least 1) and the tournament's maximum.

    Raises:
        InvalidInput: not a whole number in that range.
    """
    if not isinstance(capacity, int) or isinstance(capacity, bool):
        raise InvalidInput(
            "the capacity must be a whole number", msgid=N_("The capacity must be a whole number.")
        )
    low, high = max(1, taken), min(maximum, MAX_CAPACITY)
    if not low <= capacity <= high:
        raise InvalidInput(
            f"the capacity must be between {low} and {high} (places taken: {taken}, the "
            f"tournament's maximum: {maximum})",
            msgid=N_("The capacity must be between %(low)d and %(high)d."),
            params={"low": low, "high": high},
        )
    return capacity


def check_open(*, is_open: bool, deadline: datetime | None, now: datetime) -> None:
    """Refuse a registration when registration is closed or its deadline has passed.

    Raises:
        IllegalAction: closed, or after the deadline.
    """
    if not is_open:
        raise IllegalAction(
            "registration is closed", msgid=N_("Registration for this tournament is closed.")
        )
    if deadline is not None and now > deadline:
        raise IllegalAction(
            f"the registration deadline {deadline:%Y-%m-%d %H:%M %Z} has passed",
            msgid=N_("The registration deadline has passed; registration is closed."),
        )


def check_email(value: object) -> str:
    """The trimmed e-mail address (one ``@``, a domain with a dot, no spaces), lower-cased domain.

    >>> check_email(" anna@Example.ORG ")
    'anna@example.org'

    Raises:
        InvalidInput: not text, too long, or not shaped like an address.
    """
    if not isinstance(value, str):
        raise InvalidInput("the e-mail must be text", msgid=N_("The e-mail must be text."))
    text = value.strip()
    if len(text) > EMAIL_MAX or _CONTROL.search(text) or not _EMAIL.fullmatch(text):
        raise InvalidInput(
            "this is not an e-mail address", msgid=N_("This is not an e-mail address.")
        )
    local, domain = text.rsplit("@", 1)
    return f"{local}@{domain.lower()}"


def check_public_names(value: object) -> str:
    if value not in PUBLIC_NAMES:
        raise InvalidInput(
            "public names must be 'full' or 'initials'",
            msgid=N_("Public names must be “full” or “initials”."),
        )
    return str(value)


def initials(name: str) -> str:
    """The name as the public list shows it when the tournament asks for initials.

    >>> initials("Anna Maria Rossi")
    'A. M. R.'
    """
    parts = [p for p in re.split(r"[\s\-]+", name.strip()) if p]
    return " ".join(f"{p[0].upper()}." for p in parts) or "?"


def public_name(name: str, mode: str) -> str:
    return initials(name) if mode == "initials" else name
