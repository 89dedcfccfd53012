"""Plausibility of a table's scores: warnings (never refusals) for what looks like a typo.

A score sheet copied by hand goes wrong in a few typical ways: a digit typed twice (52 → 522),
a score entered in the coins field, a player's VP left at a few points. agon accepts the result
(the sheet is the truth, and odd games happen) but says what looks odd so the director can look
at the sheet again before confirming.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: One player ten times the table's median VP is almost always a digit typed twice.
TYPO_FACTOR = 10
#: VP of a base game of 3–7 players lie between about 25 and 80 in tournament play (Bonn and
#: Ludolimpico samples: 28–76); outside this range the sheet is worth a second look.
USUAL_VP = (10, 110)
#: More coins than this at the end of a game is rare (the treasury is 1 VP per 3 coins).
USUAL_COINS_MAX = 40


@dataclass(frozen=True, slots=True)
class Score:
    """What the plausibility checks look at: one player's VP and coins (``None``: not given)."""

    player: str
    vp: int
    coins: int | None = None


def median(values: Sequence[int]) -> int | float:
    """The median of ``values`` as :func:`statistics.median` gives it (the middle value, or
    the mean of the two middle ones), 0 for none. Here and not imported: :mod:`statistics` pulls
    in :mod:`random`, :mod:`fractions` and :mod:`decimal`, which cost ``agon round show`` more
    CPU than this table's check (issue 30).

    >>> median([52, 48, 51]), median([52, 48]), median([])
    (51, 50.0, 0)
    """
    if not values:
        return 0
    ordered = sorted(values)
    half = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[half]
    return (ordered[half - 1] + ordered[half]) / 2


def table_warnings(scores: Sequence[Score]) -> tuple[str, ...]:
    """Warnings for the scores of one table, one sentence each, naming player and value.

    >>> table_warnings([Score("Anna", 520), Score("Ben", 48), Score("Carla", 51)])
    ("Anna: 520 VP is 10× the table's median (51): a typo?", 'Anna: 520 VP is far outside the usual 10–110')
    >>> table_warnings([Score("Anna", 52, 3), Score("Ben", 48, 5)])
    ()
    """
    out: list[str] = []
    middle = median([s.vp for s in scores])
    lo, hi = USUAL_VP
    for s in scores:
        if middle > 0 and s.vp >= TYPO_FACTOR * middle:
            shown = int(middle) if middle == int(middle) else middle
            out.append(
                f"{s.player}: {s.vp} VP is {s.vp // middle:.0f}× the table's median ({shown}): "
                "a typo?"
            )
        if not lo <= s.vp <= hi:
            out.append(f"{s.player}: {s.vp} VP is far outside the usual {lo}–{hi}")
        if s.coins is not None and s.coins > USUAL_COINS_MAX:
            out.append(f"{s.player}: {s.coins} coins is more than a game usually leaves")
    return tuple(out)
