"""SQLAlchemy 2 models: the journal (the truth) and the projection tables (the current state).

Projection rows are keyed by natural keys (tournament slug, player name, round and table number),
so a rebuild from the journal gives the same state even though surrogate ids change.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """Timestamps stored as UTC and always read back timezone-aware (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given; agon stores UTC-aware timestamps only")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class JournalEntry(Base):
    """One change, appended and never altered: what, who, when, and the state before/after.

    ``undoes`` is set on an undo entry: the id of the entry it reverts. ``seq``, ``prev_hash`` and
    ``hash`` make each tournament's journal a hash chain (:mod:`agon.services.chain`).
    """

    __tablename__ = "journal"
    __table_args__ = (UniqueConstraint("tournament", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    actor: Mapped[str] = mapped_column(String(120))
    action: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    undoes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seq: Mapped[int] = mapped_column(Integer)
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))


class Setting(Base):
    """Local preferences that are not part of any tournament (e.g. the default tournament)."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    slug: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    ruleset_ref: Mapped[str] = mapped_column(String(200))
    ruleset_toml: Mapped[str | None] = mapped_column(Text, nullable=True)
    seed: Mapped[str] = mapped_column(String(200))
    min_players: Mapped[int] = mapped_column(Integer)
    max_players: Mapped[int] = mapped_column(Integer)
    players_override: Mapped[bool] = mapped_column(Boolean, default=False)
    starts_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    checkin_minutes: Mapped[int] = mapped_column(Integer, default=0)
    fee_required: Mapped[bool] = mapped_column(Boolean, default=False)
    info: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)

    players: Mapped[list[PlayerRow]] = relationship(
        back_populates="tournament", cascade="all, delete-orphan", order_by="PlayerRow.id"
    )
    rounds: Mapped[list[RoundRow]] = relationship(
        back_populates="tournament", cascade="all, delete-orphan", order_by="RoundRow.number"
    )
    sanctions: Mapped[list[SanctionRow]] = relationship(
        back_populates="tournament", cascade="all, delete-orphan", order_by="SanctionRow.id"
    )


class PlayerRow(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("tournament_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    extra: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    fee_paid: Mapped[bool] = mapped_column(Boolean, default=False)
    checked_in_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    late: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(20), default="active")
    status_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status_reason: Mapped[str] = mapped_column(Text, default="")
    registered_at: Mapped[datetime] = mapped_column(UTCDateTime)

    tournament: Mapped[TournamentRow] = relationship(back_populates="players")


class SanctionRow(Base):
    __tablename__ = "sanctions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    player: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20))
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(UTCDateTime)

    tournament: Mapped[TournamentRow] = relationship(back_populates="sanctions")


class RoundRow(Base):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    final: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(20), default="open")
    wonders: Mapped[list[str]] = mapped_column(JSON, default=list)
    guilds: Mapped[list[str]] = mapped_column(JSON, default=list)
    sides: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    info: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    tournament: Mapped[TournamentRow] = relationship(back_populates="rounds")
    tables: Mapped[list[GameTableRow]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="GameTableRow.number"
    )


class GameTableRow(Base):
    """A table of a round: its seats and the optimistic-lock ``version`` (last journal id)."""

    __tablename__ = "game_tables"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[str]] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(String(20), default="open")
    version: Mapped[int] = mapped_column(Integer, default=0)
    auction: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)

    round: Mapped[RoundRow] = relationship(back_populates="tables")
    results: Mapped[list[ResultRow]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="ResultRow.seat"
    )


class ResultRow(Base):
    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(String(200))
    vp: Mapped[int] = mapped_column(Integer)
    coins: Mapped[int] = mapped_column(Integer, default=0)
    bid: Mapped[int] = mapped_column(Integer, default=0)
    wonder: Mapped[str | None] = mapped_column(String(40), nullable=True)
    side: Mapped[str | None] = mapped_column(String(1), nullable=True)
    breakdown: Mapped[dict[str, int] | None] = mapped_column(JSON, nullable=True)
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the player left during the game (Ludolimpico 2.5): no score, the table scored without him
    left: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    table: Mapped[GameTableRow] = relationship(back_populates="results")


class RoundClockRow(Base):
    """The round clock of the tournament floor (web app): started, paused, limit in minutes."""

    __tablename__ = "web_round_clocks"

    tournament: Mapped[str] = mapped_column(String(64), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class DisputeRow(Base):
    """A player's dispute of one version of a table's result (web app's table face)."""

    __tablename__ = "web_disputes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament: Mapped[str] = mapped_column(String(64), index=True)
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: A dispute a phone's queued entry became (issue 29): the results the phone wanted.
    wanted: Mapped[Any] = mapped_column(JSON, nullable=True)


class RequestKeyRow(Base):
    """An idempotency key a phone or an API client sent with a change (issue 29): the change it
    made (``entry``, the journal id) and the answer it got, so that the same key again gets the
    same answer and writes nothing. Written in the change's own transaction, under the
    tournament's lock; not part of the projection (a rebuild keeps it)."""

    __tablename__ = "request_keys"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    tournament: Mapped[str] = mapped_column(String(64), index=True)
    scope: Mapped[str] = mapped_column(String(200))
    entry: Mapped[int] = mapped_column(Integer)
    answer: Mapped[Any] = mapped_column(JSON, nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class AttemptRow(Base):
    """A counter of the web's limits (wrong logins, wrong PINs, games created): one row per kind
    and key (a hash of the client address and what it tried), counting the tries of the window
    that ends at ``expires_at`` (seconds since the epoch). Shared by every server process and
    kept across restarts (:mod:`agon.web.attempts`)."""

    __tablename__ = "web_attempts"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[int] = mapped_column(BigInteger, index=True)


class LoginLinkRow(Base):
    """A one-time director login link (``agon desk link``): the SHA-256 of its token, when it
    expires and when it was used (seconds since the epoch)."""

    __tablename__ = "web_login_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires_at: Mapped[int] = mapped_column(BigInteger)
    used_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class PlayGameRow(Base):
    """An online game (issue 12): its setup and seats; the state is its seed + action log.

    ``seed`` is told to nobody while the game runs (its SHA-256 is public) and revealed once the
    game is over (docs/online-play.md, "Seeds"). ``seats`` is a list of ``{"name", "kind", "bot",
    "token_hash"}`` (the SHA-256 of a human seat's secret token; the token itself is not kept).
    ``meta`` is free for the caller that created the game (a tournament table's round and table).
    ``scores`` is set once the game is over.
    """

    __tablename__ = "play_games"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(8))
    variant: Mapped[str] = mapped_column(String(20))
    seed: Mapped[str] = mapped_column(String(200))
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    meta: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    over: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    scores: Mapped[Any] = mapped_column(JSON, nullable=True)
    #: games with a per-turn clock: when the turn being played times out (:mod:`agon.play.clocks`)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)


class PlayPresenceRow(Base):
    """Whether a seat of an online game has a client connected (see :mod:`agon.play.presence`):
    event streams open now, since when the seat is (dis)connected, the last keep-alive."""

    __tablename__ = "play_presence"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("play_games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    streams: Mapped[int] = mapped_column(Integer, default=0)
    since: Mapped[datetime] = mapped_column(UTCDateTime)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PlayActionRow(Base):
    """One accepted action of an online game, in order (``seq`` 1, 2, …): the game's log.

    The log is a hash chain that the database itself keeps whole: ``chain`` is the SHA-256 of
    the entry before's ``chain`` (``prev``; none for ``seq`` 1), ``seq``, ``seat`` and ``action``
    (:func:`agon.play.store.chain_hash`). An entry must name the stored entry ``seq - 1`` and its
    chain (the foreign key on ``prev_seq``, ``prev``; the check ties ``prev_seq`` to ``seq``): a
    writer whose copy of the game is not the stored log — it holds an action whose store failed
    — cannot append to it, and ``seq`` being unique, two entries never follow the same one.
    """

    __tablename__ = "play_actions"
    __table_args__ = (
        UniqueConstraint("game_id", "seq"),
        UniqueConstraint("game_id", "seq", "chain", name="uq_play_actions_seq_chain"),
        ForeignKeyConstraint(
            ["game_id", "prev_seq", "prev"],
            ["play_actions.game_id", "play_actions.seq", "play_actions.chain"],
            name="fk_play_actions_prev_play_actions",
            ondelete="CASCADE",
        ),
        CheckConstraint(
            "(seq = 1 AND prev_seq IS NULL AND prev IS NULL)"
            " OR (prev_seq = seq - 1 AND prev IS NOT NULL)",
            name="follows_prev",
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("play_games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    prev_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    prev: Mapped[str | None] = mapped_column(String(64), nullable=True)
    chain: Mapped[str] = mapped_column(String(64))
