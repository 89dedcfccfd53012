"""The journal machinery: record a change, replay the journal, undo the last change.

A change is an *action* with a JSON *payload* that holds decisions, never intents: a round's payload
lists its tables, not "seat them", so replaying the journal gives the same state without redoing
any draw. Each action has one handler (a registry, like the game engine's effects) that validates
the payload against the current state and applies it; live changes and rebuilds run the same code.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import delete, func, inspect, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, IllegalAction, InvalidInput, NotFound
from agon.services import chain
from agon.services.views import ruleset_of as ruleset_of  # re-exported: the services use it
from agon.store.db import begin_write, lock_tournament
from agon.store.models import (
    DisputeRow,
    GameTableRow,
    JournalEntry,
    PlayerRow,
    RequestKeyRow,
    ResultRow,
    RoundClockRow,
    RoundRow,
    SanctionRow,
    TournamentRow,
)
from agon.store.registration import RegistrantRow, RegistrationRow
from agon.store.sync import SyncedTournamentRow
from agon.tournament.limits import check_number

#: The modules that register handlers; imported before any replay.
HANDLER_MODULES = (
    "agon.services.tournaments",
    "agon.services.players",
    "agon.services.rounds",
    "agon.services.results",
    "agon.services.auctions",
    "agon.services.exchange",
    "agon.services.floor",
    "agon.services.online",
    "agon.services.profiles",
    "agon.services.registration",
)

#: The module that registers each action's handler, so that a command (a replay for ``undo``)
#: imports only the handlers its journal uses: a director command starts in a new process, and
#: the online-play and floor modules cost it time for nothing. An action missing here is found
#: by importing all of :data:`HANDLER_MODULES` (:func:`need_handlers`); a test checks the map.
HANDLER_MODULE_OF: dict[str, str] = {
    "tournament.create": "agon.services.tournaments",
    "tournament.edit": "agon.services.tournaments",
    "tournament.import": "agon.services.exchange",
    "player.register": "agon.services.players",
    "player.rename": "agon.services.players",
    "player.fee": "agon.services.players",
    "player.fees": "agon.services.players",
    "player.checkin": "agon.services.players",
    "player.drop": "agon.services.players",
    "player.sanction": "agon.services.players",
    "player.profile": "agon.services.profiles",
    "round.start": "agon.services.rounds",
    "round.close": "agon.services.rounds",
    "result.enter": "agon.services.results",
    "result.confirm": "agon.services.results",
    "table.auction": "agon.services.results",
    "table.auction.act": "agon.services.auctions",
    "clock.start": "agon.services.floor",
    "clock.pause": "agon.services.floor",
    "dispute.open": "agon.services.floor",
    "online.open": "agon.services.online.opening",
    "online.game": "agon.services.online.opening",
    "online.bot": "agon.services.online.sweep",
    "online.result": "agon.services.online.results",
    "online.time_up": "agon.services.online.sweep",
    "registration.open": "agon.services.registration",
    "registration.close": "agon.services.registration",
    "registration.register": "agon.services.registration",
    "registration.withdraw": "agon.services.registration",
    "registration.checkin": "agon.services.registration",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Ctx:
    """What a handler knows besides its payload: where, when, who, and its journal entry's id."""

    session: Session
    slug: str
    at: datetime
    actor: str
    entry_id: int


@dataclass(frozen=True, slots=True)
class Change:
    """The affected state before and after a change (JSON), kept in the journal for people."""

    before: Any
    after: Any


Handler = Callable[[Ctx, dict[str, Any]], Change]
HANDLERS: dict[str, Handler] = {}


def handler(action: str) -> Callable[[Handler], Handler]:
    """Register the handler of ``action`` (one per action)."""

    def register(fn: Handler) -> Handler:
        if action in HANDLERS:
            raise RuntimeError(f"two handlers for action {action!r}")
        HANDLERS[action] = fn
        return fn

    return register


def load_handlers() -> None:
    for module in HANDLER_MODULES:
        importlib.import_module(module)


def need_handlers(actions: Iterable[str]) -> None:
    """Make sure the handlers of ``actions`` are registered, importing only their modules (see
    :data:`HANDLER_MODULE_OF`); an action not found that way loads every handler module."""
    for action in set(actions):
        if action in HANDLERS:
            continue
        module = HANDLER_MODULE_OF.get(action)
        if module is not None:
            importlib.import_module(module)
        if action not in HANDLERS:
            load_handlers()
            return


