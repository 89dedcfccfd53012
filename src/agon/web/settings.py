"""Settings of the web app: ONE typed source (pydantic-settings), read from the environment when
asked (never at import time). Every field is one ``AGON_<NAME>`` variable; junk in any of them stops
``agon serve`` with one line naming the variable and what it expects (exit 2), never a default
silently taken. An empty variable counts as unset. docs/web.md lists them for people.

``AGON_DATABASE_URL``    the database (default: the SQLite file ``./var/agon.db``); sqlite or
                         postgresql+psycopg;
``AGON_SECRET_KEY``      signs the session cookie and derives the table PINs (default: a random
                         key made once and kept in a file of its own, never in the database);
``AGON_SECRET_FILE``     that key file (default: next to the SQLite file, ``./var/agon.key``;
                         mode 0600, see :mod:`agon.web.secret`);
``AGON_TRUSTED_PROXIES`` reverse proxies (comma-separated addresses or CIDR ranges such as
                         ``10.0.0.0/8``) whose ``X-Forwarded-For`` names the client; without it the
                         header is ignored (the login and PIN limits count the connection's address);
``AGON_DIRECTOR_PASSWORD`` or ``AGON_DIRECTOR_PASSWORD_HASH`` (an Argon2 hash): the director's
                         password (without either, the desk cannot be logged into);
``AGON_PUBLIC_URL``      the address players' phones reach, printed on score sheets as a QR code
                         (default ``http://127.0.0.1:8000``);
``AGON_SECURE_COOKIES``  a yes/no (``1``/``0``, ``true``/``false``, ``yes``/``no``, ``on``/``off``,
                         any case): behind HTTPS, yes: the session cookie is sent over HTTPS only;
``AGON_SERIES``          series files (TOML, docs/ratings-and-series.md) shown at ``/series``,
                         separated like ``PATH`` (``:``; ``;`` on Windows); ``agon serve
                         --series FILE`` adds more.
``AGON_PLAY_GAMES_PER_HOUR`` online games one client address may create per hour (default 60).
``AGON_PIN_ATTEMPTS``, ``AGON_PIN_WINDOW_SECONDS``, ``AGON_BUSY_TIMEOUT_MS``,
``AGON_ONLINE_SWEEP_SECONDS``: the fields of the same names below.
``AGON_PIN_ATTEMPTS_PER_ADDRESS`` wrong PINs (and player codes) one client address may try over
                         all tables per ten minutes (default 30; 8 per table);
``AGON_MAX_BODY_BYTES``  the largest request body (default 1 MiB); a larger one gets 413;
``AGON_MAX_IMPORT_BYTES`` the largest body of a players' CSV import (default 8 MiB);
``AGON_STREAMS_PER_ADDRESS`` event streams one client address may hold open in one server
                         process (default 32); one more gets 429.
``AGON_LOG_LEVEL``       ``debug``, ``info``, ``warning`` (default) or ``error`` (``agon serve
                         --log-level``); ``AGON_LOG_FORMAT``: ``text`` (default) or ``json``, one
                         JSON object per line (``--log-format``);
``AGON_ACCESS_LOG``      a yes/no: one line per request (``--access-log``; tokens redacted);
``AGON_RENDER_PROCESS`` a yes/no (default yes): the standings pages a write changes are rendered
                         in a process of their own, so the server keeps answering the phones
                         meanwhile (:mod:`agon.web.renderproc`); no: in the server's process;
``AGON_ROOT_PATH``       the prefix the server is reached under behind a proxy (``/agon``;
                         ``--root-path``): links and redirects carry it;
``AGON_METRICS_TOKEN``   a bearer token that opens ``/metrics`` (Prometheus) besides the director's
                         login; ``AGON_METRICS_PORT``: serve the metrics on a port of their own
                         instead (``--metrics-port``), on ``AGON_METRICS_HOST`` (default
                         ``127.0.0.1``; ``--metrics-host``).
``AGON_PLAY_CLOCK_SCALE`` the online games' per-turn clocks' seconds are multiplied by this
                         (default 1; tests make the clocks tiny); ``AGON_PLAY_TURNS_PER_MINUTE``
                         "My games" asks (``POST /api/play/turns``) one address may make per minute.
``AGON_PLAY_COMMIT_DELAY_MS`` how long an online move's commit may wait for other games' moves to
                         share its disk flush (default 0: never), only while at least
                         ``AGON_PLAY_COMMIT_SIBLINGS`` games (default 4) stored moves in the last
                         second (:mod:`agon.play.writer`).

A new setting is one field of :class:`WebSettings` (its variable is ``AGON_`` + the name in
capitals) and one line in :data:`EXPECTS` (what the error line says it takes).
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from agon.errors import InvalidInput
from agon.store.db import DEFAULT_URL, database_url

#: A trusted proxy: one address (a network of one) or a CIDR range.
ProxyNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

ENV_PREFIX = "AGON_"
#: The online moves' commit delay and the games that must be active for it (docs/web.md).
PLAY_COMMIT_DELAY_MS = 0.0  # off: at idle it saved no CPU and added 10 ms (docs/web.md)
PLAY_COMMIT_SIBLINGS = 4


class WebSettings(BaseSettings):
    """Everything :func:`agon.web.app.create_app` needs; ``director_password_hash`` is Argon2.

    Built directly (``WebSettings(database_url=...)``, tests) it reads no environment: only
    :func:`web_settings` does. Either way every value is checked (frozen afterwards;
    :meth:`replace` makes a checked copy)."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        frozen=True,
        env_ignore_empty=True,
        extra="forbid",
        validate_by_name=True,
    )

    database_url: str = DEFAULT_URL
    secret_key: str | None = None
    #: The key file (``None``: :func:`agon.web.secret.secret_file`'s default).
    secret_file: str | None = None
    #: Proxies whose ``X-Forwarded-For`` is believed (none unless configured): addresses or ranges.
    trusted_proxies: Annotated[frozenset[ProxyNetwork], NoDecode] = frozenset()
    #: The plain password (``AGON_DIRECTOR_PASSWORD``): :func:`web_settings` hashes it into
    #: :attr:`director_password_hash` and drops it.
    director_password: SecretStr | None = Field(default=None, exclude=True, repr=False)
    director_password_hash: str | None = None
    public_url: str = "http://127.0.0.1:8000"
    secure_cookies: bool = False
    #: Failed PIN tries a client may make per table within :attr:`pin_window_seconds`.
    pin_attempts: int = Field(default=8, ge=1)
    pin_window_seconds: int = Field(default=600, ge=1)
    #: Failed PIN and player-code tries a client may make over ALL tables per window.
    pin_attempts_per_address: int = Field(default=30, ge=1)
    #: How long SQLite waits for a busy database before giving up.
    busy_timeout_ms: int = Field(default=30_000, ge=0)
    #: Series files whose standings the public pages show (``/series/<file name>``).
    series_files: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(), validation_alias=AliasChoices("series_files", "agon_series")
    )
    #: Online games (``POST /api/play``) one client address may create per hour.
    play_games_per_hour: int = Field(default=60, ge=0)
    #: Online registrations (the public form and API) one client address may send per hour.
    registrations_per_hour: int = Field(default=20, ge=0)
    #: How often the server brings tournament tables played online up to date (seconds).
    online_sweep_seconds: float = Field(default=5.0, gt=0, allow_inf_nan=False)
    #: The largest request body, and that of a players' CSV import (:mod:`agon.web.bodylimit`).
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024)
    max_import_bytes: int = Field(default=8 * 1024 * 1024, ge=1024)
    #: Event streams one client address may hold open in this process (:mod:`agon.web.streams`).
    streams_per_address: int = Field(default=32, ge=1)
    #: What the server logs (:mod:`agon.web.logs`): the level, text or JSON lines, requests.
    log_level: Literal["debug", "info", "warning", "error"] = "warning"
    log_format: Literal["text", "json"] = "text"
    access_log: bool = False
    #: The standings pages a write changes are rendered in a process of their own
    #: (:mod:`agon.web.renderproc`); no: in the writing thread, as before.
    render_process: bool = True
    #: The prefix behind a proxy (``/agon``; ``""``: none), :mod:`agon.web.proxy`.
    root_path: str = ""
    #: A bearer token that opens ``/metrics`` (:mod:`agon.web.metrics`); the director may too.
    metrics_token: SecretStr | None = Field(default=None, repr=False)
    #: The metrics on a port of their own (``None``: at ``/metrics`` of the app).
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    #: The address that port listens on: loopback unless told (it asks no login).
    metrics_host: str = "127.0.0.1"
    #: A mail server for invitation and reset links (``None``: the links are only shown).
    smtp_url: str | None = None
    #: The per-turn clocks' seconds are multiplied by this (:mod:`agon.play.clocks`).
    play_clock_scale: float = Field(default=1.0, ge=0.001, le=100, allow_inf_nan=False)
    #: "My games" asks one client address may make per minute (``POST /api/play/turns``).
    play_turns_per_minute: int = Field(default=30, ge=1)
    #: Milliseconds an online move's commit may wait for other games' moves to share its flush
    #: (:mod:`agon.play.writer`; 0: none), while at least :attr:`play_commit_siblings` games
    #: stored moves in the last second.
    play_commit_delay_ms: float = Field(
        default=PLAY_COMMIT_DELAY_MS, ge=0, le=50, allow_inf_nan=False
    )
    play_commit_siblings: int = Field(default=PLAY_COMMIT_SIBLINGS, ge=1)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only what is handed in: :func:`web_settings` reads the environment."""
        return (init_settings,)

    @field_validator("smtp_url")
    @classmethod
    def _smtp(cls, value: str | None) -> str | None:
        from agon.web.mail import check_smtp_url

        return None if value is None else check_smtp_url(value)

    @field_validator("database_url")
    @classmethod
    def _database(cls, value: str) -> str:
        try:
            database_url(value)
        except InvalidInput as exc:
            raise ValueError(str(exc)) from None
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _proxies(cls, value: Any) -> Any:
        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, Iterable):
            return value
        networks = set()
        for item in items:
            if isinstance(item, ProxyNetwork):
                networks.add(item)
                continue
            text = str(item).strip()
            if not text:
                continue
            try:
                networks.add(ipaddress.ip_network(text, strict=False))
            except ValueError:
                raise ValueError(f"{text[:60]!r} is not an address or CIDR range") from None
        return frozenset(networks)

    @field_validator("series_files", mode="before")
    @classmethod
    def _series(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(p for p in value.split(os.pathsep) if p.strip())
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str) -> str:
        from urllib.parse import urlsplit

        url = value.strip().rstrip("/")
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018  (a port that is not a number raises here)
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{value[:60]!r} is not an http:// or https:// address")
        return url

    @field_validator("log_level", "log_format", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("root_path")
    @classmethod
    def _root_path(cls, value: str) -> str:
        path = value.strip().rstrip("/")
        if not path:
            return ""
        if not re.fullmatch(r"(/[A-Za-z0-9._~-]+)+", path) or "/." in path:
            raise ValueError(f"{value[:60]!r} is not a path prefix")
        return path

    @field_validator("metrics_host")
    @classmethod
    def _metrics_host(cls, value: str) -> str:
        try:
            return str(ipaddress.ip_address(value.strip()))
        except ValueError:
            raise ValueError(f"{value[:60]!r} is not an IP address") from None

    def replace(self, **changes: Any) -> WebSettings:
        """A copy with ``changes``, checked like the original."""
        values = {name: getattr(self, name) for name in type(self).model_fields}
        try:
            return type(self).model_validate({**values, **changes})
        except ValidationError as exc:
            raise settings_error(exc) from None


#: What each setting takes, for the error line (a field missing here gets pydantic's message).
EXPECTS: dict[str, str] = {
    "database_url": "a database URL: sqlite:///PATH or postgresql+psycopg://USER@HOST/NAME",
    "trusted_proxies": "IP addresses or CIDR ranges, comma-separated (e.g. 10.0.0.0/8,192.0.2.7)",
    "public_url": "the address the phones use, http://HOST[:PORT] or https://HOST[:PORT]",
    "secure_cookies": "yes or no: 1/0, true/false, yes/no, on/off (any case)",
    "pin_attempts": "a whole number of at least 1",
    "pin_window_seconds": "a whole number of seconds, at least 1",
    "busy_timeout_ms": "a whole number of milliseconds, 0 or more",
    "play_games_per_hour": "a whole number, 0 or more",
    "registrations_per_hour": "a whole number, 0 or more",
    "online_sweep_seconds": "a number of seconds greater than 0",
    "pin_attempts_per_address": "a whole number of at least 1",
    "max_body_bytes": "a whole number of bytes, at least 1024",
    "max_import_bytes": "a whole number of bytes, at least 1024",
    "streams_per_address": "a whole number of at least 1",
    "log_level": "debug, info, warning or error",
    "log_format": "text or json",
    "access_log": "yes or no: 1/0, true/false, yes/no, on/off (any case)",
    "render_process": "yes or no: 1/0, true/false, yes/no, on/off (any case)",
    "root_path": "a path prefix such as /agon (letters, digits, - _ . / only), or nothing",
    "metrics_token": "a token (any text)",
    "metrics_port": "a port number, 1 to 65535",
    "metrics_host": "an IP address to listen on, e.g. 127.0.0.1 or 0.0.0.0",
    "smtp_url": "smtp://[USER:PASSWORD@]HOST[:PORT][?from=ADDRESS] or smtps://…",
    "play_clock_scale": "a number from 0.001 to 100",
    "play_turns_per_minute": "a whole number of at least 1",
    "play_commit_delay_ms": "a number of milliseconds from 0 to 50",
    "play_commit_siblings": "a whole number of at least 1",
}


#: Settings whose variable is not ``AGON_`` + the field's name (kept as they always were).
ENV_NAMES = {"series_files": "AGON_SERIES"}


def env_name(field: str) -> str:
    """The environment variable of the setting ``field`` (or of its alias, as errors name it)."""
    if field.startswith(ENV_PREFIX.lower()):
        return field.upper()
    return ENV_NAMES.get(field, ENV_PREFIX + field.upper())


def settings_error(exc: ValidationError) -> InvalidInput:
    """One line for every setting that is wrong: its variable, what was given, what it takes."""
    problems = []
    for error in exc.errors(include_url=False):
        field = str(error["loc"][0]) if error["loc"] else ""
        given = error.get("input")
        shown = f"={str(given)[:60]!r}" if isinstance(given, str | int | float) else ""
        reason = str(error.get("msg", "")).removeprefix("Value error, ")
        expects = EXPECTS.get(field)
        detail = f"{reason}; expects {expects}" if expects else reason
        problems.append(f"{env_name(field)}{shown}: {detail}")
    return InvalidInput("; ".join(problems) or "the settings are not valid")


class _MappingEnvironment(EnvSettingsSource):
    """The ``AGON_`` variables of a given mapping, read as pydantic-settings reads the process's
    environment (tests hand one in)."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._environ = environ
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return {
            (name if self.case_sensitive else name.lower()): value
            for name, value in self._environ.items()
            if not (self.env_ignore_empty and value == "")
        }


def web_settings(environ: Mapping[str, str] | None = None) -> WebSettings:
    """Settings from the environment (see the module docstring); the password is hashed here.

    Raises:
        InvalidInput: a setting holds junk (one line naming its variable and what it takes).
    """
    source = (
        EnvSettingsSource(WebSettings)
        if environ is None
        else _MappingEnvironment(WebSettings, environ)
    )
    try:
        settings = WebSettings(**source())
    except ValidationError as exc:
        raise settings_error(exc) from None
    if settings.director_password_hash is None and settings.director_password is not None:
        from agon.web.security import hash_password

        password = settings.director_password.get_secret_value()
        settings = settings.replace(director_password_hash=hash_password(password))
    return settings.replace(director_password=None)
