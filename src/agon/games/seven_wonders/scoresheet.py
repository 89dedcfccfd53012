"""The score calculator a tournament director uses to check a 7 Wonders score sheet.

Input (seat order; neighbours are adjacent entries, first and last are neighbours)::

    {"players": [{"name", "wonder", "side", "stages", "coins", "military", "cards": [names],
                  "defeats" (optional; required when a Strategists Guild is on the table)}]}

Card and wonder names may be English, German or Italian.  Science takes the best use of every
wildcard; Olympia B copies the neighbour guild that scores best (rulebook; Bonn 2018).
"""

from __future__ import annotations

from typing import Any

from agon.errors import InvalidInput, where
from agon.games.seven_wonders.data import card_by_name, wonder_by_name
from agon.games.seven_wonders.engine import City, Score, score_city

FIELDS = ("military", "coins", "wonder", "civilian", "commercial", "guilds", "science")


def _int(entry: dict[str, Any], key: str, loc: str, *, default: int | None = None) -> int:
    value = entry.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{loc}, field {key!r}: expected an integer, got {value!r}")
    return value


def cities_from_sheet(data: object, source: str = "input") -> tuple[list[str], list[City]]:
    """Build the cities of a score sheet.

    Raises:
        InvalidInput: naming the file, player and field of any malformed or unknown entry.
    """
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise InvalidInput(f"{source}: expected an object with a 'players' list")
    players = data["players"]
    if not 3 <= len(players) <= 7:
        raise InvalidInput(f"{source}: 3 to 7 players expected, got {len(players)}")
    names: list[str] = []
    cities: list[City] = []
    strategists = False
    for i, entry in enumerate(players):
        if not isinstance(entry, dict):
            raise InvalidInput(f"{source}, player {i + 1}: expected an object")
        name = str(entry.get("name", f"player {i + 1}"))
        loc = f"{source}, " + where(("player", name))
        try:
            wonder = wonder_by_name(str(entry.get("wonder", "")))
            city = City(wonder, str(entry.get("side", "")))
        except InvalidInput as exc:
            raise InvalidInput(f"{loc}: {exc}") from None
        stages = _int(entry, "stages", loc)
        if not 0 <= stages <= len(city.stages):
            raise InvalidInput(
                f"{loc}, field 'stages': {stages} (wonder {wonder.en} {city.side} has "
                f"{len(city.stages)})"
            )
        for _ in range(stages):
            city.add_stage()
        card_names = entry.get("cards", [])
        if not isinstance(card_names, list):
            raise InvalidInput(f"{loc}, field 'cards': expected a list of names")
        for cname in card_names:
            try:
                card = card_by_name(str(cname))
            except InvalidInput as exc:
                raise InvalidInput(f"{loc}, field 'cards': {exc}") from None
            if card.building in city.buildings:
                raise InvalidInput(f"{loc}, field 'cards': {cname!r} appears twice")
            strategists |= card.id == "strategists_guild"
            city.add_card(card.index)
        city.coins = _int(entry, "coins", loc)
        city.military = _int(entry, "military", loc)
        if "defeats" in entry:
            city.defeats = _int(entry, "defeats", loc)
        names.append(name)
        cities.append(city)
    if strategists:
        for name, entry in zip(names, players, strict=True):
            if "defeats" not in entry:
                raise InvalidInput(
                    f"{source}, {where(('player', name))}, field 'defeats': required because a "
                    "Strategists Guild is on the table"
                )
    return names, cities


def score_sheet(data: object, source: str = "input") -> dict[str, list[dict[str, Any]]]:
    """Score every player of a sheet: ``{"scores": [{"player", <categories>, "total"}]}``."""
    names, cities = cities_from_sheet(data, source)
    n = len(cities)
    out = []
    for i in range(n):
        s: Score = score_city(i, cities[i], cities[(i + 1) % n], cities[(i - 1) % n])
        row: dict[str, Any] = {"player": names[i]}
        row.update({f: getattr(s, f) for f in FIELDS})
        row["total"] = s.total
        if s.copied_guild:
            row["copied_guild"] = s.copied_guild
        out.append(row)
    return {"scores": out}
