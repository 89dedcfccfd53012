"""``agon registration …``: open and close a tournament's online registration, list it, check in."""

from __future__ import annotations

import click

from agon.commands._common import actor_option, open_session
from agon.commands._json import echo_json, json_option, jsonable
from agon.commands.tournament import _parse_time
from agon.errors import InvalidInput
from agon.services import registration
from agon.services.registration import Registrant, RegistrationPublic


def _summary(r: RegistrationPublic) -> str:
    state = "open" if r.accepting else "closed"
    deadline = f", deadline {r.deadline:%Y-%m-%d %H:%M %Z}" if r.deadline else ""
    return (
        f"{r.tournament}: registration {state}{deadline}; {r.taken}/{r.capacity} places taken, "
        f"{r.waiting} waiting; public names: {r.public_names}"
    )


def _line(r: Registrant) -> str:
    status = (
        f"waiting, position {r.position}" if r.status == "waiting" else r.status.replace("_", " ")
    )
    tag = f" ({r.tag})" if r.tag else ""
    return f"{r.number}.  {r.name}{tag}  <{r.email}>  [{status}]"


@click.group("registration")
def registration_group() -> None:
    """Online registration before the day: capacity, waiting list, deadline, check-in."""


@registration_group.command("open")
@click.argument("slug")
@click.option("--capacity", type=int, required=True, help="The most players who get a place.")
@click.option("--deadline", help="Registration closes then: ISO time with zone, or +2d, +12h.")
@click.option("--fee-note", default="", help="What the form says about the entry fee.")
@click.option(
    "--public-names",
    type=click.Choice(["full", "initials"]),
    default="full",
    show_default=True,
    help="How the public list shows the registrants' names.",
)
@actor_option
def open_command(
    slug: str,
    capacity: int,
    deadline: str | None,
    fee_note: str,
    public_names: str,
    actor: str,
) -> None:
    """Open (or change) the online registration of tournament SLUG."""
    with open_session() as session:
        found = registration.open_registration(
            session,
            tournament=slug,
            capacity=capacity,
            deadline=_parse_time(deadline, option="--deadline"),
            fee_note=fee_note,
            public_names=public_names,
            actor=actor,
        )
    click.echo(_summary(found))
    click.echo(f"form: /register/{slug}")


@registration_group.command("close")
@click.argument("slug")
@actor_option
def close_command(slug: str, actor: str) -> None:
    """Close the online registration of SLUG (the registrants stay, check-in works)."""
    with open_session() as session:
        click.echo(_summary(registration.close_registration(session, tournament=slug, actor=actor)))


@registration_group.command("add")
@click.argument("slug")
@click.argument("name")
@click.option("--email", required=True, help="Their e-mail (seen by the desk only).")
@click.option("--tag", help="Club or city, to tell apart two of the same name.")
@actor_option
def add_command(slug: str, name: str, email: str, tag: str | None, actor: str) -> None:
    """Register NAME for SLUG as the form does (someone who phoned): a place or the waiting list."""
    with open_session() as session:
        done = registration.register(
            session, tournament=slug, name=name, email=email, tag=tag, actor=actor
        )
    click.echo(_line(done.registrant))
    click.echo(f"private link: /register/{slug}/me/{done.token}")


@registration_group.command("list")
@click.argument("slug")
@json_option
def list_command(slug: str, as_json: bool) -> None:
    """Everyone who registered online for SLUG, in order, with e-mail and status."""
    with open_session() as session:
        found = registration.get_registration(session, tournament=slug)
        people = registration.list_registrants(session, tournament=slug)
    if as_json:
        echo_json({"registration": jsonable(found), "registrants": jsonable(people)})
        return
    click.echo(_summary(found))
    for r in people:
        click.echo(_line(r))


@registration_group.command("check-in")
@click.argument("slug")
@click.argument("numbers", nargs=-1, type=int)
@click.option("--all", "everyone", is_flag=True, help="Everyone registered (not waiting).")
@click.option("--paid", is_flag=True, help="They paid the entry fee at the desk.")
@click.option("--late", is_flag=True, help="After the check-in deadline: late entries.")
@actor_option
def checkin_command(
    slug: str, numbers: tuple[int, ...], everyone: bool, paid: bool, late: bool, actor: str
) -> None:
    """Check in registrants NUMBERS (as `list` shows them) of SLUG: they become players."""
    if everyone == bool(numbers):
        raise InvalidInput("name the registrants' numbers to check in, or give --all (not both)")
    with open_session() as session:
        chosen = list(numbers) or registration.to_check_in(session, tournament=slug)
        if not chosen:
            raise InvalidInput(f"tournament {slug!r}: nobody registered is left to check in")
        done = registration.check_in(
            session, tournament=slug, numbers=chosen, late=late, fee_paid=paid, actor=actor
        )
    for p in done:
        click.echo(f"checked in: {p.name}")
