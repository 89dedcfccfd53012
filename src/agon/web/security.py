"""Passwords, CSRF tokens, table PINs and the brake on guessing PINs.

* The director's password is stored only as an Argon2id hash (``argon2-cffi``).
* Every form carries the session's CSRF token (field ``csrf_token``, or header ``X-CSRF-Token``
  for htmx and the JSON API); an unsafe request without the right token is refused with 403.
* A table's PIN is derived (HMAC) from the app's secret and the tournament, round and table, with
  the printouts' own :func:`agon.printing.derive_pin`, so a re-print gives the same PIN and no PIN
  is stored. Four digits are guessable, so wrong tries are counted per client and table.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import deque
from collections.abc import Collection
from typing import Protocol

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from agon.printing.render import derive_pin

#: A trusted proxy's network (:data:`agon.web.settings.ProxyNetwork`).
ProxyNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
_HASHER = PasswordHasher()


def hash_password(password: str) -> str:
    """An Argon2id hash of ``password`` (salted; verify with :func:`verify_password`)."""
    return _HASHER.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    """Does ``password`` match the stored hash? ``False`` when no password is configured."""
    if not password_hash:
        return False
    try:
        return _HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A fresh random token (CSRF, secret key)."""
    return secrets.token_urlsafe(32)


def tokens_match(expected: str | None, given: str | None) -> bool:
    """Constant-time comparison; a missing token never matches."""
    if not expected or not given:
        return False
    return hmac.compare_digest(expected.encode(), given.encode())


def pin_seed(secret_key: str, tournament: str) -> str:
    """The secret the tournament's table PINs derive from (one per tournament)."""
    return hmac.new(
        secret_key.encode(), f"agon-pins|{tournament}".encode(), hashlib.sha256
    ).hexdigest()


def table_pin(secret_key: str, tournament: str, round_number: int, table: int) -> str:
    """The 4-digit PIN of a table, the same one the score sheet prints."""
    return derive_pin(pin_seed(secret_key, tournament), round_number, table)


def player_code(secret_key: str, tournament: str, player: str) -> str:
    """A player's 6-digit code for the tournament (HMAC of the app's secret, nothing stored): with
    it "Where do I sit?" shows the player their own seat link of an online table. The director
    hands it out once (desk); wrong tries are counted like wrong PINs."""
    mac = hmac.new(
        pin_seed(secret_key, tournament).encode(), f"agon-player|{player}".encode(), hashlib.sha256
    )
    return str(int.from_bytes(mac.digest()[:8], "big") % 10**6).zfill(6)


class Limiter(Protocol):
    """What the login, PIN and game-creation routes count tries with: the server's
    :class:`agon.web.attempts.DatabaseLimiter` (shared by all workers), or an
    :class:`AttemptLimiter` in memory (tests)."""

    def reserve(self, key: str, *, address: str | None = None) -> bool: ...

    def succeeded(self, key: str, *, address: str | None = None) -> None: ...


class AttemptLimiter:
    """Counts tries per key in a sliding window; thread-safe, in memory.

    A try is *reserved* before the (costly) check and in the same lock as the count is read, so
    40 parallel guesses cannot all pass the count before any of them is recorded: at most
    ``limit`` tries are checked per window. A try that turns out right is handed back
    (:meth:`succeeded`) and does not count.

    >>> limiter = AttemptLimiter(limit=2, window_seconds=60)
    >>> limiter.reserve("k", now=0.0), limiter.reserve("k", now=1.0), limiter.reserve("k", now=2.0)
    (True, True, False)
    >>> limiter.reserve("k", now=61.5)
    True
    """

    def __init__(self, *, limit: int, window_seconds: float) -> None:
        self.limit = limit
        self.window = window_seconds
        self._tries: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _trim(self, key: str, now: float) -> deque[float]:
        tries = self._tries.setdefault(key, deque())
        while tries and tries[0] <= now - self.window:
            tries.popleft()
        return tries

    def reserve(self, key: str, *, address: str | None = None, now: float | None = None) -> bool:
        """Count one try for ``key`` if the limit allows it (``True``), else refuse (``False``).
        (``address`` is for :class:`agon.web.attempts.DatabaseLimiter`'s cap per address; this
        limiter in memory has none.)"""
        now = time.monotonic() if now is None else now
        with self._lock:
            if len(self._tries) > 10_000:  # forget idle keys, so guessing cannot fill the memory
                for idle in [
                    k for k, v in self._tries.items() if not v or v[-1] <= now - self.window
                ]:
                    del self._tries[idle]
            tries = self._trim(key, now)
            if len(tries) >= self.limit:
                return False
            tries.append(now)
            return True

    def succeeded(self, key: str, *, address: str | None = None) -> None:
        """A reserved try was right: it does not count against the limit."""
        with self._lock:
            tries = self._tries.get(key)
            if tries:
                tries.pop()


def client_address(
    peer: str | None, forwarded_for: str | None, trusted: Collection[ProxyNetwork | str]
) -> str:
    """The client a limit counts: the connection's peer, or — only when that peer is a proxy the
    director configured (``AGON_TRUSTED_PROXIES``: addresses or CIDR ranges) — the last address
    of ``X-Forwarded-For`` that is not itself a trusted proxy. Without configured proxies the
    header is ignored, so rotating it does not make a new client.

    >>> client_address("127.0.0.1", "203.0.113.9", frozenset())
    '127.0.0.1'
    >>> client_address("10.0.0.2", "198.51.100.1, 203.0.113.9", frozenset({"10.0.0.2"}))
    '203.0.113.9'
    >>> from ipaddress import ip_network
    >>> client_address("10.1.2.3", "203.0.113.9, 10.0.0.7", {ip_network("10.0.0.0/8")})
    '203.0.113.9'
    """
    peer = peer or "unknown"
    if not trusted or not forwarded_for or not is_trusted(peer, trusted):
        return peer
    for hop in reversed([h.strip() for h in forwarded_for.split(",")]):
        if hop and not is_trusted(hop, trusted):
            return hop[:64]
    return peer


def is_trusted(address: str, trusted: Collection[ProxyNetwork | str]) -> bool:
    """Whether ``address`` is one of the ``trusted`` proxies: in one of their networks (an
    IPv4-mapped IPv6 address counts as its IPv4 address); a text that is no address only when
    it is listed as such.

    >>> from ipaddress import ip_network
    >>> is_trusted("::ffff:10.0.0.7", {ip_network("10.0.0.0/8")}), is_trusted("11.0.0.1", {"10.0.0.0/8"})
    (True, False)
    """
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address in trusted
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for entry in trusted:
        network = entry
        if isinstance(entry, str):
            try:
                network = ipaddress.ip_network(entry.strip(), strict=False)
            except ValueError:
                continue
        if ip in network:
            return True
    return False


#: The settings-table prefix of an open director session (the key holds a hash of its id).
SESSION_PREFIX = "web-session:"


def session_key(session_id: str) -> str:
    """The settings key of a director session: a hash, so the database never holds the id."""
    return SESSION_PREFIX + hashlib.sha256(session_id.encode()).hexdigest()[:48]
