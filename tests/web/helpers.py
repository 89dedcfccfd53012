"""Small builders shared by the web tests."""

from __future__ import annotations

from sqlalchemy.orm import Session

from agon.services import results, rounds
from agon.services.schemas import ResultIn
from agon.web.state import journal_version


def version_of(session: Session, slug: str) -> int:
    """The tournament's journal version, read without keeping SQLite's write lock."""
    session.expire_all()
    try:
        return journal_version(session, slug)
    finally:
        session.rollback()


def play_round(
    session: Session, slug: str, number: int, *, base: int = 40, confirm: bool = True
) -> None:
    """Enter a result for every table of round ``number`` (seat k scores ``base + 3k``)."""
    rnd = rounds.get_round(session, tournament=slug, number=number)
    for table in rnd.tables:
        results.enter_result(
            session,
            tournament=slug,
            round_number=number,
            table=table.number,
            results=[
                ResultIn(player=p, vp=base + 3 * k + table.number, coins=k)
                for k, p in enumerate(table.seats)
            ],
            actor="test",
        )
        if confirm:
            results.confirm_result(
                session, tournament=slug, round_number=number, table=table.number, actor="test"
            )
    session.rollback()  # end the read transaction: SQLite's BEGIN IMMEDIATE would block the app
