"""Online games in the database: create a game, read its log, append actions (issue 12).

These are plain functions over a session, usable without a running server (a director's
``agon round start --online`` creates the tables' games this way; the server picks them up).
A game's state is never stored: it is rebuilt from its setup (seed included) and its log.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import Connection, Dialect, Table, insert, select, text, update
from sqlalchemy.orm import Session

from agon.errors import InvalidInput, NotFound
from agon.games import levels
from agon.play import clocks
from agon.play.adapters import Setup, new_adapter
from agon.play.replay import Divergence, replay
from agon.play.seeds import draw_seed
from agon.store.db import begin_write
from agon.store.models import PlayActionRow, PlayGameRow

#: Every name an online bot seat may take in some game (per game: :func:`agon.games.levels.names`).
BOTS = tuple(dict.fromkeys((*levels.names("7w"), *levels.names("ocw"))))
KINDS = ("human", "bot")
#: PostgreSQL channel on which every accepted action is announced (``"<game_id> <version>"``).
CHANNEL = "agon_play"


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat to create: a human (with a name) or a bot (a name or a level of
    :func:`agon.games.levels.names`)."""

    kind: str
    name: str | None = None
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class SeatTicket:
    """A created seat; ``token`` (only for humans, shown once) is the seat's secret."""

    seat: int
    name: str
    kind: str
    bot: str | None
    token: str | None
    url: str | None

    def public(self) -> dict[str, Any]:
        """The seat as ``POST /api/play`` answers it."""
        out: dict[str, Any] = {"seat": self.seat, "name": self.name, "kind": self.kind}
        if self.kind == "human":
            out["token"] = self.token
            out["url"] = self.url
        else:
            out["bot"] = self.bot
        return out


@dataclass(frozen=True, slots=True)
class CreatedGame:
    game_id: str
    seats: tuple[SeatTicket, ...]


