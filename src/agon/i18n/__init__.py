"""Languages: German, Italian and English catalogues, names of wonders and guilds, number formats.

The catalogues are gettext files of the domain ``agon`` under ``agon/web/locale/<lang>/LC_MESSAGES``
(``.po`` sources and compiled ``.mo`` files, both committed; ``make i18n`` re-extracts and recompiles
them, and a test checks that they are complete and in step). Message ids are the English texts, so
English is also the fallback for anything not translated.

Names of the base game's wonders and guilds are the game data's (:mod:`agon.games.seven_wonders.names`), not catalogue entries:
they are proper names of game components and live with their ids, like the rulesets' titles.

Modules:

- ``explain`` — Why one player stands above another, in German, Italian or English
- ``marks`` — Marks beside a name in the standings (left, late, absent from the final, left a
  game): short words in the page's language with a longer title
"""

from __future__ import annotations

import gettext
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Protocol

from babel.numbers import format_decimal

from agon.errors import InvalidInput
from agon.games.seven_wonders.names import component_names

#: Languages agon speaks, English first (the fallback).
LANGUAGES: tuple[str, ...] = ("en", "de", "it")
DEFAULT_LANGUAGE = "en"
#: The gettext domain of agon's catalogues.
DOMAIN = "agon"
#: Where the catalogues live (inside the package, next to the web app's templates).
LOCALE_DIR = Path(__file__).resolve().parent.parent / "web" / "locale"


