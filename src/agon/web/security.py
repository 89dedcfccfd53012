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
import secrets
import threading
import time
from collections import deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from agon.printing.render import derive_pin

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


class AttemptLimiter:
    """Counts failed tries per key in a sliding window; thread-safe, in memory.

    >>> limiter = AttemptLimiter(limit=2, window_seconds=60)
    >>> limiter.allowed("k", now=0.0), limiter.fail("k", now=1.0), limiter.fail("k", now=2.0)
    (True, None, None)
    >>> limiter.allowed("k", now=3.0), limiter.allowed("k", now=62.5)
    (False, True)
    """

    def __init__(self, *, limit: int, window_seconds: float) -> None:
        self.limit = limit
        self.window = window_seconds
        self._fails: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _trim(self, key: str, now: float) -> deque[float]:
        fails = self._fails.setdefault(key, deque())
        while fails and fails[0] <= now - self.window:
            fails.popleft()
        return fails

    def allowed(self, key: str, *, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self._lock:
            return len(self._trim(key, now)) < self.limit

    def fail(self, key: str, *, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        with self._lock:
            self._trim(key, now).append(now)
