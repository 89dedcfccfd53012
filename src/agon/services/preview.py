"""Dry runs: make a change in a transaction, look at the result, roll it back.

A director about to start or close a round, undo, expel or seat the final can ask what would
happen first (``--dry-run`` on the command line, a confirmation step on the web). The change runs
exactly as it would for real — the same service, the same handler, the same checks — up to the
moment of the commit; there the journal entries written are read, the caller may look at the
would-be state (``inspect``), and everything is rolled back. So a dry run refuses what the change
would refuse, with the same message, and shows what it would do; it never changes anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from agon.store.models import JournalEntry

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class PlannedEntry:
    """A journal entry the change would write: its action, payload and the state before/after."""

    action: str
    payload: dict[str, Any]
    before: Any
    after: Any


@dataclass(frozen=True, slots=True)
class Preview(Generic[V]):
    """What a change would do: the journal entries it would write and the inspected state."""

    entries: tuple[PlannedEntry, ...]
    view: V | None


class _Stop(BaseException):
    """Raised at the commit of a dry run: unwinds the service (which rolls back) to :func:`dry_run`.

    A ``BaseException``, so that no ``except Exception`` between here and there swallows it.
    """

    def __init__(self, entries: tuple[PlannedEntry, ...], view: Any) -> None:
        super().__init__("dry run")
        self.entries = entries
        self.view = view


def dry_run(
    session: Session,
    change: Callable[[], object],
    *,
    inspect: Callable[[Session], V] | None = None,
) -> Preview[V]:
    """Run ``change`` (a call of a service that records a change) without committing it.

    Raises:
        AgonError: whatever the change itself would raise (then nothing is shown either).
    """

    last = session.scalar(select(func.max(JournalEntry.id))) or 0

    def stop(sess: Session) -> None:
        sess.flush()
        written = tuple(
            PlannedEntry(action=e.action, payload=dict(e.payload), before=e.before, after=e.after)
            for e in sess.scalars(
                select(JournalEntry).where(JournalEntry.id > last).order_by(JournalEntry.id)
            )
        )
        raise _Stop(written, inspect(sess) if inspect is not None else None)

    event.listen(session, "before_commit", stop)
    try:
        change()
    except _Stop as stopped:
        session.rollback()
        return Preview(entries=stopped.entries, view=stopped.view)
    finally:
        event.remove(session, "before_commit", stop)
    session.rollback()
    return Preview(entries=(), view=None)  # the change committed nothing
