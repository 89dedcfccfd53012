"""The floor joins the journal: existing round clocks and disputes become journal entries.

Until 0002 the round clock and disputes were written straight into their tables, outside the
journal; now they are journaled changes (``clock.start``, ``clock.pause``, ``dispute.open``) and a
replay rebuilds those tables from the journal. So that a rebuild or an undo loses nothing, every
existing clock becomes a ``clock.start`` entry (at its start time) and, if paused, a
``clock.pause`` entry (at its pause time), and every dispute that still marks its table (its
result's current, unconfirmed version, a seated player) a ``dispute.open`` entry. They are appended
after the tournament's journal, which replays them to exactly the rows there are. Disputes of an
older version, which no page shows any more, are removed: a replay could not place them.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 00:45:00
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from agon.store.models import UTCDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

ACTOR = "migration 0003"
FLOOR_ACTIONS = ("clock.start", "clock.pause", "dispute.open")

journal = sa.table(
    "journal",
    sa.column("tournament", sa.String),
    sa.column("at", UTCDateTime()),
    sa.column("actor", sa.String),
    sa.column("action", sa.String),
    sa.column("payload", sa.JSON),
    sa.column("before", sa.JSON),
    sa.column("after", sa.JSON),
    sa.column("undoes", sa.Integer),
)
clocks = sa.table(
    "web_round_clocks",
    sa.column("tournament", sa.String),
    sa.column("round", sa.Integer),
    sa.column("minutes", sa.Integer),
    sa.column("started_at", UTCDateTime()),
    sa.column("paused_at", UTCDateTime()),
)
disputes = sa.table(
    "web_disputes",
    sa.column("id", sa.Integer),
    sa.column("tournament", sa.String),
    sa.column("round", sa.Integer),
    sa.column("table", sa.Integer),
    sa.column("version", sa.Integer),
    sa.column("player", sa.String),
    sa.column("reason", sa.Text),
    sa.column("at", UTCDateTime()),
)
tournaments = sa.table("tournaments", sa.column("id", sa.Integer), sa.column("slug", sa.String))
rounds = sa.table(
    "rounds",
    sa.column("id", sa.Integer),
    sa.column("tournament_id", sa.Integer),
    sa.column("number", sa.Integer),
)
tables = sa.table(
    "game_tables",
    sa.column("id", sa.Integer),
    sa.column("round_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("seats", sa.JSON),
    sa.column("state", sa.String),
    sa.column("version", sa.Integer),
)
results = sa.table("results", sa.column("table_id", sa.Integer))


def _entry(tournament: str, at: Any, action: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "at": at,
        "actor": ACTOR,
        "action": action,
        "payload": payload,
        "before": None,
        "after": None,
        "undoes": None,
    }


def upgrade() -> None:
    conn = op.get_bind()
    known = set(conn.scalars(sa.select(tournaments.c.slug)))
    entries: list[dict[str, Any]] = []
    for c in conn.execute(sa.select(clocks).order_by(clocks.c.tournament, clocks.c.round)):
        if c.tournament not in known:
            continue
        entries.append(
            _entry(
                c.tournament, c.started_at, "clock.start", {"round": c.round, "minutes": c.minutes}
            )
        )
        if c.paused_at is not None:
            entries.append(
                _entry(c.tournament, c.paused_at, "clock.pause", {"round": c.round, "pause": True})
            )
    stale: list[int] = []
    with_results = set(conn.scalars(sa.select(results.c.table_id).distinct()))
    for d in conn.execute(sa.select(disputes).order_by(disputes.c.id)):
        table = conn.execute(
            sa.select(tables.c.id, tables.c.seats, tables.c.state, tables.c.version)
            .join(rounds, rounds.c.id == tables.c.round_id)
            .join(tournaments, tournaments.c.id == rounds.c.tournament_id)
            .where(
                tournaments.c.slug == d.tournament,
                rounds.c.number == d.round,
                tables.c.number == d.table,
            )
        ).first()
        if (
            table is None
            or table.version != d.version
            or table.state == "confirmed"
            or table.id not in with_results
            or d.player not in (table.seats or [])
            or not (d.reason or "").strip()
        ):
            stale.append(d.id)
            continue
        payload = {
            "round": d.round,
            "table": d.table,
            "version": d.version,
            "player": d.player,
            "reason": d.reason,
        }
        entries.append(_entry(d.tournament, d.at, "dispute.open", payload))
    if stale:
        conn.execute(sa.delete(disputes).where(disputes.c.id.in_(stale)))
    if entries:
        op.bulk_insert(journal, entries)


def downgrade() -> None:
    conn = op.get_bind()
    conn.execute(sa.delete(journal).where(journal.c.action.in_(FLOOR_ACTIONS)))
