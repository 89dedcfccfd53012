"""Moving a tournament to another database with nothing lost: the journal document.

The event file (:func:`agon.services.exchange.export_event`) is the event's *result*: players and
the tables that have one. It cannot carry an open round, a pending table, the start time or the
undo history. The journal document carries the tournament's whole journal instead, and the import
replays it through the same handlers a rebuild uses — the projection is a function of the journal
alone — so the moved tournament has the same rounds, tables, versions, clocks, disputes and undo
history as the original. The document::

    {"format": "agon-journal", "version": 2, "tournament": SLUG, "exported_at": ...,
     "settings": {...the tournament's row, for people...},
     "journal": [{"id", "at", "actor", "action", "payload", "before", "after", "undoes",
                  "seq", "prev_hash", "hash"}, ...],
     "online_games": "not carried" | ..., "projection_digest": SHA-256}

``seq``, ``prev_hash`` and ``hash`` are the journal's hash chain (:mod:`agon.services.chain`): the
import refuses a document whose chain does not hold (an entry edited after the export), and the
imported entries keep their hashes, whichever ids they get. A version-1 document (before the
chain) is still read: its chain is computed on import.

``projection_digest`` is the SHA-256 of the tournament's state (:func:`portable_snapshot`: its
slug left out and every version written as the position of its entry in the journal, so the digest
holds whichever ids the entries get in the target database). The import replays the journal in
one transaction and commits only if the state it reaches has that digest.

Journal entry ids: the entries keep their ids when none of them is taken in the target database
(a new database, the usual move), so every table keeps its version. Otherwise they are numbered on
from the target's last entry, in the same order, and the payloads that name a version
(``expected_version`` of a result, ``version`` of a dispute, the entry an undo reverts) are
renumbered with them.

Online games (the move logs of a round played on the phones) live outside the journal; they are
not carried (the document says so, and so does ``agon export``).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError, OperationalError, StatementError
from sqlalchemy.orm import Session

from agon.errors import AgonError, Conflict, InvalidInput
from agon.services.chain import ID_KEYS, chain_items, iso_at, verify_chain
from agon.services.core import HANDLERS, entries, get_tournament_row, load_handlers, replay, utcnow
from agon.services.journal import snapshot
from agon.services.tournaments import SLUG
from agon.store.db import begin_write, lock_tournament
from agon.store.models import JournalEntry, RoundRow, TournamentRow
from agon.tournament.safeload import load_document

FORMAT = "agon-journal"
VERSION = 2
#: The versions this agon reads (version 1: before the hash chain).
READS = (1, 2)
#: The keys of one exported journal entry (version 1 had no chain).
ENTRY_KEYS_V1 = ("id", "at", "actor", "action", "payload", "before", "after", "undoes")
ENTRY_KEYS = (*ENTRY_KEYS_V1, "seq", "prev_hash", "hash")
#: Journal ids are 32-bit integers in the database.
_ID_MAX = 2**31 - 1
#: The payload keys that name a journal entry's id (a table's version), by action.
_ID_KEYS = ID_KEYS
ONLINE_NOT_CARRIED = (
    "not carried: the online games (their move logs) stay in the database they were played in"
)


# --- export ---------------------------------------------------------------------------------------


def portable_snapshot(session: Session, *, tournament: str) -> Any:
    """The tournament's state (:func:`agon.services.journal.snapshot`) without what a move may
    change: its slug, and the journal ids (versions become their entry's position, 1, 2, …)."""
    state = snapshot(session, tournament=tournament)
    if state is None:
        return None
    ids = session.scalars(
        select(JournalEntry.id)
        .where(JournalEntry.tournament == tournament)
        .order_by(JournalEntry.id)
    )
    position = {entry_id: n for n, entry_id in enumerate(ids, start=1)}
    state["tournament"].pop("slug", None)
    for rnd in state["rounds"]:
        for table in rnd["tables"]:
            table["version"] = position.get(table["version"], table["version"])
    for dispute in state["disputes"]:
        dispute[2] = position.get(dispute[2], dispute[2])
    return state


def digest_of(state: Any) -> str:
    """SHA-256 (hex) of a state in canonical JSON."""
    canonical = json.dumps(state, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def online_rounds(session: Session, *, tournament: str) -> list[int]:
    """The rounds of the tournament played online (their games are not in the journal)."""
    rows = session.scalars(
        select(RoundRow)
        .join(TournamentRow, RoundRow.tournament_id == TournamentRow.id)
        .where(TournamentRow.slug == tournament)
        .order_by(RoundRow.number)
    )
    return [r.number for r in rows if (r.info or {}).get("online")]


def export_journal(
    session: Session, *, tournament: str, now: datetime | None = None
) -> dict[str, Any]:
    """The journal document of ``tournament`` (see the module's docstring).

    The state is checked against the journal first (as ``agon db verify`` does), under the
    tournament's write lock, so the document's digest is the state its journal gives.

    Raises:
        NotFound: no such tournament;
        InvalidInput: the stored state differs from its journal (run ``agon db rebuild``).
    """
    begin_write(session)
    try:
        lock_tournament(session, tournament)
        get_tournament_row(session, tournament)  # NotFound, naming the known ones
        live = portable_snapshot(session, tournament=tournament)
        journal = entries(session, tournament)
        items = [
            {
                "id": e.id,
                "at": iso_at(e.at),
                "actor": e.actor,
                "action": e.action,
                "payload": e.payload,
                "before": e.before,
                "after": e.after,
                "undoes": e.undoes,
                "seq": e.seq,
                "prev_hash": e.prev_hash,
                "hash": e.hash,
            }
            for e in journal
        ]
        settings = snapshot(session, tournament=tournament)["tournament"]
        online = online_rounds(session, tournament=tournament)
        replay(session, tournament, journal)
        session.expire_all()
        rebuilt = portable_snapshot(session, tournament=tournament)
    finally:
        session.rollback()
    if live != rebuilt:
        raise InvalidInput(
            f"tournament {tournament!r}: its stored state differs from its journal; run "
            f"'agon db rebuild -t {tournament}' first, then export again"
        )
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "tournament": tournament,
        "exported_at": (now or utcnow()).isoformat(),
        "settings": settings,
        "journal": items,
        "online_games": ONLINE_NOT_CARRIED if online else "none",
        "projection_digest": digest_of(rebuilt),
    }
    if online:
        doc["online_rounds"] = online
    return doc


# --- import ---------------------------------------------------------------------------------------


def is_journal_document(data: Any) -> bool:
    """Does ``data`` claim to be a journal document (whatever its version)?"""
    return isinstance(data, dict) and data.get("format") == FORMAT


def _check_int(value: Any, at: str, *, low: int = 1, high: int = _ID_MAX) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{at}: must be a whole number from {low} to {high}, got {value!r}")
    return value


def _check_entries(items: Any, origin: str, version: int = VERSION) -> list[dict[str, Any]]:
    """The document's journal, every entry's shape and links checked (and its hash chain, from
    version 2 on; computed for a version-1 document).

    Raises:
        InvalidInput: the first problem, naming the entry and the field.
    """
    if not isinstance(items, list) or not items:
        raise InvalidInput(f"{origin}: field 'journal': must be a non-empty list of entries")
    load_handlers()
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    undone: set[int] = set()
    undos: set[int] = set()  # an undo is never undone itself: the undo of an undo is a redo
    last = 0
    for n, item in enumerate(items, start=1):
        at = f"{origin}: journal entry {n}"
        if not isinstance(item, dict):
            raise InvalidInput(f"{at}: must be an object")
        keys = set(item)
        wanted = set(ENTRY_KEYS if version >= 2 else ENTRY_KEYS_V1)
        if keys != wanted:
            missing = sorted(wanted - keys)
            extra = sorted(keys - wanted)
            problem = f"missing field {missing[0]!r}" if missing else f"unknown field {extra[0]!r}"
            raise InvalidInput(f"{at}: {problem}")
        entry_id = _check_int(item["id"], f"{at}, field 'id'")
        if entry_id <= last:
            raise InvalidInput(f"{at}, field 'id': {entry_id} does not follow {last}")
        last = entry_id
        when = item["at"]
        try:
            stamp = datetime.fromisoformat(when) if isinstance(when, str) else None
            stamp = stamp.astimezone(UTC) if stamp is not None and stamp.tzinfo else None
        except (ValueError, OverflowError):
            stamp = None
        if stamp is None:
            raise InvalidInput(f"{at}, field 'at': not a date-time with its zone: {when!r}")
        actor, action, payload = item["actor"], item["action"], item["payload"]
        if not isinstance(actor, str) or not actor.strip() or len(actor) > 120 or "\x00" in actor:
            raise InvalidInput(f"{at}, field 'actor': must be a name of 1 to 120 characters")
        if not isinstance(action, str) or (action != "undo" and action not in HANDLERS):
            raise InvalidInput(f"{at}, field 'action': unknown action {action!r}")
        if not isinstance(payload, dict):
            raise InvalidInput(f"{at}, field 'payload': must be an object")
        undoes = item["undoes"]
        if action == "undo":
            target = _check_int(undoes, f"{at}, field 'undoes'")
            if target not in seen or target in undone or target in undos:
                raise InvalidInput(
                    f"{at}, field 'undoes': {target} is not an earlier entry still in effect"
                )
            if payload.get("undoes") != target:
                raise InvalidInput(f"{at}, field 'payload': names another entry than 'undoes'")
            undone.add(target)
            undos.add(entry_id)
        elif undoes is not None:
            raise InvalidInput(f"{at}, field 'undoes': only an undo entry reverts another")
        seen.add(entry_id)
        out.append(
            {
                "id": entry_id,
                "at": stamp,
                "actor": actor,
                "action": action,
                "payload": payload,
                "before": item["before"],
                "after": item["after"],
                "undoes": undoes,
            }
        )
        if version >= 2:
            out[-1].update(seq=item["seq"], prev_hash=item["prev_hash"], hash=item["hash"])
    if out[0]["action"] not in ("tournament.create", "tournament.import"):
        raise InvalidInput(f"{origin}: journal entry 1: does not create the tournament")
    if version < 2:
        return chain_items(out)
    problems = verify_chain(out)
    if problems:
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise InvalidInput(
            f"{origin}: the journal's hash chain does not hold: {problems[0]}{more}; "
            "nothing imported"
        )
    return out


def read_journal_document(data: Any, origin: str) -> tuple[str, list[dict[str, Any]], str]:
    """The tournament's slug, its checked journal and the projection digest of a document.

    Raises:
        InvalidInput: not a journal document, another version, or a malformed one.
    """
    if not is_journal_document(data):
        raise InvalidInput(f'{origin}: not an agon journal document (no "format": {FORMAT!r})')
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version not in READS:
        raise InvalidInput(
            f"{origin}: journal document version {version!r}; this agon reads versions "
            f"{', '.join(map(str, READS))}"
        )
    slug = data.get("tournament")
    if not isinstance(slug, str) or not SLUG.match(slug):
        raise InvalidInput(f"{origin}: field 'tournament': not a tournament slug: {slug!r}")
    digest = data.get("projection_digest")
    if not isinstance(digest, str) or len(digest) != 64 or digest.strip("0123456789abcdef"):
        raise InvalidInput(f"{origin}: field 'projection_digest': not a SHA-256 in hex")
    return slug, _check_entries(data.get("journal"), origin, version), digest


def _renumbered(value: Any, ids: dict[int, int]) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return ids.get(value, value)
    return value


def import_journal(
    session: Session, *, path: str | Path, slug: str | None = None
) -> dict[str, Any]:
    """Create the tournament of a journal document by replaying its journal; all or nothing.

    ``slug``: import it under this slug instead of its own (``agon import --as``).
    Returns what was done: ``slug``, ``entries``, ``effective``, ``ids_kept``, ``digest``.

    Raises:
        InvalidInput: a malformed or foreign file, a slug that is taken, a journal that does not
        replay, or one that replays to another state than the one exported.
    """
    path = Path(path)
    origin = str(path)
    data = load_document(path)
    own_slug, items, digest = read_journal_document(data, origin)
    target = slug or own_slug
    if not SLUG.match(target):
        raise InvalidInput(f"tournament slug {target!r}: use lower-case letters, digits and '-'")
    begin_write(session)
    try:
        lock_tournament(session, target)
        taken = session.scalar(
            select(TournamentRow.id).where(TournamentRow.slug == target)
        ) or session.scalar(select(JournalEntry.id).where(JournalEntry.tournament == target))
        if taken:
            raise InvalidInput(
                f"a tournament {target!r} exists already in this database; nothing imported "
                "(give --as NEW-SLUG to import it under another slug)"
            )
        wanted = [i["id"] for i in items]
        last = max(session.scalar(select(func.max(JournalEntry.id))) or 0, _sequence_at(session))
        clash = wanted[0] <= last and any(
            session.scalar(select(func.count()).where(JournalEntry.id.in_(wanted[k : k + 500])))
            for k in range(0, len(wanted), 500)
        )
        if clash:
            ids = {old: last + n for n, old in enumerate(wanted, start=1)}
            if last + len(wanted) > _ID_MAX:
                raise InvalidInput(f"{origin}: no journal ids left in this database")
        else:
            ids = {old: old for old in wanted}
        _move_sequence(session, max(last, *ids.values()))
        for item in items:
            payload = dict(item["payload"])
            for key in _ID_KEYS.get(item["action"], ()):
                if key in payload:
                    payload[key] = _renumbered(payload[key], ids)
            if item["action"] in ("tournament.create", "tournament.import"):
                payload["slug"] = target
            session.add(
                JournalEntry(
                    id=ids[item["id"]],
                    tournament=target,
                    at=item["at"],
                    actor=item["actor"],
                    action=item["action"],
                    payload=payload,
                    before=item["before"],
                    after=item["after"],
                    undoes=None if item["undoes"] is None else ids[item["undoes"]],
                    seq=item["seq"],
                    prev_hash=item["prev_hash"],
                    hash=item["hash"],
                )
            )
        try:
            session.flush()
        except IntegrityError:
            raise Conflict(
                f"{origin}: a change made at the same time took a journal id; nothing imported, "
                "import again"
            ) from None
        except OperationalError:
            raise
        except StatementError as exc:  # a value the database refuses to store
            raise InvalidInput(f"{origin}: the journal cannot be stored: {exc.orig}") from None
        try:
            effective = replay(session, target)
        except AgonError as exc:
            raise InvalidInput(f"{origin}: the journal does not replay: {exc}") from None
        except OperationalError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise InvalidInput(
                f"{origin}: the journal does not replay: {type(exc).__name__}: {exc}"
            ) from None
        except StatementError as exc:  # the handlers built a row the database refuses
            raise InvalidInput(f"{origin}: the journal does not replay: {exc.orig}") from None
        session.expire_all()
        reached = digest_of(portable_snapshot(session, tournament=target))
        if reached != digest:
            raise InvalidInput(
                f"{origin}: the journal replays to another state than the one exported "
                f"(digest {reached[:12]}…, the file says {digest[:12]}…); nothing imported"
            )
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return {
        "slug": target,
        "entries": len(items),
        "effective": effective,
        "ids_kept": not clash,
        "digest": digest,
    }


_SEQUENCE = "pg_get_serial_sequence('journal', 'id')"


def _sequence_at(session: Session) -> int:
    """PostgreSQL: the last id the journal's sequence gave out (to writers still in flight too);
    SQLite: 0 (its next id is the largest one plus one, and its writers take turns)."""
    if session.get_bind().dialect.name != "postgresql":
        return 0
    value = session.scalar(text(f"SELECT last_value FROM {_sequence_name(session)}"))
    return int(value or 0)


def _sequence_name(session: Session) -> str:
    name = session.scalar(text(f"SELECT {_SEQUENCE}"))
    return str(name)


def _move_sequence(session: Session, to: int) -> None:
    """PostgreSQL: the journal's sequence goes on after ``to`` (the ids inserted by hand), before
    they are inserted, so no other writer is given one of them."""
    if session.get_bind().dialect.name == "postgresql" and to > 0:
        session.execute(text(f"SELECT setval({_SEQUENCE}, :to)"), {"to": to})


__all__ = [
    "FORMAT",
    "VERSION",
    "digest_of",
    "export_journal",
    "import_journal",
    "is_journal_document",
    "portable_snapshot",
    "read_journal_document",
]
