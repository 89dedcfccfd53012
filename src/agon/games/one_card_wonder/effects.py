"""Building and leader effects by name: a registry of plain functions (no ``eval``).

Each :class:`EffectSpec` names its trigger — the action keyword that enables it (Rulebook:
GEBÄUDE, "Beginnt der Gebäude-Text mit dem Stichwort einer Aktion ...") or ``immediate``
("Sofort"), ``new_action`` ("NEUE AKTION"), ``turn`` (start/end of the owner's turn) or
``leader`` — and the parameters a data file may give it.  Handlers receive the engine, the
player and the effect reference; they only call the engine's documented helpers, so the
engine remains the one place that moves components.  Modifiers that the engine reads rather
than calls (discounts, extra draws) have ``handler=None`` and are looked up by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

#: Resource kinds in their fixed order (Rulebook: SPIELMATERIAL, 12 of each kind).
RESOURCES: tuple[str, ...] = ("knowledge", "wood", "clay", "stone", "iron")


class Game(Protocol):
    """The engine's documented helpers that effect handlers call (``engine.Game`` has them).

    A protocol, so that this module needs neither the engine nor the content loader.
    """

    def neighbours(self, seat: int) -> tuple[int, int]: ...
    def opponents(self, seat: int) -> list[int]: ...
    def gain_coins(self, seat: int, amount: int) -> None: ...
    def take_from_bag(self, seat: int, kind: int, amount: int) -> None: ...
    def push_take(self, seat: int, source: str | int, amount: int) -> None: ...
    def push_sappho(self, seat: int) -> None: ...
    def push_ramses(self, seat: int) -> None: ...
    def push_choose_kind(self, seat: int) -> None: ...
    def push_free_stage(self, seat: int) -> None: ...
    def start_alexander(self, seat: int) -> None: ...
    def archimedes(self, seat: int) -> None: ...


@dataclass(frozen=True, slots=True)
class EffectRef:
    """An effect by registry name with its parameters (sorted key/value pairs)."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == key:
                return v
        return default

    @property
    def trigger(self) -> str:
        return REGISTRY[self.name].trigger


Handler = Callable[[Game, int, EffectRef, int], None]

TRIGGERS = ("immediate", "production", "subsidy", "build", "sale", "new_action", "turn", "leader")


@dataclass(frozen=True, slots=True)
class EffectSpec:
    """What an effect name means: trigger, parameter types (``resource``/``int``), handler."""

    name: str
    trigger: str
    doc: str
    params: dict[str, str] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    handler: Handler | None = None


REGISTRY: dict[str, EffectSpec] = {}


def _register(spec: EffectSpec) -> None:
    assert spec.trigger in TRIGGERS, spec
    REGISTRY[spec.name] = spec


def _res(ref: EffectRef) -> int:
    return RESOURCES.index(str(ref.get("resource")))


# ------------------------------------------------------------------ handlers