def token_hash(token: str) -> str:
    """What is stored of a seat token: its SHA-256 (the tokens are 192 random bits)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_of(seats: Sequence[Mapping[str, Any]], token: str | None) -> int | None:
    """The human seat whose token this is, else ``None`` (constant time per seat)."""
    if not token:
        return None
    return seat_of_hash(seats, token_hash(token))


def seat_of_hash(seats: Sequence[Mapping[str, Any]], given: str) -> int | None:
    """:func:`seat_of` for a token whose :func:`token_hash` is ``given`` (a stream asks at every
    push: its token's hash made once)."""
    found = None
    for i, s in enumerate(seats):
        stored = s.get("token_hash")
        if isinstance(stored, str) and hmac.compare_digest(stored, given):
            found = i
    return found


def now() -> datetime:
    return datetime.now(UTC)


def create_game(
    session: Session,
    *,
    game: str,
    seats: Sequence[SeatSpec],
    variant: str = "base",
    seed: str | None = None,
    wonders: Sequence[str] | None = None,
    sides: Sequence[str] | None = None,
    guilds: Sequence[str] | None = None,
    meta: Mapping[str, Any] | None = None,
    choose_sides: bool = False,
    clock: str | None = None,
    turn_seconds: float | None = None,
    bot_delay: float = 0.0,
) -> CreatedGame:
    """Create and commit a game; returns its id and each human seat's token (shown only here).
    ``choose_sides``: 7 Wonders begins with every seat choosing its wonder's side. ``clock``:
    the per-turn clock's name, ``turn_seconds`` its seconds (:mod:`agon.play.clocks`; the first
    turn's deadline is stored now); ``bot_delay``: seconds before a bot's move appears.

    Without ``seed`` the server draws one (128 random bits). Whoever creates a game with two or
    more people must not choose its seed (:func:`agon.play.seeds.check_chosen_seed`, checked by
    the web faces); a tournament table's seed derives from the tournament's. The seed is revealed
    only once the game is over (docs/online-play.md, "Seeds").

    Raises:
        InvalidInput: unknown game, variant or bot; a seat count, wonder or side the game
            does not allow.
    """
    known = levels.names(game) if game in levels.PACKAGES else BOTS
    for i, s in enumerate(seats):
        if s.kind not in KINDS:
            raise InvalidInput(f"seat {i}: kind must be human or bot, got {s.kind!r}")
        if s.kind == "bot" and s.bot not in known:
            raise InvalidInput(f"seat {i}: bot must be one of {', '.join(known)}, got {s.bot!r}")
        if s.name is not None and (not s.name.strip() or len(s.name) > 60):
            raise InvalidInput(f"seat {i}: a name has 1 to 60 characters")
    if (clock is None) != (turn_seconds is None) or (
        turn_seconds is not None and turn_seconds <= 0
    ):
        raise InvalidInput("a clock needs its name and seconds per turn (more than 0)")
    if not 0 <= bot_delay <= clocks.MAX_BOT_DELAY:
        raise InvalidInput(f"bot_delay: 0 to {clocks.MAX_BOT_DELAY:g} seconds")
        if s.name is not None and (not s.name.strip() or len(s.name) > 60):
            raise InvalidInput(f"seat {i}: a name has 1 to 60 characters")
    setup = Setup(
        game=game,
        variant=variant,
        seats=len(seats),
        seed=seed if seed is not None else draw_seed(),
        wonders=tuple(wonders) if wonders is not None else None,
        sides=tuple(sides) if sides is not None else None,
        guilds=tuple(guilds) if guilds is not None else None,
        choose_sides=choose_sides,
    )
    new_adapter(setup)  # checks the setup now: a bad one is refused before anything is stored
    game_id = secrets.token_urlsafe(12)
    while game_id.startswith("-"):  # a command line would read it as an option
        game_id = secrets.token_urlsafe(12)
    rows: list[dict[str, Any]] = []
    tickets: list[SeatTicket] = []
    for i, s in enumerate(seats):
        if s.kind == "human":
            token = secrets.token_urlsafe(24)
            name = (s.name or f"Player {i + 1}").strip()
            rows.append(
                {"name": name, "kind": "human", "bot": None, "token_hash": token_hash(token)}
            )
            tickets.append(
                SeatTicket(i, name, "human", None, token, f"/play/{game_id}?token={token}")
            )
        else:
            name = (s.name or f"Bot {i + 1} ({s.bot})").strip()
            rows.append({"name": name, "kind": "bot", "bot": s.bot, "token_hash": None})
            tickets.append(SeatTicket(i, name, "bot", s.bot, None, None))
    created = now()
    begin_write(session)
    session.add(
        PlayGameRow(
            id=game_id,
            game=game,
            variant=variant,
            seed=setup.seed,
            setup={"wonders": setup.wonders, "sides": setup.sides, "guilds": setup.guilds}
            | ({"choose_sides": True} if choose_sides else {})
            | ({"clock": clock, "turn_seconds": turn_seconds} if clock is not None else {})
            | ({"bot_delay": bot_delay} if bot_delay else {}),
            seats=rows,
            meta=dict(meta) if meta is not None else None,
            created_at=created,
            over=False,
            deadline=None if turn_seconds is None else created + timedelta(seconds=turn_seconds),
        )
    )
    session.commit()
    return CreatedGame(game_id, tuple(tickets))


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game's row as the service needs it (no ORM object leaves this module)."""

    game_id: str
    setup: Setup
    seats: tuple[dict[str, Any], ...]
    meta: dict[str, Any] | None
    over: bool
    scores: Any
    #: the per-turn clock's name and seconds (:mod:`agon.play.clocks`), else ``None``
    clock: str | None = None
    turn_seconds: float | None = None
    #: seconds before a bot's move appears (0: at once)
    bot_delay: float = 0.0
    #: when the turn being played times out (games with a clock)
    deadline: datetime | None = None


def load_game(session: Session, game_id: str) -> GameRecord:
    """The game's setup and seats.

    Raises:
        NotFound: no such game.
    """
    row = session.get(PlayGameRow, game_id) if len(game_id) <= 40 else None
    if row is None:
        raise NotFound(f"no game {game_id[:40]!r}")
    extra = row.setup or {}

    def opt(key: str) -> tuple[str, ...] | None:
        value = extra.get(key)
        return tuple(value) if value is not None else None

    setup = Setup(
        game=row.game,
        variant=row.variant,
        seats=len(row.seats),
        seed=row.seed,
        wonders=opt("wonders"),
        sides=opt("sides"),
        guilds=opt("guilds"),
        choose_sides=bool(extra.get("choose_sides")),
    )
    seconds = extra.get("turn_seconds")
    return GameRecord(
        row.id,
        setup,
        tuple(dict(s) for s in row.seats),
        row.meta,
        row.over,
        row.scores,
        clock=extra.get("clock"),
        turn_seconds=float(seconds) if seconds is not None else None,
        bot_delay=float(extra.get("bot_delay") or 0.0),
        deadline=row.deadline,
    )


def deadline_of(session: Session, game_id: str) -> datetime | None:
    """The stored deadline of the turn being played (``None``: no clock, or over)."""
    return session.scalar(select(PlayGameRow.deadline).where(PlayGameRow.id == game_id))


def games_past_deadline(session: Session, at: datetime) -> list[str]:
    """Ids of the running games whose turn's deadline is ``at`` or earlier."""
    return list(
        session.scalars(
            select(PlayGameRow.id).where(
                PlayGameRow.over.is_(False),
                PlayGameRow.deadline.is_not(None),
                PlayGameRow.deadline <= at,
            )
        )
    )


def actions_after(session: Session, game_id: str, seq: int) -> list[tuple[int, int, str]]:
    """The log entries after ``seq``: ``(seq, seat, action)`` in order."""
    rows = session.execute(
        select(PlayActionRow.seq, PlayActionRow.seat, PlayActionRow.action)
        .where(PlayActionRow.game_id == game_id, PlayActionRow.seq > seq)
        .order_by(PlayActionRow.seq)
    ).all()
    return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]


