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
from collections import Counter
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


class ProfileIndex:
    """Profiles prepared for many suggestions (the desk's page asks for every player): each
    name folded and its letters counted once, so that most profiles are ruled out by counting
    letters before difflib compares them (the count gives difflib's own upper bound,
    ``quick_ratio``: the suggestions are the same as comparing every name)."""

    def __init__(self, profiles: Iterable[Profile]) -> None:
        self._items = [(p, fold(p.name), Counter(fold(p.name)), fold(p.tag)) for p in profiles]

    def suggest(self, name: str, tag: str, *, limit: int = 5) -> list[Suggestion]:
        """The profiles most like an entry named ``name`` with ``tag``, most alike first."""
        wanted, wanted_tag = fold(name), fold(tag)
        letters = Counter(wanted)
        matcher = difflib.SequenceMatcher(None)
        matcher.set_seq2(wanted)  # difflib caches what it learns about the second sequence
        out = []
        for profile, folded, counted, profile_tag in self._items:
            same_tag = bool(wanted_tag) and profile_tag == wanted_tag
            bar = TAG_BAR if same_tag else NAME_BAR
            total = len(folded) + len(wanted)
            if not total:
                continue
            shared = sum(min(n, counted[ch]) for ch, n in letters.items() if ch in counted)
            if 2 * shared / total < bar:  # difflib's quick_ratio: an upper bound of ratio
                continue
            matcher.set_seq1(folded)
            ratio = matcher.ratio()
            if ratio >= bar:
                score = min(1.0, ratio + (TAG_BONUS if same_tag else 0.0))
                out.append(Suggestion(profile, round(score, 4), same_tag))
        out.sort(key=lambda s: (-s.score, s.profile.name, s.profile.id))
        return out[:limit]


def suggest(
    name: str, tag: str, profiles: Iterable[Profile], *, limit: int = 5
) -> list[Suggestion]:
    """The profiles most like an entry named ``name`` with ``tag``, most alike first.

    >>> people = [Profile("jan-muller", "Jan Müller", "Köln"), Profile("anna", "Anna")]
    >>> [(s.profile.id, s.same_tag) for s in suggest("Jan Mueller", "Köln", people)]
    [('jan-muller', True)]
    """
    return ProfileIndex(profiles).suggest(name, tag, limit=limit)