class Translator(Protocol):
    """The gettext calls agon uses (``gettext.NullTranslations`` has them all)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


def N_(message: str) -> str:
    """Mark ``message`` for extraction into the catalogues without translating it here."""
    return message


def check_language(lang: str) -> str:
    """Return ``lang`` if agon speaks it.

    Raises:
        InvalidInput: any other language code, naming the ones agon has.
    """
    if lang not in LANGUAGES:
        raise InvalidInput(f"unknown language {lang!r}; agon speaks {', '.join(LANGUAGES)}")
    return lang


@cache
def translator(lang: str) -> gettext.GNUTranslations:
    """The compiled catalogue of ``lang``: ``translator("de").gettext("Table")`` is ``"Tisch"``.

    Raises:
        InvalidInput: a language agon does not speak.
        FileNotFoundError: the compiled catalogue is missing (a packaging fault, not user input).
    """
    check_language(lang)
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])


def choose_language(accept_language: str | None, *, available: tuple[str, ...] = LANGUAGES) -> str:
    """The language to answer in for an HTTP ``Accept-Language`` header; English when none fits.

    Tags are tried by their q-value (highest first, then in header order); a regional tag such as
    ``de-CH`` matches its language ``de``; ``q=0`` means "not this one".

    >>> choose_language("fr-CH, fr;q=0.9, it;q=0.8, de;q=0.7, *;q=0.5")
    'it'
    >>> choose_language("de-AT")
    'de'
    >>> choose_language(None)
    'en'
    """
    if not accept_language:
        return DEFAULT_LANGUAGE
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")):
        fields = [f.strip() for f in part.split(";")]
        tag = fields[0].lower()
        if not tag:
            continue
        q = 1.0
        for param in fields[1:]:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            weighted.append((-q, index, tag))
    for _q, _index, tag in sorted(weighted):
        primary = tag.split("-")[0]
        if primary in available:
            return primary
    return DEFAULT_LANGUAGE


# --- names of game components ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ComponentName:
    """A wonder's or guild's names: ``name`` by language, and ``city`` (a wonder board's title)."""

    id: str
    name: Mapping[str, str]
    city: Mapping[str, str]
    aliases: tuple[str, ...] = ()


@cache
def _components() -> tuple[dict[str, ComponentName], dict[str, ComponentName]]:
    names = component_names()  # the game data: one place for every component's names
    wonders = {
        w.id: ComponentName(w.id, w.wonder, w.city, w.aliases) for w in names.wonders.values()
    }
    guilds = {g.id: ComponentName(g.id, g.name, {}) for g in names.guilds.values()}
    return wonders, guilds


def wonder_ids() -> tuple[str, ...]:
    """Ids of the base game's seven wonders, as the data file lists them."""
    return tuple(_components()[0])


def guild_ids() -> tuple[str, ...]:
    """Ids of the base game's ten guilds, as the data file lists them."""
    return tuple(_components()[1])


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


def _lookup(table: Mapping[str, ComponentName], key: str) -> ComponentName | None:
    if key in table:
        return table[key]
    folded = _fold(key)
    for comp in table.values():
        names = [comp.id, *comp.name.values(), *comp.city.values(), *comp.aliases]
        if any(_fold(n) == folded for n in names):
            return comp
    return None


def wonder_name(wonder: str, lang: str, *, full: bool = False) -> str:
    """A wonder's name in ``lang``: its board's city (``"Rhodos"``), or with ``full`` the wonder.

    ``wonder`` is an id (``rhodos``) or any of the names in any language; a name agon does not know
    (an expansion's wonder written into an event file) is returned unchanged.
    """
    comp = _lookup(_components()[0], wonder)
    if comp is None:
        return wonder
    return (comp.name if full else comp.city)[check_language(lang)]


def guild_name(guild: str, lang: str) -> str:
    """A guild's name in ``lang`` (``"Gilde der Reeder"``); unknown names are returned unchanged."""
    comp = _lookup(_components()[1], guild)
    if comp is None:
        return guild
    return comp.name[check_language(lang)]


def sort_key(name: str) -> tuple[str, str]:
    """Alphabetical order for people's names: accents and case ignored first (Ä with A)."""
    return (_fold(name), name)


# --- standings vocabulary ----------------------------------------------------------------------

#: The standings criteria, marked for the catalogues; the English texts are those of
#: :data:`agon.tournament.standings.CRITERION_LABELS` (a test keeps the two in step).
CRITERIA: dict[str, str] = {
    "points": N_("tournament points"),
    "share": N_("sum of shares of the table's victory points"),
    "vp": N_("sum of victory points"),
    "coins": N_("sum of coins"),
    "pp": N_("sum of game points (Punti Partita: VP minus bid)"),
    "rating": N_("seeding rating (ordinal) given when round 1 started"),
    "lot": N_("lot drawn from the event's seed"),
}

#: The in-game tie-breakers of the rulesets, marked for the catalogues; the English texts are those
#: of :data:`agon.tournament.ruleset.GAME_TIE_BREAKERS` (a test keeps the two in step).
GAME_TIE_BREAKS: dict[str, str] = {
    "real-before-virtual": N_("a virtual player is placed behind real players with the same score"),
    "bid-asc": N_("the smaller auction bid is placed first"),
    "coins-desc": N_("more coins is placed first"),
}

#: Short column headings for the same criteria (printouts, web tables).
CRITERIA_SHORT: dict[str, str] = {
    "points": N_("Points"),
    "share": N_("Share"),
    "vp": N_("VP"),
    "coins": N_("Coins"),
    "pp": N_("PP"),
    "rating": N_("Rating"),
    "lot": N_("Lot"),
}

#: The seven score-pad categories (agon.tournament.score_pad.SCORE_PAD_CATEGORIES), as the pad prints them.
SCORE_CATEGORIES: dict[str, str] = {
    "military": N_("Military conflicts"),
    "treasury": N_("Treasury (1 VP per 3 coins)"),
    "wonder": N_("Wonder"),
    "civilian": N_("Civilian structures"),
    "commercial": N_("Commercial structures"),
    "guilds": N_("Guilds"),
    "science": N_("Scientific structures"),
}


def criterion_label(criterion: str, lang: str, *, short: bool = False) -> str:
    """The name of a standings criterion in ``lang`` (long form, or a column heading).

    Raises:
        InvalidInput: an unknown criterion.
    """
    labels = CRITERIA_SHORT if short else CRITERIA
    if criterion not in labels:
        raise InvalidInput(f"unknown standings criterion {criterion!r}")
    return translator(lang).gettext(labels[criterion])


def game_tie_break_label(key: str, lang: str) -> str:
    """What an in-game tie-breaker of a ruleset does, in ``lang``.

    Raises:
        InvalidInput: an unknown tie-breaker.
    """
    if key not in GAME_TIE_BREAKS:
        raise InvalidInput(f"unknown game tie-breaker {key!r}")
    return translator(lang).gettext(GAME_TIE_BREAKS[key])


def format_number(value: Fraction | int, criterion: str, lang: str) -> str:
    """A criterion's value written for ``lang``: shares with four decimals, points with up to two.

    In English this is exactly :func:`agon.tournament.standings.format_value`; German and Italian
    write a decimal comma (``8,5``).
    """
    if isinstance(value, int):
        return str(value)
    if value.denominator == 1 and criterion != "share":
        return str(value.numerator)
    return _format_fraction(value, criterion == "share", lang)


@lru_cache(maxsize=4096)
def _format_fraction(value: Fraction, share: bool, lang: str) -> str:
    """:func:`format_number` through Babel, kept: a standings page writes the same few values
    hundreds of times (Babel takes about 0.1 ms a call)."""
    if share:
        return format_decimal(
            float(value), format="0.0000", locale=check_language(lang), decimal_quantization=True
        )
    return format_decimal(float(value), format="0.##", locale=check_language(lang))