def _subsidy_extra_from_bag(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    """Obelisk: if the subsidy gave at least 1, take ``amount`` more of that kind from the bag."""
    game.take_from_bag(player, kind, int(ref.get("amount", 1)))


def _subsidy_coin(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.gain_coins(player, int(ref.get("amount", 1)))


def _sale_pair_bonus(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    """Forge: for each pair of ``resource`` sold, ``coins`` more coins."""
    if kind == _res(ref):
        game.gain_coins(player, int(ref.get("coins", 1)))


def _production_bonus(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.take_from_bag(player, _res(ref), int(ref.get("amount", 1)))


def _immediate_take_supply(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.push_take(player, "supply", int(ref.get("amount", 1)))


def _immediate_take_bag(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    if ref.get("resource") is None:
        game.push_take(player, "bag", int(ref.get("amount", 1)))
    else:
        game.take_from_bag(player, _res(ref), int(ref.get("amount", 1)))


def _immediate_coins(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.gain_coins(player, int(ref.get("amount", 1)))


def _oasis(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    """Khazne al-Firaun's oases: take from the bag and 1 from each neighbour's storage."""
    left, right = game.neighbours(player)
    # pushed in reverse: the bag first, then the left, then the right neighbour
    game.push_take(player, right, int(ref.get("neighbours", 1)))
    if right != left:
        game.push_take(player, left, int(ref.get("neighbours", 1)))
    else:  # 2 players: both neighbours are the same player
        game.push_take(player, left, int(ref.get("neighbours", 1)))
    game.push_take(player, "bag", int(ref.get("bag", 1)))


def _new_action_take_bag(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.take_from_bag(player, _res(ref), int(ref.get("amount", 1)))


def _new_action_take_supply(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.push_take(player, "supply", int(ref.get("amount", 1)))


# leaders (ERWEITERUNG „ANFÜHRER“, FAQ II)


def _leader_coins(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.gain_coins(player, int(ref.get("amount", 1)))


def _leader_sappho(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.push_sappho(player)


def _leader_alexander(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.start_alexander(player)


def _leader_archimedes(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.archimedes(player)


def _leader_ramses(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.push_ramses(player)


def _leader_take_bag(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.push_take(player, "bag", int(ref.get("amount", 1)))


def _leader_free_subsidy(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.push_choose_kind(player)


def _leader_from_each_opponent(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    for other in reversed(game.opponents(player)):
        game.push_take(player, other, int(ref.get("amount", 1)))


def _leader_free_stage(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.push_free_stage(player)


def _leader_coins_and_supply(game: Game, player: int, ref: EffectRef, kind: int) -> None:
    game.push_take(player, "supply", int(ref.get("take", 1)))
    game.gain_coins(player, int(ref.get("coins", 1)))


_AMOUNT = {"amount": "int"}
for _spec in (
    EffectSpec("subsidy_extra_from_bag", "subsidy",
               "Subsidy: if you receive at least 1, take `amount` more of that kind from the bag.",
               _AMOUNT, (), _subsidy_extra_from_bag),
    EffectSpec("subsidy_coin", "subsidy", "Subsidy: receive `amount` coins.", _AMOUNT, (),
               _subsidy_coin),
    EffectSpec("sale_pair_bonus", "sale",
               "Sale: for each pair of `resource` sold receive `coins` more coins.",
               {"resource": "resource", "coins": "int"}, ("resource",), _sale_pair_bonus),
    EffectSpec("build_discount", "build",
               "Build: once per turn pay `amount` fewer `resource` (never jokers or coins).",
               {"resource": "resource", "amount": "int"}, ("resource",), None),
    EffectSpec("production_keep_all_if_distinct", "production",
               "Production: if the drawn resources are all different, keep all 3.", {}, (), None),
    EffectSpec("production_draw_extra", "production",
               "Production: draw `amount` more, then put that many of them back into the bag "
               "(before the Hippodrome, FAQ I).", _AMOUNT, (), None),
    EffectSpec("production_bonus", "production",
               "Production: also take `amount` `resource` from the bag.",
               {"resource": "resource", "amount": "int"}, ("resource",), _production_bonus),
    EffectSpec("immediate_take_supply", "immediate",
               "Sofort: take `amount` resources of your choice from the supply board.",
               _AMOUNT, ("amount",), _immediate_take_supply),
    EffectSpec("immediate_take_bag", "immediate",
               "Sofort: take `amount` resources (`resource`, or of your choice) from the bag.",
               {"amount": "int", "resource": "resource"}, ("amount",), _immediate_take_bag),
    EffectSpec("immediate_coins", "immediate", "Sofort: receive `amount` coins.", _AMOUNT,
               ("amount",), _immediate_coins),
    EffectSpec("oasis", "immediate",
               "Sofort: take `bag` resources of your choice from the bag and `neighbours` from "
               "the storage of each neighbour.", {"bag": "int", "neighbours": "int"}, ("bag",),
               _oasis),
    EffectSpec("turn_coin_if_none", "turn",
               "At the end of each of your turns in which you received no coin, put a coin here; "
               "take it at the start of your next turn (FAQ I, Wettkampfstätte).", {}, (), None),
    EffectSpec("new_action_take_bag", "new_action",
               "NEW ACTION: take `amount` `resource` from the bag.",
               {"resource": "resource", "amount": "int"}, ("resource",), _new_action_take_bag),
    EffectSpec("new_action_take_supply", "new_action",
               "NEW ACTION: take `amount` resources of your choice from the supply board.",
               _AMOUNT, ("amount",), _new_action_take_supply),
    EffectSpec("leader_cartimandua", "leader",
               "Receive `amount` coins; revealed in answer to another leader, defeat it (FAQ II).",
               _AMOUNT, ("amount",), _leader_coins),
    EffectSpec("leader_sappho", "leader",
               "Only in your own turn: as your turn, perform each action once (FAQ II).", {}, (),
               _leader_sappho),
    EffectSpec("leader_alexander", "leader",
               "Take all stage markers off your wonder and place them again for free, one by "
               "one, by the building rules (FAQ II).", {}, (), _leader_alexander),
    EffectSpec("leader_archimedes", "leader",
               "Every unbuilt building of your building board is built at once; wonder-card "
               "buildings may still be built beyond 4 (FAQ II).", {}, (), _leader_archimedes),
    EffectSpec("leader_ramses", "leader",
               "Destroy one completed stage of an opponent's wonder; it must be rebuilt before "
               "any other stage (FAQ II).", {}, (), _leader_ramses),
    EffectSpec("leader_take_bag", "leader",
               "Take `amount` resources of your choice from the bag.", _AMOUNT, ("amount",),
               _leader_take_bag),
    EffectSpec("leader_free_subsidy", "leader",
               "Take all resources of one kind from the supply board (not a Subsidy action).",
               {}, (), _leader_free_subsidy),
    EffectSpec("leader_from_each_opponent", "leader",
               "Take `amount` resources of your choice from each opponent's storage.", _AMOUNT,
               ("amount",), _leader_from_each_opponent),
    EffectSpec("leader_free_stage", "leader",
               "Complete one available stage of your wonder without paying.", {}, (),
               _leader_free_stage),
    EffectSpec("leader_coins_and_supply", "leader",
               "Receive `coins` coins and take `take` resources of your choice from the supply.",
               {"coins": "int", "take": "int"}, ("coins", "take"), _leader_coins_and_supply),
):  # fmt: skip
    _register(_spec)
