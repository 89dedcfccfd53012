"""Cards and wonders of 7 Wonders (first edition, base game), loaded from the TOML data files.

The files under ``data/`` are the single source of card facts; this module parses them into
frozen records and validates them at load time (every effect name must be registered, every
chain must name a card of an earlier age, names must be unique per language).

How the data was checked: every count, cost and chain against the first-edition card list as
remembered and cross-checked with public card lists and implementations found with the search
tool (where those disagree, e.g. second-edition costs or a Lighthouse counting grey cards, the
first-edition card text wins); the per-age totals 7 x players with players + 2 guilds in age
III are pinned in tests; the Bonn 2018 rulings fix the Lighthouse (counts itself) and the
Chamber of Commerce and Craftsmens Guild (grey cards, 2 each).  German and Italian names are
not checked against printed cards.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from agon.errors import InvalidInput

RESOURCES: tuple[str, ...] = ("wood", "stone", "clay", "ore", "glass", "loom", "papyrus")
RAW = frozenset(range(4))
MANUFACTURED = frozenset(range(4, 7))
COLORS: tuple[str, ...] = ("brown", "grey", "blue", "yellow", "red", "green", "purple")
SCIENCE: tuple[str, ...] = ("compass", "gear", "tablet")
RES_INDEX = {name: i for i, name in enumerate(RESOURCES)}
COLOR_INDEX = {name: i for i, name in enumerate(COLORS)}

#: Effect names and the number of words after the name (None: free-form checked by the parser).
EFFECT_KINDS = frozenset(
    {
        "produce",
        "choice",
        "choice_untradable",
        "vp",
        "shields",
        "coins",
        "science",
        "trade",
        "coins_per",
        "vp_per",
        "play_seventh",
        "build_from_discard",
        "free_build_per_age",
        "copy_guild",
    }
)


@dataclass(frozen=True, slots=True)
class Effect:
    """One named effect with its words, e.g. ``Effect("vp_per", ("grey", "self", "2"))``."""

    kind: str
    args: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join((self.kind, *self.args))


@dataclass(frozen=True, slots=True)
class Card:
    """A card of the age decks or a guild.

    ``index`` is the small int used by the engine; ``building`` is the index of the first card
    with the same English name (Loom of age I and II are the same building: a city may hold only
    one building of a name, rulebook "identical buildings").
    """

    index: int
    id: str
    en: str
    de: str
    it: str
    age: int
    color: str
    cost: tuple[int, ...]
    coins: int
    chain_from: tuple[str, ...]
    copies: tuple[int, ...]
    effects: tuple[Effect, ...]
    building: int

    @property
    def is_guild(self) -> bool:
        return self.color == "purple"


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a wonder side: its resource cost and effects."""

    cost: tuple[int, ...]
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Wonder:
    """A wonder board: starting resource and the stages of sides A and B."""

    index: int
    id: str
    en: str
    de: str
    it: str
    aliases: tuple[str, ...]
    resource: int
    a: tuple[Stage, ...]
    b: tuple[Stage, ...]

    def side(self, side: str) -> tuple[Stage, ...]:
        """The stages of side ``"A"`` or ``"B"``.

        Raises:
            InvalidInput: for any other side.
        """
        s = side.upper()
        if s == "A":
            return self.a
        if s == "B":
            return self.b
        raise InvalidInput(f"wonder {self.en!r}: side must be 'A' or 'B', got {side!r}")


def parse_cost(text: str, where: str) -> tuple[int, ...]:
    """Parse ``"2 clay, papyrus"`` into a 7-vector of resource counts.

    >>> parse_cost("2 clay, papyrus", "x")
    (0, 0, 2, 0, 0, 0, 1)

    Raises:
        InvalidInput: for an unknown resource or a malformed count.
    """
    vec = [0] * 7
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        words = part.split()
        if len(words) == 1:
            n, name = 1, words[0]
        elif len(words) == 2 and words[0].isdigit():
            n, name = int(words[0]), words[1]
        else:
            raise InvalidInput(f"{where}: malformed cost part {part!r}")
        if name not in RES_INDEX:
            raise InvalidInput(f"{where}: unknown resource {name!r}")
        vec[RES_INDEX[name]] += n
    return tuple(vec)


