"""Entries sent exactly once (issue 29): a table phone's result or confirmation, an API client's
result, each with an idempotency key; a phone's queued result that finds the table changed
becomes a dispute.

A phone that lost the wifi keeps what was entered and sends it when the connection returns, with
the random key it made when the entry was typed. The key is stored with the change, in the same
transaction and under the tournament's lock (:func:`agon.services.core.record_once`): the same key
again — the phone retried, two server processes got the request twice — answers what the first
answered and writes nothing. Never overwriting: a queued result that names a version that is no
longer the table's (another phone, the desk changed it meanwhile) is recorded as a dispute of the
current version, with what the phone wanted, for the director to decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from agon.errors import Conflict
from agon.services.core import Once, get_table_row, get_tournament_row, record_once
from agon.services.results import get_table
from agon.services.schemas import ResultIn

#: What a dispute from a phone's queue says (the desk shows its own translated line).
QUEUED_REASON = (
    "a result entered on a phone while it was offline arrived after the table's result had "
    "changed; it did not overwrite it"
)


def _table_answer(session: Session, outcome: str, tournament: str, rnd: int, table: int) -> Any:
    shown = get_table(session, tournament=tournament, round_number=rnd, table=table)
    return {"outcome": outcome, "table": asdict(shown)}


def enter_result_once(
    session: Session,
    *,
    key: str,
    tournament: str,
    round_number: int,
    table: int,
    results: Sequence[ResultIn],
    actor: str,
    expected_version: int | None = None,
    queued: bool = False,
    now: datetime | None = None,
) -> Once:
    """Enter (or correct) a table's result once per ``key``; the answer is
    ``{"outcome": "saved" | "dispute", "table": <the table after the change>}``.

    ``queued``: the entry was kept on a phone while it was offline. If the table's result changed
    meanwhile (a version conflict), the entry becomes a dispute of the current version naming what
    it wanted (outcome ``dispute``), instead of the refusal.

    Raises:
        Conflict: the result changed (not ``queued``), or the key was used for another change;
        InvalidInput, IllegalAction: as :func:`agon.services.results.enter_result`.
    """
    scope = f"r{round_number}/t{table}/result"
    wanted = [r.as_payload() for r in results]
    try:
        return record_once(
            session,
            key=key,
            scope=scope,
            tournament=tournament,
            actor=actor,
            action="result.enter",
            payload={
                "round": round_number,
                "table": table,
                "results": wanted,
                "expected_version": expected_version,
            },
            answer=lambda s: _table_answer(s, "saved", tournament, round_number, table),
            now=now,
        )
    except Conflict:
        if not queued:
            raise

    def dispute(s: Session) -> dict[str, Any]:
        row = get_table_row(s, get_tournament_row(s, tournament), round_number, table)
        return {
            "round": round_number,
            "table": table,
            "version": row.version,
            "player": "",
            "reason": QUEUED_REASON,
            "wanted": wanted,
            "expected_version": expected_version,
        }

    return record_once(
        session,
        key=key,
        scope=scope,
        tournament=tournament,
        actor=actor,
        action="dispute.open",
        payload=dispute,
        answer=lambda s: _table_answer(s, "dispute", tournament, round_number, table),
        now=now,
    )


def confirm_once(
    session: Session,
    *,
    key: str,
    tournament: str,
    round_number: int,
    table: int,
    player: str,
    actor: str,
    expected_version: int,
    now: datetime | None = None,
) -> Once:
    """``player`` confirms version ``expected_version`` of the table's result, once per ``key``;
    the answer is ``{"outcome": "confirmed", "table": …}``.

    Raises:
        Conflict: the result changed since (a confirmation counts only for the version seen), or
        the key was used for another change; IllegalAction, InvalidInput: as
        :func:`agon.services.results.confirm_result`.
    """
    return record_once(
        session,
        key=key,
        scope=f"r{round_number}/t{table}/confirm/{player}"[:200],
        tournament=tournament,
        actor=actor,
        action="result.confirm",
        payload={
            "round": round_number,
            "table": table,
            "players": [player],
            "expected_version": expected_version,
        },
        answer=lambda s: _table_answer(s, "confirmed", tournament, round_number, table),
        now=now,
    )
