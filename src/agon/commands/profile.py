"""``agon profile …``: player profiles across events — list, create, suggest, link, unlink, hide,
and a profile's page (events, places, rating history)."""

from __future__ import annotations

import click

from agon.commands._common import actor_option, open_session
from agon.commands._json import echo_json, json_option
from agon.errors import InvalidInput
from agon.services import profiles


def _line(p: profiles.ProfilePublic) -> str:
    tag = f" ({p.tag})" if p.tag else ""
    hidden = "  [hidden]" if p.hidden else ""
    return f"{p.id}  {p.name}{tag}{hidden}"


@click.group("profile")
def profile_group() -> None:
    """Player profiles: one person across events (ratings and series match by profile)."""


@profile_group.command("list")
@json_option
def list_command(as_json: bool) -> None:
    """List every profile: id, name, tag, hidden or not."""
    with open_session() as session:
        items = profiles.list_profiles(session)
    if as_json:
        echo_json({"profiles": profiles.profiles_as_json(items)})
        return
    for p in items:
        click.echo(_line(p))
    if not items:
        click.echo("no profiles yet (agon profile create NAME, or agon profile link --new)")


@profile_group.command("create")
@click.argument("name")
@click.option("--tag", help="Club or city, as players are tagged.")
@json_option
def create_command(name: str, tag: str | None, as_json: bool) -> None:
    """Create a profile called NAME (its id is made from the name)."""
    with open_session() as session:
        made = profiles.create_profile(session, name=name, tag=tag)
    if as_json:
        echo_json({"profile": profiles.profiles_as_json([made])[0]})
        return
    click.echo("created " + _line(made))


@profile_group.command("suggest")
@click.argument("slug")
@click.argument("player")
@json_option
def suggest_command(slug: str, player: str, as_json: bool) -> None:
    """Profiles that may be PLAYER of tournament SLUG: similar names first, same tag preferred."""
    with open_session() as session:
        found = profiles.suggest_profiles(session, tournament=slug, player=player)
    if as_json:
        echo_json({"player": player, "suggestions": found})
        return
    for s in found:
        same = ", same tag" if s.same_tag else ""
        click.echo(f"{_line(s.profile)}  (similarity {s.score:.2f}{same})")
    if not found:
        click.echo(f"no profile looks like {player!r}; make one with --new")


@profile_group.command("link")
@click.argument("slug")
@click.argument("player")
@click.option("--profile", "profile", metavar="ID", help="The profile (see agon profile list).")
@click.option("--new", "new", is_flag=True, help="Create a profile from the player's name and tag.")
@actor_option
def link_command(slug: str, player: str, profile: str | None, new: bool, actor: str) -> None:
    """Link PLAYER of tournament SLUG to a profile (journaled: agon tournament undo takes it back)."""
    if (profile is None) == (not new):
        raise InvalidInput("give either --profile ID or --new")
    with open_session() as session:
        if new:
            made, _player = profiles.link_new_profile(
                session, tournament=slug, player=player, actor=actor
            )
            click.echo(f"created {_line(made)}")
            profile = made.id
        else:
            profiles.link_player(
                session, tournament=slug, player=player, profile=profile, actor=actor
            )
    click.echo(f"linked {player} ({slug}) to profile {profile}")


@profile_group.command("unlink")
@click.argument("slug")
@click.argument("player")
@actor_option
def unlink_command(slug: str, player: str, actor: str) -> None:
    """Remove PLAYER's link to a profile in tournament SLUG (journaled)."""
    with open_session() as session:
        profiles.link_player(session, tournament=slug, player=player, profile=None, actor=actor)
    click.echo(f"unlinked {player} ({slug})")


@profile_group.command("hide")
@click.argument("profile_id", metavar="ID")
@json_option
def hide_command(profile_id: str, as_json: bool) -> None:
    """Hide profile ID's public page (404 for the public; ratings still count the player)."""
    _set_hidden(profile_id, hidden=True, as_json=as_json)


@profile_group.command("unhide")
@click.argument("profile_id", metavar="ID")
@json_option
def unhide_command(profile_id: str, as_json: bool) -> None:
    """Show profile ID's public page again."""
    _set_hidden(profile_id, hidden=False, as_json=as_json)


def _set_hidden(profile_id: str, *, hidden: bool, as_json: bool) -> None:
    """``hide`` and ``unhide``: set the flag, print the profile."""
    with open_session() as session:
        p = profiles.set_hidden(session, profile=profile_id, hidden=hidden)
    if as_json:
        echo_json({"profile": profiles.profiles_as_json([p])[0]})
        return
    click.echo(("hidden " if hidden else "shown ") + _line(p))


@profile_group.command("show")
@click.argument("profile_id", metavar="ID")
@json_option
def show_command(profile_id: str, as_json: bool) -> None:
    """Profile ID's events (place of how many) and rating history over every tournament of the
    database, oldest first (hidden profiles too: this is the director's view)."""
    with open_session() as session:
        page = profiles.player_page(session, profile=profile_id, public=False)
    if as_json:
        echo_json(
            {
                "profile": profiles.profiles_as_json([page.profile])[0],
                "events": page.events,
                "history": [
                    {
                        "tournament": h.tournament,
                        "round": h.round,
                        "table": h.table,
                        "final": h.final,
                        "rank": h.rank,
                        "seats": h.seats,
                        "mu": round(h.mu, 6),
                        "sigma": round(h.sigma, 6),
                        "ordinal": round(h.ordinal, 6),
                    }
                    for h in page.history
                ],
            }
        )
        return
    click.echo(_line(page.profile))
    for e in page.events:
        place = f"place {e.place} of {e.players}" if e.place else f"{e.players} players, no result"
        click.echo(f"  {e.event} ({e.tournament}) as {e.player}: {place}")
    if page.history:
        last = page.history[-1]
        click.echo(
            f"  rating after {len(page.history)} games: mu {last.mu:.2f}, sigma "
            f"{last.sigma:.2f}, ordinal {last.ordinal:.2f}"
        )
