"""``agon serve``: run the web app with uvicorn (optionally with a demo tournament)."""

from __future__ import annotations

import dataclasses
import os
import secrets

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--database", metavar="URL", help="Database URL (default: AGON_DATABASE_URL).")
@click.option("--demo", is_flag=True, help="Create the demo tournament 'demo' if it is missing.")
def serve(host: str, port: int, database: str | None, demo: bool) -> None:
    """Serve the director's desk, the table pages and the public standings.

    The director's password comes from AGON_DIRECTOR_PASSWORD; without it a random one is made
    for this run and printed here.
    """
    import uvicorn

    from agon.web.app import create_app
    from agon.web.security import hash_password
    from agon.web.settings import web_settings

    settings = web_settings()
    if database:
        settings = dataclasses.replace(settings, database_url=database)
    if settings.director_password_hash is None:
        password = secrets.token_urlsafe(9)
        settings = dataclasses.replace(settings, director_password_hash=hash_password(password))
        click.echo(f"director password for this run: {password}  (set AGON_DIRECTOR_PASSWORD)")
    if "AGON_PUBLIC_URL" not in os.environ:
        if host in ("0.0.0.0", "::"):
            click.echo(
                "set AGON_PUBLIC_URL to the address the phones use (e.g. http://192.168.1.20:8000):"
                " the score sheets' QR codes carry it",
                err=True,
            )
        else:
            settings = dataclasses.replace(settings, public_url=f"http://{host}:{port}")
    app = create_app(settings)
    if demo:
        from agon.web.demo import DEMO_SLUG, create_demo

        with app.state.web.sessions() as session:
            created = create_demo(session)
        click.echo(f"demo tournament {'created' if created else 'present'}: /p/{DEMO_SLUG}")
    click.echo(f"agon: http://{host}:{port}/  (desk: /desk)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
