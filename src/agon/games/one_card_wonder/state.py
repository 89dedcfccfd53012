"""What a One Card Wonder game is made of: the action verbs, :class:`Variant`, :class:`Action`,
the players' records, the frames of the stack, and :class:`_Base` (the state of a game and the
small steps every part of the rules takes).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, cast

from agon.errors import InvalidInput
from agon.games.one_card_wonder.content import (
    COIN,
    Board,
    Building,
    Content,
    Leader,
    Wonder,
    item_name,
    resource_index,
)
from agon.games.one_card_wonder.effects import REGISTRY
from agon.games.one_card_wonder.effects import Game as EffectGame

VERBS = frozenset(
    [
        "wonder",
        "board",
        "produce",
        "subsidy",
        "build",
        "sell",
        "new",
        "leader",
        "return",
        "supply",
        "stage",
        "building",
        "done",
        "pay",
        "take",
        "discard",
        "reveal",
        "pass",
        "tribute",
        "stop",
        "destroy",
        "place",
        "kind",
        "offer",
        "accept",
        "decline",
    ]
)

# frames the engine runs by itself
_AUTO = frozenset(
    [
        "setup_done",
        "turn_start",
        "turn_end",
        "next",
        "open_window",
        "resolve",
        "tribute_start",
        "outcome",
        "counter",
    ]
)


@dataclass(frozen=True, slots=True)
class Variant:
    """Which rules are in play (Rulebook: VARIANTEN, ERWEITERUNG „ANFÜHRER“).

    ``max_turns`` is agon's safety cap for simulations (the rulebook has none): when that many
    turns have been played without a winner the game ends without a winner.
    """

    trade: bool = False
    two_card: bool = False
    leaders: bool = False
    max_turns: int | None = None
    #: agon's balance mode (not a rule of the game): each player is dealt a display wonder at
    #: random (with its two resources) instead of choosing one, so choice order does not
    #: confound a wonder's win rate.  The draw comes from the game's seed.
    random_wonders: bool = False
    #: agon's balance mode: each player gets one of their two building boards at random.
    random_boards: bool = False


@dataclass(frozen=True, slots=True)
class Action:
    """A decision with a text form that round-trips: ``str(Action.parse(s)) == s``.

    >>> str(Action.parse("stage pharos:s3 kiln"))
    'stage pharos:s3 kiln'
    """

    verb: str
    args: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the text form.

        Raises:
            InvalidInput: empty text or an unknown verb.
        """
        parts = text.split()
        if not parts or parts[0] not in VERBS:
            raise InvalidInput(f"action {text!r}: unknown verb (known: {', '.join(sorted(VERBS))})")
        return cls(parts[0], tuple(parts[1:]))

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))


_ITEM_VERBS = ("subsidy", "return", "supply", "sell", "discard", "take", "kind", "pay", "tribute")
#: interned actions ``verb <item>`` for item indices 0..5 (resources, coin): random play and
#: search create millions of these.
_IA: dict[str, tuple[Action, ...]] = {
    v: tuple(Action(v, (item_name(i),)) for i in range(6)) for v in _ITEM_VERBS
}
_PRODUCE, _BUILD, _SELL, _DONE = Action("produce"), Action("build"), Action("sell"), Action("done")
_PASS, _REVEAL, _STOP, _LEADER = Action("pass"), Action("reveal"), Action("stop"), Action("leader")
_ACCEPT, _DECLINE = Action("accept"), Action("decline")
_NO_DISCOUNT: list[tuple[Building, ...]] = [()]
_OFFERS: dict[tuple[int, int, int], Action] = {}


def _item_word(index: int) -> str:
    return "nothing" if index < 0 else item_name(index)


def _offer(partner: int, give: int, get: int) -> Action:
    """``offer <seat> <item> for <item>`` (interned); -1 is ``nothing``."""
    key = (partner, give, get)
    a = _OFFERS.get(key)
    if a is None:
        a = _OFFERS[key] = Action("offer", (str(partner), _item_word(give), "for", _item_word(get)))
    return a


