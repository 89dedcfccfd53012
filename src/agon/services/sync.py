"""The hosted side of ``agon sync`` (issue 29): sync tokens, where a synced copy stands, receiving.

A laptop runs the event; ``agon sync push``/``watch`` (:mod:`agon.services.sync_client`) sends its
journal here. The wire form of one entry is the chain's portable entry
(:func:`agon.services.chain.portable_entry`: ids named as positions, the slug left out) with its
``prev_hash`` and ``hash``, and the entry's ``before``/``after`` (shown to people, not hashed)::

    {"seq": 17, "at": "…", "actor": "desk", "action": "result.enter", "payload": {...},
     "undoes": null, "prev_hash": "…", "hash": "…", "before": ..., "after": ...}

:func:`receive` takes a batch in ONE transaction under the tournament's write lock: an entry this
copy holds already with the same hash is skipped (a batch sent twice changes nothing); the same
position with another hash means the copies diverged, and nothing is written; the next entry must
continue the stored chain (its ``prev_hash`` is the stored last hash) and its hash must be the one
its content gives here. Each new entry is stored and applied by the journal's own handlers (as
:func:`agon.services.core.record` and :func:`agon.services.journal.undo` apply them), its ids
given by this database. The unique ``(tournament, seq)`` keeps two pushes racing from ever storing
one position twice.

A synced copy is read-only here: :func:`agon.services.core.record` and ``undo`` refuse every
change to it (:func:`agon.services.core.check_writable`); only :func:`receive` writes it.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError, StatementError
from sqlalchemy.orm import Session

from agon.errors import AgonError, Conflict, InvalidInput, NotFound
from agon.services import chain
from agon.services.core import HANDLERS, Ctx, as_json, need_handlers, replay
from agon.services.people import get_organisation
from agon.services.tournaments import SLUG
from agon.store.db import begin_write, lock_tournament
from agon.store.models import JournalEntry, TournamentRow
from agon.store.people import TournamentOrganisationRow
from agon.store.sync import SyncedTournamentRow, SyncTokenRow

#: The most entries one batch may carry (the client sends at most this many at once).
MAX_BATCH = 200
#: A token's prefix (so that a leaked one is recognised for what it is).
TOKEN_PREFIX = "agon-sync-"
#: The keys of one entry on the wire.
WIRE_KEYS = frozenset((*chain.PORTABLE_KEYS, "prev_hash", "hash", "before", "after"))
_ID_MAX = 2**31 - 1


class SyncDenied(AgonError):
    """The token is unknown or revoked (401), or the tournament is another organisation's or
    not a synced copy (403)."""

    def __init__(self, message: str, *, status: int = 401) -> None:
        super().__init__(message)
        self.status = status


class Diverged(Conflict):
    """The laptop's journal and the hosted copy differ at one position: nothing is overwritten."""


# --- tokens ---------------------------------------------------------------------------------------


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """A sync token as listed (never the token itself)."""

    id: int
    organisation: str
    label: str
    created_at: int
    revoked_at: int | None
    used_at: int | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "organisation": self.organisation,
            "label": self.label,
            "created_at": self.created_at,
            "revoked": self.revoked_at is not None,
            "revoked_at": self.revoked_at,
            "used_at": self.used_at,
        }


def _info(row: SyncTokenRow) -> TokenInfo:
    return TokenInfo(
        row.id, row.organisation, row.label, row.created_at, row.revoked_at, row.used_at
    )


def create_token(session: Session, *, organisation: str, label: str = "") -> tuple[TokenInfo, str]:
    """A new sync token for ``organisation``; returns it with the token (shown only now: only
    its SHA-256 is stored).

    Raises:
        NotFound: no such organisation;
        InvalidInput: a label over 200 characters or with control characters.
    """
    label = label.strip()
    if len(label) > 200 or not label.isprintable():
        raise InvalidInput("--label: at most 200 printable characters")
    begin_write(session)
    try:
        org = get_organisation(session, organisation.strip())
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = SyncTokenRow(
            token_hash=_hash(token),
            organisation=org.slug,
            label=label,
            created_at=int(time.time()),
        )
        session.add(row)
        session.flush()
        info = _info(row)  # read now: after the commit it would begin another transaction
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return info, token


def list_tokens(session: Session) -> list[TokenInfo]:
    """Every sync token (revoked ones too), oldest first."""
    return [_info(r) for r in session.scalars(select(SyncTokenRow).order_by(SyncTokenRow.id))]


