"""The journal becomes a hash chain (issue 29; :mod:`agon.services.chain`).

Each ``journal`` row gets ``seq`` (its position in its tournament's journal, 1, 2, 3 …),
``prev_hash`` (the hash of entry ``seq - 1``, 64 zeros for the first) and ``hash`` (SHA-256 of
``prev_hash``, a newline and the canonical JSON of the entry's portable content); ``(tournament,
seq)`` is unique. Existing journals are chained tournament by tournament, in id order.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 05:00:00
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

# A copy of agon.services.chain's hashing (a migration keeps its own: it must not change when the
# code does).
GENESIS = "0" * 64
ID_KEYS = {
    "result.enter": ("expected_version",),
    "result.confirm": ("expected_version",),
    "dispute.open": ("version",),
    "undo": ("undoes",),
}
CREATING = ("tournament.create", "tournament.import")


def _position(value: Any, position_of: dict[int, int]) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        # an id that is no entry of the journal stays an id, never taken for a position
        return position_of.get(value, {"id": value})
    return value


def _hash(prev: str, row: Any, seq: int, position_of: dict[int, int]) -> str:
    at: datetime = row.at if row.at.tzinfo is not None else row.at.replace(tzinfo=UTC)
    payload = dict(row.payload) if isinstance(row.payload, dict) else row.payload
    if isinstance(payload, dict):
        for key in ID_KEYS.get(row.action, ()):
            if key in payload:
                payload[key] = _position(payload[key], position_of)
        if row.action in CREATING:
            payload.pop("slug", None)
    portable = {
        "seq": seq,
        "at": at.astimezone(UTC).isoformat(timespec="microseconds"),
        "actor": row.actor,
        "action": row.action,
        "payload": payload,
        "undoes": _position(row.undoes, position_of),
    }
    canonical = json.dumps(portable, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256((prev + "\n" + canonical).encode("utf-8", "surrogatepass")).hexdigest()


def upgrade() -> None:
    with op.batch_alter_table("journal") as batch:
        batch.add_column(sa.Column("seq", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("prev_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("hash", sa.String(length=64), nullable=True))
    journal = sa.table(
        "journal",
        sa.column("id", sa.Integer()),
        sa.column("tournament", sa.String()),
        sa.column("at", sa.DateTime(timezone=True)),
        sa.column("actor", sa.String()),
        sa.column("action", sa.String()),
        sa.column("payload", sa.JSON()),
        sa.column("undoes", sa.Integer()),
        sa.column("seq", sa.Integer()),
        sa.column("prev_hash", sa.String()),
        sa.column("hash", sa.String()),
    )
    conn = op.get_bind()
    slugs = conn.execute(sa.select(journal.c.tournament).distinct()).scalars().all()
    for slug in sorted(slugs):
        rows = conn.execute(
            sa.select(
                journal.c.id,
                journal.c.at,
                journal.c.actor,
                journal.c.action,
                journal.c.payload,
                journal.c.undoes,
            )
            .where(journal.c.tournament == slug)
            .order_by(journal.c.id)
        ).all()
        position_of = {row.id: n for n, row in enumerate(rows, start=1)}
        prev = GENESIS
        chained = []
        for n, row in enumerate(rows, start=1):
            digest = _hash(prev, row, n, position_of)
            chained.append({"row_id": row.id, "seq": n, "prev_hash": prev, "hash": digest})
            prev = digest
        if chained:
            conn.execute(
                journal.update()
                .where(journal.c.id == sa.bindparam("row_id"))
                .values(
                    seq=sa.bindparam("seq"),
                    prev_hash=sa.bindparam("prev_hash"),
                    hash=sa.bindparam("hash"),
                ),
                chained,
            )
    with op.batch_alter_table("journal") as batch:
        batch.alter_column("seq", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("prev_hash", existing_type=sa.String(length=64), nullable=False)
        batch.alter_column("hash", existing_type=sa.String(length=64), nullable=False)
        batch.create_unique_constraint("uq_journal_tournament", ["tournament", "seq"])


def downgrade() -> None:
    with op.batch_alter_table("journal") as batch:
        batch.drop_constraint("uq_journal_tournament", type_="unique")
        batch.drop_column("hash")
        batch.drop_column("prev_hash")
        batch.drop_column("seq")
