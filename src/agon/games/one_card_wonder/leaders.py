"""The Leaders expansion (ERWEITERUNG „ANFÜHRER“, FAQ II): leader windows, answers, tributes and
Ramses' placement, as a layer of :class:`~agon.games.one_card_wonder.engine.Game`.
"""

from __future__ import annotations

from agon.games.one_card_wonder.building import _Building
from agon.games.one_card_wonder.content import (
    COIN,
    RESOURCES,
    resource_index,
)
from agon.games.one_card_wonder.state import _IA, _PASS, _REVEAL, _STOP, Action, Frame


class _Leaders(_Building):
    """Leader windows, responses, tributes, Ramses."""

    __slots__ = ()

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
