"""Online games' logs become hash chains that the database keeps whole.

Each ``play_actions`` row gets ``chain`` (SHA-256 of the row before's chain, its seq, seat and
action), ``prev`` and ``prev_seq`` (the row before's chain and seq; none for seq 1). A foreign key
makes a row name the stored row ``seq - 1`` with its chain: a server process whose copy of a game
is not the stored log can no longer append to it (on the main of 2026-11-27 two workers stored
one seat's move twice). Existing logs are chained in order.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27 23:50:00
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _chain(prev: str | None, seq: int, seat: int, action: str) -> str:
    # the same text as agon.play.store.chain_hash (a migration keeps its own copy: it must not
    # change when the code does)
    text = f"{prev or ''}\n{seq}\n{seat}\n{action}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


FOLLOWS = (
    "(seq = 1 AND prev_seq IS NULL AND prev IS NULL) OR (prev_seq = seq - 1 AND prev IS NOT NULL)"
)


def _chained_table(name: str) -> sa.Table:
    """``play_actions`` as it is after this migration, under ``name`` (its foreign key to its
    own rows names ``name`` too)."""
    metadata = sa.MetaData()
    sa.Table("play_games", metadata, sa.Column("id", sa.String(length=40), primary_key=True))
    return sa.Table(
        name,
        metadata,
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("prev_seq", sa.Integer(), nullable=True),
        sa.Column("prev", sa.String(length=64), nullable=True),
        sa.Column("chain", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_play_actions"),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["play_games.id"],
            name="fk_play_actions_game_id_play_games",
            ondelete="CASCADE",
        ),
        sa.UniqueConstraint("game_id", "seq", name="uq_play_actions_game_id"),
        sa.UniqueConstraint("game_id", "seq", "chain", name="uq_play_actions_seq_chain"),
        sa.ForeignKeyConstraint(
            ["game_id", "prev_seq", "prev"],
            [f"{name}.game_id", f"{name}.seq", f"{name}.chain"],
            name="fk_play_actions_prev_play_actions",
            ondelete="CASCADE",
        ),
        sa.CheckConstraint(FOLLOWS, name="ck_play_actions_follows_prev"),
    )


def _chained_rows(conn: sa.Connection) -> list[dict[str, object]]:
    """Every stored action with its chain, in order of game and seq."""
    rows = conn.execute(
        sa.text("SELECT id, game_id, seq, seat, action, at FROM play_actions ORDER BY game_id, seq")
    ).all()
    game, prev = None, None
    out: list[dict[str, object]] = []
    for row_id, game_id, seq, seat, action, at in rows:
        if game_id != game:
            game, prev = game_id, None
        chain = _chain(prev, seq, seat, action)
        out.append(
            {
                "id": row_id,
                "game_id": game_id,
                "seq": seq,
                "seat": seat,
                "action": action,
                "at": at,
                "prev_seq": None if prev is None else seq - 1,
                "prev": prev,
                "chain": chain,
            }
        )
        prev = chain
    return out


def upgrade() -> None:
    conn = op.get_bind()
    rows = _chained_rows(conn)
    if conn.dialect.name == "sqlite":
        # A new table, filled, then renamed: Alembic's batch mode would copy the rows into a
        # table whose foreign key names the old one, and dropping the old one then deletes the
        # copies through that key (ON DELETE CASCADE). SQLite renames the key with the table.
        new = _chained_table("play_actions_chained")
        new.create(conn)
        if rows:  # as text: the stored times go over as SQLite keeps them
            columns = ", ".join(rows[0])
            values = ", ".join(f":{c}" for c in rows[0])
            conn.execute(
                sa.text(f"INSERT INTO play_actions_chained ({columns}) VALUES ({values})"), rows
            )
        op.drop_table("play_actions")
        op.rename_table("play_actions_chained", "play_actions")
        return
    with op.batch_alter_table("play_actions") as batch:
        batch.add_column(sa.Column("prev_seq", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("prev", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("chain", sa.String(length=64), nullable=True))
    if rows:
        conn.execute(
            sa.text(
                "UPDATE play_actions SET prev_seq = :prev_seq, prev = :prev, chain = :chain"
                " WHERE id = :id"
            ),
            [{k: r[k] for k in ("id", "prev_seq", "prev", "chain")} for r in rows],
        )
    with op.batch_alter_table("play_actions") as batch:
        batch.alter_column("chain", existing_type=sa.String(length=64), nullable=False)
        batch.create_unique_constraint("uq_play_actions_seq_chain", ["game_id", "seq", "chain"])
        batch.create_check_constraint(op.f("ck_play_actions_follows_prev"), FOLLOWS)
        batch.create_foreign_key(
            "fk_play_actions_prev_play_actions",
            "play_actions",
            ["game_id", "prev_seq", "prev"],
            ["game_id", "seq", "chain"],
            ondelete="CASCADE",
        )


def downgrade() -> None:
    with op.batch_alter_table("play_actions") as batch:
        batch.drop_constraint("fk_play_actions_prev_play_actions", type_="foreignkey")
    with op.batch_alter_table("play_actions") as batch:
        batch.drop_constraint(op.f("ck_play_actions_follows_prev"), type_="check")
        batch.drop_constraint("uq_play_actions_seq_chain", type_="unique")
        batch.drop_column("chain")
        batch.drop_column("prev")
        batch.drop_column("prev_seq")
