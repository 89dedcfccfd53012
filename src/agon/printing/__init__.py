"""PDF printouts: seating lists, table cards, score sheets and standings (A4, de/it/en).

Build the HTML with the ``*_html`` functions of :mod:`agon.printing.render` and turn it into PDF
with :func:`agon.printing.render.to_pdf`. Rounds are any object shaped like the seating contract's
``RoundPlan`` (:class:`agon.printing.model.RoundLike`), or one read back from an event file
(:func:`agon.printing.model.round_from_event`).
"""

from agon.printing.model import RecordedRound, RecordedTable, RoundLike, TableLike, round_from_event
from agon.printing.render import (
    TableLink,
    derive_pin,
    links_for,
    score_sheets_html,
    seating_by_name_html,
    seating_by_table_html,
    standings_html,
    table_cards_html,
    to_pdf,
)

__all__ = [
    "RecordedRound",
    "RecordedTable",
    "RoundLike",
    "TableLike",
    "TableLink",
    "derive_pin",
    "links_for",
    "round_from_event",
    "score_sheets_html",
    "seating_by_name_html",
    "seating_by_table_html",
    "standings_html",
    "table_cards_html",
    "to_pdf",
]