def parse_offer(a: Action) -> tuple[int, int, int]:
    """(partner seat, item given, item asked; -1 for ``nothing``) of an ``offer`` action.

    Raises:
        InvalidInput: for a malformed offer.
    """
    if len(a.args) != 4 or a.args[2] != "for" or not a.args[0].isdigit():
        raise InvalidInput(f"offer {' '.join(a.args)!r}: expected 'offer <seat> <item> for <item>'")
    give, get = (-1 if w == "nothing" else resource_index(w) for w in (a.args[1], a.args[3]))
    return int(a.args[0]), give, get


_STAGE_ACTIONS: dict[tuple[str, str], Action] = {}


def _stage_action(wid: str, sid: str) -> Action:
    a = _STAGE_ACTIONS.get((wid, sid))
    if a is None:
        a = _STAGE_ACTIONS[(wid, sid)] = Action("stage", (f"{wid}:{sid}",))
    return a


#: a stage, precomputed for the hot path: index, bit, prerequisite mask, specific resources,
#: jokers, coins, total units, the interned action, the stage
_Row = tuple[int, int, int, tuple[int, ...], int, int, int, Action, Any]


def _rows(w: Wonder) -> tuple[_Row, ...]:
    return tuple(
        (i, 1 << i, w.prereq[i], st.cost.res, st.cost.joker, st.cost.coin, st.cost.total,
         _stage_action(w.id, st.id), st)
        for i, st in enumerate(w.stages)
    )  # fmt: skip


def check_setup(players: int, variant: Variant, content: Content) -> None:
    """Can a game of this size and variant be set up with this content?

    Raises:
        InvalidInput: player count outside 2–6, Two Card Wonder with more than 4 players,
            trade with fewer than 4, or content too small for the player count.
    """
    if players not in content.rules.bag:
        raise InvalidInput(f"players {players}: One Card Wonder is for 2 to 6 players")
    if variant.two_card and players > 4:
        raise InvalidInput(f"players {players}: Two Card Wonder is for at most 4 players")
    if variant.trade and players < 4:
        raise InvalidInput(f"players {players}: the trade variant needs 4 or more players")
    need_w = players + 1 + (players if variant.two_card else 0)
    if len(content.wonders) < need_w:
        raise InvalidInput(f"content has {len(content.wonders)} wonders, {need_w} needed")
    if len(content.boards) < 2 * players:
        raise InvalidInput(f"content has {len(content.boards)} boards, {2 * players} needed")
    if variant.leaders and len(content.leaders) < players:
        raise InvalidInput(f"content has {len(content.leaders)} leaders, {players} needed")


class _Player:
    """Mutable per-player state (storage vector: 5 resources, then coins)."""

    __slots__ = (
        "active",
        "archimedes",
        "board",
        "board_options",
        "built",
        "built_ids",
        "by_trigger",
        "got_coin",
        "leader",
        "leader_state",
        "rebuild",
        "rows",
        "store",
        "tokens",
        "used",
        "wb_slot",
        "wonders",
        "zeus",
    )

    def __init__(self) -> None:
        self.store = [0, 0, 0, 0, 0, 0]
        self.wonders: list[Wonder] = []
        self.built: list[int] = []  # bitmask of completed stages per wonder card
        self.rebuild: list[int] = []  # stage destroyed by Ramses that must be rebuilt first
        self.rows: list[tuple[_Row, ...]] = []  # per wonder card: precomputed stage rows
        self.board: Board | None = None
        self.board_options: tuple[Board, ...] = ()
        self.built_ids: set[str] = set()
        self.by_trigger: dict[str, list[Building]] = {}
        self.wb_slot: dict[str, int] = {}  # wonder building id -> wonder slot
        self.tokens = 0
        self.leader: Leader | None = None
        self.leader_state = 0  # 0 hidden, 1 revealed, 2 defeated, 3 effect carried out
        self.used: set[str] = set()  # once-per-turn buildings used this turn
        self.got_coin = False
        self.zeus = 0  # coins lying on the competition ground
        self.active = -1  # Two Card Wonder: the card built on first
        self.archimedes = False

    def clone(self) -> _Player:
        c = _Player.__new__(_Player)
        c.store = self.store[:]
        c.wonders = self.wonders[:]
        c.built = self.built[:]
        c.rebuild = self.rebuild[:]
        c.rows = self.rows[:]
        c.board = self.board
        c.board_options = self.board_options
        c.built_ids = set(self.built_ids)
        c.by_trigger = {k: v[:] for k, v in self.by_trigger.items()}
        c.wb_slot = dict(self.wb_slot)
        c.tokens = self.tokens
        c.leader = self.leader
        c.leader_state = self.leader_state
        c.used = set(self.used)
        c.got_coin = self.got_coin
        c.zeus = self.zeus
        c.active = self.active
        c.archimedes = self.archimedes
        return c


