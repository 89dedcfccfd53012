"""``agon serve``: run the web app with uvicorn (optionally with a demo tournament);
``agon secret``: where the app's secret key lives, and rotating it."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import click

#: Seconds a stopping server (Ctrl-C, SIGTERM) waits for open connections before it closes them:
#: a phone's event stream never ends by itself, and without a bound uvicorn waits for it forever.
SHUTDOWN_GRACE = 3

#: How ``agon serve`` runs uvicorn. ``X-Forwarded-For`` is read by the app itself, and only from
#: ``AGON_TRUSTED_PROXIES``: uvicorn's own proxy support would believe it from 127.0.0.1 and let
#: any client choose the address the login and PIN limits count.
#: Uvicorn's access log is off: agon's own (``--access-log``, :mod:`agon.web.logs`) redacts tokens.
UVICORN_OPTIONS: dict[str, Any] = {
    "proxy_headers": False,
    "access_log": False,
    "timeout_graceful_shutdown": SHUTDOWN_GRACE,
}
LOG_LEVELS = ("debug", "info", "warning", "error")


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--database", metavar="URL", help="Database URL (default: AGON_DATABASE_URL).")
@click.option("--demo", is_flag=True, help="Create the demo tournament 'demo' if it is missing.")
@click.option(
    "--series",
    "series_files",
    multiple=True,
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="A series file whose standings /series shows (repeatable; also AGON_SERIES).",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Worker processes (more than one needs PostgreSQL: online games reach every worker "
    "through LISTEN/NOTIFY).",
)
@click.option(
    "--log-level",
    type=click.Choice(LOG_LEVELS, case_sensitive=False),
    help="What the server logs (default: AGON_LOG_LEVEL, else warning).",
)
@click.option(
    "--log-format",
    type=click.Choice(("text", "json"), case_sensitive=False),
    help="Log lines as text or one JSON object per line (default: AGON_LOG_FORMAT, else text).",
)
@click.option(
    "--access-log",
    is_flag=True,
    default=None,
    help="Log one line per request at info (tokens in URLs redacted; also AGON_ACCESS_LOG).",
)
@click.option(
    "--root-path",
    metavar="PREFIX",
    help="Served behind a proxy under PREFIX (e.g. /agon): links and redirects carry it "
    "(also AGON_ROOT_PATH).",
)
@click.option(
    "--metrics-port",
    type=click.IntRange(1, 65535),
    help="Serve the Prometheus metrics on this port of their own, without a login (also "
    "AGON_METRICS_PORT); else they are at /metrics for the director or AGON_METRICS_TOKEN.",
)
@click.option(
    "--metrics-host",
    metavar="ADDRESS",
    help="The address --metrics-port listens on (default: AGON_METRICS_HOST, else 127.0.0.1: "
    "the metrics ask no login there).",
)
def serve(
    host: str,
    port: int,
    database: str | None,
    demo: bool,
    series_files: tuple[str, ...],
    workers: int,
    log_level: str | None,
    log_format: str | None,
    access_log: bool | None,
    root_path: str | None,
    metrics_port: int | None,
    metrics_host: str | None,
) -> None:
    """Serve the director's desk, the table pages, the public standings and online games.

    The director's password comes from AGON_DIRECTOR_PASSWORD; without it a random one is made
    for this run and printed here. Each --series FILE gets a public page /series/NAME (NAME: the
    file's name without .toml).
    """
    import uvicorn

    from agon.store.db import database_url
    from agon.web.app import create_app
    from agon.web.security import hash_password
    from agon.web.settings import web_settings

    settings = web_settings()
    if database:
        database_url(database)  # a bad --database is named as such
        settings = settings.replace(database_url=database)
    if series_files:
        settings = settings.replace(series_files=(*settings.series_files, *series_files))
    given = {
        "log_level": log_level,
        "log_format": log_format,
        "access_log": access_log,
        "root_path": root_path,
        "metrics_port": metrics_port,
        "metrics_host": metrics_host,
    }
    settings = settings.replace(**{k: v for k, v in given.items() if v is not None})
    if settings.metrics_port == port:
        from agon.errors import InvalidInput

        raise InvalidInput(f"--metrics-port {port}: the app listens there; choose another port")
    if settings.director_password_hash is None:
        password = secrets.token_urlsafe(9)
        settings = settings.replace(director_password_hash=hash_password(password))
        click.echo(f"director password for this run: {password}  (set AGON_DIRECTOR_PASSWORD)")
    if "AGON_PUBLIC_URL" not in os.environ:
        if host in ("0.0.0.0", "::"):
            click.echo(
                "set AGON_PUBLIC_URL to the address the phones use (e.g. http://192.168.1.20:8000):"
                " the score sheets' QR codes carry it",
                err=True,
            )
        else:
            settings = settings.replace(public_url=f"http://{host}:{port}")
    if workers > 1:
        _serve_workers(settings, host, port, workers, demo)
        return
    from agon.store.db import missing_database

    new = missing_database(settings.database_url)
    app = create_app(settings)
    if new is not None:
        click.echo(f"agon: created database {new}", err=True)
    if demo:
        from agon.web.demo import DEMO_SLUG, create_demo

        with app.state.web.sessions() as session:
            created = create_demo(session)
        click.echo(f"demo tournament {'created' if created else 'present'}: /p/{DEMO_SLUG}")
    for slug in app.state.series_files:
        click.echo(f"series: /series/{slug}")
    shown = f"http://{host}:{port}{settings.root_path}/"
    click.echo(f"agon: {shown}  (desk: {settings.root_path}/desk)")
    if settings.metrics_port is not None:
        from agon.web.metrics import serve_metrics_port

        where = settings.metrics_host
        serve_metrics_port(settings.metrics_port, where, app.state.web.sessions)
        click.echo(f"metrics: http://{where}:{settings.metrics_port}/metrics")
    uvicorn.run(app, host=host, port=port, **_log_options(settings), **UVICORN_OPTIONS)


def _log_options(settings: Any) -> dict[str, Any]:
    """Uvicorn's logging as the settings say (:func:`agon.web.logs.logging_config`)."""
    from agon.web.logs import logging_config

    return {
        "log_level": settings.log_level,
        "log_config": logging_config(settings.log_level, settings.log_format),
    }


def _serve_workers(settings: Any, host: str, port: int, workers: int, demo: bool) -> None:
    """Run ``workers`` processes of the app; each builds it from the environment set here."""
    import uvicorn

    from agon.errors import InvalidInput
    from agon.store.db import database_url

    if database_url(settings.database_url).get_backend_name() != "postgresql":
        raise InvalidInput(
            f"--workers {workers}: several workers need PostgreSQL (--database "
            "postgresql+psycopg://...); on SQLite run one worker"
        )
    if demo:
        raise InvalidInput("--demo: create the demo with one worker first, then add --workers")
    os.environ["AGON_DATABASE_URL"] = settings.database_url
    os.environ["AGON_PUBLIC_URL"] = settings.public_url
    if settings.director_password_hash is not None:
        os.environ["AGON_DIRECTOR_PASSWORD_HASH"] = settings.director_password_hash
    if settings.series_files:  # --series reaches every worker through the environment
        os.environ["AGON_SERIES"] = os.pathsep.join(settings.series_files)
    os.environ["AGON_LOG_LEVEL"] = settings.log_level
    os.environ["AGON_LOG_FORMAT"] = settings.log_format
    os.environ["AGON_ACCESS_LOG"] = "1" if settings.access_log else "0"
    os.environ["AGON_ROOT_PATH"] = settings.root_path
    os.environ["AGON_SERVE_WORKER"] = "1"  # agon.web.app.WORKER_ENV: wait for the database
    _multiprocess_metrics()
    click.echo(f"agon: http://{host}:{port}{settings.root_path}/  (desk: /desk), {workers} workers")
    if settings.metrics_port is not None:
        from agon.store.db import Settings, make_engine, make_session_factory
        from agon.web.metrics import serve_metrics_port

        sessions = make_session_factory(make_engine(Settings(database_url=settings.database_url)))
        where = settings.metrics_host
        serve_metrics_port(settings.metrics_port, where, sessions)
        click.echo(f"metrics: http://{where}:{settings.metrics_port}/metrics (all workers)")
    uvicorn.run(
        "agon.web.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        **_log_options(settings),
        **UVICORN_OPTIONS,
    )


def _multiprocess_metrics() -> None:
    """Several workers count their metrics in one directory (prometheus-client's multiprocess
    mode): a fresh one made here, removed at exit, unless PROMETHEUS_MULTIPROC_DIR names one."""
    from agon.web.metrics import MULTIPROC_ENV

    if os.environ.get(MULTIPROC_ENV):
        return
    import atexit
    import shutil
    import tempfile

    path = tempfile.mkdtemp(prefix="agon-metrics-")
    atexit.register(shutil.rmtree, path, True)
    os.environ[MULTIPROC_ENV] = path


@click.group("secret")
def secret_group() -> None:
    """The secret key that signs director sessions and derives the table PINs.

    It lives in AGON_SECRET_KEY or in a key file of its own (AGON_SECRET_FILE, default next to
    the SQLite database: ./var/agon.key), never in the database.
    """


def _key_location(database: str | None) -> tuple[str, Path]:
    from agon.web.secret import secret_file
    from agon.web.settings import web_settings

    settings = web_settings()
    url = database or settings.database_url
    return url, secret_file(url, settings.secret_file)


@secret_group.command("path")
@click.option("--database", metavar="URL", help="Database URL (default: AGON_DATABASE_URL).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (docs/cli.md).")
def secret_path(database: str | None, as_json: bool) -> None:
    """Print where the key file is (whether or not it exists yet)."""
    _url, path = _key_location(database)
    if as_json:
        import json

        doc = {"path": str(path), "exists": path.exists(), "from_environment": _from_env()}
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    click.echo(str(path))


def _from_env() -> bool:
    """Whether AGON_SECRET_KEY sets the key (then the file is not used)."""
    return bool(os.environ.get("AGON_SECRET_KEY"))


@secret_group.command("rotate")
@click.option("--database", metavar="URL", help="Database URL (default: AGON_DATABASE_URL).")
def secret_rotate(database: str | None) -> None:
    """Write a new secret key: every director is logged out and every table PIN changes.

    Restart `agon serve` afterwards, and reprint the score sheets and table cards of a round
    that is running (their PINs and QR codes no longer unlock the tables).
    """
    from agon.errors import InvalidInput
    from agon.store.db import make_session_factory, open_engine
    from agon.store.migrate import ensure_current
    from agon.web.secret import pop_legacy_secret, rotate_secret

    if os.environ.get("AGON_SECRET_KEY"):
        raise InvalidInput(
            "AGON_SECRET_KEY is set: the key comes from the environment; set a new value there"
        )
    url, path = _key_location(database)
    engine, new = open_engine(url, create=True)
    try:
        ensure_current(engine)
        if new is not None:
            click.echo(f"agon: created database {new}", err=True)
        sessions = make_session_factory(engine)
        pop_legacy_secret(engine, sessions)
        rotate_secret(path, sessions)
    finally:
        engine.dispose()
    click.echo(f"new secret key written to {path} (mode 0600); director sessions closed")
    click.echo(
        "table PINs have changed: restart `agon serve` and reprint the score sheets and "
        "table cards of any running round"
    )


@click.group("desk")
def desk_group() -> None:
    """The director's desk (the web app's /desk) from the machine that runs agon."""


@desk_group.command("link")
@click.option("--database", metavar="URL", help="Database URL (default: AGON_DATABASE_URL).")
@click.option(
    "--base-url",
    metavar="URL",
    help="The address the browser reaches the server at (default: AGON_PUBLIC_URL, else "
    "http://127.0.0.1:8000).",
)
@click.option(
    "--minutes",
    default=10,
    show_default=True,
    type=click.IntRange(1, 24 * 60),
    help="How long the link lasts (it works once).",
)
def desk_link(database: str | None, base_url: str | None, minutes: int) -> None:
    """Print a one-time login link to the desk, valid for --minutes.

    Opening it logs the browser in as the director, without the password and past any limit
    on wrong passwords (e.g. when guessers at the venue's shared address locked the login).
    Anyone with the link can use it once: hand it over in person, not in a public chat.
    """
    from urllib.parse import urlsplit

    from agon.errors import InvalidInput
    from agon.store.db import Settings, make_engine
    from agon.store.migrate import ensure_current
    from agon.web.loginlinks import LINK_PATH, create_link
    from agon.web.settings import web_settings

    settings = web_settings()
    base = (base_url or settings.public_url).strip().rstrip("/")
    try:
        parts = urlsplit(base)
        usable = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:  # e.g. "http://[" or a port that is no number
        usable = False
    if not usable or parts.query or parts.fragment or any(c.isspace() for c in base):
        shown = base if len(base) <= 60 else base[:57] + "..."
        raise InvalidInput(
            f"--base-url {shown!r}: give the server's address, e.g. http://host:8000"
        )
    engine = make_engine(Settings(database_url=database or settings.database_url))
    try:
        ensure_current(engine)
        token = create_link(engine, minutes=minutes)
    finally:
        engine.dispose()
    click.echo(f"{base}{LINK_PATH}{token}")
    click.echo(f"valid once, for {minutes} minutes", err=True)
