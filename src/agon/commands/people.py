"""``agon user`` and ``agon org``: people, their roles, organisations (issue 27).

Other tools rely on these exact forms::

    agon user create EMAIL --name NAME [--admin] [--password-file FILE]
    agon user grant EMAIL --tournament SLUG --role director|referee|scorekeeper
    agon user grant EMAIL --organisation ORG --role organiser
    agon user revoke EMAIL (--tournament SLUG | --organisation ORG) --role ROLE
    agon user list [--json]
    agon user reset-link EMAIL
    agon org create SLUG --name NAME
    agon org attach ORG --tournament SLUG
    agon org list [--json]

Bad input is one line and exit code 2; a taken e-mail or organisation exit code 3.
"""

from __future__ import annotations

from pathlib import Path

import click

from agon.commands._common import open_session
from agon.commands._json import echo_json, json_option
from agon.errors import InvalidInput

#: The most a password file may hold (a password is at most 500 characters).
PASSWORD_FILE_BYTES = 4096


@click.group("user")
def user_group() -> None:
    """People who log in to the web app, and their roles."""


def _read_password(path: Path | None) -> str:
    """The password from FILE (its first line), else asked twice at a hidden prompt."""
    if path is None:
        answer: str = click.prompt("password", hide_input=True, confirmation_prompt=True)
        return answer
    from agon.tournament.safeload import read_text

    text = read_text(path, what="password file", limit=PASSWORD_FILE_BYTES)
    lines = text.splitlines()
    if not lines or not lines[0]:
        raise InvalidInput(f"{path}: the password file is empty (the first line is the password)")
    return lines[0]


@user_group.command("create")
@click.argument("email")
@click.option("--name", required=True, help="The person's name (shown in the journal).")
@click.option("--admin", is_flag=True, help="The server's admin (organisations, resets).")
@click.option(
    "--password-file",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Read the password from FILE's first line (else a prompt asks for it).",
)
def create_command(email: str, name: str, admin: bool, password_file: Path | None) -> None:
    """Create the account EMAIL (from then on the desk asks for an e-mail and a password)."""
    from agon.people.emails import check_email
    from agon.services import people
    from agon.tournament.names import check_name

    check_email(email)
    check_name(name, what="--name")
    password = people.check_password(_read_password(password_file))
    with open_session(create=True) as session:
        person = people.create_account(
            session, email=email, name=name, password=password, admin=admin
        )
    click.echo(f"created {person.email} ({person.name}{', admin' if person.admin else ''})")


def _scope(tournament: str | None, organisation: str | None) -> tuple[object, str]:
    from agon.people.roles import Scope

    if (tournament is None) == (organisation is None):
        raise InvalidInput("give exactly one of --tournament SLUG and --organisation ORG")
    if tournament is not None:
        return Scope.TOURNAMENT, tournament
    assert organisation is not None
    return Scope.ORGANISATION, organisation


def _role_options(fn: click.decorators.FC) -> click.decorators.FC:
    fn = click.option("--role", required=True, help="director|referee|scorekeeper, or organiser.")(
        fn
    )
    fn = click.option("--organisation", metavar="ORG", help="An organisation (role organiser).")(fn)
    fn = click.option("--tournament", metavar="SLUG", help="A tournament (director, referee, …).")(
        fn
    )
    return click.argument("email")(fn)


@user_group.command("grant")
@_role_options
def grant_command(email: str, tournament: str | None, organisation: str | None, role: str) -> None:
    """Give EMAIL a role in a tournament or an organisation (replacing the role held there)."""
    _change_role(email, tournament, organisation, role, grant=True)


@user_group.command("revoke")
@_role_options
def revoke_command(email: str, tournament: str | None, organisation: str | None, role: str) -> None:
    """Take a role in a tournament or an organisation from EMAIL."""
    _change_role(email, tournament, organisation, role, grant=False)


def _change_role(
    email: str, tournament: str | None, organisation: str | None, role: str, *, grant: bool
) -> None:
    """``grant`` and ``revoke``: the role's scope from the options, the change, one line."""
    from agon.people.roles import Scope
    from agon.services import people

    scope, target = _scope(tournament, organisation)
    assert isinstance(scope, Scope)
    change = people.grant if grant else people.revoke
    with open_session() as session:
        person = change(session, email=email, role=role, scope=scope, target=target)
    held = role if grant else f"no longer {role}"
    click.echo(f"{person.email}: {held} of {scope.value} {target}")


@user_group.command("list")
@json_option
def list_command(as_json: bool) -> None:
    """Every account with its roles."""
    from agon.services import people

    with open_session() as session:
        found = people.list_accounts(session)
    rows = [
        {
            "email": p.email,
            "name": p.name,
            "admin": p.admin,
            "roles": [
                {"role": g.role.value, "scope": g.scope.value, "target": g.target}
                for g in p.grants
                if g.target
            ],
        }
        for p in found
    ]
    if as_json:
        echo_json({"users": rows})
        return
    for row in rows:
        roles = ", ".join(f"{r['role']} of {r['target']}" for r in row["roles"])  # type: ignore[attr-defined]
        admin = " admin" if row["admin"] else ""
        click.echo(f"{row['email']}\t{row['name']}{admin}\t{roles}")


@user_group.command("reset-link")
@click.argument("email")
@click.option("--minutes", default=24 * 60, show_default=True, type=click.IntRange(1, 30 * 24 * 60))
def reset_link_command(email: str, minutes: int) -> None:
    """Print a one-time link that sets a new password for EMAIL (AGON_PUBLIC_URL is its host)."""
    from agon.services import people
    from agon.web.settings import web_settings

    base = web_settings().public_url.rstrip("/")
    with open_session() as session:
        token = people.create_reset(session, email=email, minutes=minutes)
    click.echo(f"{base}{people.RESET_PATH}{token}")
    click.echo(f"valid once, for {minutes} minutes", err=True)


@click.group("org")
def org_group() -> None:
    """Organisations (clubs, federations): their tournaments and organisers."""


@org_group.command("create")
@click.argument("slug")
@click.option("--name", required=True, help="The organisation's name.")
def org_create_command(slug: str, name: str) -> None:
    """Create the organisation SLUG."""
    from agon.services import people

    with open_session(create=True) as session:
        row = people.create_organisation(session, slug=slug, name=name)
        click.echo(f"created organisation {row.slug} ({row.name})")


@org_group.command("attach")
@click.argument("organisation", metavar="ORG")
@click.option("--tournament", metavar="SLUG", required=True, help="The tournament.")
def org_attach_command(organisation: str, tournament: str) -> None:
    """The tournament SLUG belongs to ORG from now on (its organisers run it)."""
    from agon.services import people

    with open_session() as session:
        people.attach_tournament(session, tournament=tournament, organisation=organisation)
    click.echo(f"{tournament}: belongs to {organisation}")


@org_group.command("list")
@json_option
def org_list_command(as_json: bool) -> None:
    """Every organisation with its tournaments."""
    from agon.services import people

    with open_session() as session:
        rows = [
            {"slug": o.slug, "name": o.name, "tournaments": people.tournaments_of(session, o.slug)}
            for o in people.list_organisations(session)
        ]
    if as_json:
        echo_json({"organisations": rows})
        return
    for row in rows:
        click.echo(f"{row['slug']}\t{row['name']}\t{', '.join(row['tournaments'])}")