def as_json(value: Any) -> Any:
    """The payload exactly as it will be read back from the journal (tuples become lists…)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def record(
    session: Session,
    *,
    tournament: str,
    actor: str,
    action: str,
    payload: dict[str, Any] | Callable[[Session], dict[str, Any]],
    now: datetime | None = None,
) -> JournalEntry:
    """Append one journal entry and apply it, in one transaction; on any error nothing changes.

    ``payload`` may be a function of the session: it is then called once the tournament's lock is
    held, so decisions drawn from the current state (a round's seating) cannot go stale before
    they are applied.

    Raises:
        AgonError: whatever the action's handler finds wrong with the payload or the state.
    """
    entry = _write(session, tournament, actor, action, payload, now, None)
    assert isinstance(entry, JournalEntry)  # no key: always a new entry
    return entry


@dataclass(frozen=True, slots=True)
class Once:
    """What a change sent with an idempotency key got: its journal entry's id, the answer it
    gave (``answer(session)`` of :func:`record_once`, as JSON) and whether this call made it
    (``False``: the key was seen before, nothing was written)."""

    entry: int
    answer: Any
    fresh: bool


#: An idempotency key: a phone's random UUID, or any 8 to 64 letters, digits, ``-`` and ``_``.
KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def check_key(key: object) -> str:
    """The idempotency key as given, if it is one.

    Raises:
        InvalidInput: not 8 to 64 letters, digits, ``-`` or ``_``.
    """
    if not isinstance(key, str) or not 8 <= len(key) <= 64 or not set(key) <= KEY_CHARS:
        raise InvalidInput(
            f"idempotency key: 8 to 64 letters, digits, '-' or '_', got {str(key)[:80]!r}",
            msgid=N_("The entry's key must be 8 to 64 letters, digits, “-” or “_”."),
        )
    return key


def record_once(
    session: Session,
    *,
    key: str,
    scope: str,
    tournament: str,
    actor: str,
    action: str,
    payload: dict[str, Any] | Callable[[Session], dict[str, Any]],
    answer: Callable[[Session], Any],
    now: datetime | None = None,
) -> Once:
    """:func:`record`, exactly once per idempotency ``key``: the key is looked up and stored in
    the change's transaction, under the tournament's lock, so two requests with the same key (two
    server processes, a phone that sent twice) make one entry and get the same answer.

    ``scope`` names what the key was sent for (``"r1/t3/result"``); ``answer(session)`` is what
    the change answers, computed in its transaction and kept with the key.

    Raises:
        InvalidInput: a malformed key; Conflict: the key was used for another change (another
        tournament or ``scope``); AgonError: what :func:`record` raises.
    """
    found = _write(
        session, tournament, actor, action, payload, now, (check_key(key), scope, answer)
    )
    if isinstance(found, RequestKeyRow):
        return Once(entry=found.entry, answer=found.answer, fresh=False)
    row = session.get(RequestKeyRow, key)
    assert row is not None  # written with the entry
    return Once(entry=found.id, answer=row.answer, fresh=True)


def seen_key(session: Session, key: str, tournament: str, scope: str) -> RequestKeyRow | None:
    """The stored row of ``key`` (read afresh), ``None`` if unseen.

    Raises:
        Conflict: the key was used for another tournament or scope.
    """
    row = session.scalars(
        select(RequestKeyRow)
        .where(RequestKeyRow.key == key)
        .execution_options(populate_existing=True)
    ).one_or_none()
    if row is not None and (row.tournament, row.scope) != (tournament, scope):
        raise Conflict(
            f"idempotency key {key!r} was used for another change ({row.tournament} {row.scope})",
            msgid=N_("This entry's key was already used for another change."),
        )
    return row


def _write(
    session: Session,
    tournament: str,
    actor: str,
    action: str,
    payload: dict[str, Any] | Callable[[Session], dict[str, Any]],
    now: datetime | None,
    keyed: tuple[str, str, Callable[[Session], Any]] | None,
) -> JournalEntry | RequestKeyRow:
    if action not in HANDLERS:  # its service module registers it; the others are not needed
        need_handlers([action])
        if action not in HANDLERS:
            raise InvalidInput(
                f"unknown action {action!r}",
                msgid=N_("Unknown change “%(action)s”."),
                params={"action": action},
            )
    if not actor.strip():
        raise InvalidInput(
            "the actor (who makes the change) must not be empty",
            msgid=N_("Say who makes the change (the actor must not be empty)."),
        )
    at = now or utcnow()
    begin_write(session)
    try:
        # The tournament's exclusive lock first, the journal position (the entry's id) only then:
        # replay order = commit order (SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory lock).
        lock_tournament(session, tournament)
        check_writable(session, tournament)
        if keyed is not None:
            seen = seen_key(session, keyed[0], tournament, keyed[1])
            if seen is not None:  # sent before: its answer, nothing written
                session.commit()
                return seen
        decided: dict[str, Any] = as_json(payload(session) if callable(payload) else payload)
        entry = JournalEntry(
            tournament=tournament, at=at, actor=actor, action=action, payload=decided
        )
        chain.seal(session, entry)  # its position and hash, under the lock
        session.add(entry)
        session.flush()
        change = HANDLERS[action](Ctx(session, tournament, at, actor, entry.id), decided)
        entry.before = as_json(change.before)
        entry.after = as_json(change.after)
        if keyed is not None:
            key, scope, answer = keyed
            session.flush()
            session.add(
                RequestKeyRow(
                    key=key,
                    tournament=tournament,
                    scope=scope,
                    entry=entry.id,
                    answer=as_json(answer(session)),
                    at=at,
                )
            )
        session.commit()
    except IntegrityError as exc:
        session.rollback()
        raise Conflict(
            f"tournament {tournament!r}: {action} collides with a change made at the same time "
            f"({exc.orig}); look again and retry",
            msgid=N_("This collides with a change made at the same time; look again and retry."),
        ) from None
    except BaseException:
        session.rollback()
        raise
    return entry


#: The one line of a refusal to change a synced copy (issue 29), in the reader's language.
SYNCED_COPY = N_(
    "This tournament is a synced copy of an event run elsewhere: it is changed only there."
)


def check_writable(session: Session, tournament: str) -> None:
    """Refuse any change to a synced copy (:mod:`agon.services.sync`): it changes only by the
    sync's own receiving, which does not come here. Called by every writer of the journal, under
    the tournament's lock.

    Raises:
        IllegalAction: the tournament is a synced copy.
    """
    if session.get(SyncedTournamentRow, tournament) is not None:
        raise IllegalAction(
            f"tournament {tournament!r} is a synced copy of an event run elsewhere: "
            "it is read-only here (change it where it is run; 'agon sync watch' brings it here)",
            msgid=SYNCED_COPY,
        )


def entries(session: Session, slug: str) -> list[JournalEntry]:
    """The tournament's journal, oldest first."""
    return list(
        session.scalars(
            select(JournalEntry).where(JournalEntry.tournament == slug).order_by(JournalEntry.id)
        )
    )


def effective_entries(journal: list[JournalEntry]) -> list[JournalEntry]:
    """The entries that make the current state: neither undo entries nor undone ones."""
    undone = {e.undoes for e in journal if e.undoes is not None}
    return [e for e in journal if e.action != "undo" and e.id not in undone]


def replay(session: Session, slug: str, journal: list[JournalEntry] | None = None) -> int:
    """Drop the tournament's projection and apply its effective journal entries again.

    Runs inside the caller's transaction; returns the number of entries applied. ``journal``:
    the tournament's whole journal when the caller has just read it (:func:`entries`, plus what
    it added since), so that it is not read and decoded a second time.
    """
    effective = effective_entries(entries(session, slug) if journal is None else journal)
    need_handlers(e.action for e in effective)
    drop_projection(session, slug)
    applied = 0
    session.info[_REPLAYING] = {}  # the loaders' memo for this replay (see _replay_memo)
    try:
        for entry in effective:
            HANDLERS[entry.action](
                Ctx(session, slug, entry.at, entry.actor, entry.id), dict(entry.payload)
            )
            applied += 1
    finally:
        session.info.pop(_REPLAYING, None)
    session.flush()
    return applied


#: ``session.info`` key, there while :func:`replay` applies entries: the rows the loaders below
#: found during this replay, by (kind, parent id, key).
_REPLAYING = "agon.replaying"


def _replay_memo(session: Session) -> dict[tuple[str, int, object], Any] | None:
    """The loaders' memo while a replay is in progress, else ``None``.

    During a replay every projection row the handlers look up was created by this replay in
    this transaction (:func:`drop_projection` deleted the others first) and is kept in the
    session, and the replay's caller holds the tournament's write lock: a row found once is
    found again by the same query (the pairs looked up by are unique in the schema, and no
    handler deletes a projection row), and its row lock (``FOR UPDATE``) keeps no one out. So
    the loaders answer from the memo without a query, and without the query's autoflush: the
    pending rows are flushed by the next query or flush instead (issue 30: a replay spent about
    a third of its time on the loaders' queries and the flushes they forced).
    """
    memo: dict[tuple[str, int, object], Any] | None = session.info.get(_REPLAYING)
    return memo


def replaying(session: Session) -> bool:
    """Is ``session`` applying a replay's entries (:func:`replay`)? A handler may then leave its
    last flush to the replay's next query or final flush."""
    return _replay_memo(session) is not None


def _live(session: Session, row: Any) -> bool:
    """Is ``row`` still this session's current copy (not expired, detached or deleted)?"""
    state = inspect(row)
    return bool(state.persistent and not state.expired and row not in session.deleted)


_Row = TypeVar("_Row")


def _find(
    session: Session,
    model: type[_Row],
    parent: str,
    parent_id: int,
    field: str,
    value: object,
    *,
    lock: bool = False,
    siblings: bool = False,
) -> _Row | None:
    """The row of ``model`` whose ``parent`` column is ``parent_id`` and ``field`` is ``value``,
    else ``None``; ``lock``: ``FOR UPDATE``. During a replay (:func:`_replay_memo`) from the
    replay's memo and without a lock; ``siblings``: the first miss under a parent loads all of
    its rows at once. A remembered row is taken only while it is the session's live copy and
    still names ``value`` (a renamed player is not found under the old name)."""
    where = (getattr(model, parent) == parent_id, getattr(model, field) == value)
    memo = _replay_memo(session)
    if memo is None:
        stmt = select(model).where(*where)
        return session.scalar(stmt.with_for_update() if lock else stmt)
    kind = model.__name__
    key = (kind, parent_id, value)
    if siblings and (kind, parent_id, None) not in memo:
        memo[kind, parent_id, None] = True  # all of the parent's rows at once, the first time
        for sibling in session.scalars(select(model).where(where[0])):
            memo[kind, parent_id, getattr(sibling, field)] = sibling
    row = memo.get(key)
    if (
        isinstance(row, model)
        and _live(session, row)
        and (getattr(row, parent), getattr(row, field)) == (parent_id, value)
    ):
        return row
    found = session.scalar(select(model).where(*where))
    if found is not None:
        memo[key] = found
    return found


#: The projection's rows, children first: what :func:`drop_projection` deletes.
_PROJECTION = (
    ResultRow,
    GameTableRow,
    RoundRow,
    SanctionRow,
    PlayerRow,
    TournamentRow,
    RoundClockRow,
    DisputeRow,
    RegistrationRow,
    RegistrantRow,
)


def drop_projection(session: Session, slug: str) -> None:
    """Delete the tournament's projection (its row, players, sanctions, rounds, tables, results,
    round clocks, disputes and online registration) with one statement per table, children first.

    Deleting the tournament's row through the session would load every child row first (the
    ORM's cascade); a replay then took longer to empty the projection than to fill it again. The
    statements go around the session, so its copies of the deleted rows are detached from it.
    """
    session.flush()
    tournament_id = select(TournamentRow.id).where(TournamentRow.slug == slug).scalar_subquery()
    rounds = select(RoundRow.id).where(RoundRow.tournament_id == tournament_id)
    tables = select(GameTableRow.id).where(GameTableRow.round_id.in_(rounds))
    statements = (
        delete(ResultRow).where(ResultRow.table_id.in_(tables)),
        delete(GameTableRow).where(GameTableRow.round_id.in_(rounds)),
        delete(RoundRow).where(RoundRow.tournament_id == tournament_id),
        delete(SanctionRow).where(SanctionRow.tournament_id == tournament_id),
        delete(PlayerRow).where(PlayerRow.tournament_id == tournament_id),
        delete(TournamentRow).where(TournamentRow.slug == slug),
        # the floor's rows are keyed on the slug, not the tournament's row
        delete(RoundClockRow).where(RoundClockRow.tournament == slug),
        delete(DisputeRow).where(DisputeRow.tournament == slug),
        delete(RegistrantRow).where(RegistrantRow.tournament == slug),
        delete(RegistrationRow).where(RegistrationRow.tournament == slug),
    )
    for statement in statements:
        session.execute(statement, execution_options={"synchronize_session": False})
    for obj in [o for o in session.identity_map.values() if isinstance(o, _PROJECTION)]:
        if obj in session:  # not already expunged with a parent that held it (cascade "all")
            session.expunge(obj)


# --- loaders shared by the handlers -------------------------------------------------------------


#: ``session.info`` key of the tournament rows this transaction has loaded, by slug.
_ROWS = "agon.tournament_rows"


def get_tournament_row(session: Session, slug: str, *, lock: bool = False) -> TournamentRow:
    """The tournament ``slug``.

    Within one transaction a row loaded before is returned again without a query (a change
    asks for it three times or more, and a replay once per entry): the query would return the
    same object from the session anyway. It is asked again once the transaction ended, when the
    row left the session (a replay drops the projection) or was expired, and always with
    ``lock`` (which takes the row's lock).

    Raises:
        NotFound: no such tournament (the message lists the known ones).
    """
    if lock and _replay_memo(session) is not None:
        lock = False  # the replay's caller holds the tournament's lock; the row is its own
    memo: tuple[object, dict[str, TournamentRow]] | None = session.info.get(_ROWS)
    if not lock and memo is not None and memo[0] is session.get_transaction():
        cached = memo[1].get(slug)
        if cached is not None:
            state = inspect(cached)
            if state.persistent and not state.expired:
                return cached
    stmt = select(TournamentRow).where(TournamentRow.slug == slug)
    if lock:  # FOR NO KEY UPDATE: serialises with other lockers, not with writers' KEY SHARE
        stmt = stmt.with_for_update(key_share=True)
    row = session.scalar(stmt)
    if row is not None:
        transaction = session.get_transaction()
        if memo is None or memo[0] is not transaction:
            memo = session.info[_ROWS] = (transaction, {})
        memo[1][slug] = row
    if row is None:
        known = ", ".join(session.scalars(select(TournamentRow.slug).order_by(TournamentRow.slug)))
        raise NotFound(
            f"no tournament {slug!r} (known: {known or 'none yet'})",
            msgid=N_("There is no tournament “%(slug)s”."),
            params={"slug": slug},
        )
    return row


def get_player_row(session: Session, tournament: TournamentRow, name: str) -> PlayerRow:
    """The registered player ``name``.

    Raises:
        NotFound: no such player in the tournament.
    """
    row = _find(session, PlayerRow, "tournament_id", tournament.id, "name", name, siblings=True)
    if row is None:
        raise NotFound(
            f"tournament {tournament.slug!r}: no player {name!r}",
            msgid=N_("%(player)s is not registered in this tournament."),
            params={"player": name[:80]},
        )
    return row


def get_round_row(
    session: Session,
    tournament: TournamentRow,
    number: int,
    *,
    lock: bool = False,
    share: bool = False,
) -> RoundRow:
    """Round ``number`` of the tournament; ``lock`` (closing it) excludes ``share`` (changing one
    of its tables), so a round never closes under a result being entered.

    Raises:
        NotFound: the round has not been started.
    """
    check_number(number, "round", label=N_("Round"))
    row = _find(session, RoundRow, "tournament_id", tournament.id, "number", number, lock=lock)
    if row is None:
        raise NotFound(
            f"tournament {tournament.slug!r}: round {number} has not been started",
            msgid=N_("Round %(round)d has not been started."),
            params={"round": number},
        )
    return row


def get_table_row(
    session: Session, tournament: TournamentRow, round_number: int, table: int
) -> GameTableRow:
    """Table ``table`` of round ``round_number``, locked for update (optimistic version check).

    Raises:
        NotFound: no such round or table.
    """
    check_number(table, "table", label=N_("Table"))
    rnd = get_round_row(session, tournament, round_number, share=True)
    row = _find(
        session, GameTableRow, "round_id", rnd.id, "number", table, lock=True, siblings=True
    )
    if row is None:
        raise NotFound(
            f"tournament {tournament.slug!r}: round {round_number} has no table {table} "
            f"(it has {len(rnd.tables)})",
            msgid=N_("Round %(round)d has no table %(table)d."),
            params={"round": round_number, "table": table},
        )
    return row


def rounds_started(session: Session, tournament: TournamentRow) -> int:
    """How many rounds the tournament has started (its round rows).

    During a replay the tournament's row was created by the replay, and its rounds are added
    through its ``rounds`` collection only (starting a round, importing an event; appending to
    the collection loads it first), so the collection the session keeps is every round row there
    is: it is loaded at most once and then counted without a query.
    """
    if _replay_memo(session) is not None:
        return len(tournament.rounds)
    return (
        session.scalar(
            select(func.count(RoundRow.id)).where(RoundRow.tournament_id == tournament.id)
        )
        or 0
    )


def check_version(table: GameTableRow, expected: int | None, place: str) -> None:
    """The optimistic lock: a correction names the version it corrects.

    Raises:
        Conflict: the table changed since the caller read it.
    """
    if expected is not None and expected != table.version:
        raise Conflict(
            f"{place}: the result changed meanwhile (you saw version {expected}, it is now "
            f"version {table.version}); look at it again before correcting",
            msgid=N_("The result changed meanwhile; look at it again before correcting."),
        )
