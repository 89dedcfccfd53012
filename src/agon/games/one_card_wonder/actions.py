"""The actions but building: production (AKTION 1), subsidy (AKTION 2), sale (AKTION 4) and
takes (NIMM), as a layer of :class:`~agon.games.one_card_wonder.engine.Game`.
"""

from __future__ import annotations

from agon.games.one_card_wonder.content import (
    resource_index,
)
from agon.games.one_card_wonder.state import _DONE, _IA, Action, Frame, _Base


class _Actions(_Base):
    """Production, subsidy, sale and takes."""

    __slots__ = ()

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
