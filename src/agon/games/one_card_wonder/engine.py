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

:class:`Game` is built in layers along these parts, one module each: the state and the small
steps every rule takes (:mod:`~agon.games.one_card_wonder.state`, with the verbs, :class:`Action`
and :class:`Variant`), production, subsidy, sale and takes (:mod:`.actions`), building and paying
(:mod:`.building`) and the Leaders expansion (:mod:`.leaders`); this module holds setup, the public
API, the frame loop, turns, the trade variant and observations.  A frame's handlers
(``_do_<kind>``, ``_opt_<kind>``, ``_auto_<kind>``) are found on any layer.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agon.errors import IllegalAction
from agon.games.one_card_wonder.actions import _Actions
from agon.games.one_card_wonder.content import (
    COIN,
    RESOURCES,
    Content,
    Wonder,
    default_content,
    item_name,
    resource_index,
)
from agon.games.one_card_wonder.leaders import _Leaders
from agon.games.one_card_wonder.state import (
    _ACCEPT,
    _AUTO,
    _BUILD,
    _DECLINE,
    _DONE,
    _IA,
    _LEADER,
    _PASS,
    _PRODUCE,
    _SELL,
    _offer,
    _Player,
    _rows,
)
from agon.games.one_card_wonder.state import VERBS as VERBS
from agon.games.one_card_wonder.state import Action as Action
from agon.games.one_card_wonder.state import Frame as Frame
from agon.games.one_card_wonder.state import Variant as Variant
from agon.games.one_card_wonder.state import check_setup as check_setup
from agon.games.one_card_wonder.state import parse_offer as parse_offer


class Game(_Leaders, _Actions):
    """One game of One Card Wonder.  Create with :meth:`Game.new`.

    Seats 0..n-1 are in clockwise order; seat 0 is the start player.  The left neighbour of
    seat p is p+1 (the next player), the right neighbour p-1.
    """

    __slots__ = ()

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

    # pay frame: ("pay", seat, target, need5, joker, jlast, coin_for)

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


def _members(cls: type) -> list[tuple[str, Any]]:
    """The functions of ``cls`` and its layers, the most derived first (its own override wins)."""
    seen: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        seen.update(vars(klass))
    return list(seen.items())


#: frame kind -> unbound handler (a dict lookup instead of getattr on every step)
_DO: dict[str, Callable[[Game, Frame, Action], None]] = {
    k[4:]: v for k, v in _members(Game) if k.startswith("_do_")
}
_OPT: dict[str, Callable[[Game, Frame], list[Action]]] = {
    k[5:]: v for k, v in _members(Game) if k.startswith("_opt_")
}
_AUTO_RUN: dict[str, Callable[[Game, Frame], None]] = {
    k[6:]: v for k, v in _members(Game) if k.startswith("_auto_")
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