def parse_effect(text: str, where: str) -> Effect:
    """Parse one effect string and check its name against the registry.

    Raises:
        InvalidInput: for an unknown effect name or malformed words.
    """
    words = text.split()
    if not words or words[0] not in EFFECT_KINDS:
        raise InvalidInput(f"{where}: unknown effect {text!r}")
    kind, args = words[0], tuple(words[1:])
    if kind in ("choice", "choice_untradable"):
        for r in args[0].split("|"):
            if r not in RES_INDEX:
                raise InvalidInput(f"{where}: unknown resource {r!r} in {text!r}")
    elif kind == "produce":
        name = args[-1]
        if name not in RES_INDEX or len(args) > 2:
            raise InvalidInput(f"{where}: malformed effect {text!r}")
    elif kind in ("vp", "shields", "coins"):
        if len(args) != 1 or not args[0].isdigit():
            raise InvalidInput(f"{where}: malformed effect {text!r}")
    elif kind == "science":
        if args[0] not in (*SCIENCE, "any"):
            raise InvalidInput(f"{where}: unknown science symbol in {text!r}")
    elif kind == "trade":
        if args[0] not in ("raw", "manufactured") or args[1] not in ("left", "right", "both"):
            raise InvalidInput(f"{where}: malformed effect {text!r}")
    elif kind in ("coins_per", "vp_per"):
        what, scope, n = args
        for w in what.split("+"):
            if w not in COLOR_INDEX and w not in ("stage", "defeat"):
                raise InvalidInput(f"{where}: unknown thing to count {w!r} in {text!r}")
        if scope not in ("self", "neighbours", "self+neighbours") or not n.isdigit():
            raise InvalidInput(f"{where}: malformed effect {text!r}")
    return Effect(kind, args)


def _read(name: str) -> dict[str, object]:
    text = (
        resources.files("agon.games.seven_wonders")
        .joinpath("data")
        .joinpath(name)
        .read_text("utf-8")
    )
    return tomllib.loads(text)


@cache
def cards() -> tuple[Card, ...]:
    """All distinct cards (age I-III and the ten guilds), in file order."""
    raw = _read("cards.toml")["card"]
    assert isinstance(raw, list)
    out: list[Card] = []
    first_of_name: dict[str, int] = {}
    ids: set[str] = set()
    for i, entry in enumerate(raw):
        where = f"cards.toml, card {entry.get('id', i)!r}"
        cid = entry["id"]
        if cid in ids:
            raise InvalidInput(f"{where}: duplicate id")
        ids.add(cid)
        color = entry["color"]
        if color not in COLOR_INDEX:
            raise InvalidInput(f"{where}: unknown color {color!r}")
        building = first_of_name.setdefault(entry["en"], i)
        out.append(
            Card(
                index=i,
                id=cid,
                en=entry["en"],
                de=entry["de"],
                it=entry["it"],
                age=int(entry["age"]),
                color=color,
                cost=parse_cost(entry.get("cost", ""), where),
                coins=int(entry.get("coins", 0)),
                chain_from=tuple(entry.get("chain_from", ())),
                copies=tuple(entry.get("copies", ())),
                effects=tuple(parse_effect(e, where) for e in entry["effects"]),
                building=building,
            )
        )
    by_id = {c.id: c for c in out}
    for c in out:
        for prev in c.chain_from:
            if prev not in by_id or by_id[prev].age >= c.age:
                raise InvalidInput(f"cards.toml, card {c.id!r}: bad chain_from {prev!r}")
    return tuple(out)


@cache
def wonders() -> tuple[Wonder, ...]:
    """The seven wonder boards."""
    raw = _read("wonders.toml")["wonder"]
    assert isinstance(raw, list)
    out = []
    for i, entry in enumerate(raw):
        where = f"wonders.toml, wonder {entry['id']!r}"

        def stages(
            side: str, entry: dict[str, object] = entry, where: str = where
        ) -> tuple[Stage, ...]:
            items = entry[side]
            assert isinstance(items, list)
            return tuple(
                Stage(
                    parse_cost(s["cost"], f"{where} side {side}"),
                    tuple(parse_effect(e, f"{where} side {side}") for e in s["effects"]),
                )
                for s in items
            )

        out.append(
            Wonder(
                index=i,
                id=entry["id"],
                en=entry["en"],
                de=entry["de"],
                it=entry["it"],
                aliases=tuple(entry.get("aliases", ())),
                resource=RES_INDEX[entry["resource"]],
                a=stages("a"),
                b=stages("b"),
            )
        )
    return tuple(out)


def _norm(name: str) -> str:
    return " ".join(name.casefold().replace("’", "'").split())


@cache
def _card_names() -> dict[str, int]:
    table: dict[str, int] = {}
    for c in cards():
        for name in (c.id, c.en, c.de, c.it):
            key = _norm(name)
            prev = table.get(key)
            if prev is not None and cards()[prev].building != c.building:
                raise InvalidInput(f"cards.toml: name {name!r} names two different buildings")
            table.setdefault(key, c.building)
    return table


def card_by_name(name: str) -> Card:
    """The card named ``name`` in English, German or Italian (or its id), case-insensitive.

    >>> card_by_name("Gilde der Künstler").id
    'craftsmens_guild'

    Raises:
        InvalidInput: for an unknown name.
    """
    idx = _card_names().get(_norm(name))
    if idx is None:
        raise InvalidInput(f"unknown card name {name!r}")
    return cards()[idx]


