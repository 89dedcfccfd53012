"""The journal as a hash chain: each entry carries the hash of the one before it.

Every journal entry has ``seq`` (its position in its tournament's journal: 1, 2, 3 …),
``prev_hash`` (the ``hash`` of entry ``seq - 1``; :data:`GENESIS` for the first) and ``hash``::

    hash = SHA-256 hex of  prev_hash + "\\n" + canonical JSON of the portable entry

The *portable entry* (:func:`portable_entry`) is what an entry says, independent of the database
it is stored in, so that a move to another database (``agon export --journal`` / ``agon import``,
which may renumber the entries' ids) or a sync keeps every hash::

    {"seq": 17, "at": "2026-11-28T10:15:00.000000+00:00", "actor": "desk",
     "action": "result.enter", "payload": {...}, "undoes": null}

- ``at``: ISO 8601 in UTC with microseconds;
- ``payload``: the ids of journal entries it names (:data:`ID_KEYS`: a result's
  ``expected_version``, a dispute's ``version``, the entry an undo reverts) written as that entry's
  ``seq`` (an id that names no entry of the journal as ``{"id": ID}``); the ``slug`` of the
  creating entry (``tournament.create``/``tournament.import``) is left
  out (``agon import --as`` gives the tournament another one);
- ``undoes``: the ``seq`` of the entry an undo reverts, else ``null``.

``before``/``after`` are not hashed: they are derived (a replay re-derives them). Canonical JSON:
keys sorted, separators ``,`` and ``:``, no ASCII escaping, UTF-8.

:func:`seal` fills the three fields of an entry about to be stored (the caller holds the
tournament's write lock, so positions follow the commit order and stay gapless; the unique
``(tournament, seq)`` keeps two writers from ever taking one position). :func:`verify_chain` checks
a sequence of entries (a journal document's, or a database's: :func:`stored_items`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.store.models import JournalEntry

#: The ``prev_hash`` of a tournament's first entry.
GENESIS = "0" * 64
#: The payload keys that name a journal entry's id (a table's version), by action.
ID_KEYS: dict[str, tuple[str, ...]] = {
    "result.enter": ("expected_version",),
    "result.confirm": ("expected_version",),
    "dispute.open": ("version",),
    "undo": ("undoes",),
}
#: The actions whose payload names the tournament's slug (left out of the hash).
CREATING = ("tournament.create", "tournament.import")
#: The fields of a portable entry, in the order people read them.
PORTABLE_KEYS = ("seq", "at", "actor", "action", "payload", "undoes")
_HEX = frozenset("0123456789abcdef")


def iso_at(value: datetime | str) -> str:
    """The hashed form of an entry's time: ISO 8601 in UTC, with microseconds.

    Raises:
        ValueError: not a date-time, or one without its zone.
    """
    try:
        stamp = datetime.fromisoformat(value) if isinstance(value, str) else value
        if isinstance(stamp, datetime) and stamp.tzinfo is not None:
            return stamp.astimezone(UTC).isoformat(timespec="microseconds")
    except (ValueError, OverflowError):
        pass
    raise ValueError(f"not a date-time with its zone: {str(value)[:80]!r}")


def _field(entry: JournalEntry | Mapping[str, Any], name: str) -> Any:
    return entry.get(name) if isinstance(entry, Mapping) else getattr(entry, name)


def _position(value: Any, position_of: Mapping[int, int]) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        # an id that is no entry of the journal stays an id, never taken for a position
        return position_of.get(value, {"id": value})
    return value


def portable_entry(
    entry: JournalEntry | Mapping[str, Any], position_of: Mapping[int, int]
) -> dict[str, Any]:
    """The hashed content of one entry (see the module's docstring).

    ``entry``: a stored entry, or a mapping with ``seq``, ``at`` (a date-time or its ISO text),
    ``actor``, ``action``, ``payload`` and ``undoes`` (ids, as a journal document has them);
    ``position_of``: the ``seq`` of each journal id of the tournament (an id it does not name is
    written ``{"id": ID}``).

    Raises:
        ValueError: ``at`` is not a date-time with its zone.
    """
    action = _field(entry, "action")
    raw = _field(entry, "payload")
    payload = dict(raw) if isinstance(raw, Mapping) else raw
    if isinstance(payload, dict):
        for key in ID_KEYS.get(action, ()) if isinstance(action, str) else ():
            if key in payload:
                payload[key] = _position(payload[key], position_of)
        if action in CREATING:
            payload.pop("slug", None)
    return {
        "seq": _field(entry, "seq"),
        "at": iso_at(_field(entry, "at")),
        "actor": _field(entry, "actor"),
        "action": action,
        "payload": payload,
        "undoes": _position(_field(entry, "undoes"), position_of),
    }


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, no ASCII escaping."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def entry_hash(prev_hash: str, portable: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of ``prev_hash + "\\n" + canonical JSON(portable)`` in UTF-8."""
    text = prev_hash + "\n" + canonical(portable)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def is_hash(value: Any) -> bool:
    """Is ``value`` a SHA-256 in lower-case hex?"""
    return isinstance(value, str) and len(value) == 64 and not set(value) - _HEX


def chain_items(items: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``items`` (entries with ids, in order, without a chain: a version-1 journal document's)
    with ``seq``, ``prev_hash`` and ``hash`` computed.

    Raises:
        ValueError: an entry's ``at`` is not a date-time with its zone.
    """
    position_of = {
        item["id"]: n for n, item in enumerate(items, start=1) if isinstance(item.get("id"), int)
    }
    out: list[dict[str, Any]] = []
    prev = GENESIS
    for n, item in enumerate(items, start=1):
        chained = {**item, "seq": n, "prev_hash": prev}
        chained["hash"] = prev = entry_hash(prev, portable_entry(chained, position_of))
        out.append(chained)
    return out


def _short(value: Any) -> str:
    """A value for a one-line message: printable text as it is, anything else as its repr."""
    if isinstance(value, str) and value.isprintable() and len(value) <= 40:
        return value
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _label(n: int, item: Mapping[str, Any]) -> str:
    action = item.get("action")
    return f"entry {n} ({_short(action)})" if isinstance(action, str) else f"entry {n}"


def verify_chain(
    items: Sequence[Mapping[str, Any]], position_of: Mapping[int, int] | None = None
) -> list[str]:
    """One line per problem of the chain of ``items`` (in journal order), none when it holds.

    ``items``: entries as in a journal document: ``seq``, ``prev_hash``, ``hash`` and the portable
    fields, their payloads naming journal ids; ``position_of`` maps those ids to positions, by
    default from the items' own ``id`` and ``seq``.
    """
    if position_of is None:
        position_of = {
            item["id"]: item["seq"]
            for item in items
            if isinstance(item, Mapping)
            and isinstance(item.get("id"), int)
            and isinstance(item.get("seq"), int)
        }
    problems: list[str] = []
    prev: str | None = None  # the stored hash of the entry before
    for n, item in enumerate(items, start=1):
        if not isinstance(item, Mapping):
            problems.append(f"entry {n}: not an object")
            prev = None
            continue
        label = _label(n, item)
        seq, prev_hash, stored = item.get("seq"), item.get("prev_hash"), item.get("hash")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq != n:
            problems.append(
                f"{label}: its seq is {_short(seq)}, expected {n} (a gap or a reordering)"
            )
        if not isinstance(prev_hash, str) or not is_hash(prev_hash) or not is_hash(stored):
            problems.append(f"{label}: its prev_hash or hash is not a SHA-256 in hex")
            prev = stored if is_hash(stored) else None
            continue
        if n == 1 and prev_hash != GENESIS:
            problems.append(f"{label}: the first entry's prev_hash is not the genesis ({GENESIS})")
        elif n > 1 and prev is not None and prev_hash != prev:
            problems.append(
                f"{label}: the chain is broken: its prev_hash is not the hash of entry {n - 1}"
            )
        try:
            computed = entry_hash(prev_hash, portable_entry(item, position_of))
        except (ValueError, TypeError) as exc:
            problems.append(f"{label}: its content cannot be hashed: {exc}")
        else:
            if computed != stored:
                problems.append(f"{label}: its hash does not match its content")
        prev = stored
    return problems


# --- the stored chain -----------------------------------------------------------------------------


def tip(session: Session, tournament: str) -> tuple[int, str]:
    """The last position of the tournament's journal and its hash; ``(0, GENESIS)`` when empty."""
    row = session.execute(
        select(JournalEntry.seq, JournalEntry.hash)
        .where(JournalEntry.tournament == tournament)
        .order_by(JournalEntry.seq.desc())
        .limit(1)
    ).first()
    return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))


def _named_ids(action: str, payload: Mapping[str, Any], undoes: int | None) -> set[int]:
    named = {undoes} if undoes is not None else set()
    for key in ID_KEYS.get(action, ()):
        value = payload.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            named.add(value)
    return named


def positions(session: Session, tournament: str, ids: set[int]) -> dict[int, int]:
    """The ``seq`` of each of ``ids`` that is an entry of the tournament's journal."""
    if not ids:
        return {}
    rows = session.execute(
        select(JournalEntry.id, JournalEntry.seq).where(
            JournalEntry.tournament == tournament, JournalEntry.id.in_(sorted(ids))
        )
    )
    return {int(i): int(s) for i, s in rows}


def seal(session: Session, entry: JournalEntry) -> JournalEntry:
    """Give ``entry`` (not yet added to the session) its ``seq``, ``prev_hash`` and ``hash``.

    The caller holds the tournament's write lock (:func:`agon.store.db.lock_tournament`).
    """
    with session.no_autoflush:
        last, prev = tip(session, entry.tournament)
        named = _named_ids(entry.action, entry.payload, entry.undoes)
        position_of = positions(session, entry.tournament, named)
    entry.seq = last + 1
    entry.prev_hash = prev
    entry.hash = entry_hash(prev, portable_entry(entry, position_of))
    return entry


def stored_items(session: Session, tournament: str) -> list[dict[str, Any]]:
    """The tournament's journal as :func:`verify_chain` reads it, in the order of ``seq``."""
    rows = session.scalars(
        select(JournalEntry)
        .where(JournalEntry.tournament == tournament)
        .order_by(JournalEntry.seq, JournalEntry.id)
    )
    return [
        {
            "id": e.id,
            "seq": e.seq,
            "prev_hash": e.prev_hash,
            "hash": e.hash,
            "at": e.at,
            "actor": e.actor,
            "action": e.action,
            "payload": e.payload,
            "undoes": e.undoes,
        }
        for e in rows
    ]


def verify_stored(session: Session, tournament: str) -> tuple[int, str | None, list[str]]:
    """Check the chain stored for ``tournament``: its entries, last hash, and problems."""
    items = stored_items(session, tournament)
    problems = verify_chain(items)
    ids_in_order = [i["id"] for i in items]
    if ids_in_order != sorted(ids_in_order):
        problems.append("the positions (seq) do not follow the order the entries were stored in")
    return len(items), (items[-1]["hash"] if items else None), problems


__all__ = [
    "GENESIS",
    "ID_KEYS",
    "canonical",
    "chain_items",
    "entry_hash",
    "iso_at",
    "portable_entry",
    "seal",
    "stored_items",
    "tip",
    "verify_chain",
    "verify_stored",
]
