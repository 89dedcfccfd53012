"""The bots an online seat may take, and the levels ``easy`` … ``expert``: data, not code.

Each game's ``data/levels.toml`` names its online bots (``random``, ``heuristic``, ``search``,
``mcts``, ``ismcts``) — a bot kind and a fixed budget each — and maps the four levels to them
(docs/bots.md, "Levels"). A budget is rounds, worlds or iterations, never seconds: the same move
for the same seed on any machine, so a restarted server decides exactly as before; and it is
bounded here (:data:`LIMITS`) so that no decision holds a server's CPU for long.

>>> resolve("7w", "expert").kind
'ismcts'
>>> resolve("ocw", "hard").name
'search'
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from agon.errors import InvalidInput

#: The levels, weakest first.
LEVELS = ("easy", "medium", "hard", "expert")
#: The game ids of online play and the package holding each game's ``data/levels.toml``.
PACKAGES = {"7w": "agon.games.seven_wonders", "ocw": "agon.games.one_card_wonder"}
#: The bot kinds each game's engine knows.
KINDS = {
    "7w": ("random", "heuristic", "mcts", "ismcts"),
    "ocw": ("random", "heuristic", "search", "ismcts", "ismctsh"),
}
#: The largest budget per decision a levels file may give (``(game, budget)`` → most): at most
#: about half a second of CPU per decision at the measured speeds (docs/bots.md, "Levels"; a 7
#: Wonders ``ismcts`` play-out early in a game: about 85 µs), so a server stays responsive.
LIMITS = {
    ("7w", "rounds"): 200,
    ("7w", "iterations"): 5_000,
    ("7w", "side_playouts"): 64,
    ("ocw", "worlds"): 64,
    ("ocw", "iterations"): 400,
}
_BUDGETS = ("rounds", "iterations", "worlds", "side_playouts")


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One online bot: its ``name`` (as a seat names it), the engine's bot ``kind`` and budget
    (``None``: the kind takes none), and the playouts per side it plays to choose its wonder's
    side (7 Wonders with side choice; 0: a seeded coin)."""

    name: str
    kind: str
    rounds: int | None = None
    iterations: int | None = None
    worlds: int | None = None
    side_playouts: int = 0

    @property
    def searches(self) -> bool:
        """Whether it searches (then it thinks in the server's bot processes)."""
        return self.kind not in ("random", "heuristic")


def _check(game: str, where: str, raw: object) -> BotSpec:
    if not isinstance(raw, dict):
        raise InvalidInput(f"{where}: expected a table")
    kind = raw.get("kind")
    if kind not in KINDS[game]:
        raise InvalidInput(f"{where}: kind must be one of {', '.join(KINDS[game])}, got {kind!r}")
    unknown = set(raw) - {"kind", *_BUDGETS}
    if unknown:
        raise InvalidInput(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    budgets: dict[str, int] = {}
    for key in _BUDGETS:
        if key not in raw:
            continue
        value, most = raw[key], LIMITS.get((game, key))
        if most is None:
            raise InvalidInput(f"{where}: {game} bots take no {key}")
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= most:
            raise InvalidInput(f"{where}: {key} must be a whole number 1…{most}, got {value!r}")
        budgets[key] = value
    return BotSpec(name=where.rsplit(".", 1)[1], kind=str(kind), **budgets)


def parse(game: str, text: str) -> tuple[dict[str, BotSpec], dict[str, str]]:
    """A levels file's bots (by name) and levels (level → bot name), checked.

    Raises:
        InvalidInput: not TOML; a kind the game does not know; a budget over :data:`LIMITS`;
            a level missing or naming no bot of the file.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{game} levels.toml: {exc}") from None
    table = raw.get("bots")
    if not isinstance(table, dict) or not table:
        raise InvalidInput(f"{game} levels.toml: no [bots.NAME] tables")
    bots = {name: _check(game, f"{game} levels.toml, bots.{name}", b) for name, b in table.items()}
    if set(bots) & set(LEVELS):
        raise InvalidInput(f"{game} levels.toml: a bot may not be named like a level")
    levels = raw.get("levels")
    if not isinstance(levels, dict) or set(levels) != set(LEVELS):
        raise InvalidInput(f"{game} levels.toml: [levels] must name exactly {', '.join(LEVELS)}")
    for level, name in levels.items():
        if name not in bots:
            raise InvalidInput(f"{game} levels.toml: level {level} names no bot ({name!r})")
    return bots, {level: str(levels[level]) for level in LEVELS}


@cache
def load(game: str) -> tuple[dict[str, BotSpec], dict[str, str]]:
    """The game's bots and levels from its ``data/levels.toml`` (see :func:`parse`).

    Raises:
        InvalidInput: an unknown game, or a bad file.
    """
    if game not in PACKAGES:
        raise InvalidInput(f"unknown game {game!r} ({', '.join(PACKAGES)})")
    text = resources.files(PACKAGES[game]).joinpath("data").joinpath("levels.toml")
    return parse(game, text.read_text("utf-8"))


def names(game: str) -> tuple[str, ...]:
    """Every name an online seat of ``game`` may give its bot: the bots, then the levels."""
    return (*load(game)[0], *LEVELS)


def resolve(game: str, name: str) -> BotSpec:
    """The bot that ``name`` (a bot's name or a level) plays in ``game``.

    Raises:
        InvalidInput: a name the game's levels file does not know.
    """
    bots, levels = load(game)
    spec = bots.get(levels.get(name, name))
    if spec is None:
        raise InvalidInput(f"unknown bot {name!r} (known: {', '.join(names(game))})")
    return spec
