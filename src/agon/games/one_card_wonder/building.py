"""Building (AKTION 3): wonder stages and buildings, their discounts and the step-by-step payment,
as a layer of :class:`~agon.games.one_card_wonder.engine.Game`.
"""

from __future__ import annotations

import itertools
from typing import Any

from agon.errors import IllegalAction
from agon.games.one_card_wonder.content import (
    COIN,
    RESOURCES,
    Building,
    resource_index,
)
from agon.games.one_card_wonder.state import _DONE, _IA, _NO_DISCOUNT, Action, Frame, _Base, _Player


class _Building(_Base):
    """Build options, payment steps, placing buildings and completing stages."""

    __slots__ = ()

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
