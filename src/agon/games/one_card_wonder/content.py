"""Content of One Card Wonder: wonders, building boards, leaders and the setup rules, loaded
from TOML data files into frozen records and validated at load time.

The file format is documented in ``docs/one-card-wonder.md``.  Every entry carries
``publisher = true|false`` and ``designed = [...]`` naming the fields agon designed because the
rulebook does not give them (Rulebook: SPIELMATERIAL names the components, not every card).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from agon.errors import InvalidInput, where
from agon.games.one_card_wonder.effects import REGISTRY
from agon.games.one_card_wonder.effects import RESOURCES as RESOURCES  # re-exported
from agon.games.one_card_wonder.effects import EffectRef as EffectRef  # re-exported

#: One letter per resource in cost strings; ``J`` is a joker, ``$`` a coin.
LETTERS = "KWCSI"
COIN = 5  # index of coins in a storage vector (5 resources + coins)
NAMES_DE = ("Wissen", "Holz", "Lehm", "Stein", "Eisen")
NAMES_IT = ("conoscenza", "legno", "argilla", "pietra", "ferro")


def resource_index(text: str) -> int:
    """Index of a resource given by English name or letter; ``coin`` is :data:`COIN`.

    >>> resource_index("clay"), resource_index("I"), resource_index("coin")
    (2, 4, 5)
    """
    if text == "coin" or text == "$":
        return COIN
    if text in RESOURCES:
        return RESOURCES.index(text)
    if len(text) == 1 and text in LETTERS:
        return LETTERS.index(text)
    raise InvalidInput(f"unknown resource {text!r} (expected one of {', '.join(RESOURCES)}, coin)")


def item_name(index: int) -> str:
    """English name of a storage item (resource or ``coin``)."""
    return "coin" if index == COIN else RESOURCES[index]


@dataclass(frozen=True, slots=True)
class Cost:
    """A cost: specific resources, jokers (any resource or a coin) and coins.

    Text form: one letter per unit, ``K W C S I`` resources, ``J`` joker, ``$`` coin.

    >>> str(Cost.parse("WWCJ$"))
    'WWCJ$'
    >>> Cost.parse("SS").total
    2
    """

    res: tuple[int, int, int, int, int]
    joker: int = 0
    coin: int = 0

    @classmethod
    def parse(cls, text: str) -> Cost:
        counts = [0, 0, 0, 0, 0]
        joker = coin = 0
        for ch in text.replace(" ", ""):
            if ch == "J":
                joker += 1
            elif ch == "$":
                coin += 1
            elif ch in LETTERS:
                counts[LETTERS.index(ch)] += 1
            else:
                raise InvalidInput(f"cost {text!r}: unknown symbol {ch!r} (use K W C S I J $)")
        return cls((counts[0], counts[1], counts[2], counts[3], counts[4]), joker, coin)

    @property
    def total(self) -> int:
        return sum(self.res) + self.joker + self.coin

    def __str__(self) -> str:
        return (
            "".join(LETTERS[i] * n for i, n in enumerate(self.res))
            + "J" * self.joker
            + ("$" * self.coin)
        )


@dataclass(frozen=True, slots=True)
class Names:
    """A name in English, German and Italian."""

    en: str
    de: str
    it: str


@dataclass(frozen=True, slots=True)
class Building:
    """A building on a building board or a wonder card (Rulebook: GEBÄUDE)."""

    id: str
    names: Names
    cost: Cost
    effect: EffectRef
    text: str
    after: str | None = None  # must be built after this building (Khazne's oases in order)
    shares_token: bool = False  # moves the token of ``after`` instead of using a new one
    publisher: bool = True
    designed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Stage:
    """A wonder stage with its cost and the stages whose arrows point into it (WUNDER-KARTEN)."""

    id: str
    cost: Cost
    after: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Wonder:
    """A wonder card: stages linked by arrows, and one or more buildings."""

    id: str
    names: Names
    place: str
    era: str
    level: int
    stages: tuple[Stage, ...]
    buildings: tuple[Building, ...]
    publisher: bool
    designed: tuple[str, ...]
    prereq: tuple[int, ...]  # per stage: bitmask of stages that must be built first

    def stage_index(self, stage_id: str) -> int:
        for i, s in enumerate(self.stages):
            if s.id == stage_id:
                return i
        raise InvalidInput(f"wonder {self.id!r} has no stage {stage_id!r}")


@dataclass(frozen=True, slots=True)
class Board:
    """A building board: storage of 8 places and 4 buildings (SPIELMATERIAL)."""

    id: str
    names: Names
    buildings: tuple[Building, ...]
    publisher: bool
    designed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Leader:
    """A leader (ERWEITERUNG „ANFÜHRER“): effect above the cross, defeat cost below."""

    id: str
    names: Names
    era: str
    effect: EffectRef
    text: str
    defeat: Cost
    globe: bool
    publisher: bool
    designed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Rules:
    """Numbers of the rulebook (SPIELMATERIAL, SPIELVORBEREITUNG)."""

    per_resource: int
    coins: int
    storage: int
    tokens: int
    bag: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Content:
    """Everything a game is played with."""

    rules: Rules
    wonders: tuple[Wonder, ...]
    boards: tuple[Board, ...]
    leaders: tuple[Leader, ...]

    def wonder(self, wonder_id: str) -> Wonder:
        for w in self.wonders:
            if w.id == wonder_id:
                return w
        raise InvalidInput(f"unknown wonder {wonder_id!r}")


# ---------------------------------------------------------------- loading and validation


class _Ctx:
    """Location of the entry being read, for error messages (file, entry, field)."""

    def __init__(self, file: str) -> None:
        self.file = file

    def err(self, entry: str | None, field: str | None, msg: str) -> InvalidInput:
        loc = where(("file", self.file), ("entry", entry) if entry else None,
                    ("field", field) if field else None)  # fmt: skip
        return InvalidInput(f"{loc}: {msg}")


def _req(ctx: _Ctx, entry: str | None, table: Mapping[str, Any], key: str, typ: type) -> Any:
    if key not in table:
        raise ctx.err(entry, key, "missing")
    value = table[key]
    if typ is int and isinstance(value, bool):
        raise ctx.err(entry, key, f"expected int, got {value!r}")
    if not isinstance(value, typ):
        raise ctx.err(entry, key, f"expected {typ.__name__}, got {value!r}")
    return value


def _names(ctx: _Ctx, entry: str, table: Mapping[str, Any]) -> Names:
    names = _req(ctx, entry, table, "name", dict)
    for lang in ("en", "de", "it"):
        if not isinstance(names.get(lang), str) or not names[lang]:
            raise ctx.err(entry, f"name.{lang}", "missing name (English, German and Italian)")
    return Names(names["en"], names["de"], names["it"])


def _cost(ctx: _Ctx, entry: str, field: str, text: Any, rules: Rules) -> Cost:
    if not isinstance(text, str):
        raise ctx.err(entry, field, f"expected a cost string, got {text!r}")
    try:
        cost = Cost.parse(text)
    except InvalidInput as exc:
        raise ctx.err(entry, field, str(exc)) from None
    if cost.total > rules.storage:
        raise ctx.err(entry, field, f"cost {text!r} needs {cost.total} storage places; "
                      f"storage holds {rules.storage}, so nobody can ever pay it")  # fmt: skip
    if cost.coin > rules.coins:
        raise ctx.err(entry, field, f"cost {text!r} needs {cost.coin} coins; only "
                      f"{rules.coins} exist")  # fmt: skip
    for i, n in enumerate(cost.res):
        if n > rules.per_resource:
            raise ctx.err(entry, field, f"cost {text!r} needs {n} {RESOURCES[i]}; only "
                          f"{rules.per_resource} exist")  # fmt: skip
    return cost


def _effect(ctx: _Ctx, entry: str, table: Mapping[str, Any]) -> EffectRef:
    name = _req(ctx, entry, table, "effect", str)
    spec = REGISTRY.get(name)
    if spec is None:
        raise ctx.err(
            entry, "effect", f"unknown effect {name!r} (known: {', '.join(sorted(REGISTRY))})"
        )
    params = table.get("params", {})
    if not isinstance(params, dict):
        raise ctx.err(entry, "params", f"expected a table, got {params!r}")
    for key, value in params.items():
        if key not in spec.params:
            raise ctx.err(entry, f"params.{key}", f"effect {name!r} takes no parameter {key!r}")
        typ = spec.params[key]
        if typ == "resource" and value not in RESOURCES:
            raise ctx.err(entry, f"params.{key}", f"unknown resource {value!r}")
        bad_int = not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= 8
        if typ == "int" and bad_int:
            raise ctx.err(entry, f"params.{key}", f"expected an int 1..8, got {value!r}")
    missing = [k for k in spec.required if k not in params]
    if missing:
        raise ctx.err(entry, "params", f"effect {name!r} needs {', '.join(missing)}")
    return EffectRef(name, tuple(sorted(params.items())))


def _meta(ctx: _Ctx, entry: str, table: Mapping[str, Any]) -> tuple[bool, tuple[str, ...]]:
    publisher = _req(ctx, entry, table, "publisher", bool)
    designed = table.get("designed", [])
    if not isinstance(designed, list) or not all(isinstance(d, str) for d in designed):
        raise ctx.err(entry, "designed", f"expected a list of field names, got {designed!r}")
    return publisher, tuple(designed)


def _building(ctx: _Ctx, owner: str, table: Any, rules: Rules, seen: set[str]) -> Building:
    if not isinstance(table, dict):
        raise ctx.err(owner, "building", f"expected a table, got {table!r}")
    bid = _req(ctx, owner, table, "id", str)
    entry = f"{owner}/{bid}"
    if bid in seen:
        raise ctx.err(entry, "id", f"duplicate building id {bid!r}")
    seen.add(bid)
    publisher, designed = _meta(ctx, entry, table)
    effect = _effect(ctx, entry, table)
    if effect.trigger == "leader":
        raise ctx.err(entry, "effect", f"{effect.name!r} is a leader effect, not a building effect")
    return Building(
        id=bid,
        names=_names(ctx, entry, table),
        cost=_cost(ctx, entry, "cost", table.get("cost"), rules),
        effect=effect,
        text=_req(ctx, entry, table, "text", str),
        after=table.get("after"),
        shares_token=bool(table.get("shares_token", False)),
        publisher=publisher,
        designed=designed,
    )


def _check_chains(ctx: _Ctx, owner: str, buildings: tuple[Building, ...]) -> None:
    ids = {b.id for b in buildings}
    for b in buildings:
        if b.after is not None and b.after not in ids:
            raise ctx.err(f"{owner}/{b.id}", "after", f"unknown building {b.after!r} on {owner!r}")
        if b.shares_token and b.after is None:
            raise ctx.err(f"{owner}/{b.id}", "shares_token", "needs 'after' (whose token moves)")


def _stage_prereqs(ctx: _Ctx, wid: str, stages: list[Stage]) -> tuple[int, ...]:
    index = {s.id: i for i, s in enumerate(stages)}
    masks: list[int] = []
    for s in stages:
        mask = 0
        for src in s.after:
            if src not in index:
                raise ctx.err(f"{wid}/{s.id}", "after", f"arrow from unknown stage {src!r}")
            mask |= 1 << index[src]
        masks.append(mask)
    # cycle check (Rulebook: WUNDER-KARTEN, stages are built bottom to top along the arrows)
    state = [0] * len(stages)

    def visit(i: int, path: list[str]) -> None:
        if state[i] == 1:
            cycle = " -> ".join([*path[path.index(stages[i].id) :], stages[i].id])
            raise ctx.err(wid, "stages", f"stage graph has a cycle: {cycle}")
        if state[i] == 2:
            return
        state[i] = 1
        for src in stages[i].after:
            visit(index[src], [*path, stages[i].id])
        state[i] = 2

    for i in range(len(stages)):
        visit(i, [])
    return tuple(masks)


def load_rules(data: Mapping[str, Any], file: str) -> Rules:
    ctx = _Ctx(file)
    bag_raw = _req(ctx, "rules", data, "bag", dict)
    bag = {int(k): int(v) for k, v in bag_raw.items()}
    rules = Rules(
        per_resource=_req(ctx, "rules", data, "per_resource", int),
        coins=_req(ctx, "rules", data, "coins", int),
        storage=_req(ctx, "rules", data, "storage", int),
        tokens=_req(ctx, "rules", data, "tokens", int),
        bag=bag,
    )
    for n, count in bag.items():
        if count + 1 > rules.per_resource:
            raise ctx.err("rules", f"bag.{n}", f"{count} per kind plus 1 in the supply exceeds "
                          f"{rules.per_resource}")  # fmt: skip
    return rules


def load_wonders(data: Mapping[str, Any], file: str, rules: Rules, seen: set[str]) -> list[Wonder]:
    ctx = _Ctx(file)
    out: list[Wonder] = []
    ids: set[str] = set()
    for table in data.get("wonder", []):
        wid = _req(ctx, None, table, "id", str)
        if wid in ids:
            raise ctx.err(wid, "id", f"duplicate wonder id {wid!r}")
        ids.add(wid)
        publisher, designed = _meta(ctx, wid, table)
        stages: list[Stage] = []
        stage_ids: set[str] = set()
        raw_stages = _req(ctx, wid, table, "stage", list)
        if not raw_stages:
            raise ctx.err(wid, "stage", "a wonder needs at least one stage")
        for st in raw_stages:
            sid = _req(ctx, wid, st, "id", str)
            if sid in stage_ids:
                raise ctx.err(f"{wid}/{sid}", "id", f"duplicate stage id {sid!r}")
            stage_ids.add(sid)
            after = st.get("after", [])
            if not isinstance(after, list) or not all(isinstance(a, str) for a in after):
                raise ctx.err(
                    f"{wid}/{sid}", "after", f"expected a list of stage ids, got {after!r}"
                )
            cost = _cost(ctx, f"{wid}/{sid}", "cost", st.get("cost"), rules)
            stages.append(Stage(sid, cost, tuple(after)))
        prereq = _stage_prereqs(ctx, wid, stages)
        buildings = tuple(_building(ctx, wid, b, rules, seen) for b in table.get("building", []))
        if not buildings:
            raise ctx.err(wid, "building", "a wonder card shows at least one building (GEBÄUDE)")
        _check_chains(ctx, wid, buildings)
        level = _req(ctx, wid, table, "level", int)
        if level not in (1, 2, 3):
            raise ctx.err(wid, "level", f"expected 1, 2 or 3, got {level!r}")
        out.append(
            Wonder(
                wid,
                _names(ctx, wid, table),
                _req(ctx, wid, table, "place", str),
                _req(ctx, wid, table, "era", str),
                level,
                tuple(stages),
                buildings,
                publisher,
                designed,
                prereq,
            )
        )
    return out


def load_boards(data: Mapping[str, Any], file: str, rules: Rules, seen: set[str]) -> list[Board]:
    ctx = _Ctx(file)
    out: list[Board] = []
    ids: set[str] = set()
    for table in data.get("board", []):
        bid = _req(ctx, None, table, "id", str)
        if bid in ids:
            raise ctx.err(bid, "id", f"duplicate board id {bid!r}")
        ids.add(bid)
        publisher, designed = _meta(ctx, bid, table)
        buildings = tuple(
            _building(ctx, bid, b, rules, seen) for b in _req(ctx, bid, table, "building", list)
        )
        if len(buildings) != 4:
            raise ctx.err(
                bid, "building", f"a building board has 4 buildings, got {len(buildings)}"
            )
        _check_chains(ctx, bid, buildings)
        out.append(Board(bid, _names(ctx, bid, table), buildings, publisher, designed))
    return out


def load_leaders(data: Mapping[str, Any], file: str, rules: Rules) -> list[Leader]:
    ctx = _Ctx(file)
    out: list[Leader] = []
    ids: set[str] = set()
    for table in data.get("leader", []):
        lid = _req(ctx, None, table, "id", str)
        if lid in ids:
            raise ctx.err(lid, "id", f"duplicate leader id {lid!r}")
        ids.add(lid)
        publisher, designed = _meta(ctx, lid, table)
        effect = _effect(ctx, lid, table)
        if effect.trigger != "leader":
            raise ctx.err(
                lid, "effect", f"{effect.name!r} is a building effect, not a leader effect"
            )
        out.append(
            Leader(
                lid,
                _names(ctx, lid, table),
                _req(ctx, lid, table, "era", str),
                effect,
                _req(ctx, lid, table, "text", str),
                _cost(ctx, lid, "defeat", table.get("defeat"), rules),
                bool(table.get("globe", False)),
                publisher,
                designed,
            )
        )
    return out


#: The most one content file (TOML) may hold (the game's own are under 64 KiB).
CONTENT_FILE_BYTES = 4 * 1024 * 1024


def _read(path: Path | None, name: str) -> tuple[dict[str, Any], str]:
    if path is None:
        text = (
            resources.files("agon.games.one_card_wonder")
            .joinpath("data")
            .joinpath(name)
            .read_text("utf-8")
        )
        label = f"data/{name}"
    else:
        from agon.tournament.safeload import read_text

        file = path / name
        text = read_text(file, what="content file", limit=CONTENT_FILE_BYTES)
        label = str(file)
    try:
        return tomllib.loads(text), label
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"file {label!r}: not valid TOML: {exc}") from None


def load_content(directory: Path | None = None) -> Content:
    """Load and validate ``rules.toml``, ``wonders.toml``, ``boards.toml``, ``leaders.toml``.

    Raises:
        InvalidInput: naming file, entry and field of the first problem found.
    """
    data, label = _read(directory, "rules.toml")
    rules = load_rules(data, label)
    seen: set[str] = set()
    wdata, wlabel = _read(directory, "wonders.toml")
    wonders = load_wonders(wdata, wlabel, rules, seen)
    bdata, blabel = _read(directory, "boards.toml")
    boards = load_boards(bdata, blabel, rules, seen)
    ldata, llabel = _read(directory, "leaders.toml")
    leaders = load_leaders(ldata, llabel, rules)
    return Content(rules, tuple(wonders), tuple(boards), tuple(leaders))


_DEFAULT: Content | None = None


def default_content() -> Content:
    """The content shipped with agon (cached)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_content()
    return _DEFAULT
