"""The games' static material for the faces of online play (the contents of the box)."""

from __future__ import annotations

from typing import Any

from agon.errors import InvalidInput
from agon.games.one_card_wonder.content import default_content
from agon.games.seven_wonders.data import RESOURCES as SW_RESOURCES
from agon.games.seven_wonders.data import cards
from agon.play.adapters import GAMES, _ocw_cost, _sw_cost, _sw_stage


def catalog(game: str) -> dict[str, Any]:
    """The game's static material for faces (names, colours, costs, effects, chains): views name
    7 Wonders cards by id only, a face looks them up here. Public: the contents of the box.

    Raises:
        InvalidInput: unknown game.
    """
    if game == "7w":
        from agon.games.seven_wonders.data import wonders

        return {
            "game": "7w",
            "cards": {
                c.id: {
                    "name": {"en": c.en, "de": c.de, "it": c.it},
                    "age": c.age,
                    "color": c.color,
                    "cost": _sw_cost(c.cost),
                    "coins": c.coins,
                    "chain_from": list(c.chain_from),
                    "effects": [str(e) for e in c.effects],
                }
                for c in cards()
            },
            "wonders": {
                w.id: {
                    "name": {"en": w.en, "de": w.de, "it": w.it},
                    "resource": SW_RESOURCES[w.resource],
                    "A": [_sw_stage(s) for s in w.a],
                    "B": [_sw_stage(s) for s in w.b],
                }
                for w in wonders()
            },
        }
    if game == "ocw":
        content = default_content()
        return {
            "game": "ocw",
            "wonders": [w.id for w in content.wonders],
            "boards": {
                b.id: {
                    "name": {"en": b.names.en, "de": b.names.de, "it": b.names.it},
                    "buildings": [
                        {"id": x.id, "name": x.names.en, "cost": _ocw_cost(x.cost), "text": x.text}
                        for x in b.buildings
                    ],
                }
                for b in content.boards
            },
            "leaders": {
                ld.id: {"name": ld.names.en, "text": ld.text, "defeat": _ocw_cost(ld.defeat)}
                for ld in content.leaders
            },
        }
    raise InvalidInput(f"game {game!r}: expected one of {', '.join(GAMES)}")
