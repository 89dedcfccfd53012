"""Profiles: their ids, names and tags, and the suggestions which profile an entry is.

A profile's id is its address (``/players/jan-muller``): lower-case letters, digits and '-',
made once from the name when the profile is made and never changed, so links keep working after
a rename. Suggestions compare an entry's name with every profile's name (difflib's ratio on the
case- and accent-folded names) and prefer profiles with the same tag (club or city).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Container, Iterable
from dataclasses import dataclass

from agon.errors import N_, InvalidInput
from agon.tournament.names import check_name

#: A profile's id: what :func:`new_profile_id` makes.
PROFILE_ID = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")
#: Suggestions below this similarity are left out (a same tag lowers the bar to ``TAG_BAR``).
NAME_BAR = 0.6
TAG_BAR = 0.4
#: What a same tag adds to the similarity of the names.
TAG_BONUS = 0.15


@dataclass(frozen=True, slots=True)
class Profile:
    """A player profile as the domain sees it."""

    id: str
    name: str
    tag: str = ""
    hidden: bool = False

    def __str__(self) -> str:
        return f"{self.name} ({self.tag})" if self.tag else self.name


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A profile that may be the entry's person: how alike (0…1) and why."""

    profile: Profile
    score: float
    same_tag: bool


def fold(text: str) -> str:
    """Lower-case, without accents, spaces collapsed (``"  Jan  Müller"`` → ``"jan muller"``).

    >>> fold("  Jan  MÜLLER ")
    'jan muller'
    """
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def new_profile_id(name: str, taken: Container[str]) -> str:
    """A free id for a profile named ``name``: its folded letters and digits joined by '-',
    numbered when taken (``jan-muller``, ``jan-muller-2``, …).

    >>> new_profile_id("Jan Müller", {"jan-muller"})
    'jan-muller-2'
    >>> new_profile_id("李小龍", set())
    'player'
    """
    base = re.sub(r"[^a-z0-9]+", "-", fold(name)).strip("-")[:50].strip("-") or "player"
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def check_profile_id(value: object) -> str:
    """``value`` when it is a well-formed profile id.

    Raises:
        InvalidInput: anything else.
    """
    if not isinstance(value, str) or not PROFILE_ID.match(value):
        shown = repr(value)[:80]
        raise InvalidInput(
            f"profile id {shown}: use lower-case letters, digits and '-' (as `agon profile list` "
            "shows them)",
            msgid=N_("“%(id)s” is not a profile id."),
            params={"id": str(value)[:64]},
        )
    return value


def check_profile_name(value: object) -> str:
    """A profile's display name: the rule of every name (:func:`check_name`)."""
    return check_name(value, what="profile name", label=N_("Name"))


def check_profile_tag(value: object) -> str:
    """A profile's tag: empty, or a name (club or city)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return ""
    return check_name(value, what="tag", label=N_("Tag"))


def suggest(
    name: str, tag: str, profiles: Iterable[Profile], *, limit: int = 5
) -> list[Suggestion]:
    """The profiles most like an entry named ``name`` with ``tag``, most alike first.

    >>> people = [Profile("jan-muller", "Jan Müller", "Köln"), Profile("anna", "Anna")]
    >>> [(s.profile.id, s.same_tag) for s in suggest("Jan Mueller", "Köln", people)]
    [('jan-muller', True)]
    """
    wanted, wanted_tag = fold(name), fold(tag)
    out = []
    for profile in profiles:
        ratio = difflib.SequenceMatcher(None, wanted, fold(profile.name)).ratio()
        same_tag = bool(wanted_tag) and fold(profile.tag) == wanted_tag
        score = min(1.0, ratio + (TAG_BONUS if same_tag else 0.0))
        if ratio >= (TAG_BAR if same_tag else NAME_BAR):
            out.append(Suggestion(profile, round(score, 4), same_tag))
    out.sort(key=lambda s: (-s.score, s.profile.name, s.profile.id))
    return out[:limit]