def revoke_token(session: Session, *, token_id: int) -> TokenInfo:
    """Revoke the token ``token_id``: pushes with it are refused from now on.

    Raises:
        NotFound: no such token.
    """
    begin_write(session)
    try:
        row = session.get(SyncTokenRow, token_id) if 0 < token_id <= _ID_MAX else None
        if row is None:
            raise NotFound(f"no sync token {token_id} (see 'agon sync token list')")
        if row.revoked_at is None:
            row.revoked_at = int(time.time())
        info = _info(row)
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return info


def _token(session: Session, token: str) -> SyncTokenRow:
    """The live token ``token``.

    Raises:
        SyncDenied: unknown (401) or revoked (403).
    """
    row = session.scalar(select(SyncTokenRow).where(SyncTokenRow.token_hash == _hash(token)))
    if row is None:
        raise SyncDenied("unknown sync token", status=401)
    if row.revoked_at is not None:
        raise SyncDenied("this sync token was revoked", status=403)
    return row


def _check_slug(slug: str) -> str:
    if not SLUG.match(slug):
        raise InvalidInput(f"tournament slug {slug[:64]!r}: lower-case letters, digits and '-'")
    return slug


def _check_owner(session: Session, token: SyncTokenRow, slug: str) -> SyncedTournamentRow | None:
    """The tournament's synced-copy mark, if any; refuses another organisation's tournament and
    one of this database's own that is not a synced copy."""
    mark = session.get(SyncedTournamentRow, slug)
    if mark is not None:
        if mark.organisation != token.organisation:
            raise SyncDenied(
                f"tournament {slug!r} is a synced copy of another organisation", status=403
            )
        return mark
    exists = session.scalar(select(TournamentRow.id).where(TournamentRow.slug == slug))
    if exists is None:
        exists = session.scalar(select(JournalEntry.id).where(JournalEntry.tournament == slug))
    if exists is not None:
        raise SyncDenied(
            f"tournament {slug!r} exists here and is not a synced copy; push it under another slug",
            status=403,
        )
    owner = session.scalar(
        select(TournamentOrganisationRow.organisation).where(
            TournamentOrganisationRow.tournament == slug
        )
    )
    if owner is not None and owner != token.organisation:
        raise SyncDenied(f"tournament {slug!r} belongs to another organisation", status=403)
    return None


# --- where a copy stands ------------------------------------------------------------------------


def status(session: Session, *, token: str, tournament: str) -> dict[str, Any]:
    """Where the hosted copy of ``tournament`` stands: ``{"seq": n, "hash": h}`` (0 and the
    genesis before the first push).

    Raises:
        SyncDenied: a bad token, or a tournament the token may not push.
    """
    slug = _check_slug(tournament)
    try:
        row = _token(session, token)
        _check_owner(session, row, slug)
        seq, last = chain.tip(session, slug)
    finally:
        session.rollback()
    return {"tournament": slug, "seq": seq, "hash": last}


def is_synced(session: Session, tournament: str) -> bool:
    """Is ``tournament`` a synced copy (read-only here)?"""
    return session.get(SyncedTournamentRow, tournament) is not None


@dataclass(frozen=True, slots=True)
class SyncedCopy:
    """What the desk says about a synced copy: whose event it is, when the last push arrived
    (UTC) and how far the journal reaches."""

    organisation: str
    first_at: datetime
    last_at: datetime
    seq: int


def synced_copy(session: Session, tournament: str) -> SyncedCopy | None:
    """The synced copy's origin and freshness, or ``None`` when ``tournament`` is run here."""
    mark = session.get(SyncedTournamentRow, tournament)
    if mark is None:
        return None
    seq, _last = chain.tip(session, tournament)
    return SyncedCopy(
        organisation=mark.organisation,
        first_at=datetime.fromtimestamp(mark.first_at, UTC),
        last_at=datetime.fromtimestamp(mark.last_at, UTC),
        seq=seq,
    )


def synced_tournaments(session: Session) -> list[str]:
    """The slugs of the synced copies in this database."""
    return list(session.scalars(select(SyncedTournamentRow.tournament).order_by("tournament")))


# --- receiving ------------------------------------------------------------------------------------


