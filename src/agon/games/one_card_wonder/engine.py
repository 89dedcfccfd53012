"""The One Card Wonder engine: setup, the five actions, wonders, buildings, the variants (trade,
Two Card Wonder) and the Leaders expansion with its FAQ.

Design.  A game is a stack of *frames*.  The top frame is either automatic (run by the engine)
or a decision of one player; :meth:`Game.legal_actions` lists the decisions of the top frame
and :meth:`Game.apply` checks an action against that list and applies it.  Choices that would
multiply (which 2 of 3 to keep, how to pay jokers, what to discard on overflow, which
resources to take) are sequential single steps, so a decision never has more than a few dozen
options:

* Production: one step ``supply <kind>`` names the drawn resource that goes to the supply.
* Build: ``stage W:S`` / ``building B`` (optionally naming the once-per-turn discounts used),
  then one ``pay <item>`` step per cost unit, in canonical order — specific resources first
  (resource before coin), then jokers in non-decreasing item order.  Steps with one option
  are applied automatically.
* Overflow: one ``discard <item>`` per place over the storage limit.

The state is mutable for speed (the hot path of random play); :meth:`Game.clone` copies it.
Randomness (drawing from the bag, dealing) comes only from the game's own seeded generator.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agon.errors import IllegalAction, InvalidInput
from agon.games.one_card_wonder.content import (
    COIN,
    RESOURCES,
    Board,
    Building,
    Content,
    Leader,
    Wonder,
    default_content,
    item_name,
    resource_index,
)
from agon.games.one_card_wonder.effects import REGISTRY

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


class Game:
    """One game of One Card Wonder.  Create with :meth:`Game.new`.

    Seats 0..n-1 are in clockwise order; seat 0 is the start player.  The left neighbour of
    seat p is p+1 (the next player), the right neighbour p-1.
    """

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

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(
        cls,
        players: int,
        seed: int,
        variant: Variant | None = None,
        content: Content | None = None,
    ) -> Game:
        """Set up a game (Rulebook: SPIELVORBEREITUNG I–VIII; Two Card Wonder; Leaders setup).

        Raises:
            InvalidInput: player count outside 2–6, Two Card Wonder with more than 4 players,
                trade with fewer than 4, or content too small for the player count.
        """
        g = cls()
        g.content = content or default_content()
        g.variant = variant or Variant()
        rules = g.content.rules
        check_setup(players, g.variant, g.content)
        g.n = players
        g.rng = random.Random(seed)
        # II: one of each kind to the side (the supply), then 5/7/9/9/11 of each into the bag
        g.supply = [1] * 5
        g.bag = [rules.bag[players]] * 5
        g.coins = rules.coins
        g.players = [_Player() for _ in range(players)]
        # IV: two building boards each (and, with Leaders, one leader each)
        boards = list(g.content.boards)
        g.rng.shuffle(boards)
        for i, p in enumerate(g.players):
            p.board_options = (boards[2 * i], boards[2 * i + 1])
        if g.variant.leaders:
            leaders = list(g.content.leaders)
            g.rng.shuffle(leaders)
            for i, p in enumerate(g.players):
                p.leader = leaders[i]
        wonders = list(g.content.wonders)
        g.rng.shuffle(wonders)
        if g.variant.two_card:  # Two Card Wonder: one random wonder each, face up
            for p in g.players:
                g._add_wonder(p, wonders.pop())
        # V: one wonder more than players, two resources from the bag onto each
        for w in wonders[: players + 1]:
            a, b = g._draw(), g._draw()
            g.display.append([w, (a, b), None])
        # VI: choose counter-clockwise from the right of the start player; VIII: choose a board
        g.stack.append(("setup_done",))
        for seat in reversed(range(players)):
            if g.variant.random_boards:
                p = g.players[seat]
                p.board = p.board_options[g.rng.randrange(2)]
            else:
                g.stack.append(("board", seat))
        if g.variant.random_wonders:  # dealt in the choosing order: last seat first
            for seat in reversed(range(players)):
                free = [d for d in g.display if d[2] is None]
                g._take_display(seat, free[g.rng.randrange(len(free))])
        else:
            for seat in range(players):
                g.stack.append(("wonder", seat))
        g._run()
        return g

    def _add_wonder(self, p: _Player, w: Wonder) -> None:
        slot = len(p.wonders)
        p.wonders.append(w)
        p.built.append(0)
        p.rebuild.append(-1)
        p.rows.append(_rows(w))
        for b in w.buildings:
            p.wb_slot[b.id] = slot

    # ------------------------------------------------------------------ public API

    @property
    def over(self) -> bool:
        return not self.stack

    def current_player(self) -> int:
        """Seat of the player who decides next (-1 when the game is over)."""
        if not self.stack:
            return -1
        return self._decider(self.stack[-1])

    @staticmethod
    def _decider(f: Frame) -> int:
        kind = f[0]
        if kind == "ask":
            return int(f[2][f[3]])
        if kind == "respond":
            return int(f[2][f[3]])
        if kind == "tribute":
            return int(f[2][f[3]])
        if kind == "trade":
            return int(f[2][f[3]])
        if kind == "answer":
            return int(f[5])
        return int(f[1])

    def clone(self, seed: int | None = None) -> Game:
        """A deep copy; with ``seed`` the copy draws from a fresh generator (for search bots,
        which must not see the real game's future draws)."""
        g = Game.__new__(Game)
        g.content = self.content
        g.variant = self.variant
        g.n = self.n
        g.rng = random.Random(seed) if seed is not None else _copy_rng(self.rng)
        g.bag = self.bag[:]
        g.supply = self.supply[:]
        g.coins = self.coins
        g.players = [p.clone() for p in self.players]
        g.stack = self.stack[:]
        g.current = self.current
        g.turn = self.turn
        g.winner = self.winner
        g.first_done = self.first_done
        g.display = [d[:] for d in self.display]
        return g

    def legal_actions(self) -> list[Action]:
        """Every legal decision of :meth:`current_player` (the one source of legality)."""
        if not self.stack:
            return []
        f = self.stack[-1]
        return self._options(f)

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def apply(self, action: Action | str) -> None:
        """Apply a decision of :meth:`current_player`.

        Raises:
            IllegalAction: the action is not among :meth:`legal_actions`.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        legal = self.legal_actions()
        if action not in legal:
            who = self.current_player()
            shown = ", ".join(str(a) for a in legal[:12])
            raise IllegalAction(
                f"player {who}, turn {self.turn}: {str(action)!r} is not legal here "
                f"(legal: {shown}{', ...' if len(legal) > 12 else ''})"
            )
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action taken from :meth:`legal_actions` without checking it again
        (the fast path of random play and search)."""
        f = self.stack[-1]
        _DO[f[0]](self, f, action)
        self._run()

    def storage(self, seat: int) -> int:
        """Places used in a player's storage (resources and coins)."""
        return sum(self.players[seat].store)

    def completed(self, seat: int) -> int:
        """Number of completed wonders of a player."""
        p = self.players[seat]
        return sum(1 for s, w in enumerate(p.wonders) if p.built[s] == (1 << len(w.stages)) - 1)

    def trade(self, a: int, b: int, give: dict[str, int], get: dict[str, int]) -> None:
        """Trade variant, as a direct call for any amounts: player ``a`` gives ``give`` to ``b``
        and receives ``get`` (either may be empty: a gift).  Only between players not on turn,
        with 4+ players (VARIANTEN, HANDEL).  Promises are not modelled: they are not binding.
        A trade is not "Erhalten", so it may not overfill a storage.  In play, trades are the
        listed decisions of the trade window before each turn (``offer``/``accept``/``decline``).

        Raises:
            IllegalAction: variant off, a player on turn, missing items or storage overflow.
        """
        if not self.variant.trade:
            raise IllegalAction("trade: the trade variant is not in play")
        if self.over:
            raise IllegalAction("trade: the game is over")
        for seat in (a, b):
            if not 0 <= seat < self.n:
                raise IllegalAction(f"trade: no player {seat}")
            if seat == self.current:
                raise IllegalAction(f"trade: player {seat} is on turn and may not trade")
        if a == b:
            raise IllegalAction("trade: a player cannot trade with themselves")
        out = [0] * 6
        inc = [0] * 6
        for k, v in give.items():
            out[resource_index(k)] += v
        for k, v in get.items():
            inc[resource_index(k)] += v
        pa, pb = self.players[a], self.players[b]
        for i in range(6):
            if out[i] < 0 or inc[i] < 0:
                raise IllegalAction("trade: negative amounts")
            if pa.store[i] < out[i]:
                raise IllegalAction(f"trade: player {a} has only {pa.store[i]} {item_name(i)}")
            if pb.store[i] < inc[i]:
                raise IllegalAction(f"trade: player {b} has only {pb.store[i]} {item_name(i)}")
        cap = self.content.rules.storage
        if sum(pa.store) - sum(out) + sum(inc) > cap or sum(pb.store) - sum(inc) + sum(out) > cap:
            raise IllegalAction(f"trade: a storage would exceed {cap} places")
        for i in range(6):
            pa.store[i] += inc[i] - out[i]
            pb.store[i] += out[i] - inc[i]

    def result(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "turns": self.turn,
            "capped": self.over and self.winner is None,
        }

    # ------------------------------------------------------------------ helpers for effects

    def neighbours(self, seat: int) -> tuple[int, int]:
        """(left, right) neighbour: left is the next player clockwise."""
        return (seat + 1) % self.n, (seat - 1) % self.n

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

    def take_from_bag(self, seat: int, kind: int, amount: int) -> None:
        """Take resources of one kind out of the bag (NIMM); what is missing lapses."""
        k = min(amount, self.bag[kind])
        if k > 0:
            self.bag[kind] -= k
            self.players[seat].store[kind] += k
            self._overflow(seat)

    def push_take(self, seat: int, source: str | int, amount: int) -> None:
        """Queue ``amount`` single ``take <kind>`` decisions from 'bag', 'supply' or a player."""
        if amount > 0:
            self.stack.append(("take", seat, source, amount))

    def push_sappho(self, seat: int) -> None:
        self.stack.append(("sappho", seat, 0))

    def push_ramses(self, seat: int) -> None:
        self.stack.append(("ramses", seat))

    def push_choose_kind(self, seat: int) -> None:
        self.stack.append(("kind", seat))

    def push_free_stage(self, seat: int) -> None:
        self.stack.append(("place", seat, -1, 1))

    def start_alexander(self, seat: int) -> None:
        """FAQ II Alexander: take every stage marker off and place them again, one by one."""
        p = self.players[seat]
        for slot in reversed(range(len(p.wonders))):
            count = p.built[slot].bit_count()
            p.built[slot] = 0
            if count:
                self.stack.append(("place", seat, slot, count))

    def archimedes(self, seat: int) -> None:
        """FAQ II Archimedes: every unbuilt building of the board is built now (its "Sofort"
        effect happens; ones already built do not repeat); wonder-card buildings may then be
        built beyond the limit of 4."""
        p = self.players[seat]
        assert p.board is not None
        p.archimedes = True
        for b in p.board.buildings:
            if b.id not in p.built_ids:
                self._place_building(seat, b)

    # ------------------------------------------------------------------ the frame loop

    def _run(self) -> None:
        stack = self.stack
        while stack:
            f = stack[-1]
            kind = f[0]
            if kind in _AUTO:
                stack.pop()
                _AUTO_RUN[kind](self, f)
            elif kind == "discard":
                if sum(self.players[f[1]].store) <= self.content.rules.storage:
                    stack.pop()
                else:
                    return
            elif kind == "pay":
                if not self._pay_step(f):
                    return
            elif kind in ("take", "place", "ramses", "kind"):
                if not self._options(f):
                    stack.pop()  # nothing there: the rest lapses (NIMM)
                else:
                    return
            else:
                return

    def _end(self, winner: int | None) -> None:
        self.winner = winner
        self.stack.clear()

    # ------------------------------------------------------------------ options per frame

    def _options(self, f: Frame) -> list[Action]:
        return _OPT[f[0]](self, f)

    def _opt_wonder(self, f: Frame) -> list[Action]:
        return [Action("wonder", (d[0].id,)) for d in self.display if d[2] is None]

    def _do_wonder(self, f: Frame, a: Action) -> None:
        seat = f[1]
        self.stack.pop()
        for d in self.display:
            if d[0].id == a.args[0]:
                self._take_display(seat, d)
                return

    def _take_display(self, seat: int, d: list[Any]) -> None:
        """``seat`` takes display entry ``d``: the wonder and the resources on it (VI)."""
        d[2] = seat
        p = self.players[seat]
        self._add_wonder(p, d[0])
        for r in d[1]:
            if r is not None:
                p.store[r] += 1

    def _opt_board(self, f: Frame) -> list[Action]:
        return [Action("board", (b.id,)) for b in self.players[f[1]].board_options]

    def _do_board(self, f: Frame, a: Action) -> None:
        self.stack.pop()
        p = self.players[f[1]]
        p.board = next(b for b in p.board_options if b.id == a.args[0])

    def _auto_setup_done(self, f: Frame) -> None:
        for d in self.display:  # VI: the left-over wonder's resources go back into the bag
            if d[2] is None:
                for r in d[1]:
                    if r is not None:
                        self.bag[r] += 1
        self.display = []
        self.stack.append(("turn_start", 0))

    # --- turns

    def _auto_turn_start(self, f: Frame) -> None:
        seat = f[1]
        cap = self.variant.max_turns
        if cap is not None and self.turn >= cap:
            self._end(None)
            return
        self.current = seat
        p = self.players[seat]
        p.used.clear()
        self.stack.append(("turn_end", seat))
        self.stack.append(("turn", seat))
        if self.variant.trade:  # VARIANTEN, HANDEL: the others may trade while seat is on turn
            self.stack.append(("trade", seat, tuple(self.opponents(seat)), 0))
        if p.zeus:  # FAQ I: take the coin from the competition ground at the start of the turn
            p.store[COIN] += p.zeus
            p.zeus = 0
            self._overflow(seat)
        p.got_coin = False

    def _auto_turn_end(self, f: Frame) -> None:
        seat = f[1]
        p = self.players[seat]
        self.turn += 1
        if "turn" in p.by_trigger and not p.got_coin and self.coins > 0:
            self.coins -= 1  # FAQ I: a coin on the competition ground
            p.zeus += 1
        self.stack.append(("next", seat))
        if self.variant.leaders:
            self.stack.append(("open_window", seat))

    def _auto_next(self, f: Frame) -> None:
        self.stack.append(("turn_start", (f[1] + 1) % self.n))

    # --- the trade variant (VARIANTEN, HANDEL)

    def _opt_trade(self, f: Frame) -> list[Action]:
        """Each player not on turn, in turn order, may offer one trade to another player not on
        turn (`offer <seat> <item> for <item>`, `nothing` on either side: a gift or a request),
        or `pass`.  One unit each way keeps the decision small; bigger deals are several
        windows.  A trade may not overfill a storage (it is not "Erhalten")."""
        _, _mover, order, i = f
        me = order[i]
        cap = self.content.rules.storage
        mine = self.players[me].store
        out = [_PASS]
        for q in order:
            if q == me:
                continue
            theirs = self.players[q].store
            for give in (*range(6), -1):
                if give >= 0 and not mine[give]:
                    continue
                for get in (*range(6), -1):
                    if give == get or (get >= 0 and not theirs[get]):
                        continue
                    if (get < 0 and sum(theirs) + 1 > cap) or (give < 0 and sum(mine) + 1 > cap):
                        continue
                    out.append(_offer(q, give, get))
        return out

    def _do_trade(self, f: Frame, a: Action) -> None:
        _, mover, order, i = f
        self.stack.pop()
        if a.verb == "pass":
            if i + 1 < len(order):
                self.stack.append(("trade", mover, order, i + 1))
            return
        partner, give, get = parse_offer(a)
        self.stack.append(("answer", mover, order, i, order[i], partner, give, get))

    def _opt_answer(self, f: Frame) -> list[Action]:
        return [_ACCEPT, _DECLINE]

    def _do_answer(self, f: Frame, a: Action) -> None:
        """The partner accepts (the items change hands) or declines; then the next player not
        on turn may offer."""
        _, mover, order, i, proposer, partner, give, get = f
        self.stack.pop()
        if a.verb == "accept":
            pa, pb = self.players[proposer], self.players[partner]
            if give >= 0:
                pa.store[give] -= 1
                pb.store[give] += 1
            if get >= 0:
                pb.store[get] -= 1
                pa.store[get] += 1
        if i + 1 < len(order):
            self.stack.append(("trade", mover, order, i + 1))

    def _regular(self, seat: int, mask: int) -> list[Action]:
        """The four regular actions (AKTION 1–4) not excluded by ``mask`` (for Sappho)."""
        out: list[Action] = []
        if not mask & 1:
            out.append(_PRODUCE)
        if not mask & 2:
            for r in range(5):
                if self.supply[r]:  # agon: a subsidy must take at least 1 resource
                    out.append(_IA["subsidy"][r])
        if not mask & 4 and self._build_options(seat, 0, stop_at_first=True):
            out.append(_BUILD)
        if not mask & 8 and any(x >= 2 for x in self.players[seat].store[:5]):
            out.append(_SELL)
        return out

    def _opt_turn(self, f: Frame) -> list[Action]:
        seat = f[1]
        out = self._regular(seat, 0)
        p = self.players[seat]
        for b in p.by_trigger.get("new_action", ()):
            out.append(Action("new", (b.id,)))
        if p.leader is not None and p.leader_state == 0 and p.leader.effect.name == "leader_sappho":
            out.append(_LEADER)
        return out

    def _start_regular(self, seat: int, a: Action) -> None:
        v = a.verb
        if v == "produce":
            self._production(seat)
        elif v == "subsidy":
            self._subsidy(seat, resource_index(a.args[0]))
        elif v == "build":
            self.stack.append(("build", seat, 0))
        elif v == "sell":
            self.stack.append(("sell", seat, 0))

    def _do_turn(self, f: Frame, a: Action) -> None:
        seat = f[1]
        self.stack.pop()
        if a.verb == "new":  # AKTION 5: no other building triggers
            b = next(b for b in self.players[seat].by_trigger["new_action"] if b.id == a.args[0])
            self._call(seat, b.effect, 0)
        elif a.verb == "leader":  # FAQ II Sappho: only in the own turn, as the turn
            self.players[seat].leader_state = 1
            self.stack.append(("resolve", seat))
        else:
            self._start_regular(seat, a)

    def _opt_sappho(self, f: Frame) -> list[Action]:
        return [*self._regular(f[1], f[2]), _DONE]

    def _do_sappho(self, f: Frame, a: Action) -> None:
        seat, mask = f[1], f[2]
        self.stack.pop()
        if a.verb == "done":
            return
        bit = {"produce": 1, "subsidy": 2, "build": 4, "sell": 8}[a.verb]
        if mask | bit != 15:
            self.stack.append(("sappho", seat, mask | bit))
        self._start_regular(seat, a)

    def _call(self, seat: int, effect: Any, ctx: int) -> None:
        handler = REGISTRY[effect.name].handler
        if handler is not None:
            handler(self, seat, effect, ctx)

    # --- AKTION 1: production

    def _draw(self) -> int | None:
        bag = self.bag
        total = bag[0] + bag[1] + bag[2] + bag[3] + bag[4]
        if total == 0:
            return None
        x = self.rng.randrange(total)
        for r in range(5):
            x -= bag[r]
            if x < 0:
                bag[r] -= 1
                return r
        raise AssertionError("unreachable")

    def _production(self, seat: int) -> None:
        """Draw 3, keep 2, 1 to the supply board (AKTION 1 PRODUKTION); the Oracle draws one
        more and puts one back first, then the Hippodrome may keep all 3 (FAQ I)."""
        p = self.players[seat]
        extra = sum(int(b.effect.get("amount", 1)) for b in p.by_trigger.get("production", ())
                    if b.effect.name == "production_draw_extra")  # fmt: skip
        drawn: list[int] = []
        for _ in range(3 + extra):
            r = self._draw()
            if r is None:
                break  # the bag is empty: the rest lapses
            drawn.append(r)
        self._prod_keep(seat, tuple(sorted(drawn)))

    def _prod_keep(self, seat: int, drawn: tuple[int, ...]) -> None:
        p = self.players[seat]
        if len(drawn) > 3:
            self.stack.append(("return", seat, drawn))
            return
        prod = p.by_trigger.get("production", ())
        keep_all = (
            len(drawn) == 3
            and len(set(drawn)) == 3
            and any(b.effect.name == "production_keep_all_if_distinct" for b in prod)
        )
        if len(drawn) == 3 and not keep_all:
            self.stack.append(("supply", seat, drawn))
            return
        self._prod_gain(seat, drawn)

    def _prod_gain(self, seat: int, kept: tuple[int, ...]) -> None:
        p = self.players[seat]
        for r in kept:
            p.store[r] += 1
        for b in p.by_trigger.get("production", ()):
            self._call(seat, b.effect, 0)
        self._overflow(seat)

    def _opt_return(self, f: Frame) -> list[Action]:
        return [_IA["return"][r] for r in sorted(set(f[2]))]

    def _do_return(self, f: Frame, a: Action) -> None:
        self.stack.pop()
        r = resource_index(a.args[0])
        drawn = list(f[2])
        drawn.remove(r)
        self.bag[r] += 1
        self._prod_keep(f[1], tuple(drawn))

    def _opt_supply(self, f: Frame) -> list[Action]:
        return [_IA["supply"][r] for r in sorted(set(f[2]))]

    def _do_supply(self, f: Frame, a: Action) -> None:
        self.stack.pop()
        r = resource_index(a.args[0])
        drawn = list(f[2])
        drawn.remove(r)
        self.supply[r] += 1
        self._prod_gain(f[1], tuple(drawn))

    # --- AKTION 2: subsidy

    def _subsidy(self, seat: int, r: int) -> None:
        """All resources of one kind from the supply board (AKTION 2 SUBVENTION)."""
        k = self.supply[r]
        self.supply[r] = 0
        p = self.players[seat]
        p.store[r] += k
        if k >= 1:
            for b in p.by_trigger.get("subsidy", ()):
                self._call(seat, b.effect, r)
        self._overflow(seat)

    # --- AKTION 4: sale

    def _opt_sell(self, f: Frame) -> list[Action]:
        store = self.players[f[1]].store
        out = [_IA["sell"][r] for r in range(5) if store[r] >= 2]
        if f[2] >= 1:
            out.append(_DONE)
        return out

    def _do_sell(self, f: Frame, a: Action) -> None:
        """Two equal resources to the bag, one coin (AKTION 4 VERKAUF); the Forge adds coins."""
        seat = f[1]
        self.stack.pop()
        if a.verb == "done":
            return
        self.stack.append(("sell", seat, f[2] + 1))
        r = resource_index(a.args[0])
        p = self.players[seat]
        p.store[r] -= 2
        self.bag[r] += 2
        self.gain_coins(seat, 1)
        for b in p.by_trigger.get("sale", ()):
            self._call(seat, b.effect, r)

    # --- storage overflow (Hinweis zu AKTION 4)

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

    # --- takes (NIMM)

    def _source_counts(self, source: str | int) -> list[int]:
        if source == "bag":
            return self.bag
        if source == "supply":
            return self.supply
        assert isinstance(source, int)
        return self.players[source].store

    def _opt_take(self, f: Frame) -> list[Action]:
        counts = self._source_counts(f[2])
        return [_IA["take"][r] for r in range(5) if counts[r]]

    def _do_take(self, f: Frame, a: Action) -> None:
        seat, source, left = f[1], f[2], f[3]
        self.stack.pop()
        if left > 1:
            self.stack.append(("take", seat, source, left - 1))
        r = resource_index(a.args[0])
        self._source_counts(source)[r] -= 1
        self.players[seat].store[r] += 1
        self._overflow(seat)

    def _opt_kind(self, f: Frame) -> list[Action]:
        return [_IA["kind"][r] for r in range(5) if self.supply[r]]

    def _do_kind(self, f: Frame, a: Action) -> None:
        self.stack.pop()
        r = resource_index(a.args[0])
        k = self.supply[r]
        self.supply[r] = 0
        self.players[f[1]].store[r] += k
        self._overflow(f[1])

    # --- AKTION 3: build

    def _locked(self, p: _Player, slot: int) -> bool:
        """Two Card Wonder: after building on one card, the other waits for a first wonder."""
        return self.variant.two_card and not self.first_done and p.active not in (-1, slot)

    def _stage_open(self, p: _Player, slot: int, i: int) -> bool:
        """Unbuilt, every arrow source built (WUNDER-KARTEN), no other stage waiting to be
        rebuilt after Ramses (FAQ II)."""
        built = p.built[slot]
        if built >> i & 1:
            return False
        req = p.wonders[slot].prereq[i]
        if built & req != req:
            return False
        rb = p.rebuild[slot]
        return rb == -1 or rb == i

    def _can_building(self, p: _Player, b: Building) -> bool:
        if b.id in p.built_ids:
            return False
        if b.after is not None and b.after not in p.built_ids:
            return False
        if b.shares_token:
            return True
        if p.tokens < self.content.rules.tokens:
            return True
        return p.archimedes and b.id in p.wb_slot  # FAQ II Archimedes

    @staticmethod
    def _feasible(store: list[int], need: list[int] | tuple[int, ...], joker: int) -> bool:
        """Can ``store`` pay specific ``need`` (coins stand in for any resource) and jokers?"""
        short = 0
        spare = 0
        for r in range(5):
            d = store[r] - need[r]
            if d < 0:
                short -= d
            else:
                spare += d
        coins = store[COIN] - short
        return coins >= 0 and spare + coins >= joker

    def _discount_sets(self, p: _Player, cost_res: tuple[int, ...]) -> list[tuple[Building, ...]]:
        if "build" not in p.by_trigger:
            return _NO_DISCOUNT
        ds = [
            b
            for b in p.by_trigger.get("build", ())
            if b.effect.name == "build_discount"
            and b.id not in p.used
            and cost_res[RESOURCES.index(b.effect.get("resource"))] > 0
        ]
        if not ds:
            return [()]
        return [c for k in range(len(ds) + 1) for c in itertools.combinations(ds, k)]

    @staticmethod
    def _need(cost_res: tuple[int, ...], discounts: tuple[Building, ...]) -> list[int]:
        need = list(cost_res)
        for b in discounts:  # KOSTENREDUZIERUNGEN: never jokers or coins
            r = RESOURCES.index(b.effect.get("resource"))
            need[r] = max(0, need[r] - int(b.effect.get("amount", 1)))
        return need

    def _payable(self, p: _Player, cost: Any, need: list[int] | tuple[int, ...]) -> bool:
        if p.store[COIN] < cost.coin:  # a coin cost is paid only with coins (MÜNZEN)
            return False
        store = p.store[:]
        store[COIN] -= cost.coin
        return self._feasible(store, need, cost.joker)

    def _build_options(self, seat: int, phase: int, stop_at_first: bool = False) -> list[Action]:
        """Build phases: 0 nothing yet, 1 stages, 2 building first, 3 building after stages
        (nothing more), 4 stages after a building (no building) — "vor oder nach dem
        Vollenden von Bauabschnitten ..., aber nicht zwischen zwei Bauabschnitten"."""
        p = self.players[seat]
        out: list[Action] = []
        if phase in (0, 1, 2, 4):
            store = p.store
            held = store[0] + store[1] + store[2] + store[3] + store[4] + store[5]
            plain = "build" not in p.by_trigger  # no discounts: the fast path
            for slot, w in enumerate(p.wonders):
                if self._locked(p, slot):
                    continue
                built = p.built[slot]
                rb = p.rebuild[slot]
                for i, bit, req, res, joker, coin, total, action, st in p.rows[slot]:
                    if built & bit or built & req != req or (rb != -1 and rb != i):
                        continue
                    if store[COIN] < coin:
                        continue
                    if plain:
                        if held < total:
                            continue
                        # inline _feasible: coins cover missing resources, then jokers
                        short = spare = 0
                        for r in range(5):
                            d = store[r] - res[r]
                            if d < 0:
                                short -= d
                            else:
                                spare += d
                        c = store[COIN] - coin - short
                        if c < 0 or spare + c < joker:
                            continue
                        out.append(action)
                        if stop_at_first:
                            return out
                        continue
                    cost = st.cost
                    for ds in self._discount_sets(p, res):
                        if self._payable(p, cost, self._need(res, ds)):
                            if ds:
                                ids = tuple(b.id for b in ds)
                                out.append(Action("stage", (f"{w.id}:{st.id}", *ids)))
                            else:
                                out.append(action)
                            if stop_at_first:
                                return out
        if phase in (0, 1):
            cands: list[Building] = list(p.board.buildings) if p.board else []
            for slot, w in enumerate(p.wonders):
                if not self._locked(p, slot):
                    cands.extend(w.buildings)
            for b in cands:
                if not self._can_building(p, b):
                    continue
                for ds in self._discount_sets(p, b.cost.res):
                    if self._payable(p, b.cost, self._need(b.cost.res, ds)):
                        out.append(Action("building", (b.id, *(d.id for d in ds))))
                        if stop_at_first:
                            return out
        if phase > 0:
            out.append(_DONE)
        return out

    def _opt_build(self, f: Frame) -> list[Action]:
        return self._build_options(f[1], f[2])

    def _find_building(self, p: _Player, bid: str) -> Building:
        if p.board:
            for b in p.board.buildings:
                if b.id == bid:
                    return b
        for w in p.wonders:
            for b in w.buildings:
                if b.id == bid:
                    return b
        raise IllegalAction(f"no building {bid!r}")

    def _do_build(self, f: Frame, a: Action) -> None:
        seat, phase = f[1], f[2]
        self.stack.pop()
        if a.verb == "done":
            return
        p = self.players[seat]
        if a.verb == "stage":
            wid, sid = a.args[0].split(":")
            slot = next(s for s, w in enumerate(p.wonders) if w.id == wid)
            idx = p.wonders[slot].stage_index(sid)
            cost = p.wonders[slot].stages[idx].cost
            new_phase = {0: 1, 1: 1, 2: 4, 4: 4}[phase]
            target: tuple[Any, ...] = ("stage", slot, idx)
        else:
            b = self._find_building(p, a.args[0])
            cost = b.cost
            new_phase = 2 if phase == 0 else 3
            target = ("building", b.id)
        if new_phase != 3:
            self.stack.append(("build", seat, new_phase))
        ds = tuple(self._find_building(p, d) for d in a.args[1:])
        for d in ds:
            p.used.add(d.id)  # once per turn
        need = self._need(cost.res, ds)
        p.store[COIN] -= cost.coin
        self.coins += cost.coin
        self.stack.append(("pay", seat, target, tuple(need), cost.joker, 0, -1))

    # pay frame: ("pay", seat, target, need5, joker, jlast, coin_for)

    def _opt_pay(self, f: Frame) -> list[Action]:
        return [_IA["pay"][i] for i in self._pay_items(f)]

    def _pay_items(self, f: Frame) -> list[int]:
        store = self.players[f[1]].store
        need: tuple[int, ...] = f[3]
        joker = f[4]
        for r in range(5):
            if need[r]:
                items = []
                n2 = list(need)
                n2[r] -= 1
                if store[r] > 0:
                    store[r] -= 1
                    if self._feasible(store, n2, joker):
                        items.append(r)
                    store[r] += 1
                if store[COIN] > 0:
                    store[COIN] -= 1
                    if self._feasible(store, n2, joker):
                        items.append(COIN)
                    store[COIN] += 1
                return items
        return [i for i in range(f[5], 6) if store[i] > 0] if joker else []

    def _do_pay(self, f: Frame, a: Action) -> None:
        self._pay_item(f, resource_index(a.args[0]))

    def _pay_item(self, f: Frame, item: int) -> None:
        """Paid resources go into the bag at once, coins to the general supply (BAU)."""
        p = self.players[f[1]]
        p.store[item] -= 1
        if item == COIN:
            self.coins += 1
        else:
            self.bag[item] += 1
        need: tuple[int, ...] = f[3]
        for r in range(5):
            if need[r]:
                n2 = list(need)
                n2[r] -= 1
                self.stack[-1] = (f[0], f[1], f[2], tuple(n2), f[4], f[5], -1)
                return
        self.stack[-1] = (f[0], f[1], f[2], need, f[4] - 1, item, -1)

    def _pay_step(self, f: Frame) -> bool:
        """Finish a payment or apply a forced step; False when a real choice is left."""
        if f[4] == 0 and not any(f[3]):
            self.stack.pop()
            self._finish_build(f[1], f[2])
            return True
        items = self._pay_items(f)
        if len(items) == 1:
            self._pay_item(f, items[0])
            return True
        return False

    def _finish_build(self, seat: int, target: tuple[Any, ...]) -> None:
        if target[0] == "stage":
            self._complete_stage(seat, target[1], target[2])
        else:
            self._place_building(seat, self._find_building(self.players[seat], target[1]))

    def _place_building(self, seat: int, b: Building) -> None:
        """A token goes on the building; its advantages count from now on, also for stages of
        this turn (GEBÄUDE); "Sofort" effects happen once, after paying."""
        p = self.players[seat]
        p.built_ids.add(b.id)
        if not b.shares_token:
            p.tokens += 1
        trig = b.effect.trigger
        if trig != "immediate":
            p.by_trigger.setdefault(trig, []).append(b)
        slot = p.wb_slot.get(b.id)
        if slot is not None and p.active == -1:
            p.active = slot
        if trig == "immediate":
            self._call(seat, b.effect, 0)

    def _complete_stage(self, seat: int, slot: int, i: int) -> None:
        """Place a stage marker; the first to complete every stage wins at once (SPIELENDE);
        in Two Card Wonder the first to complete two."""
        p = self.players[seat]
        p.built[slot] |= 1 << i
        if p.rebuild[slot] == i:
            p.rebuild[slot] = -1
        if p.active == -1:
            p.active = slot
        w = p.wonders[slot]
        if p.built[slot] == (1 << len(w.stages)) - 1:
            if not self.variant.two_card or self.completed(seat) >= 2:
                self._end(seat)
            else:
                self.first_done = True

    # --- leaders (ERWEITERUNG „ANFÜHRER“, FAQ II)

    def _auto_open_window(self, f: Frame) -> None:
        mover = f[1]
        order = tuple(
            q
            for q in ((mover + k) % self.n for k in range(self.n))
            if (lead := self.players[q].leader) is not None
            and self.players[q].leader_state == 0
            and lead.effect.name != "leader_sappho"
        )
        if order:
            self.stack.append(("ask", mover, order, 0, ()))

    def _opt_ask(self, f: Frame) -> list[Action]:
        return [_PASS, _REVEAL]

    def _do_ask(self, f: Frame, a: Action) -> None:
        """Reveals after a turn are collected, then resolved in turn order starting with the
        player who just moved (FAQ II: several leaders at once)."""
        _, mover, order, i, revealed = f
        self.stack.pop()
        if a.verb == "reveal":
            revealed = (*revealed, order[i])
        if i + 1 < len(order):
            self.stack.append(("ask", mover, order, i + 1, revealed))
            return
        if revealed:
            self.stack.append(("open_window", mover))
            for q in revealed:
                self.players[q].leader_state = 1
            for q in reversed(revealed):
                self.stack.append(("resolve", q))

    def _auto_resolve(self, f: Frame) -> None:
        q = f[1]
        if self.players[q].leader_state == 2:
            return
        self.stack.append(("outcome", q))
        self.stack.append(("tribute_start", q))
        askers = tuple(
            o
            for o in self.opponents(q)
            if (lead := self.players[o].leader) is not None
            and self.players[o].leader_state == 0
            and lead.effect.name == "leader_cartimandua"
        )
        if askers:
            self.stack.append(("respond", q, askers, 0))

    def _opt_respond(self, f: Frame) -> list[Action]:
        return [_PASS, _REVEAL]

    def _do_respond(self, f: Frame, a: Action) -> None:
        """FAQ II Cartimandua: may be revealed to defeat a leader that was just revealed."""
        _, q, askers, i = f
        self.stack.pop()
        if a.verb == "reveal":
            c = askers[i]
            self.players[c].leader_state = 1
            self.stack.append(("counter", c, q))
            self.stack.append(("outcome", c))
            self.stack.append(("tribute_start", c))
        elif i + 1 < len(askers):
            self.stack.append(("respond", q, askers, i + 1))

    def _auto_counter(self, f: Frame) -> None:
        if self.players[f[1]].leader_state == 3:  # Cartimandua was not defeated
            self.players[f[2]].leader_state = 2

    def _auto_tribute_start(self, f: Frame) -> None:
        q = f[1]
        p = self.players[q]
        if p.leader_state == 2 or p.leader is None:
            return
        cost = p.leader.defeat
        remaining = (*cost.res, cost.joker, cost.coin)
        self.stack.append(("tribute", q, tuple(self.opponents(q)), 0, remaining, ()))

    def _globe(self, q: int) -> bool:
        lead = self.players[q].leader
        return lead is not None and lead.globe and self.n <= 3

    def _opt_tribute(self, f: Frame) -> list[Action]:
        _, q, contributors, i, rem, _paid = f
        store = self.players[contributors[i]].store
        out = [_STOP]
        for r in range(5):
            if store[r] and (rem[r] or rem[5]):
                out.append(_IA["tribute"][r])
        if store[COIN] and any(rem):
            out.append(_IA["tribute"][COIN])
        # the globe: with 2-3 players the opponents may take ONE resource of their choice
        # from the supply board towards the cost ("eine beliebige Ressource aus dem Vorrat")
        if self._globe(q) and not any(fs for _who, _item, fs in _paid):
            for r in range(5):
                if self.supply[r] and (rem[r] or rem[5]):
                    out.append(Action("tribute", (RESOURCES[r], "supply")))
        return out

    def _do_tribute(self, f: Frame, a: Action) -> None:
        """Opponents pay the defeat cost together, split as they like; paid in full, it goes
        to the leader's owner as tribute; otherwise nothing is paid and the effect happens."""
        _, q, contributors, i, rem, paid = f
        self.stack.pop()
        if a.verb == "stop":
            if i + 1 < len(contributors):
                self.stack.append(("tribute", q, contributors, i + 1, rem, paid))
            else:
                for who, item, from_supply in paid:  # not paid in full: everything goes back
                    if from_supply:
                        self.supply[item] += 1
                    else:
                        self.players[who].store[item] += 1
            return
        item = resource_index(a.args[0])
        from_supply = len(a.args) > 1
        who = contributors[i]
        if from_supply:
            self.supply[item] -= 1
        else:
            self.players[who].store[item] -= 1
        r = list(rem)
        if item == COIN:
            slot = 6 if r[6] else next((k for k in range(5) if r[k]), 5)
        else:
            slot = item if r[item] else 5
        r[slot] -= 1
        paid = (*paid, (who, item, from_supply))
        if any(r):
            self.stack.append(("tribute", q, contributors, i, tuple(r), paid))
            return
        owner = self.players[q]
        owner.leader_state = 2
        for _who, it, _fs in paid:
            owner.store[it] += 1
        self._overflow(q)

    def _auto_outcome(self, f: Frame) -> None:
        q = f[1]
        p = self.players[q]
        if p.leader_state == 2 or p.leader is None:
            return  # defeated: the leader goes into the box without effect
        p.leader_state = 3
        self._call(q, p.leader.effect, 0)

    def _opt_ramses(self, f: Frame) -> list[Action]:
        out = []
        for o in self.opponents(f[1]):
            p = self.players[o]
            for slot, w in enumerate(p.wonders):
                for i, st in enumerate(w.stages):
                    if p.built[slot] >> i & 1:
                        out.append(Action("destroy", (str(o), f"{w.id}:{st.id}")))
        return out

    def _do_ramses(self, f: Frame, a: Action) -> None:
        """FAQ II Ramses: any completed stage, lower ones too; the others stay; it must be
        rebuilt before any other stage."""
        self.stack.pop()
        p = self.players[int(a.args[0])]
        wid, sid = a.args[1].split(":")
        slot = next(s for s, w in enumerate(p.wonders) if w.id == wid)
        i = p.wonders[slot].stage_index(sid)
        p.built[slot] &= ~(1 << i)
        p.rebuild[slot] = i

    def _opt_place(self, f: Frame) -> list[Action]:
        p = self.players[f[1]]
        out = []
        for slot, w in enumerate(p.wonders):
            if f[2] == -1 and self._locked(p, slot):
                continue
            if f[2] not in (-1, slot):
                continue
            for i, st in enumerate(w.stages):
                if self._stage_open(p, slot, i):
                    out.append(Action("place", (f"{w.id}:{st.id}",)))
        return out

    def _do_place(self, f: Frame, a: Action) -> None:
        """Place a stage marker without paying, by the order rules (FAQ II Alexander)."""
        seat, _slot, left = f[1], f[2], f[3]
        self.stack.pop()
        if left > 1:
            self.stack.append(("place", seat, f[2], left - 1))
        p = self.players[seat]
        wid, sid = a.args[0].split(":")
        slot = next(s for s, w in enumerate(p.wonders) if w.id == wid)
        self._complete_stage(seat, slot, p.wonders[slot].stage_index(sid))

    # ------------------------------------------------------------------ observation

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: everything but other players' hidden leaders and, during
        setup, other players' board choices.  The bag's content is public by counting."""
        setup = any(p.board is None for p in self.players)
        players = []
        for s, p in enumerate(self.players):
            lead: str | None = None
            if p.leader is not None:
                lead = p.leader.id if (s == seat or p.leader_state) else "hidden"
            players.append(
                {
                    "seat": s,
                    "storage": {item_name(i): p.store[i] for i in range(6) if p.store[i]},
                    "wonders": [
                        {
                            "id": w.id,
                            "built": [
                                st.id for i, st in enumerate(w.stages) if p.built[k] >> i & 1
                            ],
                            "rebuild_first": w.stages[p.rebuild[k]].id
                            if p.rebuild[k] >= 0
                            else None,
                        }
                        for k, w in enumerate(p.wonders)
                    ],
                    "board": p.board.id if p.board and (not setup or s == seat) else None,
                    "board_options": [b.id for b in p.board_options] if s == seat else None,
                    "buildings": sorted(p.built_ids),
                    "tokens_left": max(0, self.content.rules.tokens - p.tokens),
                    "leader": lead,
                    "leader_state": ["hidden", "revealed", "defeated", "used"][p.leader_state],
                    "competition_ground": p.zeus,
                }
            )
        return {
            "seat": seat,
            "to_move": self.current_player(),
            "on_turn": self.current,
            "turn": self.turn,
            "bag": dict(zip(RESOURCES, self.bag, strict=True)),
            "supply": dict(zip(RESOURCES, self.supply, strict=True)),
            "coins": self.coins,
            "display": [
                {
                    "wonder": d[0].id,
                    "resources": [RESOURCES[r] for r in d[1] if r is not None],
                    "taken_by": d[2],
                }
                for d in self.display
            ]
            if setup
            else [],
            "players": players,
            "winner": self.winner,
            "over": self.over,
        }


#: frame kind -> unbound handler (a dict lookup instead of getattr on every step)
_DO: dict[str, Callable[[Game, Frame, Action], None]] = {
    k[4:]: v for k, v in vars(Game).items() if k.startswith("_do_")
}
_OPT: dict[str, Callable[[Game, Frame], list[Action]]] = {
    k[5:]: v for k, v in vars(Game).items() if k.startswith("_opt_")
}
_AUTO_RUN: dict[str, Callable[[Game, Frame], None]] = {
    k[6:]: v for k, v in vars(Game).items() if k.startswith("_auto_")
}
assert set(_AUTO_RUN) == _AUTO


def _copy_rng(rng: random.Random) -> random.Random:
    c = random.Random()
    c.setstate(rng.getstate())
    return c


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The outcome of one simulated game."""

    seed: int
    winner: int | None
    turns: int
    bots: tuple[str, ...]
    wonders: tuple[tuple[str, ...], ...]
    boards: tuple[str, ...]
    leaders: tuple[str | None, ...]
    #: Wonder stages each seat completed by the end (all wonders together); empty in records
    #: made before agon counted them.
    stages: tuple[int, ...] = ()
