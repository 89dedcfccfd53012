"""Verifiable draws: wonders, guilds and wonder sides, all derived from the tournament seed.

Every random choice in seating and drawing comes from :func:`rng`, which derives a
``random.Random`` from the SHA-256 of ``"{seed}|{purpose}|{round}"``. Anyone who knows the seed can
recompute every draw (``agon verify``); before the event the director publishes
:func:`commitment` (the SHA-256 of the seed) and reveals the seed afterwards.

Draw rules: BONN-SPIELT 2018 ("Auslosung der Weltwunder und der teilnehmenden Gilden"): the director
draws the wonders anew before every game, and all tables use them in the drawn order; the guilds are
drawn centrally and shown to all tables. Ludolimpico 2015 (2.): the referee draws wonders and their
side at the start of the tournament.
"""

from __future__ import annotations

import hashlib
import hmac
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agon.errors import InvalidInput
from agon.games.seven_wonders.names import component_names
from agon.shipped import shipped_text
from agon.tournament.ruleset import Ruleset

if TYPE_CHECKING:
    import random


@dataclass(frozen=True, slots=True)
class Named:
    """A drawable item of the base game with its display names."""

    id: str
    names: Mapping[str, str]
    #: Other names a person may type (a wonder's full name, English spellings).
    aliases: tuple[str, ...] = ()

    def name_in(self, language: str) -> str:
        """The name in ``language`` (en/de/it), falling back to English."""
        return self.names.get(language) or self.names["en"]


def _load() -> tuple[tuple[Named, ...], tuple[Named, ...]]:
    text = shipped_text("agon.tournament", "data", "base_game.toml")
    data = tomllib.loads(text)
    names = component_names()
    unknown = [w for w in data["wonders"] if w not in names.wonders]
    unknown += [g for g in data["guilds"] if g not in names.guilds]
    if unknown:  # pragma: no cover - guarded by the data tests
        raise InvalidInput(f"base_game.toml: {unknown[0]!r} is not in the game data")
    wonders = tuple(
        Named(
            id=w,
            names=names.wonders[w].city,
            aliases=(*names.wonders[w].wonder.values(), *names.wonders[w].aliases),
        )
        for w in data["wonders"]
    )
    guilds = tuple(Named(id=g, names=names.guilds[g].name) for g in data["guilds"])
    return wonders, guilds


WONDER_DATA, GUILD_DATA = _load()
#: Ids of the seven base-game wonders, in the data file's order.
WONDERS: tuple[str, ...] = tuple(w.id for w in WONDER_DATA)
#: Ids of the ten base-game guilds, in the data file's order.
GUILDS: tuple[str, ...] = tuple(g.id for g in GUILD_DATA)
SIDES = ("A", "B")


def rng(seed: str, purpose: str, round_number: int = 0) -> random.Random:
    """The random generator for one purpose: ``Random(int(sha256(f"{seed}|{purpose}|{round}")))``.

    >>> rng("s", "wonders", 1).random() == rng("s", "wonders", 1).random()
    True
    """
    digest = hashlib.sha256(f"{seed}|{purpose}|{round_number}".encode()).digest()
    import random  # here: a command that only reads the data does not import it

    return random.Random(int.from_bytes(digest, "big"))


def commitment(seed: str) -> str:
    """SHA-256 hex digest of the seed (UTF-8), published before the event.

    >>> commitment("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(seed.encode()).hexdigest()


def online_game_seed(seed: str, round_number: int, table: int) -> str:
    """The seed of the online game of table ``table`` in round ``round_number``: an HMAC-SHA256
    keyed with the tournament seed, so the commitment to the tournament seed covers every game,
    and a game's seed revealed at its end (docs/online-play.md) reveals nothing of the
    tournament seed or of the other tables' games.

    >>> online_game_seed("s", 1, 2) == online_game_seed("s", 1, 2) != online_game_seed("s", 1, 3)
    True
    """
    message = f"agon-online-game|{round_number}|{table}".encode()
    return hmac.new(seed.encode(), message, hashlib.sha256).hexdigest()


def draw_wonders(seed: str, round_number: int, count: int) -> tuple[str, ...]:
    """The round's central wonder draw: ``count`` distinct wonders in drawn order.

    Bonn 2018: as many as the largest table has seats; Ludolimpico 2.1: players at the table + 1.

    Raises:
        InvalidInput: ``count`` outside 1..7.
    """
    if not 1 <= count <= len(WONDERS):
        raise InvalidInput(
            f"round {round_number}: cannot draw {count} wonders, the base game has {len(WONDERS)}"
        )
    return tuple(rng(seed, "wonders", round_number).sample(WONDERS, count))


def draw_guilds(seed: str, round_number: int) -> tuple[str, ...]:
    """The round's central guild draw: all ten guilds in drawn order; a table of k uses the first k+2."""
    return tuple(rng(seed, "guilds", round_number).sample(GUILDS, len(GUILDS)))


def guilds_for_table(guilds: tuple[str, ...], table_size: int) -> tuple[str, ...]:
    """The guilds in play at a table of ``table_size``: the first ``table_size + 2`` of the draw."""
    return guilds[: table_size + 2]


def draw_sides(
    seed: str, ruleset: Ruleset | None = None, round_number: int = 1
) -> Mapping[str, str] | None:
    """Wonder id -> "A"/"B" when the ruleset draws sides, else ``None`` (players choose).

    Without a ruleset the sides are drawn once for the tournament (Ludolimpico 2015, 2.). With a
    ruleset: "choice" -> None (Bonn since 2017), "drawn-once" -> one draw for all rounds,
    "drawn-each-round" -> a new draw for ``round_number``.
    """
    mode = "drawn-once" if ruleset is None else ruleset.wonder_sides
    if mode == "choice":
        return None
    r = rng(seed, "sides", round_number if mode == "drawn-each-round" else 0)
    return {wonder: r.choice(SIDES) for wonder in WONDERS}
