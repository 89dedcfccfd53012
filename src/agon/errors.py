"""The exception tree shared by every layer.

Every error a user can cause is an :class:`AgonError` (a ``ValueError``). Messages carry the
offending input and where it sits (file, round, table, player, field), so the command line can
print them as one line with exit code 2 and the web app can answer 4xx.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

#: The exit codes of the ``agon`` command (docs/cli.md): done; a check found a mismatch
#: (``agon verify``, ``agon db verify``); bad input (any :class:`AgonError` but a conflict, a
#: usage error); a conflict (:class:`Conflict`: a stale ``--expect-version``, a change made at
#: the same time, a name or slug that is taken); interrupted (Ctrl-C, 128 + SIGINT); the reader
#: went away (a closed pipe, 128 + SIGPIPE).
EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_BAD_INPUT = 2
EXIT_CONFLICT = 3
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues (``pybabel extract -k N_``) without translating it."""
    return message


class Text(str):
    """A message parameter that is itself a catalogue text: translated along with the message."""


class AgonError(ValueError):
    """Base of all errors caused by input, an action or the state of a tournament.

    ``str(error)`` is the English one-liner the command line prints. Errors that people meet on
    the web also carry ``msgid`` (an English catalogue text with ``%(name)s`` placeholders, marked
    with :func:`N_`) and its ``params`` (a :class:`Text` or an error among them is rendered too):
    the web app renders them in the page's language (:meth:`render`), falling back to the English
    text.

    >>> e = AgonError("round 2: closed", msgid=N_("Round %(round)d is closed."), params={"round": 2})
    >>> str(e), e.render(lambda m: m)
    ('round 2: closed', 'Round 2 is closed.')
    """

    #: The command line's exit code for this error (:data:`EXIT_BAD_INPUT`; a conflict: 3).
    exit_code = EXIT_BAD_INPUT

    def __init__(
        self,
        message: str = "",
        *,
        msgid: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.msgid = msgid
        self.params: dict[str, object] = dict(params or {})

    def render(self, gettext: Callable[[str], str]) -> str:
        """The message translated by ``gettext`` (a catalogue's), else the English text."""
        if self.msgid is not None:
            params = {k: _rendered(v, gettext) for k, v in self.params.items()}
            try:
                return gettext(self.msgid) % params
            except (KeyError, TypeError, ValueError):
                try:
                    return self.msgid % params
                except (KeyError, TypeError, ValueError):
                    pass
        return str(self)


def _rendered(value: object, gettext: Callable[[str], str]) -> object:
    """A parameter as the message shows it: a :class:`Text` translated, an error (the cause a
    message quotes) rendered in the same language, a text on one line (:func:`one_line`)."""
    if isinstance(value, Text):
        return gettext(value)
    if isinstance(value, AgonError):
        return value.render(gettext)
    if isinstance(value, str):
        return one_line(value)
    return value


def one_line(text: str) -> str:
    r"""``text`` as a message quotes it: a line break, a control or a bidi character as its escape,
    so that a message stays one line and shows what was sent.

    >>> one_line("Anna"), one_line("A" + chr(10) + "B"), one_line("Zoë" + chr(0x202E))
    ('Anna', 'A\\nB', 'Zoë\\u202e')
    """
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


class InvalidInput(AgonError):
    """Input that does not fit its format: a file, a field, a command-line argument."""


class IllegalAction(AgonError):
    """An action the rules do not allow in the current state (a game move, an auction bid)."""


class Conflict(AgonError):
    """A change that collides with another one (two people correcting the same table, a stale
    ``--expect-version``, a name that is taken): exit code 3 on the command line, 409 on the
    web."""

    exit_code = EXIT_CONFLICT


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
