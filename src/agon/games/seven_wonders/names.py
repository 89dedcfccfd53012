"""The names of the base game's wonders and guilds, read from the game data (one place).

``data/wonders.toml`` names each board (its city, ``en``/``de``/``it``), the wonder itself
(``wonder``) and other names a person may type (``aliases``); ``data/cards.toml`` names every
card, the ten guilds among them. The tournament draws, the event-file reader, the web app and the
printouts all take their names from here, so a translation is fixed in one file. Only the TOML
is read (no effects parsed), so this stays cheap for the command line.

>>> names = component_names()
>>> names.wonders["rhodos"].city["de"], names.wonders["rhodos"].wonder["en"]
('Rhodos', 'The Colossus of Rhodes')
>>> names.guilds["shipowners"].name["de"]
'Gilde der Reeder'
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from agon.errors import InvalidInput
from agon.shipped import shipped_text

LANGUAGES: tuple[str, ...] = ("en", "de", "it")
#: A guild's card id in cards.toml is its draw id with this suffix (``workers`` → ``workers_guild``).
GUILD_CARD_SUFFIX = "_guild"


@dataclass(frozen=True, slots=True)
class WonderNames:
    """A wonder board's names: ``city`` (its title, as agon shows it) and ``wonder`` by language."""

    id: str
    city: Mapping[str, str]
    wonder: Mapping[str, str]
    aliases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GuildNames:
    """A guild's names by language; ``id`` is its draw id (``workers``), ``card`` its card id."""

    id: str
    card: str
    name: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class ComponentNames:
    wonders: Mapping[str, WonderNames]
    guilds: Mapping[str, GuildNames]


def _read(name: str) -> dict[str, object]:
    return tomllib.loads(shipped_text("agon.games.seven_wonders", "data", name))


def _by_language(entry: Mapping[str, object], where: str) -> dict[str, str]:
    out = {lang: entry.get(lang) for lang in LANGUAGES}
    missing = [lang for lang, text in out.items() if not isinstance(text, str) or not text]
    if missing:
        raise InvalidInput(f"{where}: no {missing[0]!r} name")
    return {lang: str(text) for lang, text in out.items()}


@cache
def component_names() -> ComponentNames:
    """Every wonder's and guild's names, keyed by the ids the draws use."""
    wonders: dict[str, WonderNames] = {}
    raw_wonders = _read("wonders.toml")["wonder"]
    assert isinstance(raw_wonders, list)
    for entry in raw_wonders:
        wid = str(entry["id"])
        where = f"wonders.toml, wonder {wid!r}"
        full = entry.get("wonder")
        if not isinstance(full, dict):
            raise InvalidInput(f"{where}: no 'wonder' names")
        wonders[wid] = WonderNames(
            wid,
            _by_language(entry, where),
            _by_language(full, f"{where}, wonder"),
            tuple(str(a) for a in entry.get("aliases", ())),
        )
    guilds: dict[str, GuildNames] = {}
    raw_cards = _read("cards.toml")["card"]
    assert isinstance(raw_cards, list)
    for entry in raw_cards:
        cid = str(entry["id"])
        if entry.get("color") == "purple" and cid.endswith(GUILD_CARD_SUFFIX):
            gid = cid.removesuffix(GUILD_CARD_SUFFIX)
            guilds[gid] = GuildNames(gid, cid, _by_language(entry, f"cards.toml, card {cid!r}"))
    return ComponentNames(wonders, guilds)
