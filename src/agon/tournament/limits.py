"""The ranges every number a person enters must lie in.

Defaults (a ruleset may widen the score ranges in its ``[limits]`` table, see docs/rulesets.md):

- victory points −100…500 per game (the base game's record is under 200; −100 leaves room for
  military losses and debt expansions),
- coins 0…500, auction bid 0…100 (Ludolimpico 2.1),
- round and table numbers 1…10,000;
- players per tournament or schedule 1…1,000 and rounds per schedule 1…50: a convention's
  largest 7 Wonders events have a few hundred players and under 10 rounds, and a 1,000-player
  schedule is planned in seconds (``agon schedule --players 100000`` used to run for minutes).

Values outside a range are refused with :class:`~agon.errors.InvalidInput` naming the field and
the range, before anything is stored (64-bit database columns never see them).
"""

from __future__ import annotations

from dataclasses import dataclass

from agon.errors import N_, InvalidInput, Text

NUMBER_MAX = 10_000  #: highest round or table number
PLAYERS_MAX = 1_000  #: most players a tournament or a schedule may have
ROUNDS_MAX = 50  #: most rounds a schedule may plan
#: Bounds a ruleset's ``[limits]`` must stay within (sums of a tournament stay far from 2^63).
WIDEST = 1_000_000


@dataclass(frozen=True, slots=True)
class Limits:
    """Score ranges of a ruleset (``[limits]``); minimum coins and bid are always 0."""

    vp_min: int = -100
    vp_max: int = 500
    coins_max: int = 500
    bid_max: int = 100

    def check_result(self, *, vp: object, coins: object, bid: object, place: str) -> None:
        """Raises :class:`InvalidInput` naming ``place`` and the field when one is out of range."""
        check_range(vp, self.vp_min, self.vp_max, f"{place}, field 'vp'", label=N_("VP"))
        check_range(coins, 0, self.coins_max, f"{place}, field 'coins'", label=N_("Coins"))
        check_range(bid, 0, self.bid_max, f"{place}, field 'bid'", label=N_("Bid"))


DEFAULT_LIMITS = Limits()


def check_range(value: object, low: int, high: int, what: str, *, label: str | None = None) -> int:
    """``value`` as an int in ``low..high``.

    >>> check_range(7, 1, 10, "round")
    7

    Raises:
        InvalidInput: not an integer, or outside the range; the message names ``what`` (the web
            page names ``label``, a catalogue text, where given).
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(
            f"{what}: must be an integer, got {value!r}",
            msgid=N_("%(field)s must be a whole number."),
            params={"field": Text(label or what)},
        )
    if not low <= value <= high:
        shown = str(value) if abs(value) < 10**30 else f"a {len(str(abs(value)))}-digit number"
        raise InvalidInput(
            f"{what}: {shown} is out of range {low}…{high}",
            msgid=N_("%(field)s: “%(text)s” is out of range (%(low)d to %(high)d)."),
            params={"field": Text(label or what), "text": shown, "low": low, "high": high},
        )
    return value


def check_number(value: object, what: str, *, label: str | None = None) -> int:
    """A round or table number: 1…:data:`NUMBER_MAX` (``label``: as in :func:`check_range`)."""
    return check_range(value, 1, NUMBER_MAX, what, label=label)