def _int(value: Any, at: str, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= _ID_MAX:
        raise InvalidInput(f"{at}: must be a whole number from {low} to {_ID_MAX}")
    return value


def _check_wire(item: Any, at: str) -> dict[str, Any]:
    """One entry of a batch, its shape checked (its content is checked by its hash and by the
    handler that applies it)."""
    if not isinstance(item, Mapping):
        raise InvalidInput(f"{at}: must be an object")
    keys = set(item)
    if keys != WIRE_KEYS:
        missing = sorted(WIRE_KEYS - keys)
        extra = sorted(keys - WIRE_KEYS)
        raise InvalidInput(
            f"{at}: missing field {missing[0]!r}"
            if missing
            else f"{at}: unknown field {extra[0]!r}"
        )
    _int(item["seq"], f"{at}, field 'seq'")
    for key in ("prev_hash", "hash"):
        if not chain.is_hash(item[key]):
            raise InvalidInput(f"{at}, field {key!r}: not a SHA-256 in hex")
    if not isinstance(item["at"], str):
        raise InvalidInput(f"{at}, field 'at': not a date-time with its zone")
    try:
        chain.iso_at(item["at"])
    except (ValueError, OverflowError):
        raise InvalidInput(f"{at}, field 'at': not a date-time with its zone") from None
    actor, action = item["actor"], item["action"]
    if not isinstance(actor, str) or not actor.strip() or len(actor) > 120 or "\x00" in actor:
        raise InvalidInput(f"{at}, field 'actor': must be a name of 1 to 120 characters")
    if not isinstance(action, str) or (action != "undo" and action not in HANDLERS):
        raise InvalidInput(f"{at}, field 'action': unknown action {str(action)[:40]!r}")
    if not isinstance(item["payload"], dict):
        raise InvalidInput(f"{at}, field 'payload': must be an object")
    if action == "undo":
        _int(item["undoes"], f"{at}, field 'undoes'")
    elif item["undoes"] is not None:
        raise InvalidInput(f"{at}, field 'undoes': only an undo entry reverts another")
    return dict(item)


def check_batch(items: Any) -> list[dict[str, Any]]:
    """A batch's entries, each one's shape checked, their positions consecutive.

    Raises:
        InvalidInput: the first problem, naming the entry and the field.
    """
    if not isinstance(items, list) or not items:
        raise InvalidInput("field 'entries': must be a non-empty list")
    if len(items) > MAX_BATCH:
        raise InvalidInput(f"field 'entries': at most {MAX_BATCH} entries in one batch")
    need_handlers(
        str(i.get("action")) for i in items if isinstance(i, Mapping) and i.get("action") != "undo"
    )
    out = [_check_wire(item, f"entry {n}") for n, item in enumerate(items, start=1)]
    for before, after in itertools.pairwise(out):
        if after["seq"] != before["seq"] + 1:
            raise InvalidInput(f"entry with seq {after['seq']}: does not follow {before['seq']}")
    return out


def _stored(session: Session, slug: str) -> tuple[dict[int, int], dict[int, str]]:
    """The copy's journal: the id and the hash of each position."""
    ids: dict[int, int] = {}
    hashes: dict[int, str] = {}
    for entry_id, seq, digest in session.execute(
        select(JournalEntry.id, JournalEntry.seq, JournalEntry.hash).where(
            JournalEntry.tournament == slug
        )
    ):
        ids[int(seq)] = int(entry_id)
        hashes[int(seq)] = str(digest)
    return ids, hashes


def _local_payload(item: Mapping[str, Any], id_of: Mapping[int, int], slug: str) -> dict[str, Any]:
    """The payload as this database stores it: positions named as this database's ids, the
    creating entry's slug put back."""
    payload = dict(item["payload"])
    for key in chain.ID_KEYS.get(item["action"], ()):
        value = payload.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            payload[key] = id_of.get(value, value)
        elif isinstance(value, dict) and set(value) == {"id"}:  # an id that names no entry
            payload[key] = value["id"]
    if item["action"] in chain.CREATING:
        payload["slug"] = slug
    return payload


def _apply(session: Session, slug: str, entry: JournalEntry) -> None:
    """Apply a stored entry as a live change does (an undo: by a replay of the journal)."""
    if entry.action == "undo":
        replay(session, slug)
        return
    HANDLERS[entry.action](Ctx(session, slug, entry.at, entry.actor, entry.id), dict(entry.payload))


def receive(session: Session, *, token: str, tournament: str, items: Any) -> dict[str, Any]:
    """Store and apply a batch of the laptop's journal (see the module's docstring), all or
    nothing. Returns ``{"seq", "hash", "applied", "skipped"}``: where the copy stands now.

    Raises:
        SyncDenied: a bad token or a tournament the token may not push;
        Diverged: an entry held here with another hash;
        Conflict: a gap (the copy stands elsewhere than the batch assumes; ask again) or a push
            racing this one;
        InvalidInput: a malformed batch, a broken chain, an entry its handler refuses.
    """
    slug = _check_slug(tournament)
    batch = check_batch(items)
    begin_write(session)
    try:
        lock_tournament(session, slug)
        row = _token(session, token)
        mark = _check_owner(session, row, slug)
        ids, hashes = _stored(session, slug)
        last = max(ids, default=0)
        applied = skipped = 0
        for item in batch:
            seq = item["seq"]
            if seq <= last:
                if hashes[seq] != item["hash"]:
                    raise Diverged(
                        f"tournament {slug!r}: the copies diverged at entry {seq} (this copy "
                        "holds another entry there); nothing was overwritten"
                    )
                skipped += 1
                continue
            if seq != last + 1:
                raise Conflict(
                    f"tournament {slug!r}: this copy stands at entry {last}, the batch starts "
                    f"at {seq}; ask where it stands and push again"
                )
            prev = hashes.get(last, chain.GENESIS)
            if item["prev_hash"] != prev:
                raise Diverged(
                    f"tournament {slug!r}: entry {seq} does not continue this copy's chain "
                    f"(its prev_hash is not the hash of entry {last}); nothing was overwritten"
                )
            if seq == 1 and item["action"] not in chain.CREATING:
                raise InvalidInput(f"entry {seq}: the first entry does not create the tournament")
            entry = _store(session, slug, item, ids)
            expected = chain.entry_hash(
                prev, chain.portable_entry(entry, {i: s for s, i in ids.items()})
            )
            if expected != item["hash"]:
                raise InvalidInput(
                    f"entry {seq} ({item['action']}): its hash does not match its content"
                )
            try:
                _apply(session, slug, entry)
            except AgonError as exc:
                raise InvalidInput(
                    f"entry {seq} ({item['action']}): does not apply: {exc}"
                ) from None
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                raise InvalidInput(
                    f"entry {seq} ({item['action']}): does not apply: {type(exc).__name__}"
                ) from None
            hashes[seq] = item["hash"]
            last = seq
            applied += 1
        now = int(time.time())
        if applied:
            if mark is None:
                session.add(
                    SyncedTournamentRow(
                        tournament=slug,
                        organisation=row.organisation,
                        token_id=row.id,
                        first_at=now,
                        last_at=now,
                    )
                )
                if session.get(TournamentOrganisationRow, slug) is None:
                    session.add(
                        TournamentOrganisationRow(tournament=slug, organisation=row.organisation)
                    )
            else:
                mark.last_at = now
        row.used_at = now
        session.flush()
        session.commit()
    except IntegrityError:
        session.rollback()
        raise Conflict(
            f"tournament {slug!r}: another push stored these entries at the same time; "
            "ask where the copy stands and push again"
        ) from None
    except OperationalError:
        session.rollback()
        raise
    except StatementError as exc:
        session.rollback()
        raise InvalidInput(f"the batch cannot be stored: {exc.orig}") from None
    except BaseException:
        session.rollback()
        raise
    return {
        "tournament": slug,
        "seq": last,
        "hash": hashes.get(last, chain.GENESIS),
        "applied": applied,
        "skipped": skipped,
    }


def _store(
    session: Session, slug: str, item: Mapping[str, Any], ids: dict[int, int]
) -> JournalEntry:
    """Add the entry (this database gives its id) and note its id under its position."""
    undoes = item["undoes"]
    if undoes is not None:
        if undoes not in ids:
            raise InvalidInput(f"entry {item['seq']}: field 'undoes': no entry {undoes} here")
        undoes = ids[undoes]
    at = datetime.fromisoformat(item["at"]).astimezone(UTC)
    entry = JournalEntry(
        tournament=slug,
        at=at,
        actor=item["actor"],
        action=item["action"],
        payload=as_json(_local_payload(item, ids, slug)),
        before=as_json(item["before"]),
        after=as_json(item["after"]),
        undoes=undoes,
        seq=item["seq"],
        prev_hash=item["prev_hash"],
        hash=item["hash"],
    )
    session.add(entry)
    session.flush()
    ids[item["seq"]] = entry.id
    return entry


__all__ = [
    "MAX_BATCH",
    "Diverged",
    "SyncDenied",
    "TokenInfo",
    "check_batch",
    "create_token",
    "is_synced",
    "list_tokens",
    "receive",
    "revoke_token",
    "status",
    "synced_tournaments",
]
