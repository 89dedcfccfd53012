"""The laptop's side of ``agon sync`` (issue 29): push a tournament's journal to a hosted agon.

:func:`push` asks the hosted side where its copy stands (``GET /api/sync/{slug}``: the position
and hash of its last entry), checks that this journal holds that very entry at that position (else
the copies diverged: nothing is sent, nothing overwritten), and sends only what is missing, in
batches of :data:`BATCH` entries (``POST /api/sync/{slug}``, each one transaction there). Sending
a batch twice changes nothing; a push that stopped half-way (a lost link, a killed process) goes on
from where the hosted copy stands. The wire form of an entry: :mod:`agon.services.sync`.

The HTTP client is the standard library's (the laptop needs no other package for this).
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import EXIT_MISMATCH, AgonError, InvalidInput, NotFound
from agon.services import chain
from agon.services.tournaments import SLUG
from agon.store.models import JournalEntry

#: Entries per batch (the hosted side takes at most ``agon.services.sync.MAX_BATCH``).
BATCH = 100
#: The most bytes of JSON one batch is made of (a hosted agon takes 1 MiB per request by
#: default, ``AGON_MAX_BODY_BYTES``): a batch of large entries is sent as several smaller ones.
BATCH_BYTES = 512 * 1024
#: Seconds one request may take before the link counts as lost.
TIMEOUT = 15.0
#: How often a push asks again where the copy stands when another push raced it.
RACES = 5
#: The header the hosted side names a refused batch's problem in (``diverged``, ``behind``).
PROBLEM_HEADER = "X-Agon-Sync-Problem"


class LinkLost(Exception):
    """The hosted agon cannot be reached (or answers that it is away: 5xx): try again later."""


class PushRefused(AgonError):
    """The hosted agon refused the push (a bad or revoked token, another organisation's event, a
    batch it cannot take): trying again does not help (exit code 2)."""


class CopiesDiverged(AgonError):
    """This journal and the hosted copy differ: nothing is overwritten (exit code 1)."""

    exit_code = EXIT_MISMATCH


@dataclass(frozen=True, slots=True)
class PushResult:
    """What a push did: the entries sent (and taken), and where the hosted copy stands now."""

    sent: int
    seq: int
    hash: str


# --- the local journal ----------------------------------------------------------------------------


def local_tip(session: Session, tournament: str) -> tuple[int, str]:
    """The last position of the local journal and its hash.

    Raises:
        NotFound: the tournament has no journal here.
    """
    seq, last = chain.tip(session, tournament)
    if seq == 0:
        raise NotFound(f"no tournament {tournament!r} in this database")
    return seq, last


def hash_at(session: Session, tournament: str, seq: int) -> str | None:
    """The hash of the local entry at position ``seq``, if there is one."""
    found = session.scalar(
        select(JournalEntry.hash).where(
            JournalEntry.tournament == tournament, JournalEntry.seq == seq
        )
    )
    return None if found is None else str(found)


def wire_entries(
    session: Session, tournament: str, *, after: int, limit: int = BATCH
) -> list[dict[str, Any]]:
    """Up to ``limit`` entries of the local journal after position ``after``, in the wire form."""
    position_of = {
        int(i): int(s)
        for i, s in session.execute(
            select(JournalEntry.id, JournalEntry.seq).where(JournalEntry.tournament == tournament)
        )
    }
    rows = session.scalars(
        select(JournalEntry)
        .where(JournalEntry.tournament == tournament, JournalEntry.seq > after)
        .order_by(JournalEntry.seq)
        .limit(limit)
    )
    out = []
    for e in rows:
        item = chain.portable_entry(e, position_of)
        item.update(prev_hash=e.prev_hash, hash=e.hash, before=e.before, after=e.after)
        out.append(item)
    return out


# --- HTTP -----------------------------------------------------------------------------------------


def endpoint(base: str, tournament: str) -> str:
    """The sync address of ``tournament`` on the hosted agon at ``base``.

    Raises:
        InvalidInput: ``base`` is not an http(s) address, or the slug is not one.
    """
    parts = urllib.parse.urlsplit(base.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidInput(f"--to {base[:200]!r}: not an http:// or https:// address")
    if not SLUG.match(tournament):
        raise InvalidInput(f"--tournament {tournament[:64]!r}: not a tournament slug")
    return f"{base.strip().rstrip('/')}/api/sync/{tournament}"


def _detail(raw: bytes) -> str:
    try:
        data = json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")[:300].strip()
    detail = data.get("detail") if isinstance(data, dict) else None
    return str(detail if detail is not None else data)[:300]


def request(url: str, token: str, body: Any = None, *, timeout: float = TIMEOUT) -> dict[str, Any]:
    """GET (``body`` None) or POST ``body`` as JSON; the JSON answer.

    Raises:
        LinkLost: no answer, or a 5xx;
        CopiesDiverged: a 409 that says the copies diverged;
        PushRefused: any other refusal (the hosted side's one line);
        _Behind: a 409 that asks to look again where the copy stands.
    """
    data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    req.add_header("Authorization", f"Bearer {token}")
    req.add_header("Accept", "application/json")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            raw = answer.read()
    except urllib.error.HTTPError as exc:
        raw = exc.read() if exc.fp is not None else b""
        detail = _detail(raw)
        problem = exc.headers.get(PROBLEM_HEADER, "") if exc.headers else ""
        if exc.code >= 500 or exc.code == 429:
            raise LinkLost(f"the hosted agon answers {exc.code}") from None
        if exc.code == 409 and problem == "diverged":
            raise CopiesDiverged(detail) from None
        if exc.code == 409:
            raise _Behind(detail) from None
        raise PushRefused(f"the hosted agon refused ({exc.code}): {detail}") from None
    except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise LinkLost(f"cannot reach {url}: {reason}") from None
    try:
        result = json.loads(raw)
    except ValueError:
        raise LinkLost(f"{url}: the answer is not JSON (a proxy in between?)") from None
    if not isinstance(result, dict):
        raise LinkLost(f"{url}: the answer is not a JSON object")
    return result


class _Behind(Exception):
    """The hosted copy does not stand where the batch assumed (another push raced this one)."""


def _standing(answer: dict[str, Any]) -> tuple[int, str]:
    seq, last = answer.get("seq"), answer.get("hash")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0 or not chain.is_hash(last):
        raise LinkLost("the hosted agon's answer has no position and hash (not an agon?)")
    return seq, str(last)


# --- push -----------------------------------------------------------------------------------------


def push(
    sessions: Callable[[], Session],
    *,
    to: str,
    tournament: str,
    token: str,
    batch: int = BATCH,
    progress: Callable[[int, int], None] | None = None,
) -> PushResult:
    """Send what the hosted copy of ``tournament`` misses (see the module's docstring).

    ``sessions``: opens a session on the local database (one per step, so a long push never
    holds the laptop's database); ``progress(seq, last)``: called after every batch taken.

    Raises:
        LinkLost: the hosted agon cannot be reached (what was taken so far stays taken);
        CopiesDiverged: this journal and the hosted copy differ;
        PushRefused: a refused token or batch;
        NotFound: no such tournament here.
    """
    url = endpoint(to, tournament)
    sent = 0
    for _ in range(RACES):
        seq, last = _standing(request(url, token))
        with sessions() as session:
            local_seq, _ = local_tip(session, tournament)
            mine = hash_at(session, tournament, seq) if seq else chain.GENESIS
        if seq > local_seq or mine != last:
            raise CopiesDiverged(
                f"tournament {tournament!r}: the hosted copy holds {seq} entries and its last "
                f"one is not entry {seq} of this journal ({local_seq} entries): the copies "
                "diverged; nothing was sent"
            )
        try:
            while seq < local_seq:
                with sessions() as session:
                    items = wire_entries(session, tournament, after=seq, limit=batch)
                if not items:
                    break
                while len(items) > 1 and len(json.dumps(items).encode()) > BATCH_BYTES:
                    items = items[: len(items) // 2]
                seq, last = _standing(request(url, token, {"entries": items}))
                sent += len(items)
                if progress is not None:
                    progress(seq, local_seq)
        except _Behind:
            continue  # another push took some of these: ask again where the copy stands
        return PushResult(sent=sent, seq=seq, hash=last)
    raise LinkLost(f"tournament {tournament!r}: other pushes kept racing this one; try again")


def read_token(text: str, origin: str) -> str:
    """The token of a token file (its first line).

    Raises:
        InvalidInput: the file has no token on its first line.
    """
    first = text.splitlines()[0].strip() if text.strip() else ""
    if not first or len(first) > 200 or not first.isprintable() or " " in first:
        raise InvalidInput(f"{origin}: no sync token on its first line")
    return first


__all__ = [
    "BATCH",
    "CopiesDiverged",
    "LinkLost",
    "PushRefused",
    "PushResult",
    "endpoint",
    "hash_at",
    "local_tip",
    "push",
    "read_token",
    "request",
    "wire_entries",
]
