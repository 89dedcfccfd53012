"""Seat arrangement: simulated annealing over complete schedules (:class:`_Search`), the
optimiser's last phase, which orders the seats of each table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from agon.tournament.draws import (
    rng,
)
from agon.tournament.seating.bounds import start_bands
from agon.tournament.seating.model import Weights, _excess, _Past, _start_change

#: Seat-order annealing stops after this many batches of 1000 moves without a better schedule.
ARRANGE_PATIENCE = 15


def _cheapest_order(unary: list[list[int]], binary: list[list[int]]) -> tuple[int, ...]:
    """The first permutation, in :func:`itertools.permutations` order, of least cost: player i
    on seat k costs ``unary[i][k]``, players i and j on adjacent seats (k, k + 1, and the last
    and the first seat at a table of three or more) ``binary[i][j]``.

    A depth-first search in that same (lexicographic) order, leaving out every prefix whose cost
    and the least the seats left can add (each seat's cheapest player; ``binary`` is never
    negative) cannot go below the best complete order so far. The first order of least cost is
    never left out (everything before it costs more), and a later order of the same cost never
    replaces it: the very order the loop over all permutations kept.
    """
    s = len(unary)
    if s == 0:
        return ()
    # least[k]: the least the seats k… can add (unary terms alone)
    least = [0] * (s + 1)
    for k in range(s - 1, -1, -1):
        least[k] = least[k + 1] + min(row[k] for row in unary)
    wrap = s > 2
    best_cost: list[int | None] = [None]
    best: list[tuple[int, ...]] = [tuple(range(s))]
    order = [0] * s
    used = [False] * s

    def extend(k: int, cost: int) -> None:
        if k == s:
            if wrap:
                cost += binary[order[s - 1]][order[0]]
            bound = best_cost[0]
            if bound is None or cost < bound:
                best_cost[0] = cost
                best[0] = tuple(order)
            return
        prev = order[k - 1] if k else -1
        for i in range(s):
            if used[i]:
                continue
            c = cost + unary[i][k]
            if k:
                c += binary[prev][i]
            bound = best_cost[0]
            if bound is not None and c + least[k + 1] >= bound:
                continue
            used[i] = True
            order[k] = i
            extend(k + 1, c)
            used[i] = False

    extend(0, 0)
    return best[0]


class _Search:
    """Simulated annealing over complete schedules, moving by swapping two players of a round.

    Hot path: counts live in mutable lists of lists (player indices), hidden behind
    :func:`plan_schedule`; each swap updates them incrementally and returns the cost change.
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
        self.n = n
        self.sizes = sizes
        self.rounds = rounds
        self.wonders = wonders
        self.w = weights
        self.rand = rng(seed, "schedule-search")
        #: ``progress(fraction)`` of :meth:`run`'s budget, or ``None``
        self.progress: Callable[[float], None] | None = None
        s_max = max(sizes)
        self.past = past = past or _Past.empty(n, s_max)
        self.meet = past.copy_meet()
        self.nb = past.copy_nb()
        self.wc = past.copy_wc()
        self.sc = past.sc[:]
        self.seat = past.copy_seat()
        self.lo, self.hi = start_bands(past.sc, rounds, len(sizes))
        #: repeated neighbours of the played rounds: no seating takes them back
        self.nb_floor = _excess(past.nb) // 2
        self.nbpos = {
            s: [sorted({(k - 1) % s, (k + 1) % s} - {k}) for k in range(s)] for s in set(sizes)
        }
        self.tab: list[list[list[int | None]]] = [
            [[None] * s for s in sizes] for _ in range(rounds)
        ]
        self.where: list[list[tuple[int, int]]] = [[(0, 0)] * n for _ in range(rounds)]
        #: grouping attempts made before this schedule was kept (:func:`_grouping_first`)
        self.attempts = 1
        # the cost of the whole event: the played rounds' own violations, then start counts
        self.cost = (
            weights.pair * past.repeats
            + weights.neighbour * (_excess(self.nb) // 2)
            + weights.wonder * _excess(self.wc)
            + weights.seat * _excess(self.seat)
            + weights.start * sum(self._start_pen(p, c) for p, c in enumerate(self.sc))
        )
        self.iterations = 0

    def _start_pen(self, p: int, c: int) -> int:
        return max(0, c - self.hi[p]) + max(0, self.lo[p] - c)

    def place(self, r: int, p: int, t: int, k: int, sign: int, *, meet_too: bool = True) -> int:
        """Add (sign 1) or remove (sign -1) player p at round r, table t, seat k; cost change.

        ``meet_too=False`` leaves the meeting counts alone: for a player removed and put back at
        the same table (a new seat order), whose meetings do not change.
        """
        w = self.w
        table = self.tab[r][t]
        delta = 0
        # (adding and removing written apart, the start penalty written out: the hot path)
        if sign > 0:
            if meet_too:
                meet = self.meet
                meet_p = meet[p]
                for x in table:
                    if x is None:
                        continue
                    c = meet_p[x]
                    if c >= 1:
                        delta += w.pair
                    meet_p[x] = meet[x][p] = c + 1
            nb = self.nb
            nb_p = nb[p]
            for pos in self.nbpos[len(table)][k]:
                x = table[pos]
                if x is None:
                    continue
                c = nb_p[x]
                if c >= 1:
                    delta += w.neighbour
                nb_p[x] = nb[x][p] = c + 1
            if self.wonders is not None:
                wid = self.wonders[r][k]
                wc_p = self.wc[p]
                c = wc_p[wid]
                if c >= 1:
                    delta += w.wonder
                wc_p[wid] = c + 1
            if k == 0:
                c = self.sc[p]
                delta += w.start * _start_change(self.lo[p], self.hi[p], c, c + 1)
                self.sc[p] = c + 1
            seat_p = self.seat[p]
            c = seat_p[k]
            if c >= 1:
                delta += w.seat
            seat_p[k] = c + 1
            table[k] = p
            self.where[r][p] = (t, k)
        else:
            table[k] = None
            if meet_too:
                meet = self.meet
                meet_p = meet[p]
                for x in table:
                    if x is None:
                        continue
                    c = meet_p[x]
                    if c >= 2:
                        delta -= w.pair
                    meet_p[x] = meet[x][p] = c - 1
            nb = self.nb
            nb_p = nb[p]
            for pos in self.nbpos[len(table)][k]:
                x = table[pos]
                if x is None:
                    continue
                c = nb_p[x]
                if c >= 2:
                    delta -= w.neighbour
                nb_p[x] = nb[x][p] = c - 1
            if self.wonders is not None:
                wid = self.wonders[r][k]
                wc_p = self.wc[p]
                c = wc_p[wid]
                if c >= 2:
                    delta -= w.wonder
                wc_p[wid] = c - 1
            if k == 0:
                c = self.sc[p]
                delta += w.start * _start_change(self.lo[p], self.hi[p], c, c - 1)
                self.sc[p] = c - 1
            seat_p = self.seat[p]
            c = seat_p[k]
            if c >= 2:
                delta -= w.seat
            seat_p[k] = c - 1
        self.cost += delta
        return delta

    def swap_seats(self, r: int, a: int, b: int) -> int:
        """Exchange the seats of players a and b at one table of round r (who meets whom stays);
        returns the cost change."""
        where = self.where[r]
        ta, ka = where[a]
        kb = where[b][1]
        place = self.place
        return (
            place(r, a, ta, ka, -1, meet_too=False)
            + place(r, b, ta, kb, -1, meet_too=False)
            + place(r, a, ta, kb, 1, meet_too=False)
            + place(r, b, ta, ka, 1, meet_too=False)
        )

    def swap(self, r: int, a: int, b: int) -> int:
        """Exchange the seats of players a and b in round r; returns the cost change."""
        where = self.where[r]
        ta, ka = where[a]
        tb, kb = where[b]
        place = self.place
        return (
            place(r, a, ta, ka, -1)
            + place(r, b, tb, kb, -1)
            + place(r, a, tb, kb, 1)
            + place(r, b, ta, ka, 1)
        )

    def initial(self, idx: list[list[int]]) -> None:
        """Seat each round from phase 1's seat numbers: seat-k players dealt to tables at random."""
        for r in range(self.rounds):
            by_seat: dict[int, list[int]] = {}
            for p, k in enumerate(idx[r]):
                by_seat.setdefault(k, []).append(p)
            for k in sorted(by_seat):
                members = by_seat[k]
                self.rand.shuffle(members)
                for t, p in enumerate(members):
                    self.place(r, p, t, k, 1)

    def set_tables(self, r: int, orders: Mapping[int, Sequence[int]]) -> int:
        """Seat round r's tables ``t`` in the given orders (the same players); cost change."""
        delta = 0
        for t in orders:
            for k, p in enumerate(self.tab[r][t]):
                if p is not None:
                    delta += self.place(r, p, t, k, -1)
        for t, order in orders.items():
            for k, p in enumerate(order):
                delta += self.place(r, p, t, k, 1)
        return delta

    def rearrange(self, r: int, t: int) -> int:
        """Give table t of round r its cheapest seat order (all permutations); cost change.

        Seat order changes wonders, starts, neighbours and seat numbers, never who meets whom, so
        a permutation's cost is a sum of per-seat and per-adjacent-pair terms.
        """
        table = self.tab[r][t]
        players = [p for p in table if p is not None]
        s = len(players)
        delta = 0
        for k, p in enumerate(table):
            if p is not None:
                delta += self.place(r, p, t, k, -1, meet_too=False)
        w = self.w
        wonders = self.wonders[r] if self.wonders is not None else None
        unary = []
        for p in players:
            row = []
            for k in range(s):
                c = w.seat if self.seat[p][k] >= 1 else 0
                if wonders is not None and self.wc[p][wonders[k]] >= 1:
                    c += w.wonder
                if k == 0:
                    sc = self.sc[p]
                    c += w.start * (self._start_pen(p, sc + 1) - self._start_pen(p, sc))
                row.append(c)
            unary.append(row)
        binary = [[w.neighbour if self.nb[p][q] >= 1 else 0 for q in players] for p in players]
        best = _cheapest_order(unary, binary)
        for k, i in enumerate(best):
            delta += self.place(r, players[i], t, k, 1, meet_too=False)
        return delta

    def components(self) -> dict[str, int]:
        """Recount every rule's violations from the tables."""
        past = self.past
        meet, nb, wc, seat = past.copy_meet(), past.copy_nb(), past.copy_wc(), past.copy_seat()
        sc = past.sc[:]
        for r in range(self.rounds):
            for table in self.tab[r]:
                s = len(table)
                for k, p in enumerate(table):
                    assert p is not None
                    for q in table:
                        if q is not None and q != p:
                            meet[p][q] += 1
                    for pos in self.nbpos[s][k]:
                        q = table[pos]
                        assert q is not None
                        nb[p][q] += 1
                    if self.wonders is not None:
                        wc[p][self.wonders[r][k]] += 1
                    seat[p][k] += 1
                    if k == 0:
                        sc[p] += 1
        repeats = sum(max(0, c - 1) for row in meet for c in row) // 2
        neighbour = sum(max(0, c - 1) for row in nb for c in row) // 2
        wonder = sum(max(0, c - 1) for row in wc for c in row)
        seats = sum(max(0, c - 1) for row in seat for c in row)
        start = sum(self._start_pen(p, c) for p, c in enumerate(sc))
        return {
            "repeats": repeats,
            "neighbour": neighbour,
            "wonder": wonder,
            "start": start,
            "seat": seats,
            "spread": max(sc) - min(sc),
        }

    def conflicted(self) -> list[tuple[int, int, bool]]:
        """(round, player, hard) for players touching a major rule's violation in a round.

        ``hard`` marks the wonder and start rules, which the search repairs with seat orders.
        """
        out = []
        meet, nb, wc, sc = self.meet, self.nb, self.wc, self.sc
        for r in range(self.rounds):
            for table in self.tab[r]:
                s = len(table)
                for k, p in enumerate(table):
                    assert p is not None
                    bad = False
                    hard = (self.wonders is not None and wc[p][self.wonders[r][k]] > 1) or (
                        sc[p] < self.lo[p] or (k == 0 and sc[p] > self.hi[p])
                    )
                    if not hard:
                        mp = meet[p]
                        for q in table:
                            if q is not None and q != p and mp[q] > 1:
                                bad = True
                                break
                        if not bad:
                            np_ = nb[p]
                            for pos in self.nbpos[s][k]:
                                q = table[pos]
                                if q is not None and np_[q] > 1:
                                    bad = True
                                    break
                    if bad or hard:
                        out.append((r, p, hard))
        return out

    def load(self, tab: list[list[list[int | None]]]) -> None:
        """Replace every round's tables by ``tab`` (recounting everything)."""
        for r in range(self.rounds):
            orders = {t: [p for p in table if p is not None] for t, table in enumerate(tab[r])}
            self.set_tables(r, orders)

    def run(self, max_iterations: int, target: int, class_share: float = 0.5) -> None:
        """Anneal until repeats and repeated neighbours reach ``target`` or the budget is spent.

        A share ``class_share`` of the moves keeps every player's seat number (two players on the
        same seat number at different tables change tables, so wonders and starts stay as they
        are; cost change read off the counts); the others swap any two players of a round, which
        the wonder and start weights only allow when it breaks neither rule. Nine moves in ten
        start from a player in conflict. The best schedule seen at a check point is kept.
        """
        rand = self.rand
        n = self.n
        rounds = self.rounds
        # randrange(m) written out as CPython's own: getrandbits of m's bit length, drawn again
        # while not below m (the same numbers, without its Python calls)
        random_, getrandbits = rand.random, rand.getrandbits
        bits_n, bits_rounds = n.bit_length(), rounds.bit_length()
        exp, swap, class_swap_delta = math.exp, self.swap, self.class_swap_delta
        where_all, tab = self.where, self.tab
        t_start, t_end = 600.0, 20.0
        check_every = max(1000, n)
        iteration = 0
        tables_over = [sum(1 for s in self.sizes if s > k) for k in range(max(self.sizes))]
        bits_over = [m.bit_length() for m in tables_over]
        best_cost = self.cost
        best_tab = [[list(t) for t in tables] for tables in self.tab]
        while True:
            focus = self.conflicted()
            if self.cost < best_cost:
                best_cost = self.cost
                best_tab = [[list(t) for t in tables] for tables in self.tab]
            floor = target + self.w.neighbour * self.nb_floor
            if not focus or iteration >= max_iterations or self.major_cost() <= floor:
                break
            if self.progress is not None:
                self.progress(iteration / max_iterations)
            count = len(focus)
            bits_focus = count.bit_length()
            for _ in range(check_every):
                iteration += 1
                if random_() < 0.9:
                    i = getrandbits(bits_focus)
                    while i >= count:
                        i = getrandbits(bits_focus)
                    r, a, _hard = focus[i]
                else:
                    r = getrandbits(bits_rounds)
                    while r >= rounds:
                        r = getrandbits(bits_rounds)
                    a = getrandbits(bits_n)
                    while a >= n:
                        a = getrandbits(bits_n)
                ta, ka = where_all[r][a]
                if random_() < class_share:
                    over, bits = tables_over[ka], bits_over[ka]
                    tb = getrandbits(bits)
                    while tb >= over:
                        tb = getrandbits(bits)
                    if tb == ta:
                        continue
                    b = tab[r][tb][ka]
                    assert b is not None
                    delta = class_swap_delta(r, a, b)
                    if delta <= 0:
                        swap(r, a, b)
                    else:
                        temp = t_start * (t_end / t_start) ** (iteration / max_iterations)
                        if random_() < exp(-delta / temp):
                            swap(r, a, b)
                    continue
                b = getrandbits(bits_n)
                while b >= n:
                    b = getrandbits(bits_n)
                if b == a:
                    continue
                delta = swap(r, a, b)
                if delta > 0:
                    temp = t_start * (t_end / t_start) ** (iteration / max_iterations)
                    if random_() >= exp(-delta / temp):
                        swap(r, a, b)
        if best_cost < self.cost:
            self.load(best_tab)
        self.iterations = iteration

    def load_groups(self, tab: Sequence[Sequence[Sequence[int]]]) -> None:
        """Seat every round's tables as given (an empty schedule before)."""
        for r in range(self.rounds):
            for t, table in enumerate(tab[r]):
                for k, p in enumerate(table):
                    self.place(r, p, t, k, 1)

    def hard_cost(self) -> int:
        """Cost of the wonder and start rules alone."""
        wonder = sum(max(0, c - 1) for row in self.wc for c in row)
        start = sum(self._start_pen(p, c) for p, c in enumerate(self.sc))
        return self.w.wonder * wonder + self.w.start * start

    def hard_tables(self) -> list[tuple[int, int]]:
        """(round, table) of every table with a player breaking the wonder or start rule."""
        out = []
        for r in range(self.rounds):
            for t, table in enumerate(self.tab[r]):
                for k, p in enumerate(table):
                    assert p is not None
                    sc = self.sc[p]
                    if (
                        (self.wonders is not None and self.wc[p][self.wonders[r][k]] > 1)
                        or sc < self.lo[p]
                        or (k == 0 and sc > self.hi[p])
                    ):
                        out.append((r, t))
                        break
        return out

    def arrange(self, max_iterations: int, wonder_bound: int = 0, cross_share: float = 0.0) -> None:
        """Anneal seat orders within tables (wonders, starts, neighbours, seat numbers).

        Moves exchange two players of one table, which never changes who meets whom, or (a share
        ``cross_share`` of them) two players of different tables, which may trade a repeat
        encounter for the wonder or start rule (they weigh more). Stops when
        the start rule holds, wonder repeats are down to ``wonder_bound`` and no neighbour
        repeats remain, or after the budget.
        """
        rand, rounds, n = self.rand, self.rounds, self.n
        tables = len(self.sizes)
        # randrange(m) written out as CPython's own: getrandbits of m's bit length, drawn again
        # while not below m (the same numbers, without its Python calls)
        random_, getrandbits = rand.random, rand.getrandbits
        bits_n, bits_rounds, bits_tables = n.bit_length(), rounds.bit_length(), tables.bit_length()
        exp, swap, swap_seats, rearrange = math.exp, self.swap, self.swap_seats, self.rearrange
        where_all, tab = self.where, self.tab
        meet_part = self.w.pair * self.components()["repeats"]
        t_start, t_end = 100_000.0, 100.0
        iteration = 0
        best = (self.cost, [[list(t) for t in tabs] for tabs in self.tab])
        stale = 0
        while iteration < max_iterations and stale < ARRANGE_PATIENCE:
            if self.cost < best[0]:
                best = (self.cost, [[list(t) for t in tabs] for tabs in self.tab])
                stale = 0
            else:
                stale += 1
            rest = self.cost - meet_part - self.w.seat * self._seat_total()
            if rest <= self.w.wonder * wonder_bound + self.w.neighbour * self.nb_floor:
                break
            focus = self.hard_tables()
            count = len(focus)
            bits_focus = count.bit_length()
            for _ in range(1000):
                iteration += 1
                if focus and random_() < 0.9:
                    i = getrandbits(bits_focus)
                    while i >= count:
                        i = getrandbits(bits_focus)
                    r, t = focus[i]
                else:
                    r = getrandbits(bits_rounds)
                    while r >= rounds:
                        r = getrandbits(bits_rounds)
                    t = getrandbits(bits_tables)
                    while t >= tables:
                        t = getrandbits(bits_tables)
                u = random_()
                if u < 0.05:
                    rearrange(r, t)
                    continue
                table = tab[r][t]
                size = len(table)
                bits_size = size.bit_length()
                if u < 0.05 + cross_share:  # a player of this table changes tables
                    i = getrandbits(bits_size)
                    while i >= size:
                        i = getrandbits(bits_size)
                    a = table[i]
                    b = getrandbits(bits_n)
                    while b >= n:
                        b = getrandbits(bits_n)
                    assert a is not None
                    if where_all[r][b][0] == t:
                        continue
                    d = swap(r, a, b)
                    if d > 0:
                        temp = t_start * (t_end / t_start) ** (iteration / max_iterations)
                        if random_() >= exp(-d / temp):
                            swap(r, a, b)
                    continue
                i = getrandbits(bits_size)
                while i >= size:
                    i = getrandbits(bits_size)
                j = getrandbits(bits_size)
                while j >= size:
                    j = getrandbits(bits_size)
                if i == j:
                    continue
                p, q = table[i], table[j]
                assert p is not None and q is not None
                d = swap_seats(r, p, q)
                if d > 0:
                    temp = t_start * (t_end / t_start) ** (iteration / max_iterations)
                    if random_() >= exp(-d / temp):
                        swap_seats(r, p, q)
        if best[0] < self.cost:
            self.load(best[1])

    def polish(self, sweeps: int = 2) -> None:
        """Give every table its best seat order given all others, ``sweeps`` times."""
        for _ in range(sweeps):
            for r in range(self.rounds):
                for t in range(len(self.sizes)):
                    self.rearrange(r, t)

    def class_swap_delta(self, r: int, a: int, b: int) -> int:
        """Cost change if a and b (same seat number, different tables of round r) changed tables.

        Read-only: only encounters and neighbours change, so wonders, starts and seat numbers
        are left out.
        """
        ta, k = self.where[r][a]
        tb = self.where[r][b][0]
        table_a = self.tab[r][ta]
        table_b = self.tab[r][tb]
        ma, mb = self.meet[a], self.meet[b]
        d = 0
        for x in table_a:
            if x != a:
                d += (mb[x] >= 1) - (ma[x] >= 2)  # type: ignore[index]
        for y in table_b:
            if y != b:
                d += (ma[y] >= 1) - (mb[y] >= 2)  # type: ignore[index]
        na, nb_ = self.nb[a], self.nb[b]
        e = 0
        for pos in self.nbpos[len(table_a)][k]:
            x = table_a[pos]
            e += (nb_[x] >= 1) - (na[x] >= 2)  # type: ignore[index]
        for pos in self.nbpos[len(table_b)][k]:
            y = table_b[pos]
            e += (na[y] >= 1) - (nb_[y] >= 2)  # type: ignore[index]
        return d * self.w.pair + e * self.w.neighbour

    def major_cost(self) -> int:
        """The cost of repeats and repeated neighbours alone."""
        w = self.w
        wonder = sum(max(0, c - 1) for row in self.wc for c in row)
        start = sum(self._start_pen(p, c) for p, c in enumerate(self.sc))
        return self.cost - w.seat * self._seat_total() - w.wonder * wonder - w.start * start

    def _seat_total(self) -> int:
        return sum(max(0, c - 1) for row in self.seat for c in row)