@dataclass(frozen=True, slots=True)
class Append:
    """New log entries of one game: ``(seat, action)`` from ``first_seq`` on, and the final
    ``scores`` when they end the game."""

    game_id: str
    first_seq: int
    actions: tuple[tuple[int, str], ...]
    scores: Any = None
    #: the ``chain`` of the entry before ``first_seq`` (``None`` for the first): the log as the
    #: writer knows it, which the database checks (see :class:`~agon.store.models.PlayActionRow`)
    prev: str | None = None
    #: the actions began a turn of a game with a clock: the turn's deadline, stored with them
    deadline: datetime | None = None


def chain_hash(prev: str | None, seq: int, seat: int, action: str) -> str:
    """The ``chain`` of a log entry: SHA-256 of the entry before's chain, its seq, seat and
    action (one hash covers the whole log up to it)."""
    text = f"{prev or ''}\n{seq}\n{seat}\n{action}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def log_chain(entries: Sequence[tuple[int, int, str]], prev: str | None = None) -> str | None:
    """The ``chain`` of the last of ``entries`` (``(seq, seat, action)`` in order, following
    the entry whose chain is ``prev``); ``prev`` when there are none."""
    for seq, seat, action in entries:
        prev = chain_hash(prev, seq, seat, action)
    return prev


def append_many(session: Session, appends: Sequence[Append]) -> None:
    """Append the entries of several games in one transaction, and commit (one disk flush for
    all: the group commit of :class:`agon.play.writer.GroupWriter`). On PostgreSQL the commit
    announces each game's new version on :data:`CHANNEL`. An entry that does not extend the
    stored log — a concurrent writer came first, or the writer's copy of the game is not the
    stored one — makes the commit fail (the log's keys): the caller treats it as stale."""
    begin_write(session)
    write_appends(session.connection(), appends)
    session.commit()


#: The log's columns an append writes (the id is the database's).
_ACTION_COLUMNS = ("game_id", "seq", "seat", "action", "at", "prev_seq", "prev", "chain")
_INSERTS: dict[str, tuple[str, tuple[str, ...], dict[str, Callable[[Any], Any]]]] = {}


def _insert_actions(
    dialect: Dialect,
) -> tuple[str, tuple[str, ...], dict[str, Callable[[Any], Any]]]:
    """The log's INSERT as the driver's own SQL text, compiled once per database kind (the
    group writer runs it for every commit: SQLAlchemy's statement compiling and caching per
    execution cost about as much CPU as the database's own work, issue 30), the order of its
    parameters (empty: the driver takes them by name) and the columns' bind conversions (the
    timestamp's UTC handling).

    >>> from sqlalchemy.dialects import sqlite
    >>> sql, names, bind = _insert_actions(sqlite.dialect())
    >>> sql.startswith("INSERT INTO play_actions (game_id, seq"), names[:2], sorted(bind)
    (True, ('game_id', 'seq'), ['at'])
    """
    key = f"{dialect.name} {dialect.driver} {dialect.paramstyle}"
    hit = _INSERTS.get(key)
    if hit is None:
        table = cast(Table, PlayActionRow.__table__)
        compiled = insert(table).compile(
            dialect=dialect, column_keys=list(_ACTION_COLUMNS), for_executemany=True
        )
        names = tuple(compiled.positiontup or ()) if compiled.positional else ()
        bind: dict[str, Callable[[Any], Any]] = {}
        for name in _ACTION_COLUMNS:
            processor = table.c[name].type.bind_processor(dialect)
            if processor is not None:
                bind[name] = processor
        hit = _INSERTS[key] = (str(compiled), names, bind)
    return hit


