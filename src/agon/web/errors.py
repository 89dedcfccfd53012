"""How the web answers a service error: its HTTP status (style guide 5: one mapping to 4xx)."""

from __future__ import annotations

from agon.errors import AgonError, Conflict, IllegalAction, InvalidInput, NotFound


def status_of(exc: AgonError) -> int:
    """The HTTP status of a service error: 404 not found, 409 not now, 422 bad input, else 400."""
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, Conflict | IllegalAction):
        return 409
    if isinstance(exc, InvalidInput):
        return 422
    return 400
