"""The one rule for every name a person types: players, tags, tournaments.

A name is trimmed, then 1–80 characters long, with no control characters (NUL, tab, newline…,
Unicode category ``Cc``), no bidirectional overrides, embeddings, isolates or marks (U+202A–U+202E,
U+2066–U+2069, U+200E, U+200F, U+061C: they can make a printed name read differently from what is
stored), no line/paragraph separators (U+2028/U+2029) and no lone surrogates (invalid Unicode).
Letters of every script, accents, spaces inside the name, apostrophes and emoji are fine.

The services call :func:`check_name` before anything is recorded, so the command line, the desk
form, the API and the CSV import all apply the same rule.
"""

from __future__ import annotations

import re

from agon.errors import N_, InvalidInput, Text

#: The longest name (characters, after trimming): long enough for "Maria-Theresia von
#: Hohenzollern-Sigmaringen (Spieleclub Bonn)", short enough for a score-sheet cell.
NAME_MAX = 80

_BIDI = "\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c"
_FORBIDDEN = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")


def _describe(ch: str) -> str:
    code = ord(ch)
    if 0xD800 <= code <= 0xDFFF:
        return f"a lone surrogate U+{code:04X} (invalid Unicode)"
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return f"the control character U+{code:04X}"
    return f"the invisible direction mark U+{code:04X}"


def check_name(value: object, *, what: str = "name", label: str = N_("Name")) -> str:
    """The trimmed name, or :class:`InvalidInput` saying what is wrong with it (``what`` on the
    command line, ``label``, a catalogue text, on the web).

    >>> check_name("  Anna Rossi ")
    'Anna Rossi'

    Raises:
        InvalidInput: not text, empty, longer than :data:`NAME_MAX`, or with a forbidden character.
    """
    if not isinstance(value, str):
        raise InvalidInput(
            f"{what}: must be text, got {type(value).__name__}",
            msgid=N_("%(label)s must be text."),
            params={"label": Text(label)},
        )
    bad = _FORBIDDEN.search(value)
    if bad:
        raise _contains(what, label, value, bad.group())
    name = value.strip()
    if not name:
        raise InvalidInput(
            f"{what}: must not be empty",
            msgid=N_("%(label)s must not be empty."),
            params={"label": Text(label)},
        )
    if len(name) > NAME_MAX:
        raise _too_long(f"{what} {name[:20] + '…'!r}", label, len(name), NAME_MAX)
    return name


#: The longest free text (a reason for a sanction or a drop).
TEXT_MAX = 500
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


def check_text(
    value: object, *, what: str = "text", max_length: int = TEXT_MAX, label: str = N_("Text")
) -> str:
    """Free text (a reason): at most ``max_length`` characters, no NUL, no lone surrogates.

    Raises:
        InvalidInput: naming ``what``.
    """
    if not isinstance(value, str):
        raise InvalidInput(
            f"{what}: must be text, got {type(value).__name__}",
            msgid=N_("%(label)s must be text."),
            params={"label": Text(label)},
        )
    bad = _BAD_TEXT.search(value)
    if bad:
        raise _contains(what, label, value, bad.group())
    if len(value) > max_length:
        raise _too_long(what, label, len(value), max_length)
    return value


def _contains(what: str, label: str, value: str, bad: str) -> InvalidInput:
    return InvalidInput(
        f"{what} {value[:40]!r}: contains {_describe(bad)}",
        msgid=N_("%(label)s contains an invisible or control character (U+%(code)s)."),
        params={"label": Text(label), "code": f"{ord(bad):04X}"},
    )


def _too_long(what: str, label: str, length: int, most: int) -> InvalidInput:
    return InvalidInput(
        f"{what}: {length} characters, at most {most} allowed",
        msgid=N_("%(label)s has %(length)d characters; at most %(max)d are allowed."),
        params={"label": Text(label), "length": length, "max": most},
    )