def insert_rows(dialect: Dialect, appends: Sequence[Append], at: datetime) -> tuple[str, list[Any]]:
    """The log's INSERT for ``appends`` (:func:`_insert_actions`) and its parameters, one row
    per action stored ``at``, ready for the driver's ``executemany`` (tuples for positional
    parameters, else dicts); no rows, no parameters."""
    rows = []
    for a in appends:
        prev = a.prev
        for k, (seat, action) in enumerate(a.actions):
            seq = a.first_seq + k
            chain = chain_hash(prev, seq, seat, action)
            rows.append(
                {
                    "game_id": a.game_id,
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
    sql, names, bind = _insert_actions(dialect)
    for name, processor in bind.items():
        for r in rows:
            r[name] = processor(r[name])
    if names:  # positional parameters (SQLite's ``?``), else named (psycopg's)
        return sql, [tuple(r[n] for n in names) for r in rows]
    return sql, rows


def write_appends(conn: Connection, appends: Sequence[Append]) -> None:
    """The statements of :func:`append_many` on ``conn``, in its open (writing) transaction; the
    caller commits. The group writer runs them on a connection of its own (no ORM session to
    set up and tear down per commit)."""
    at = now()
    postgres = conn.dialect.name == "postgresql"
    sql, params = insert_rows(conn.dialect, appends, at)
    if params:  # one executemany of the table's INSERT, compiled once: no ORM objects to flush
        conn.exec_driver_sql(sql, params)
    for a in appends:
        if a.deadline is not None and a.scores is None:
            conn.execute(
                update(PlayGameRow).where(PlayGameRow.id == a.game_id).values(deadline=a.deadline)
            )
        if a.scores is not None:
            conn.execute(
                update(PlayGameRow)
                .where(PlayGameRow.id == a.game_id)
                .values(over=True, finished_at=at, scores=a.scores, deadline=None)
            )
        if postgres:
            version = a.first_seq + len(a.actions) - 1
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": f"{a.game_id} {version}"},
            )


def append_actions(
    session: Session,
    game_id: str,
    first_seq: int,
    actions: Sequence[tuple[int, str]],
    *,
    prev: str | None,
    scores: Any = None,
) -> None:
    """Append one game's ``(seat, action)`` entries from ``first_seq`` on, after the entry
    whose chain is ``prev`` (see :class:`Append`), and commit.

    Raises:
        IntegrityError: the log is not what the caller knew (another writer came first).
    """
    append_many(session, [Append(game_id, first_seq, tuple(actions), scores, prev)])


def mark_over(session: Session, game_id: str, scores: Any) -> None:
    """Record the final scores of a game whose log ended it (repair after a crash)."""
    begin_write(session)
    session.execute(
        update(PlayGameRow)
        .where(PlayGameRow.id == game_id, PlayGameRow.over.is_(False))
        .values(over=True, finished_at=now(), scores=scores)
    )
    session.commit()


#: The payload's second word when a game's seats changed (a bot took a seat) instead of a version.
SEATS_CHANGED = "seats"


def set_seats(session: Session, game_id: str, seats: Sequence[Mapping[str, Any]]) -> None:
    """Store the game's seats (a bot takes over a seat); on PostgreSQL every server process is
    told (``NOTIFY agon_play, '<game_id> seats'``), so that none still takes a revoked token."""
    begin_write(session)
    session.execute(
        update(PlayGameRow).where(PlayGameRow.id == game_id).values(seats=[dict(s) for s in seats])
    )
    if session.get_bind().dialect.name == "postgresql":
        session.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": CHANNEL, "payload": f"{game_id} {SEATS_CHANGED}"},
        )
    session.commit()


def running_games(session: Session) -> list[str]:
    """Ids of the games that are not over."""
    return list(session.scalars(select(PlayGameRow.id).where(PlayGameRow.over.is_(False))))


def finished_games(
    session: Session, *, meta: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Finished games (``game_id``, ``meta``, ``scores``), optionally only those whose ``meta``
    contains every key/value of ``meta`` — a query for callers that poll (tournament rounds)."""
    rows = session.execute(
        select(PlayGameRow.id, PlayGameRow.meta, PlayGameRow.scores).where(
            PlayGameRow.over.is_(True)
        )
    ).all()
    out = []
    for game_id, m, scores in rows:
        if meta and not all((m or {}).get(k) == v for k, v in meta.items()):
            continue
        out.append({"game_id": game_id, "meta": m, "scores": scores})
    return out


def check_stored(session: Session, game_id: str) -> Divergence | None:
    """The first step of the stored game ``game_id`` that does not replay, or whose hash chain
    (:func:`agon.play.store.chain_hash`) is not its log's (``None``: all of it is right)."""
    record = load_game(session, game_id)
    rows = session.execute(
        select(PlayActionRow.seq, PlayActionRow.seat, PlayActionRow.action, PlayActionRow.chain)
        .where(PlayActionRow.game_id == game_id)
        .order_by(PlayActionRow.seq)
    ).all()
    prev: str | None = None
    for seq, seat, action, chain in rows:
        prev = chain_hash(prev, seq, seat, action)
        if chain != prev:
            return Divergence(seq, "the stored hash chain is not the log's (rewritten?)")
    _adapter, divergence = replay(record.setup, [(r[0], r[1], r[2]) for r in rows])
    return divergence


def check_all(session: Session) -> dict[str, Divergence | None]:
    """:func:`check_stored` for every stored game, by id."""
    ids = session.scalars(select(PlayGameRow.id).order_by(PlayGameRow.id)).all()
    return {game_id: check_stored(session, game_id) for game_id in ids}
