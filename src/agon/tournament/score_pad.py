"""The official 7 Wonders score pad's columns, in pad order: one fact, read by the event file, the
results' text form, the forms and the printed sheets.

A module of its own so that the readers of a result's text (:mod:`agon.services.schemas`) need not
import the event file's reader (issue 30: ``agon round show`` creates none of its classes).
"""

from __future__ import annotations

#: The seven columns of the official 7 Wonders score pad, in pad order.
SCORE_PAD_CATEGORIES = (
    "military",
    "treasury",
    "wonder",
    "civilian",
    "commercial",
    "guilds",
    "science",
)
