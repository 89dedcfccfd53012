"""Settings of the web app, read from the environment when asked (never at import time).

``AGON_DATABASE_URL``    the database (default: the SQLite file ``./var/agon.db``);
``AGON_SECRET_KEY``      signs the session cookie and derives the table PINs (default: a random
                         key made once and kept in a file of its own, never in the database);
``AGON_SECRET_FILE``     that key file (default: next to the SQLite file, ``./var/agon.key``;
                         mode 0600, see :mod:`agon.web.secret`);
``AGON_TRUSTED_PROXIES`` addresses of reverse proxies (comma-separated) whose ``X-Forwarded-For``
                         names the client; without it the header is ignored (the login and PIN
                         limits count the connection's address);
``AGON_DIRECTOR_PASSWORD`` or ``AGON_DIRECTOR_PASSWORD_HASH`` (an Argon2 hash): the director's
                         password (without either, the desk cannot be logged into);
``AGON_PUBLIC_URL``      the address players' phones reach, printed on score sheets as a QR code
                         (default ``http://127.0.0.1:8000``);
``AGON_SECURE_COOKIES``  ``1`` behind HTTPS: the session cookie is sent over HTTPS only;
``AGON_SERIES``          series files (TOML, docs/ratings-and-series.md) shown at ``/series``,
                         separated like ``PATH`` (``:``; ``;`` on Windows); ``agon serve
                         --series FILE`` adds more.
``AGON_PLAY_GAMES_PER_HOUR`` online games one client address may create per hour (default 60).
``AGON_PIN_ATTEMPTS_PER_ADDRESS`` wrong PINs (and player codes) one client address may try over
                         all tables per ten minutes (default 30; 8 per table);
``AGON_MAX_BODY_BYTES``  the largest request body (default 1 MiB); a larger one gets 413;
``AGON_MAX_IMPORT_BYTES`` the largest body of a players' CSV import (default 8 MiB);
``AGON_STREAMS_PER_ADDRESS`` event streams one client address may hold open in one server
                         process (default 32); one more gets 429.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from agon.store.db import DEFAULT_URL


@dataclass(frozen=True, slots=True)
class WebSettings:
    """Everything :func:`agon.web.app.create_app` needs; ``director_password_hash`` is Argon2."""

    database_url: str = DEFAULT_URL
    secret_key: str | None = None
    #: The key file (``None``: :func:`agon.web.secret.secret_file`'s default).
    secret_file: str | None = None
    #: Proxies whose ``X-Forwarded-For`` is believed (none unless configured).
    trusted_proxies: frozenset[str] = frozenset()
    director_password_hash: str | None = None
    public_url: str = "http://127.0.0.1:8000"
    secure_cookies: bool = False
    #: Failed PIN tries a client may make per table within :attr:`pin_window_seconds`.
    pin_attempts: int = 8
    pin_window_seconds: int = 600
    #: Failed PIN and player-code tries a client may make over ALL tables per window.
    pin_attempts_per_address: int = 30
    #: How long SQLite waits for a busy database before giving up.
    busy_timeout_ms: int = 30_000
    #: Series files whose standings the public pages show (``/series/<file name>``).
    series_files: tuple[str, ...] = ()
    #: Online games (``POST /api/play``) one client address may create per hour.
    play_games_per_hour: int = 60
    #: How often the server brings tournament tables played online up to date (seconds).
    online_sweep_seconds: float = 5.0
    #: The largest request body, and that of a players' CSV import (:mod:`agon.web.bodylimit`).
    max_body_bytes: int = 1024 * 1024
    max_import_bytes: int = 8 * 1024 * 1024
    #: Event streams one client address may hold open in this process (:mod:`agon.web.streams`).
    streams_per_address: int = 32


def web_settings(environ: Mapping[str, str] | None = None) -> WebSettings:
    """Settings from the environment (see the module docstring); the password is hashed here."""
    from agon.web.security import hash_password

    env = os.environ if environ is None else environ
    password_hash = env.get("AGON_DIRECTOR_PASSWORD_HASH") or None
    if password_hash is None and env.get("AGON_DIRECTOR_PASSWORD"):
        password_hash = hash_password(env["AGON_DIRECTOR_PASSWORD"])
    return WebSettings(
        database_url=env.get("AGON_DATABASE_URL") or DEFAULT_URL,
        secret_key=env.get("AGON_SECRET_KEY") or None,
        secret_file=env.get("AGON_SECRET_FILE") or None,
        trusted_proxies=frozenset(
            p.strip() for p in env.get("AGON_TRUSTED_PROXIES", "").split(",") if p.strip()
        ),
        director_password_hash=password_hash,
        public_url=(env.get("AGON_PUBLIC_URL") or "http://127.0.0.1:8000").rstrip("/"),
        secure_cookies=env.get("AGON_SECURE_COOKIES", "") in ("1", "true", "yes"),
        series_files=tuple(p for p in env.get("AGON_SERIES", "").split(os.pathsep) if p.strip()),
        play_games_per_hour=_count(env.get("AGON_PLAY_GAMES_PER_HOUR"), 60),
        pin_attempts_per_address=_count(env.get("AGON_PIN_ATTEMPTS_PER_ADDRESS"), 30),
        max_body_bytes=_count(env.get("AGON_MAX_BODY_BYTES"), 1024 * 1024),
        max_import_bytes=_count(env.get("AGON_MAX_IMPORT_BYTES"), 8 * 1024 * 1024),
        streams_per_address=_count(env.get("AGON_STREAMS_PER_ADDRESS"), 32),
    )


def _count(text: str | None, default: int) -> int:
    """A non-negative whole number from the environment, else ``default``."""
    if text is None or not text.strip().isdigit():
        return default
    return int(text.strip())