Frame = tuple[Any, ...]


class _Base:
    """The state of a game and the small steps every part of the rules takes (gain coins, end the
    game, call an effect, storage overflow); :class:`~agon.games.one_card_wonder.engine.Game`
    adds the rules in layers (:mod:`.actions`, :mod:`.building`, :mod:`.leaders`)."""

    __slots__ = (
        "bag",
        "coins",
        "content",
        "current",
        "display",
        "first_done",
        "n",
        "players",
        "rng",
        "stack",
        "supply",
        "turn",
        "variant",
        "winner",
    )

    def __init__(self) -> None:
        self.content: Content
        self.variant: Variant
        self.n = 0
        self.rng = random.Random(0)
        self.bag = [0] * 5
        self.supply = [0] * 5
        self.coins = 0
        self.players: list[_Player] = []
        self.stack: list[Frame] = []
        self.current = 0
        self.turn = 0
        self.winner: int | None = None
        self.first_done = False
        self.display: list[list[Any]] = []  # [wonder, (r1, r2), taken_by]

    def completed(self, seat: int) -> int:
        """Number of completed wonders of a player."""
        p = self.players[seat]
        return sum(1 for s, w in enumerate(p.wonders) if p.built[s] == (1 << len(w.stages)) - 1)

    def opponents(self, seat: int) -> list[int]:
        """The other players in turn order, starting at the left neighbour."""
        return [(seat + k) % self.n for k in range(1, self.n)]

    def gain_coins(self, seat: int, amount: int) -> None:
        """Receive coins from the general supply; what is not there lapses (NIMM)."""
        k = min(amount, self.coins)
        if k > 0:
            self.coins -= k
            p = self.players[seat]
            p.store[COIN] += k
            p.got_coin = True
            self._overflow(seat)

    def _end(self, winner: int | None) -> None:
        self.winner = winner
        self.stack.clear()

    def _call(self, seat: int, effect: Any, ctx: int) -> None:
        handler = REGISTRY[effect.name].handler
        if handler is not None:
            # a _Base is always the engine's Game, which has the helpers the handlers call
            handler(cast(EffectGame, self), seat, effect, ctx)

    def _overflow(self, seat: int) -> None:
        if sum(self.players[seat].store) > self.content.rules.storage:
            top = self.stack[-1] if self.stack else None
            if top != ("discard", seat):
                self.stack.append(("discard", seat))

    def _opt_discard(self, f: Frame) -> list[Action]:
        store = self.players[f[1]].store
        return [_IA["discard"][i] for i in range(6) if store[i]]

    def _do_discard(self, f: Frame, a: Action) -> None:
        """Overflow goes to the supply board, never the bag; coins to the general supply."""
        i = resource_index(a.args[0])
        self.players[f[1]].store[i] -= 1
        if i == COIN:
            self.coins += 1
        else:
            self.supply[i] += 1
