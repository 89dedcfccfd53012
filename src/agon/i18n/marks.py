"""Marks beside a name in the standings: who left the tournament, who came late, who was absent
from the final, who left a game — short words in the page's language with a longer title, so a
reader sees why a row looks as it does (issue 32: "Dropped players, late entries and the absent
finalist carry no mark in the standings or the PDF").

A mark is words, never a colour alone: the web pages print ``short`` beside the name with
``long`` as its title; the printouts print ``short`` and a legend of the ``long`` ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agon.i18n import N_, translator

#: The kinds of mark, in the order they are shown.
KINDS = ("late", "left-game", "dropped", "withdrawn", "expelled", "absent-final")

#: A player's status (:data:`agon.services.schemas.DROP_KINDS`' values) -> the kind of mark.
STATUS_MARKS = {"dropped": "dropped", "withdrawn": "withdrawn", "expelled": "expelled"}

_SHORT = {
    "late": N_("late entry"),
    "left-game": N_("withdrew during a game"),
    "dropped": N_("dropped out"),
    "withdrawn": N_("withdrew"),
    "expelled": N_("expelled"),
    "absent-final": N_("absent from the final"),
}
_SHORT_ROUND = {
    "late": N_("late entry (from round %(round)d)"),
    "left-game": N_("withdrew during the game (round %(round)d)"),
    "dropped": N_("dropped out after round %(round)d"),
    "withdrawn": N_("withdrew after round %(round)d"),
    "expelled": N_("expelled after round %(round)d"),
}
_LONG = {
    "late": N_("Late entry: checked in after round 1 had started; plays from the next round."),
    "left-game": N_(
        "Withdrew during a game: no score for that game, the table was scored without that seat."
    ),
    "dropped": N_("Dropped out of the tournament: not seated again; past results stay."),
    "withdrawn": N_("Withdrew from the tournament: not seated again; past results stay."),
    "expelled": N_("Expelled from the tournament: not seated again; past results stay."),
    "absent-final": N_(
        "Qualified for the final but absent: the next in the standings took the place."
    ),
}


@dataclass(frozen=True, slots=True)
class Mark:
    """One mark: its ``kind`` (:data:`KINDS`) and the round it concerns, where known."""

    kind: str
    round: int | None = None


@dataclass(frozen=True, slots=True)
class MarkText:
    """A mark in one language: ``short`` beside the name, ``long`` as its title and legend."""

    kind: str
    short: str
    long: str


def mark_text(mark: Mark, lang: str) -> MarkText:
    """``mark`` in ``lang``.

    >>> mark_text(Mark("dropped", 2), "en").short
    'dropped out after round 2'
    >>> mark_text(Mark("absent-final"), "en").short
    'absent from the final'
    """
    _ = translator(lang).gettext
    if mark.round is not None and mark.kind in _SHORT_ROUND:
        short = _(_SHORT_ROUND[mark.kind]) % {"round": mark.round}
    else:
        short = _(_SHORT[mark.kind])
    return MarkText(kind=mark.kind, short=short, long=_(_LONG[mark.kind]))


def marks_in(marks: Iterable[Mark], lang: str) -> tuple[MarkText, ...]:
    """The marks in ``lang``, in the order of :data:`KINDS` (then by round)."""
    ordered = sorted(marks, key=lambda m: (KINDS.index(m.kind), m.round or 0))
    return tuple(mark_text(m, lang) for m in ordered)


def legend(texts: Iterable[Iterable[MarkText]]) -> list[MarkText]:
    """One line per kind of mark used (for a printout's legend), in the order of :data:`KINDS`."""
    seen: dict[str, MarkText] = {}
    for row in texts:
        for text in row:
            seen.setdefault(text.kind, text)
    return [seen[k] for k in KINDS if k in seen]


def registration_marks(
    *,
    status: str,
    status_round: int | None,
    late: bool,
    first_round: int | None = None,
) -> list[Mark]:
    """The marks of a registration: late entry (``first_round``: the first round the player was
    seated in), dropped / withdrawn / expelled after ``status_round`` rounds (none: not known)."""
    out = []
    if late:
        out.append(Mark("late", first_round))
    if status in STATUS_MARKS:
        out.append(Mark(STATUS_MARKS[status], status_round or None))
    return out


def event_marks(players: Iterable[Any], rounds: Iterable[Any]) -> dict[str, list[Mark]]:
    """The marks an event file tells: each player's ``registration`` (as ``agon export``
    writes it: ``late``, ``status``, ``status_round``) and the games they left (``left``).

    ``players``: :class:`agon.tournament.event.Player`; ``rounds``: the event's rounds.
    """
    first: dict[str, int] = {}
    left: dict[str, list[int]] = {}
    number = 0
    for rnd in rounds:
        if rnd.final:
            continue
        number += 1
        for table in rnd.tables:
            for res in table.results:
                first.setdefault(res.player, number)
                if res.left:
                    left.setdefault(res.player, []).append(number)
    out: dict[str, list[Mark]] = {}
    for p in players:
        reg: Mapping[str, Any] = p.extra.get("registration") or {}
        if not isinstance(reg, Mapping):
            reg = {}
        status_round = reg.get("status_round")
        marks = registration_marks(
            status=str(reg.get("status", "active")),
            status_round=status_round if isinstance(status_round, int) else None,
            late=reg.get("late") is True,
            first_round=first.get(p.name),
        )
        marks += [Mark("left-game", n) for n in left.get(p.name, [])]
        if marks:
            out[p.name] = marks
    return out
