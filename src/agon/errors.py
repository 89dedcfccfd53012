"""The exception tree shared by every layer.

Every error a user can cause is an :class:`AgonError` (a ``ValueError``). Messages carry the
offending input and where it sits (file, round, table, player, field), so the command line can
print them as one line with exit code 2 and the web app can answer 4xx.
"""

from __future__ import annotations


class AgonError(ValueError):
    """Base of all errors caused by input, an action or the state of a tournament."""


class InvalidInput(AgonError):
    """Input that does not fit its format: a file, a field, a command-line argument."""


class IllegalAction(AgonError):
    """An action the rules do not allow in the current state (a game move, an auction bid)."""


class Conflict(AgonError):
    """A change that collides with another one (two people correcting the same table)."""


class NotFound(AgonError):
    """A tournament, player, round or table that does not exist."""


def where(*parts: tuple[str, object] | None) -> str:
    """Join location parts into the ``round 2, table 1, player 'Anna', field 'vp'`` form.

    >>> where(("round", 2), ("table", 1), ("player", "Anna"), None, ("field", "vp"))
    "round 2, table 1, player 'Anna', field 'vp'"
    """
    out = []
    for part in parts:
        if part is None:
            continue
        label, value = part
        out.append(f"{label} {value!r}" if isinstance(value, str) else f"{label} {value}")
    return ", ".join(out)