def card_by_id(cid: str) -> Card:
    """The card with data-file id ``cid``.

    Raises:
        InvalidInput: for an unknown id.
    """
    for c in cards():
        if c.id == cid:
            return c
    raise InvalidInput(f"unknown card id {cid!r}")


def wonder_by_name(name: str) -> Wonder:
    """The wonder named ``name`` (English, German, Italian, id or an alias), case-insensitive.

    Raises:
        InvalidInput: for an unknown name.
    """
    key = _norm(name)
    for w in wonders():
        if key in {_norm(n) for n in (w.id, w.en, w.de, w.it, *w.aliases)}:
            return w
    raise InvalidInput(f"unknown wonder name {name!r}")


def guilds() -> tuple[Card, ...]:
    """The ten guilds."""
    return tuple(c for c in cards() if c.is_guild)


def age_deck(age: int, players: int) -> list[Card]:
    """The non-guild cards of ``age`` for ``players`` players, one entry per physical copy.

    Raises:
        InvalidInput: for a player count outside 3..7 or an age outside 1..3.
    """
    if not 3 <= players <= 7:
        raise InvalidInput(f"players must be 3..7, got {players}")
    if age not in (1, 2, 3):
        raise InvalidInput(f"age must be 1, 2 or 3, got {age}")
    return [c for c in cards() if c.age == age and not c.is_guild for m in c.copies if m <= players]


# ---------------------------------------------------------------------- heuristic weights
Triple = tuple[float, float, float]


@dataclass(frozen=True)
class HeuristicWeights:
    """The constants of the heuristic (``bots.action_value``), in VP; triples are per age.

    ``default`` (``data/heuristic.toml``) is the heuristic every bot plays; other sets (``tuned``)
    are used only by the ``ismcts`` bot for its own moves.
    """

    resource_new: Triple
    resource_unit: Triple
    science_bonus: Triple
    trade_bonus: Triple
    choice_bonus: Triple
    chain_bonus: Triple
    coin_rate: float
    discard: float
    discard_poor: float
    wonder: float
    wonder_shield: float
    wonder_science: float
    wonder_choice: float
    wonder_special: Triple
    wonder_copy_guild: float
    wonder_trade: Triple
    military_win: float
    military_tie: float
    military_shield: float
    blue_bonus: float

    def vector(self) -> list[float]:
        """The weights flat, in field order (the compiled core's layout)."""
        out: list[float] = []
        for name in HEURISTIC_FIELDS:
            x = getattr(self, name)
            out.extend(x if isinstance(x, tuple) else (x,))
        return out

    @classmethod
    def from_vector(cls, v: list[float]) -> HeuristicWeights:
        """The inverse of :meth:`vector`."""
        if len(v) != HEURISTIC_LEN:
            raise InvalidInput(f"heuristic weights: {len(v)} numbers, expected {HEURISTIC_LEN}")
        kw: dict[str, object] = {}
        k = 0
        for name in HEURISTIC_FIELDS:
            if name in _TRIPLES:
                kw[name] = (float(v[k]), float(v[k + 1]), float(v[k + 2]))
                k += 3
            else:
                kw[name] = float(v[k])
                k += 1
        return cls(**kw)  # type: ignore[arg-type]


HEURISTIC_FIELDS = tuple(HeuristicWeights.__dataclass_fields__)
_TRIPLES = frozenset(
    n for n, f in HeuristicWeights.__dataclass_fields__.items() if f.type == "Triple"
)
HEURISTIC_LEN = sum(3 if n in _TRIPLES else 1 for n in HEURISTIC_FIELDS)


@cache
def heuristic_weights(name: str = "default") -> HeuristicWeights:
    """A set of heuristic weights from ``data/heuristic.toml`` (``default`` or ``tuned``).

    Raises:
        InvalidInput: for an unknown set, or a set with missing, unknown or malformed keys.
    """
    table = _read("heuristic.toml")
    raw = table.get(name)
    if not isinstance(raw, dict):
        raise InvalidInput(f"heuristic weights: no set {name!r} in heuristic.toml")
    if set(raw) != set(HEURISTIC_FIELDS):
        raise InvalidInput(f"heuristic weights {name!r}: keys differ from {HEURISTIC_FIELDS}")
    v: list[float] = []
    for key in HEURISTIC_FIELDS:
        x = raw[key]
        xs = x if isinstance(x, list) else [x]
        if len(xs) != (3 if key in _TRIPLES else 1) or not all(
            isinstance(e, int | float) for e in xs
        ):
            raise InvalidInput(f"heuristic weights {name!r}: malformed {key}")
        v.extend(float(e) for e in xs)
    return HeuristicWeights.from_vector(v)
