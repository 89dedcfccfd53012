"""The table of an online game for the templates: :mod:`agon.web.playview` builds it, and for a
7 Wonders seat :mod:`agon.web.sevenview` adds the phone page's extras (the production bar, the
neighbours' prices, the payments in words). Kept apart so that those two import in one direction
only (sevenview builds on playview)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agon.errors import InvalidInput
from agon.web import sevenview
from agon.web.playview import ocw_table, seven_table


def table_context(state: Mapping[str, Any], lang: str, game: str) -> dict[str, Any]:
    """The table of ``game`` (``7w`` or ``ocw``) for the templates.

    Raises:
        InvalidInput: for another game.
    """
    if game == "7w":
        ctx = seven_table(state, lang)
        view, seat = state["view"], state.get("seat")
        if seat is not None and view.get("phase") != "sides":
            ctx["extras"] = sevenview.seat_extras(view, seat, lang)
            sevenview.dress_hand(ctx["moves"]["hand"], ctx["extras"], lang)
            sevenview.dress_hand(ctx["moves"]["revive"], ctx["extras"], lang)
        return ctx
    if game == "ocw":
        return ocw_table(state, lang)
    raise InvalidInput(f"unknown game {game!r} (expected 7w or ocw)")
