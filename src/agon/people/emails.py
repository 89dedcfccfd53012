"""The one check of an e-mail address as an account's login (trimmed, lower-cased).

>>> check_email("  Anna.Rossi@Example.ORG ")
'anna.rossi@example.org'
"""

from __future__ import annotations

import re

from agon.errors import N_, InvalidInput

#: The longest address (RFC 5321's path limit).
EMAIL_MAX = 254
_EMAIL = re.compile(r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f.]+(\.[^@\s\x00-\x1f\x7f.]+)+$")


def check_email(value: object) -> str:
    """The address, trimmed and lower-cased, or :class:`InvalidInput` (one line)."""
    if not isinstance(value, str):
        raise InvalidInput("e-mail: must be text")
    email = value.strip().lower()
    if not email or len(email) > EMAIL_MAX or not _EMAIL.match(email) or not email.isprintable():
        shown = email[:60].encode("ascii", "backslashreplace").decode("ascii")
        raise InvalidInput(
            f"e-mail {shown!r}: not an e-mail address (like name@example.org)",
            msgid=N_("Not an e-mail address: %(email)s"),
            params={"email": shown},
        )
    return email
