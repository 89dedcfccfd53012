"""Reading a table's results from a submitted form (desk or phone).

Per seat ``k`` (1-based) the form has ``vp-k`` and ``coins-k``; auction rulesets add ``bid-k``,
``wonder-k`` and ``side-k``. The score pad's seven categories (``military-k`` … ``science-k``) are
optional; when any is filled in, the breakdown is sent and a blank VP is their sum. A blank
science score is computed from the three symbol counts and wildcards (``gear-k``, ``compass-k``,
``tablet-k``, ``wild-k``) by the game engine's :func:`~agon.games.seven_wonders.rules.science_points`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agon.errors import InvalidInput
from agon.games.seven_wonders.rules import science_points
from agon.services.schemas import ResultIn
from agon.tournament.event import SCORE_PAD_CATEGORIES
from agon.web.limits import parse_int

SYMBOLS = ("gear", "compass", "tablet")
#: More wildcards than any player can collect (Babylon B, Scientists' Guild) is a typing error.
MAX_WILD = 2


def _field(form: Mapping[str, str], key: str) -> str:
    value = form.get(key, "")
    return value.strip() if isinstance(value, str) else ""


def _int(form: Mapping[str, str], key: str, player: str, *, default: int | None = None) -> int:
    text = _field(form, key)
    if not text:
        if default is None:
            raise InvalidInput(f"player {player!r}, field {key.split('-')[0]!r}: missing")
        return default
    return parse_int(text, f"player {player!r}, field {key.split('-')[0]!r}")


def science_from_symbols(form: Mapping[str, str], k: int, player: str) -> int | None:
    """Science VP from the symbol counts and wildcards of seat ``k``, if any were given."""
    if not any(_field(form, f"{s}-{k}") for s in (*SYMBOLS, "wild")):
        return None
    g, c, t = (_int(form, f"{s}-{k}", player, default=0) for s in SYMBOLS)
    wild = _int(form, f"wild-{k}", player, default=0)
    if min(g, c, t) < 0 or not 0 <= wild <= MAX_WILD:
        raise InvalidInput(
            f"player {player!r}: symbol counts must not be negative, wildcards 0 to {MAX_WILD}"
        )
    return science_points((g, c, t), wild)


def results_from_form(
    form: Mapping[str, str], seats: Sequence[str], *, auction: bool
) -> list[ResultIn]:
    """The results of every seat.

    Raises:
        InvalidInput: naming the player and field of the first missing or malformed value.
    """
    out = []
    for k, player in enumerate(seats, start=1):
        breakdown: dict[str, int] | None = None
        science = science_from_symbols(form, k, player)
        given = [c for c in SCORE_PAD_CATEGORIES if _field(form, f"{c}-{k}")]
        if given or science is not None:
            breakdown = {c: _int(form, f"{c}-{k}", player, default=0) for c in SCORE_PAD_CATEGORIES}
            if not _field(form, f"science-{k}") and science is not None:
                breakdown["science"] = science
        vp_default = sum(breakdown.values()) if breakdown is not None else None
        wonder = _field(form, f"wonder-{k}") or None
        side = _field(form, f"side-{k}").upper() or None
        out.append(
            ResultIn(
                player=player,
                vp=_int(form, f"vp-{k}", player, default=vp_default),
                coins=_int(form, f"coins-{k}", player, default=0),
                bid=_int(form, f"bid-{k}", player, default=0) if auction else 0,
                wonder=wonder if auction else None,
                side=side if auction else None,
                breakdown=breakdown,
            )
        )
    return out
