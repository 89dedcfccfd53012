"""Reading a table's results from a submitted form (desk or phone).

Per seat ``k`` (1-based) the form has ``vp-k`` and ``coins-k``; auction rulesets add ``bid-k``,
``board-k`` (the wonder board) and ``side-k``. A ticked ``left-k`` records that the player left during the game
(Ludolimpico 2.5): no score, only the auction's bid and wonder are kept. The score pad's seven categories (``military-k`` … ``science-k``) are
optional; when any is filled in, the breakdown is sent and a blank VP is their sum. A blank
science score is computed from the three symbol counts and wildcards (``gear-k``, ``compass-k``,
``tablet-k``, ``wild-k``) by the game engine's :func:`~agon.games.seven_wonders.rules.science_points`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from agon.errors import N_, AgonError, InvalidInput, Text
from agon.games.seven_wonders.rules import science_points
from agon.i18n import SCORE_CATEGORIES
from agon.services.public import TablePublic
from agon.services.schemas import ResultIn
from agon.tournament.auction import AuctionAction
from agon.tournament.score_pad import SCORE_PAD_CATEGORIES
from agon.web.limits import parse_int

SYMBOLS = ("gear", "compass", "tablet")
#: More wildcards than any player can collect (Babylon B, Scientists' Guild) is a typing error.
MAX_WILD = 2


def _field(form: Mapping[str, str], key: str) -> str:
    value = form.get(key, "")
    return value.strip() if isinstance(value, str) else ""


#: The fields' names as the forms label them (for the messages about them).
FIELD_LABELS = {
    "vp": N_("VP"),
    "coins": N_("Coins"),
    "bid": N_("Bid"),
    "gear": N_("Gears"),
    "compass": N_("Compasses"),
    "tablet": N_("Tablets"),
    "wild": N_("Wildcards"),
    **SCORE_CATEGORIES,
}


def _int(form: Mapping[str, str], key: str, player: str, *, default: int | None = None) -> int:
    text = _field(form, key)
    field = key.split("-")[0]
    label = Text(FIELD_LABELS.get(field, field))
    if not text:
        if default is None:
            raise InvalidInput(
                f"player {player!r}, field {field!r}: missing",
                msgid=N_("%(player)s: %(field)s is missing."),
                params={"player": player, "field": label},
            )
        return default
    try:
        return parse_int(text, f"player {player!r}, field {field!r}")
    except InvalidInput as exc:
        out_of_range = "out of range" in str(exc)
        raise InvalidInput(
            str(exc),
            msgid=N_("%(player)s: %(field)s “%(text)s” is out of range.")
            if out_of_range
            else N_("%(player)s: %(field)s “%(text)s” is not a whole number."),
            params={"player": player, "field": label, "text": text[:24]},
        ) from None


def science_from_symbols(form: Mapping[str, str], k: int, player: str) -> int | None:
    """Science VP from the symbol counts and wildcards of seat ``k``, if any were given."""
    if not any(_field(form, f"{s}-{k}") for s in (*SYMBOLS, "wild")):
        return None
    g, c, t = (_int(form, f"{s}-{k}", player, default=0) for s in SYMBOLS)
    wild = _int(form, f"wild-{k}", player, default=0)
    if min(g, c, t) < 0 or not 0 <= wild <= MAX_WILD:
        raise InvalidInput(
            f"player {player!r}: symbol counts must not be negative, wildcards 0 to {MAX_WILD}",
            msgid=N_("%(player)s: symbol counts must not be negative, wildcards 0 to %(max)d."),
            params={"player": player, "max": MAX_WILD},
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
        # left during the game (Ludolimpico 2.5): no score; a score typed all the same is sent
        # on, and refused by the service
        left = bool(_field(form, f"left-{k}"))
        breakdown: dict[str, int] | None = None
        science = science_from_symbols(form, k, player)
        given = [c for c in SCORE_PAD_CATEGORIES if _field(form, f"{c}-{k}")]
        if given or science is not None:
            breakdown = {c: _int(form, f"{c}-{k}", player, default=0) for c in SCORE_PAD_CATEGORIES}
            if not _field(form, f"science-{k}") and science is not None:
                breakdown["science"] = science
        vp_default = sum(breakdown.values()) if breakdown is not None else (0 if left else None)
        # the board is ``board-k``: ``wonder-k`` is the score pad's wonder points
        wonder = _field(form, f"board-{k}") or None
        side = _field(form, f"side-{k}").upper() or None
        out.append(
            ResultIn(
                player=player,
                vp=_int(form, f"vp-{k}", player, default=vp_default),
                # an empty coins field is "not given": a ruleset that requires coins refuses it
                coins=_int(form, f"coins-{k}", player) if _field(form, f"coins-{k}") else None,
                bid=_int(form, f"bid-{k}", player, default=0) if auction else 0,
                wonder=wonder if auction else None,
                side=side if auction else None,
                breakdown=breakdown,
                left=left,
            )
        )
    return out


def auction_action_from_form(form: Mapping[str, str]) -> str:
    """The text form of one auction action from a table's form (``player``, ``verb``, and for
    ``opens`` a ``wonder`` and ``bid``, for ``raises`` a ``bid``).

    Raises:
        InvalidInput: no player, an unknown verb, or a bid that is not a whole number ≥ 0.
    """
    player = _field(form, "player")
    verb = _field(form, "verb")
    if not player or verb not in ("opens", "raises", "passes"):
        raise InvalidInput(
            f"auction: player {player!r}, action {verb!r}: choose open, raise or pass",
            msgid=N_("Choose an action: open, raise or pass."),
        )
    if verb == "passes":
        return str(AuctionAction(player, "passes"))
    text = _field(form, "bid")
    try:
        bid = int(text)
    except ValueError:
        bid = -1
    if bid < 0:
        raise InvalidInput(
            f"auction: player {player!r}, bid {text!r}: a whole number, 0 or more",
            msgid=N_("The bid “%(bid)s” is not a whole number of 0 or more."),
            params={"bid": text},
        )
    if verb == "raises":
        return str(AuctionAction(player, "raises", None, bid))
    wonder = _field(form, "wonder")
    if not wonder:
        raise InvalidInput(
            f"auction: player {player!r}: choose the wonder to open with",
            msgid=N_("Choose the wonder you open the auction for."),
        )
    return str(AuctionAction(player, "opens", wonder, bid))


def same_as_stored(entered: Sequence[ResultIn], current: TablePublic) -> bool:
    """Whether ``entered`` is the table's stored result again (a second tap on *Save*).

    Wonder, side and bid left empty count as the stored ones (the draws fill them in).
    """
    stored = {r.player: r for r in current.results}
    if not stored or set(stored) != {r.player for r in entered}:
        return False
    for new in entered:
        old = stored[new.player]
        if new.left or old.left:
            if (new.left, new.bid or old.bid) != (old.left, old.bid):
                return False
            continue
        # coins left empty are stored as 0 where the ruleset does not require them (Ludolimpico)
        if (new.vp, 0 if new.coins is None else new.coins) != (old.vp, old.coins):
            return False
        if new.breakdown is not None and dict(new.breakdown) != dict(old.breakdown or {}):
            return False
        if new.bid and new.bid != old.bid:
            return False
        if (new.wonder or old.wonder, new.side or old.side) != (old.wonder, old.side):
            return False
    return True


#: The form field a result error names (``field 'vp'`` in its message), by the error's field.
_ERROR_FIELDS = {"wonder": "board", "breakdown": "vp"}
_FIELD_IN_MESSAGE = re.compile(r"\bfield '([a-z]+)(?:\.([a-z]+))?'")


def refused_field(exc: AgonError, seats: Sequence[str]) -> tuple[int | None, str | None]:
    """Where on a result form the refusal ``exc`` points: the seat (1-based) of the player it
    names and that seat's form field (``vp-3``), as far as the message says.

    The services and :func:`results_from_form` name a result's place as
    :func:`agon.errors.where` writes it (``round 1, table 2, player 'Anna', field 'vp'``); the
    player may also be the message's ``player`` parameter.

    >>> exc = InvalidInput("round 1, table 2, player 'Ben', field 'vp': 612 is out of range 0…200")
    >>> refused_field(exc, ["Anna", "Ben"])
    (2, 'vp-2')
    >>> refused_field(InvalidInput("no coins", params={"player": "Anna", "field": "Coins"}), ["Anna"])
    (1, 'coins-1')
    """
    text = str(exc)
    named = exc.params.get("player")
    seat = None
    for k, player in enumerate(seats, start=1):
        if named == player or f"player {player!r}" in text:
            seat = k
            break
    if seat is None:
        return None, None
    match = _FIELD_IN_MESSAGE.search(text)
    if match is not None:
        field = match.group(2) or _ERROR_FIELDS.get(match.group(1), match.group(1))
        return seat, f"{field}-{seat}"
    # else the field the message names by its label (a field the rules require: "Coins")
    labels = {FIELD_LABELS[key]: key for key in ("vp", "coins", "bid")}
    labelled = labels.get(str(exc.params.get("field")))
    return seat, f"{labelled}-{seat}" if labelled else None


def pads_typed(form: Mapping[str, str], seats: int) -> set[int]:
    """The seats (1-based) whose score pad has anything typed in ``form`` (shown open again)."""
    pad = (*SCORE_PAD_CATEGORIES, *SYMBOLS, "wild")
    return {k for k in range(1, seats + 1) if any(_field(form, f"{c}-{k}") for c in pad)}
