"""The local search's first phases: seat numbers first (:class:`_SeatNumbers`) and the
grouping of players into tables against repeat encounters (:class:`_Grouping`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations

from agon.tournament.draws import (
    rng,
)
from agon.tournament.seating.bounds import start_bands
from agon.tournament.seating.model import Weights, _excess, _Past, _start_change

# --------------------------------------------------------------------------------------------
# the local search


class _SeatNumbers:
    """Phase 1: which seat number each player takes in each round, before any grouping.

    Seat k plays the round's k-th wonder and seat 0 starts, so the wonder and start rules depend
    only on seat numbers. A round needs as many players on seat k as it has tables with more than
    k seats; *any* grouping that puts one player of each seat number at each table then keeps both
    rules. Annealing over swaps of two players' seat numbers within a round finds such numbers;
    phase 2 (:class:`_Search`) groups players without touching them.
    """

    def __init__(
        self,
        n: int,
        sizes: tuple[int, ...],
        wonders: list[list[int]] | None,
        rounds: int,
        seed: str,
        weights: Weights,
        past: _Past | None = None,
    ) -> None:
        self.n, self.rounds, self.wonders, self.w = n, rounds, wonders, weights
        self.rand = rng(seed, "schedule-seat-numbers")
        s_max = max(sizes)
        past = past or _Past.empty(n, s_max)
        self.past = past
        self.lo, self.hi = start_bands(past.sc, rounds, len(sizes))
        self.wc = past.copy_wc()
        self.sc = past.sc[:]
        self.seat = past.copy_seat()
        slots = [k for k in range(s_max) for s in sizes if s > k]
        self.idx: list[list[int]] = []
        # the played rounds' own violations, then every player's start count against the band
        self.cost = weights.wonder * _excess(self.wc) + weights.seat * _excess(self.seat)
        self.cost += weights.start * sum(self._pen(p, c) for p, c in enumerate(self.sc))
        for r in range(rounds):
            row = slots[:]
            self.rand.shuffle(row)
            self.idx.append(row)
            for p in range(n):
                self.cost += self._add(r, p, row[p], 1)

    def _pen(self, p: int, c: int) -> int:
        return max(0, c - self.hi[p]) + max(0, self.lo[p] - c)

    def _add(self, r: int, p: int, k: int, sign: int) -> int:
        w = self.w
        delta = 0
        if self.wonders is not None:
            wid = self.wonders[r][k]
            wc_p = self.wc[p]
            c = wc_p[wid]
            if sign > 0:
                if c >= 1:
                    delta += w.wonder
            elif c >= 2:
                delta -= w.wonder
            wc_p[wid] = c + sign
        if k == 0:
            c = self.sc[p]
            delta += w.start * _start_change(self.lo[p], self.hi[p], c, c + sign)
            self.sc[p] = c + sign
        seat_p = self.seat[p]
        c = seat_p[k]
        if sign > 0:
            if c >= 1:
                delta += w.seat
        elif c >= 2:
            delta -= w.seat
        seat_p[k] = c + sign
        return delta

    def swap(self, r: int, a: int, b: int) -> int:
        row = self.idx[r]
        i, j = row[a], row[b]
        delta = self._add(r, a, i, -1) + self._add(r, b, j, -1)
        delta += self._add(r, a, j, 1) + self._add(r, b, i, 1)
        row[a], row[b] = j, i
        self.cost += delta
        return delta

    def hard(self) -> list[tuple[int, int]]:
        """(round, player) breaking the wonder or the start rule."""
        out = []
        for r in range(self.rounds):
            row = self.idx[r]
            for p in range(self.n):
                k = row[p]
                sc = self.sc[p]
                if (self.wonders is not None and self.wc[p][self.wonders[r][k]] > 1) or (
                    sc < self.lo[p] or (k == 0 and sc > self.hi[p])
                ):
                    out.append((r, p))
        return out

    def run(self, max_iterations: int, forced: int = 0) -> None:
        """Anneal: focus on rule breakers; then spend a little on seat-number balance. Stops
        when every rule is at its floor (:meth:`floor`, ``forced`` new wonder repeats)."""
        rand, n, rounds = self.rand, self.n, self.rounds
        # randrange(m) written out as CPython's own: getrandbits of m's bit length, drawn again
        # while not below m (the same numbers, without its Python calls)
        random_, getrandbits = rand.random, rand.getrandbits
        bits_n, bits_rounds = n.bit_length(), rounds.bit_length()
        exp, swap, idx = math.exp, self.swap, self.idx
        t_start, t_end = 0.6 * self.w.wonder, 0.5
        iteration = 0
        check_every = 500
        best = (self.cost, [row[:] for row in self.idx])
        while iteration < max_iterations:
            focus = self.hard()
            if self.cost < best[0]:
                best = (self.cost, [row[:] for row in self.idx])
            if self.cost <= self.floor() + self.w.wonder * forced:
                break
            count = len(focus)
            bits_focus = count.bit_length()
            for _ in range(check_every):
                iteration += 1
                if focus and random_() < 0.8:
                    i = getrandbits(bits_focus)
                    while i >= count:
                        i = getrandbits(bits_focus)
                    r, a = focus[i]
                else:
                    r = getrandbits(bits_rounds)
                    while r >= rounds:
                        r = getrandbits(bits_rounds)
                    a = getrandbits(bits_n)
                    while a >= n:
                        a = getrandbits(bits_n)
                b = getrandbits(bits_n)
                while b >= n:
                    b = getrandbits(bits_n)
                row = idx[r]
                if row[a] == row[b]:
                    continue
                delta = swap(r, a, b)
                if delta > 0:
                    temp = t_start * (t_end / t_start) ** (iteration / max_iterations)
                    if random_() >= exp(-delta / temp):
                        swap(r, a, b)
        if self.cost < best[0]:
            best = (self.cost, [row[:] for row in self.idx])
        self.idx = best[1]

    def rules_kept(self, forced: int) -> bool:
        """Whether the start rule holds and at most ``forced`` new wonder repeats were made."""
        start = sum(self._pen(p, c) for p, c in enumerate(self.sc))
        return start == 0 and _excess(self.wc) <= _excess(self.past.wc) + forced

    def floor(self) -> int:
        """Cost no seat numbers avoid: the played rounds' wonder repeats, and the seat-number
        repeats of a player in more rounds than seats or with repeats played already."""
        s_max = len(self.seat[0])
        seat = sum(
            max(sum(max(0, c - 1) for c in row), sum(row) + self.rounds - s_max)
            for row in self.past.seat
        )
        return self.w.wonder * _excess(self.past.wc) + self.w.seat * seat


class _Grouping:
    """Who sits at which table each round, ignoring seat order: annealing on repeat encounters.

    The hot path of the optimiser: a swap of two players of one round between tables changes only
    their meetings, so its cost change is read off the meeting counts without applying it.
    """

    def __init__(
        self, n: int, sizes: tuple[int, ...], rounds: int, seed: str, past: _Past | None = None
    ) -> None:
        self.n, self.sizes, self.rounds = n, sizes, rounds
        self.rand = rng(seed, "schedule-grouping")
        #: ``progress(fraction)`` of :meth:`run`'s budget, or ``None``
        self.progress: Callable[[float], None] | None = None
        self.past = past or _Past.empty(n, max(sizes))
        self.meet = self.past.copy_meet()
        self.tab: list[list[list[int]]] = []
        self.table_of: list[list[int]] = []
        self.repeats = self.past.repeats
        order = list(range(n))
        for _r in range(rounds):
            self.rand.shuffle(order)
            tables, i = [], 0
            where = [0] * n
            for t, size in enumerate(sizes):
                tables.append(order[i : i + size])
                for p in order[i : i + size]:
                    where[p] = t
                i += size
            self.tab.append(tables)
            self.table_of.append(where)
            for table in tables:
                for a, b in combinations(table, 2):
                    c = self.meet[a][b]
                    self.repeats += c >= 1
                    self.meet[a][b] = self.meet[b][a] = c + 1

    def delta(self, r: int, a: int, b: int) -> int:
        """Change in repeat encounters if a and b (different tables of round r) changed places."""
        ma, mb = self.meet[a], self.meet[b]
        d = 0
        for x in self.tab[r][self.table_of[r][a]]:
            if x != a:
                d += (mb[x] >= 1) - (ma[x] >= 2)
        for y in self.tab[r][self.table_of[r][b]]:
            if y != b:
                d += (ma[y] >= 1) - (mb[y] >= 2)
        return d

    def swap(self, r: int, a: int, b: int) -> None:
        ta, tb = self.table_of[r][a], self.table_of[r][b]
        table_a, table_b = self.tab[r][ta], self.tab[r][tb]
        ma, mb, meet = self.meet[a], self.meet[b], self.meet
        for x in table_a:
            if x != a:
                ma[x] -= 1
                meet[x][a] -= 1
                mb[x] += 1
                meet[x][b] += 1
        for y in table_b:
            if y != b:
                mb[y] -= 1
                meet[y][b] -= 1
                ma[y] += 1
                meet[y][a] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        self.table_of[r][a], self.table_of[r][b] = tb, ta

    def conflicted(self) -> list[tuple[int, int]]:
        """(round, player) for every player meeting someone again in that round."""
        out = []
        meet = self.meet
        for r in range(self.rounds):
            for table in self.tab[r]:
                for a in table:
                    ma = meet[a]
                    for x in table:
                        if ma[x] >= 2 and x != a:
                            out.append((r, a))
                            break
        return out

    def is_conflicted(self, r: int, a: int) -> bool:
        """Whether a meets someone again at his table of round r."""
        ma = self.meet[a]
        return any(ma[x] >= 2 for x in self.tab[r][self.table_of[r][a]] if x != a)

    def run(self, max_iterations: int, target: int) -> None:
        """Anneal (temperature 0.6 down to 0.05 repeats) until ``target`` repeats or the budget.

        Nine moves in ten start from a player who meets someone again (a list kept lazily:
        players no longer in conflict are dropped when drawn, players put into one are added);
        the best grouping seen is kept. The hot loop reads the counts directly (no method calls).
        """
        rand, n, rounds = self.rand, self.n, self.rounds
        # randrange(m) written out as CPython's own: getrandbits of m's bit length, drawn again
        # while not below m (the same numbers, without its Python calls)
        random_, getrandbits = rand.random, rand.getrandbits
        bits_n, bits_rounds = n.bit_length(), rounds.bit_length()
        t_start, t_end = 0.6, 0.05
        ratio = t_end / t_start
        iteration = 0
        repeats = self.repeats
        best = (repeats, [[t[:] for t in tables] for tables in self.tab])
        exp = math.exp
        meet, tab, table_of = self.meet, self.tab, self.table_of
        focus = self.conflicted()
        # len(focus) and its bit length, kept up to date as focus changes
        count = len(focus)
        bits = count.bit_length()
        refresh = max(500, 20 * n)
        while focus and iteration < max_iterations and repeats > target:
            iteration += 1
            if iteration % refresh == 0:
                if self.progress is not None:
                    self.progress(iteration / max_iterations)
                focus = self.conflicted()
                count = len(focus)
                bits = count.bit_length()
                if not focus:
                    break
            if random_() < 0.9:
                i = getrandbits(bits)
                while i >= count:
                    i = getrandbits(bits)
                r, a = focus[i]
                ma = meet[a]
                for x in tab[r][table_of[r][a]]:
                    if ma[x] >= 2 and x != a:
                        break
                else:  # no longer in conflict
                    focus[i] = focus[-1]
                    focus.pop()
                    if not focus:
                        focus = self.conflicted()
                    count = len(focus)
                    bits = count.bit_length()
                    continue
            else:
                r = getrandbits(bits_rounds)
                while r >= rounds:
                    r = getrandbits(bits_rounds)
                a = getrandbits(bits_n)
                while a >= n:
                    a = getrandbits(bits_n)
            b = getrandbits(bits_n)
            while b >= n:
                b = getrandbits(bits_n)
            where = table_of[r]
            ta, tb = where[a], where[b]
            if ta == tb:
                continue
            ma, mb = meet[a], meet[b]
            table_a, table_b = tab[r][ta], tab[r][tb]
            d = 0
            for x in table_a:
                if x != a:
                    d += (mb[x] >= 1) - (ma[x] >= 2)
            for y in table_b:
                if y != b:
                    d += (ma[y] >= 1) - (mb[y] >= 2)
            if d <= 0 or random_() < exp(-d / (t_start * ratio ** (iteration / max_iterations))):
                # a and b change tables (:meth:`swap`, written out)
                for x in table_a:
                    if x != a:
                        ma[x] -= 1
                        mx = meet[x]
                        mx[a] -= 1
                        mb[x] += 1
                        mx[b] += 1
                for y in table_b:
                    if y != b:
                        mb[y] -= 1
                        my = meet[y]
                        my[b] -= 1
                        ma[y] += 1
                        my[a] += 1
                table_a[table_a.index(a)] = b
                table_b[table_b.index(b)] = a
                where[a], where[b] = tb, ta
                repeats += d
                if d > 0:
                    focus.append((r, a))
                    focus.append((r, b))
                    count += 2
                    bits = count.bit_length()
                if repeats < best[0]:
                    best = (repeats, [[t[:] for t in tables] for tables in tab])
        self.repeats = repeats
        if best[0] < repeats:
            self.load(best[1])
        self.iterations = iteration

    def load(self, tab: list[list[list[int]]]) -> None:
        """Take the tables of every round from ``tab`` and recount meetings and repeats."""
        n, rounds = self.n, self.rounds
        self.tab = [[table[:] for table in tables] for tables in tab]
        self.table_of = [[0] * n for _ in range(rounds)]
        self.meet = self.past.copy_meet()
        self.repeats = self.past.repeats
        for r in range(rounds):
            for t, table in enumerate(self.tab[r]):
                for p in table:
                    self.table_of[r][p] = t
                for a, b in combinations(table, 2):
                    self.repeats += self.meet[a][b] >= 1
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
