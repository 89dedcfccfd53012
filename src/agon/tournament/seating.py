"""Seating: pre-planned schedules (BONN-SPIELT 2018) and Swiss rounds (Ludolimpico 2015).

A *pre-planned schedule* ("vorher festgelegter Spielplan", Bonn 2018) seats every round before the
first one starts. It minimises, in this order of weight (see :data:`WEIGHTS`):

1. start counts outside ``floor(S/N)..ceil(S/N)`` (any two players' counts differ by at most one);
2. a player getting a wonder he has already played (Bonn: "Jeder Spieler erhält somit vor jeder
   Partie ein (neues) Weltwunder") — seat k plays the round's k-th drawn wonder;
3. repeat encounters (over all pairs, meetings beyond the first);
4. repeated neighbours (a 7 Wonders player trades and fights with both neighbours);
5. the same seat number again.

*Swiss rounds* ("alla svizzera", Ludolimpico 2015, 1.) seat round 1 at random and later rounds by
standings, best five at table 1, swapping neighbouring standings to avoid rematches.

The optimiser (docs/seating.md, "The optimiser") is local search in two strategies: group players
against repeats (:class:`_Grouping`), then order seats (an exact check that the grouping allows the
wonder and start rules, then :meth:`_Search.arrange`); and, when that breaks the wonder or start
rule in a small room, seat numbers first (:class:`_SeatNumbers`), then tables that keep them.
Large rooms of equal tables take seat numbers from an exact model of player types first
(:func:`_types_first`: the wonder repeats the draws force, docs/seating.md section 3). Budgets
are iteration counts and conflict counts, so results never depend on the machine.

Every random choice derives from the tournament seed via :func:`agon.tournament.draws.rng`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations

from agon.errors import InvalidInput
from agon.tournament.draws import (
    WONDERS,
    draw_guilds,
    draw_sides,
    draw_wonders,
    rng,
)
from agon.tournament.exact_grouping import (
    cyclic_grouping,
    cyclic_start,
    wonder_seat_types,
    wonder_start_seat_numbers,
    wonder_start_seat_orders,
    zero_repeat_grouping,
)
from agon.tournament.ruleset import Ruleset
from agon.tournament.tables import table_sizes


@dataclass(frozen=True, slots=True)
class SeatedTable:
    """One table of a round: ``seats[0]`` is the start player; seat k plays ``wonders[k]``."""

    seats: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """One round: its tables (table 1 first) and its central draws."""

    number: int
    tables: tuple[SeatedTable, ...]
    wonders: tuple[str, ...]
    guilds: tuple[str, ...]
    sides: Mapping[str, str] | None


@dataclass(frozen=True, slots=True)
class ScheduleReport:
    """How good a schedule is, and why it cannot be better where that is known."""

    repeats: int
    lower_bound: int
    neighbour_repeats: int
    notes: tuple[str, ...]
    wonder_repeats: int = 0
    wonder_lower_bound: int = 0
    start_spread: int = 0
    seat_repeats: int = 0
    #: the least start spread any seating reaches: 0 or 1, more after played rounds that broke
    #: the balance (a re-plan; :func:`start_bands`)
    start_spread_bound: int = 0
    #: grouping attempts the search made (at most :data:`ATTEMPTS`): it stops as soon as every
    #: rule is at its bound, or a new attempt brings nothing
    search_attempts: int = 1


@dataclass(frozen=True, slots=True)
class Schedule:
    """A pre-planned schedule: every round, and the report on its quality."""

    rounds: tuple[RoundPlan, ...]
    report: ScheduleReport


@dataclass(frozen=True, slots=True)
class Weights:
    """Weights of the seating rules, in cost units per violation.

    Major rules always prevail over minor ones: a start count outside the allowed band (always
    avoidable) costs more than a wonder played twice (sometimes forced by the draws), which costs
    more than any realistic number of repeat encounters, and a repeat encounter
    costs more than the neighbour and seat rules together can save. A repeated neighbour is also a
    repeat encounter, so sitting next to the same player again costs ``pair + neighbour`` and
    weighs more than sharing a table again (issue 3).
    """

    wonder: int = 100_000
    start: int = 1_000_000
    pair: int = 1_000
    neighbour: int = 300
    seat: int = 1


WEIGHTS = Weights()

#: The optimiser's version, recorded in ``agon schedule --json`` (``plan_version``): the same seed
#: gives the same seatings only with the same version. 1: before issue 13; 2: seat numbers by
#: player types in large rooms, the exact seat-order check, Glucose, the smaller budget; 3: the
#: start rule per player (:func:`start_bands`, re-plans), zero-repeat groupings from a grid
#: (:func:`~agon.tournament.exact_grouping.cyclic_grouping`), the exact seat-order check with
#: forced wonder repeats.
PLAN_VERSION = 3


@dataclass(slots=True)
class _Past:
    """What rounds already played did, as counts over the players of a re-plan (by index).

    A re-plan (a drop or a late entry in a pre-planned schedule) minimises over the whole event:
    meetings, neighbours, starts, wonders and seat numbers of the played rounds are the starting
    counts of the search (:func:`plan_schedule` with ``history``). Players no longer seated are
    left out; seat numbers beyond the new largest table cannot repeat and are left out too.
    """

    meet: list[list[int]]
    nb: list[list[int]]
    wc: list[list[int]]
    sc: list[int]
    seat: list[list[int]]
    repeats: int
    rounds: int

    @classmethod
    def empty(cls, n: int, s_max: int) -> _Past:
        return cls(
            meet=[[0] * n for _ in range(n)],
            nb=[[0] * n for _ in range(n)],
            wc=[[0] * len(WONDERS) for _ in range(n)],
            sc=[0] * n,
            seat=[[0] * s_max for _ in range(n)],
            repeats=0,
            rounds=0,
        )

    @classmethod
    def of(
        cls, names: Sequence[str], s_max: int, history: Sequence[RoundPlan], *, by_seat: bool
    ) -> _Past:
        index = {name: i for i, name in enumerate(names)}
        wid = {w: i for i, w in enumerate(WONDERS)}
        past = cls.empty(len(names), s_max)
        past.rounds = len(history)
        for plan in history:
            for table in plan.tables:
                seats = [index.get(p) for p in table.seats]
                s = len(seats)
                for k, p in enumerate(seats):
                    if p is None:
                        continue
                    if k == 0:
                        past.sc[p] += 1
                    if k < s_max:
                        past.seat[p][k] += 1
                    if by_seat and k < len(plan.wonders) and plan.wonders[k] in wid:
                        past.wc[p][wid[plan.wonders[k]]] += 1
                    for j, q in enumerate(seats):
                        if q is None or j == k:
                            continue
                        past.meet[p][q] += 1
                    for j in {(k - 1) % s, (k + 1) % s} - {k}:
                        q = seats[j]
                        if q is not None:
                            past.nb[p][q] += 1
        past.repeats = sum(max(0, c - 1) for row in past.meet for c in row) // 2
        return past

    def copy_meet(self) -> list[list[int]]:
        return [row[:] for row in self.meet]

    def copy_nb(self) -> list[list[int]]:
        return [row[:] for row in self.nb]

    def copy_wc(self) -> list[list[int]]:
        return [row[:] for row in self.wc]

    def copy_seat(self) -> list[list[int]]:
        return [row[:] for row in self.seat]


# --------------------------------------------------------------------------------------------
# lower bound and plain-language reasons


def repeat_lower_bound(sizes: Sequence[int], rounds: int) -> tuple[int, tuple[str, ...]]:
    """A lower bound on repeat encounters for ``rounds`` rounds at tables of ``sizes``, with reasons.

    The maximum of three counting arguments:

    * more pairs seated together over all rounds (M) than pairs of players: ``M - C(N, 2)``;
    * each player meets ``R·(s_min − 1)`` others but only ``N − 1`` exist:
      ``ceil(N · max(0, R·(s_min−1) − (N−1)) / 2)``;
    * pigeonhole against round 1: a table of s players in a later round draws them from the T
      tables of round 1, so at least ``sum C(k_g, 2)`` of its pairs (k_g as even as possible) met
      in round 1 already — forced from round 2 on when there are fewer tables than seats.
    """
    n = sum(sizes)
    m = rounds * sum(math.comb(s, 2) for s in sizes)
    pairs = math.comb(n, 2)
    s_min = min(sizes)
    b_pairs = max(0, m - pairs)
    b_player = math.ceil(n * max(0, rounds * (s_min - 1) - (n - 1)) / 2)
    t = len(sizes)
    per_round = 0
    for s in sizes:
        q, rem = divmod(s, t)
        per_round += rem * math.comb(q + 1, 2) + (t - rem) * math.comb(q, 2)
    b_pigeon = max(0, rounds - 1) * per_round
    notes = []
    if b_pairs > 0:
        notes.append(
            f"{rounds} rounds seat {m} pairs together but only {pairs} pairs of players exist, "
            f"so at least {b_pairs} meetings must be repeats"
        )
    if b_player > 0:
        notes.append(
            f"each player meets {rounds * (s_min - 1)} or more opponents over {rounds} rounds "
            f"but only {n - 1} exist, so at least {b_player} repeat encounters are forced"
        )
    if b_pigeon > 0:
        notes.append(
            f"there are {t} tables but up to {max(sizes)} seats per table: from round 2 on, some "
            f"players of the same round-1 table must meet again, at least {per_round} repeat "
            f"encounters per round ({b_pigeon} in all)"
        )
    return max(b_pairs, b_player, b_pigeon), tuple(notes)


def wonder_repeat_lower_bound(
    sizes: Sequence[int],
    draws: Sequence[Sequence[str]],
    played: Mapping[str, int] | None = None,
) -> tuple[int, tuple[str, ...]]:
    """Wonder repeats no seating avoids, with reasons: a counting argument per wonder.

    In a round where wonder w is drawn k-th, every table with more than k seats has a player on
    it; over the rounds that makes ``plays(w)`` plays, and N players can play it at most once
    each, so at least ``plays(w) − N`` of them are repeats. For a re-plan, ``played[w]`` players
    have played w in the rounds already played; only the others can play it anew.
    """
    n = sum(sizes)
    played = played or {}
    plays: dict[str, int] = {}
    for draw in draws:
        for k, wonder in enumerate(draw):
            plays[wonder] = plays.get(wonder, 0) + sum(1 for s in sizes if s > k)
    bound = 0
    notes = []
    for wonder, count in plays.items():
        fresh = n - played.get(wonder, 0)
        if count > fresh:
            bound += count - fresh
            rounds = sum(1 for d in draws if wonder in d)
            already = (
                f" ({played[wonder]} of them have played it already)" if played.get(wonder) else ""
            )
            notes.append(
                f"{wonder} is drawn in {rounds} rounds and is played {count} times by "
                f"{n} players{already}, so at least {count - fresh} plays of it are repeats"
            )
    return bound, tuple(notes)


def start_bands(starts: Sequence[int], rounds: int, tables: int) -> tuple[list[int], list[int]]:
    """The start rule per player: the lowest and highest start count each player may end with.

    Bonn 2018 deals the start seats round by round ("Startspieler"); agon keeps every two
    players' counts within one of each other. ``starts`` are the counts of the rounds already
    played (a re-plan; all zero for a new schedule), and ``rounds`` rounds of ``tables`` tables
    add ``rounds · tables`` starts, at most one per player and round. Those are dealt like water
    poured into columns: always to the players with the fewest — the most even totals any
    seating can reach (they minimise the largest count and maximise the smallest at once). A
    player below the water level starts in every round left, one above it never again; the
    others end on the level or one above it. With nothing played this is the usual band
    ``floor(S/N)…ceil(S/N)`` for every player; after rounds that broke the balance (an imported
    or hand-seated round, a drop, a late entry) it is the best balance still reachable, so the
    search can tell when it has reached it.

    >>> start_bands([0, 0, 0, 0, 0, 0], 2, 2)  # 4 starts for 6 players: 0 or 1 each
    ([0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1])
    >>> start_bands([3, 0, 0, 1, 0, 0], 1, 2)  # 3 starts already: no more; 2 of the 4 at 0
    ([3, 0, 0, 1, 0, 0], [3, 1, 1, 1, 1, 1])
    """
    new = rounds * tables

    def dealt(level: int) -> int:
        return sum(min(rounds, max(0, level - s)) for s in starts)

    level = min(starts, default=0)
    top = max(starts, default=0) + rounds
    while level < top and dealt(level + 1) <= new:
        level += 1
    extra = new - dealt(level)
    lo = [max(s, min(level, s + rounds)) for s in starts]
    hi = [
        c + 1 if extra and s <= level < s + rounds else c for s, c in zip(starts, lo, strict=True)
    ]
    return lo, hi


def wonder_conflict_note(draws: Sequence[Sequence[str]]) -> str | None:
    """Why every player must play a wonder twice, if the draws force it (Hall's condition).

    Each player plays one of round r's drawn wonders; if some set of rounds draws fewer distinct
    wonders than it has rounds, nobody can play a new wonder in each of them.
    """
    r = len(draws)
    if r > len(WONDERS):
        return f"{r} rounds but only {len(WONDERS)} wonders: every player plays a wonder twice"
    if r > 14:
        return None
    for size in range(2, r + 1):
        for subset in combinations(range(r), size):
            union = set().union(*(set(draws[i]) for i in subset))
            if len(union) < size:
                names = ", ".join(str(i + 1) for i in subset)
                return (
                    f"rounds {names} draw only {len(union)} different wonders between them, "
                    f"so every player must play one of them twice"
                )
    return None


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
            c = self.wc[p][wid]
            if sign > 0 and c >= 1:
                delta += w.wonder
            elif sign < 0 and c >= 2:
                delta -= w.wonder
            self.wc[p][wid] = c + sign
        if k == 0:
            c = self.sc[p]
            delta += w.start * (self._pen(p, c + sign) - self._pen(p, c))
            self.sc[p] = c + sign
        c = self.seat[p][k]
        if sign > 0 and c >= 1:
            delta += w.seat
        elif sign < 0 and c >= 2:
            delta -= w.seat
        self.seat[p][k] = c + sign
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
            for _ in range(check_every):
                iteration += 1
                temp = t_start * (t_end / t_start) ** (iteration / max_iterations)
                if focus and rand.random() < 0.8:
                    r, a = focus[rand.randrange(len(focus))]
                else:
                    r, a = rand.randrange(rounds), rand.randrange(n)
                b = rand.randrange(n)
                if self.idx[r][a] == self.idx[r][b]:
                    continue
                delta = self.swap(r, a, b)
                if delta > 0 and rand.random() >= math.exp(-delta / temp):
                    self.swap(r, a, b)
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
        for r in range(self.rounds):
            for table in self.tab[r]:
                for a in table:
                    ma = self.meet[a]
                    if any(ma[x] >= 2 for x in table if x != a):
                        out.append((r, a))
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
        random_ = rand.random
        t_start, t_end = 0.6, 0.05
        ratio = t_end / t_start
        iteration = 0
        best = (self.repeats, [[t[:] for t in tables] for tables in self.tab])
        exp = math.exp
        meet, tab, table_of = self.meet, self.tab, self.table_of
        focus = self.conflicted()
        refresh = max(500, 20 * n)
        while focus and iteration < max_iterations and self.repeats > target:
            iteration += 1
            if iteration % refresh == 0:
                if self.progress is not None:
                    self.progress(iteration / max_iterations)
                focus = self.conflicted()
                if not focus:
                    break
            if random_() < 0.9:
                i = rand.randrange(len(focus))
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
                    continue
            else:
                r, a = rand.randrange(rounds), rand.randrange(n)
            b = rand.randrange(n)
            where = table_of[r]
            ta, tb = where[a], where[b]
            if ta == tb:
                continue
            ma, mb = meet[a], meet[b]
            d = 0
            for x in tab[r][ta]:
                if x != a:
                    d += (mb[x] >= 1) - (ma[x] >= 2)
            for y in tab[r][tb]:
                if y != b:
                    d += (ma[y] >= 1) - (mb[y] >= 2)
            if d <= 0 or random_() < exp(-d / (t_start * ratio ** (iteration / max_iterations))):
                self.swap(r, a, b)
                self.repeats += d
                if d > 0:
                    focus.append((r, a))
                    focus.append((r, b))
                if self.repeats < best[0]:
                    best = (self.repeats, [[t[:] for t in tables] for tables in self.tab])
        if best[0] < self.repeats:
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


_PERMUTATIONS: dict[int, list[tuple[int, ...]]] = {}


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
        if sign < 0:
            table[k] = None
        meet_p = self.meet[p]
        meet = self.meet
        for x in table if meet_too else ():
            if x is None:
                continue
            c = meet_p[x]
            if sign > 0:
                if c >= 1:
                    delta += w.pair
                meet_p[x] = c + 1
                meet[x][p] = c + 1
            else:
                if c >= 2:
                    delta -= w.pair
                meet_p[x] = c - 1
                meet[x][p] = c - 1
        nb_p = self.nb[p]
        nb = self.nb
        for pos in self.nbpos[len(table)][k]:
            x = table[pos]
            if x is None:
                continue
            c = nb_p[x]
            if sign > 0:
                if c >= 1:
                    delta += w.neighbour
                nb_p[x] = c + 1
                nb[x][p] = c + 1
            else:
                if c >= 2:
                    delta -= w.neighbour
                nb_p[x] = c - 1
                nb[x][p] = c - 1
        if self.wonders is not None:
            wid = self.wonders[r][k]
            c = self.wc[p][wid]
            if sign > 0:
                if c >= 1:
                    delta += w.wonder
            elif c >= 2:
                delta -= w.wonder
            self.wc[p][wid] = c + sign
        if k == 0:
            c = self.sc[p]
            delta += w.start * (self._start_pen(p, c + sign) - self._start_pen(p, c))
            self.sc[p] = c + sign
        c = self.seat[p][k]
        if sign > 0:
            if c >= 1:
                delta += w.seat
        elif c >= 2:
            delta -= w.seat
        self.seat[p][k] = c + sign
        if sign > 0:
            table[k] = p
            self.where[r][p] = (t, k)
        self.cost += delta
        return delta

    def swap_seats(self, r: int, a: int, b: int) -> int:
        """Exchange the seats of players a and b at one table of round r (who meets whom stays);
        returns the cost change."""
        ta, ka = self.where[r][a]
        kb = self.where[r][b][1]
        return (
            self.place(r, a, ta, ka, -1, meet_too=False)
            + self.place(r, b, ta, kb, -1, meet_too=False)
            + self.place(r, a, ta, kb, 1, meet_too=False)
            + self.place(r, b, ta, ka, 1, meet_too=False)
        )

    def swap(self, r: int, a: int, b: int) -> int:
        """Exchange the seats of players a and b in round r; returns the cost change."""
        ta, ka = self.where[r][a]
        tb, kb = self.where[r][b]
        return (
            self.place(r, a, ta, ka, -1)
            + self.place(r, b, tb, kb, -1)
            + self.place(r, a, tb, kb, 1)
            + self.place(r, b, ta, ka, 1)
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
        best_cost: int | None = None
        best: tuple[int, ...] = tuple(range(s))
        pairs = [(k, (k + 1) % s) for k in range(s if s > 2 else s - 1)]
        for perm in _PERMUTATIONS.setdefault(s, list(permutations(range(s)))):
            cost = 0
            for k, i in enumerate(perm):
                cost += unary[i][k]
            for k1, k2 in pairs:
                cost += binary[perm[k1]][perm[k2]]
            if best_cost is None or cost < best_cost:
                best_cost, best = cost, perm
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
        t_start, t_end = 600.0, 20.0
        check_every = max(1000, n)
        iteration = 0
        tables_over = [sum(1 for s in self.sizes if s > k) for k in range(max(self.sizes))]
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
            for _ in range(check_every):
                iteration += 1
                temp = t_start * (t_end / t_start) ** (iteration / max_iterations)
                if rand.random() < 0.9:
                    r, a, _hard = focus[rand.randrange(len(focus))]
                else:
                    r, a = rand.randrange(rounds), rand.randrange(n)
                ta, ka = self.where[r][a]
                if rand.random() < class_share:
                    tb = rand.randrange(tables_over[ka])
                    if tb == ta:
                        continue
                    b = self.tab[r][tb][ka]
                    assert b is not None
                    delta = self.class_swap_delta(r, a, b)
                    if delta <= 0 or rand.random() < math.exp(-delta / temp):
                        self.swap(r, a, b)
                    continue
                b = rand.randrange(n)
                if b == a:
                    continue
                delta = self.swap(r, a, b)
                if delta > 0 and rand.random() >= math.exp(-delta / temp):
                    self.swap(r, a, b)
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
        rand, rounds = self.rand, self.rounds
        tables = len(self.sizes)
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
            for _ in range(1000):
                iteration += 1
                temp = t_start * (t_end / t_start) ** (iteration / max_iterations)
                if focus and rand.random() < 0.9:
                    r, t = focus[rand.randrange(len(focus))]
                else:
                    r, t = rand.randrange(rounds), rand.randrange(tables)
                u = rand.random()
                if u < 0.05:
                    self.rearrange(r, t)
                    continue
                table = self.tab[r][t]
                if u < 0.05 + cross_share:  # a player of this table changes tables
                    a = table[rand.randrange(len(table))]
                    b = rand.randrange(self.n)
                    assert a is not None
                    if self.where[r][b][0] == t:
                        continue
                    d = self.swap(r, a, b)
                    if d > 0 and rand.random() >= math.exp(-d / temp):
                        self.swap(r, a, b)
                    continue
                i, j = rand.randrange(len(table)), rand.randrange(len(table))
                if i == j:
                    continue
                p, q = table[i], table[j]
                assert p is not None and q is not None
                d = self.swap_seats(r, p, q)
                if d > 0 and rand.random() >= math.exp(-d / temp):
                    self.swap_seats(r, p, q)
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


def _excess(counts: list[list[int]]) -> int:
    """Counts beyond the first, summed: repeats in a count matrix."""
    return sum(max(0, c - 1) for row in counts for c in row)


def _grouping_first(
    n: int,
    sizes: tuple[int, ...],
    wonders: list[list[int]] | None,
    rounds: int,
    seed: str,
    bound: int,
    max_iterations: int,
    wonder_bound: int = 0,
    past: _Past | None = None,
    progress: Callable[[float], None] | None = None,
) -> _Search:
    """Strategy 1: group players against repeats, then anneal seat orders for the other rules.

    Up to :data:`ATTEMPTS` independent attempts (seeds ``seed|attempt i``) for rooms of up to
    100 players, each grouping with ``max_iterations``. A grouping is seated only if it has fewer
    repeats than the best schedule so far, or no schedule so far keeps the start and wonder rules
    (down to their bound). The best by :func:`_quality` is kept; the attempts end when it meets
    every bound, or when repeats are forced, the rules are kept and a grouping brings no progress.

    Where no wonder repeat is forced, each grouping is first checked exactly
    (:func:`~agon.tournament.exact_grouping.wonder_start_seat_orders`): a grouping whose seat
    orders cannot keep the wonder and start rules is set aside for the next attempt's, and only
    the best set-aside one is repaired (players change tables) if no attempt allows the rules.
    ``progress(fraction)`` is told how many attempts are done.
    """
    attempts = ATTEMPTS if n <= FALLBACK_MAX_PLAYERS else 1
    before = past or _Past.empty(n, max(sizes))
    # the exact check asks for no new wonder repeat: where the draws force none (wonder
    # repeats of the played rounds stay what they are)
    forced = wonder_bound - _excess(before.wc)
    exact = wonders is not None and n <= FALLBACK_MAX_PLAYERS
    band = start_bands(before.sc, rounds, len(sizes))
    best: _Search | None = None
    #: the grouping with the fewest repeats whose seat orders cannot keep the rules (exact check)
    deferred: tuple[_Grouping, str] | None = None
    tried = 0
    for attempt in range(attempts):
        tried = attempt + 1
        sub = seed if attempt == 0 else f"{seed}|attempt {attempt}"
        share = _share(progress, attempt / attempts, (attempt + 0.8) / attempts)
        grouping = _restarted_grouping(
            n, sizes, rounds, sub, bound, max_iterations, past, progress=share,
            construct=attempt == 0,
        )  # fmt: skip
        no_progress = best is not None and grouping.repeats >= _quality(best)[2]
        if best is not None and no_progress and _hard_ok(best, wonder_bound):
            if bound > 0 or grouping.repeats > 0:
                # repeats forced (or a zero bound that neither the annealing nor the exact
                # model reached), rules kept, no better grouping: likely the optimum
                break
            continue
        if (
            deferred is not None
            and bound > 0
            and grouping.repeats >= deferred[0].repeats
            and grouping.repeats > bound  # at the bound, its seat orders may keep the rules
            and (best is None or grouping.repeats >= _quality(best)[2])
        ):
            break  # forced repeats and no better grouping: seat the deferred one below
        tables = grouping.tab
        if exact:
            assert wonders is not None
            orders = wonder_start_seat_orders(
                tables, wonders, before.wc, before.sc, band, wonder_repeats=forced > 0
            )
            if orders is None:
                # no seat order keeps the wonder and start rules: try the next grouping first
                if deferred is None or grouping.repeats < deferred[0].repeats:
                    deferred = (grouping, sub)
                continue
            tables = [
                [sorted(t, key=orders[r].__getitem__) for t in tables[r]] for r in range(rounds)
            ]
        search = _seat_grouping(n, sizes, wonders, rounds, sub, tables, bound, max_iterations,
                                wonder_bound, past)  # fmt: skip
        if progress is not None:
            progress((attempt + 1) / attempts)
        if best is None or _quality(search) < _quality(best):
            best = search
        if _hard_ok(best, wonder_bound) and _quality(best)[2] <= bound:
            break
    if deferred is not None and (best is None or not _hard_ok(best, wonder_bound)):
        grouping, sub = deferred
        search = _seat_grouping(n, sizes, wonders, rounds, sub, grouping.tab, bound,
                                max_iterations, wonder_bound, past)  # fmt: skip
        if best is None or _quality(search) < _quality(best):
            best = search
    assert best is not None
    best.attempts = tried
    return best


def _seat_grouping(
    n: int,
    sizes: tuple[int, ...],
    wonders: list[list[int]] | None,
    rounds: int,
    seed: str,
    tables: Sequence[Sequence[Sequence[int]]],
    bound: int,
    max_iterations: int,
    wonder_bound: int,
    past: _Past | None,
) -> _Search:
    """Seat a grouping (tables in a first seat order), anneal seat orders; if that breaks the
    wonder or start rule, let players change tables too and win repeats back."""
    search = _Search(n, sizes, wonders, rounds, seed, WEIGHTS, past)
    search.load_groups(tables)
    search.arrange(20_000 + 10 * n * rounds, wonder_bound)
    if not _hard_ok(search, wonder_bound) and n <= FALLBACK_MAX_PLAYERS:
        # the grouping leaves no seat order that keeps the wonder or start rule: let players
        # change tables too, then win back repeats with moves that keep seat numbers
        search.arrange(20_000 + 10 * n * rounds, wonder_bound, cross_share=0.3)
        search.run(max_iterations // 2, WEIGHTS.pair * bound, class_share=1.0)
    search.polish(2 if n <= 100 else 1)
    return search


def _luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, …"""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1


def _restarted_grouping(
    n: int,
    sizes: tuple[int, ...],
    rounds: int,
    seed: str,
    bound: int,
    max_iterations: int,
    past: _Past | None = None,
    *,
    progress: Callable[[float], None] | None = None,
    construct: bool = False,
) -> _Grouping:
    """Group players against repeats with restarts of Luby-sequence lengths (units of
    :data:`RESTART_UNIT` moves) until ``bound`` is met or ``max_iterations`` moves are spent;
    where the bound is zero and the restarts miss it, ask the exact SAT model
    (:func:`agon.tournament.exact_grouping.zero_repeat_grouping`).

    Measured here: for 22 players x 4 rounds one 20,000-move run reaches the zero-repeat bound about
    one time in twelve, one 400,000-move run almost never; for 18 and 19 players long runs are what
    reaches the bound. Luby restarts give both (Luby, Sinclair and Zuckerman 1993). Rooms of more
    than :data:`FALLBACK_MAX_PLAYERS` get one run with the whole budget.

    With ``construct`` (a plan's first attempt, nothing played) a zero-repeat grouping is first
    built from a grid where the table sizes allow it
    (:func:`~agon.tournament.exact_grouping.cyclic_grouping`): no search at all. Where the grid
    gives fewer rounds than asked, each restart starts from them
    (:func:`~agon.tournament.exact_grouping.cyclic_start`) instead of a random grouping.
    """
    if construct and bound == 0 and past is None:
        built = cyclic_grouping(n, sizes, rounds, seed)
        if built is not None:
            grouping = _Grouping(n, sizes, rounds, seed)
            grouping.load(built)
            grouping.iterations = 0
            return grouping
    if n > FALLBACK_MAX_PLAYERS:
        grouping = _Grouping(n, sizes, rounds, seed, past)
        grouping.progress = progress
        grouping.run(max_iterations, bound)
        return grouping
    best: _Grouping | None = None
    spent, restart = 0, 0
    warm = False
    while spent < max_iterations:
        restart += 1
        budget = min(RESTART_UNIT * _luby(restart), max_iterations - spent)
        sub = seed if restart == 1 else f"{seed}|restart {restart}"
        grouping = _Grouping(n, sizes, rounds, sub, past)
        start = cyclic_start(n, sizes, rounds, sub) if bound == 0 and past is None else None
        if start is not None:
            grouping.load(start)
            warm = True
        grouping.run(budget, bound)
        spent += max(grouping.iterations, 1)
        if progress is not None:
            progress(spent / max_iterations)
        if best is None or grouping.repeats < best.repeats:
            best = grouping
        if best.repeats <= bound:
            break
    assert best is not None
    if bound == 0 and best.repeats > 0 and past is None and not warm:
        # (where the grid gave a start, 6 rounds of 21-30 players, the exact model found no
        # zero-repeat grouping within 70,000 conflicts: it is not asked)
        exact = zero_repeat_grouping(n, sizes, rounds, seed)
        if exact is not None:
            best.load(exact)
    return best


#: Moves in one unit of the Luby restart sequence of the grouping search.
RESTART_UNIT = 20_000


def _hard_ok(search: _Search, wonder_bound: int) -> bool:
    """Whether the start rule holds and wonder repeats are down to their lower bound."""
    return search.hard_cost() <= WEIGHTS.wonder * wonder_bound


#: Rooms up to this size try strategy 2 when strategy 1 breaks the wonder or start rule.
FALLBACK_MAX_PLAYERS = 100
#: Independent grouping attempts for rooms of up to 100 players.
ATTEMPTS = 6
#: Seat-order annealing stops after this many batches of 1000 moves without a better schedule.
ARRANGE_PATIENCE = 15


def _numbers_first(
    n: int,
    sizes: tuple[int, ...],
    wonders: list[list[int]] | None,
    rounds: int,
    seed: str,
    bound: int,
    max_iterations: int,
    past: _Past | None = None,
    progress: Callable[[float], None] | None = None,
    forced: int = 0,
) -> _Search:
    """Strategy 2 (when strategy 1 breaks the wonder or start rule): seat numbers first
    (:class:`_SeatNumbers`, or the exact model when the annealing leaves a rule broken), then
    tables that keep them. ``forced``: the new wonder repeats the draws force."""
    numbers = _SeatNumbers(n, sizes, wonders, rounds, seed, WEIGHTS, past)
    numbers.run(20_000 + 40 * n * rounds, forced)
    if wonders is not None and not numbers.rules_kept(forced):
        # the annealing left a rule broken: ask the exact model whether both rules can hold
        before = past or _Past.empty(n, max(sizes))
        exact = wonder_start_seat_numbers(
            sizes, wonders, before.wc, before.sc, (numbers.lo, numbers.hi), seed,
            wonder_repeats=forced > 0,
        )  # fmt: skip
        if exact is not None:
            numbers.idx = exact
    search = _Search(n, sizes, wonders, rounds, seed, WEIGHTS, past)
    search.initial(numbers.idx)
    search.progress = progress
    search.run(max_iterations // 2, WEIGHTS.pair * bound, class_share=1.0)
    search.polish()
    return search


def _types_first(
    n: int,
    sizes: tuple[int, ...],
    wonders: list[list[int]],
    rounds: int,
    seed: str,
    bound: int,
    max_iterations: int,
    progress: Callable[[float], None] | None = None,
) -> _Search | None:
    """Strategy 0 for large rooms of equal tables (no rounds played): seat numbers by player
    *types*, exact for the wonder and start rules, then tables that keep them.

    :func:`~agon.tournament.exact_grouping.wonder_seat_types` gives each of the ``size`` types
    its seat number in every round at the forced wonder repeats (docs/seating.md, section 3);
    the players, shuffled by the seed (purpose ``schedule-types``), are dealt to the types in
    turn. Any grouping with one player of each seat number per table keeps both rules, so the
    grouping is annealed with moves that keep seat numbers. ``None`` when the model has no
    solution (the start rule and the wonder bound conflict for these draws).
    """
    size = sizes[0]
    types = wonder_seat_types(size, wonders, seed)
    if types is None:
        return None
    order = list(range(n))
    rng(seed, "schedule-types").shuffle(order)
    kind = [0] * n
    for q, p in enumerate(order):
        kind[p] = q % size
    idx = [[types[r][kind[p]] for p in range(n)] for r in range(rounds)]
    search = _Search(n, sizes, wonders, rounds, seed, WEIGHTS)
    search.initial(idx)
    search.progress = _share(progress, 0.05, 0.95)
    search.run(max_iterations // 2, WEIGHTS.pair * bound, class_share=1.0)
    search.polish(1)
    return search


def _share(
    progress: Callable[[float], None] | None, low: float, high: float
) -> Callable[[float], None] | None:
    """``progress`` for a part of the work: its fractions 0…1 reported as ``low``…``high``."""
    if progress is None:
        return None
    report = progress

    def part(fraction: float) -> None:
        report(low + (high - low) * min(1.0, fraction))

    return part


class _Meter:
    """``on_progress(done)`` in thousandths of a plan, never backwards (or nothing)."""

    def __init__(self, on_progress: Callable[[int], None] | None) -> None:
        self.on_progress, self.done = on_progress, 0

    def at(self, fraction: float) -> None:
        if self.on_progress is None:
            return
        done = min(1000, int(1000 * fraction))
        if done > self.done:
            self.done = done
            self.on_progress(done)

    def part(self, low: float, high: float) -> Callable[[float], None] | None:
        """A ``progress(fraction)`` for the work between ``low`` and ``high`` (or ``None``)."""
        return _share(self.at, low, high) if self.on_progress is not None else None


def _quality(search: _Search) -> tuple[int, ...]:
    """Lexicographic quality: start rule, wonder rule, repeats, neighbours, seat numbers."""
    c = search.components()
    return (c["start"], c["wonder"], c["repeats"], c["neighbour"], c["seat"])


def _check_players(players: Sequence[str]) -> list[str]:
    names = list(players)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise InvalidInput(f"player names must be non-empty strings, got {name!r}")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise InvalidInput(f"player {name!r} is listed twice")
        seen.add(name)
    return sorted(names)


def _wonder_count(sizes: Sequence[int], ruleset: Ruleset) -> int:
    """Bonn: as many wonders as the largest table has seats; auction rulesets: one more."""
    return max(sizes) + (1 if ruleset.auction else 0)


def plan_schedule(
    players: Sequence[str],
    *,
    rounds: int,
    seed: str,
    ruleset: Ruleset,
    max_iterations: int | None = None,
    history: Sequence[RoundPlan] = (),
    on_progress: Callable[[int], None] | None = None,
) -> Schedule:
    """Pre-planned schedule (Bonn 2018, "vorher festgelegter Spielplan"): all rounds at once.

    Minimises repeat encounters, then repeated neighbours, with start counts differing by at most
    one and no player getting a wonder twice wherever the draws allow it (see :data:`WEIGHTS`).
    Players are handled in sorted order, so the result depends only on the set of names, the
    number of rounds, the seed and the ruleset. ``max_iterations`` bounds the search (default:
    scaled with the size of the problem); the search is deterministic.

    A *re-plan* (a drop or a late entry, docs/seating.md) passes the rounds already played as
    ``history`` and plans the ``rounds`` after them: their draws are the tournament's, by round
    number (:func:`~agon.tournament.draws.draw_wonders` with ``seed``, so a round keeps the draw
    committed to; a smaller largest table uses a prefix of it), and the meetings, neighbours,
    starts, wonders and seat numbers of the played rounds count, so the search minimises over the
    whole event. The search itself is seeded with ``"{seed}|from-round-{r}"``. The report then
    counts the whole event (played and planned rounds) for the players seated now. The result is
    a function of the seed, the played rounds, the set of players and ``rounds``, so ``agon
    verify`` can recompute it.

    ``on_progress(done)`` is told how far the search is, in thousandths (never backwards, 1000 at
    the end); it changes nothing about the result (``agon schedule``'s progress bar).

    Raises:
        InvalidInput: duplicate or empty names, ``rounds < 1``, a count the tables cannot seat.
    """
    names = _check_players(players)
    if rounds < 1:
        raise InvalidInput(f"rounds must be at least 1, got {rounds}")
    n = len(names)
    sizes = table_sizes(n, ruleset)
    count = _wonder_count(sizes, ruleset)
    first = history[-1].number + 1 if history else 1
    search_seed = seed if not history else f"{seed}|from-round-{first}"
    draws = [draw_wonders(seed, r, count) for r in range(first, first + rounds)]
    index = {w: i for i, w in enumerate(WONDERS)}
    use_wonders = not ruleset.auction
    wonders = [[index[w] for w in d] for d in draws] if use_wonders else None
    past = _Past.of(names, max(sizes), history, by_seat=use_wonders) if history else None
    bound, notes = repeat_lower_bound(sizes, rounds)
    if max_iterations is None:
        max_iterations = 100_000 + 50 * n * rounds
    wonder_note = wonder_conflict_note([d[: max(sizes)] for d in draws]) if use_wonders else None
    played = (
        {w: sum(1 for row in past.wc if row[i]) for i, w in enumerate(WONDERS)}
        if past is not None
        else None
    )
    wonder_bound, wonder_notes = (
        wonder_repeat_lower_bound(sizes, [d[: max(sizes)] for d in draws], played)
        if use_wonders
        else (0, ())
    )
    if past is not None:
        bound += past.repeats
        wonder_bound += _excess(past.wc)
    meter = _Meter(on_progress)
    search: _Search | None = None
    if wonders is not None and past is None and n > FALLBACK_MAX_PLAYERS and len(set(sizes)) == 1:
        search = _types_first(
            n, sizes, wonders, rounds, search_seed, bound, max_iterations, meter.part(0.0, 0.95)
        )
    if search is None:
        search = _grouping_first(
            n, sizes, wonders, rounds, search_seed, bound, max_iterations, wonder_bound, past,
            meter.part(0.0, 0.8),
        )  # fmt: skip
    if search.hard_cost() > WEIGHTS.wonder * wonder_bound and n <= FALLBACK_MAX_PLAYERS:
        other = _numbers_first(
            n, sizes, wonders, rounds, search_seed, bound, max_iterations, past,
            meter.part(0.8, 0.95), wonder_bound - (_excess(past.wc) if past else 0),
        )  # fmt: skip
        if _quality(other) < _quality(search):
            search = other
    comp = search.components()
    lows, highs = start_bands(past.sc if past else [0] * n, rounds, len(sizes))
    spread_bound = max(highs) - min(lows)
    all_notes = []
    if past is not None:
        all_notes.append(
            f"re-planned from round {first} for {n} players: the counts cover rounds 1–"
            f"{first + rounds - 1}, the {past.rounds} played and the {rounds} planned"
        )
    all_notes.extend(notes)
    if wonder_note is not None:
        all_notes.append(wonder_note)
    all_notes.extend(wonder_notes)
    if comp["wonder"] > wonder_bound and wonder_note is None:
        all_notes.append(
            f"{comp['wonder']} wonder repeats remain against a lower bound of {wonder_bound}: "
            "the search found no seating with fewer (the wonder and start rules together may "
            "not allow fewer)"
        )
    if comp["start"]:
        all_notes.append(
            f"start counts differ by {comp['spread']}: the search found no seating that keeps "
            "them as even as the rules allow"
        )
    elif spread_bound > 1:
        all_notes.append(
            f"start counts differ by {comp['spread']}: the rounds already played allow no less "
            "(every start left went to the players with the fewest)"
        )
    if comp["repeats"] > bound:
        all_notes.append(
            f"{comp['repeats']} repeat encounters against a lower bound of {bound}: "
            "the bound is not always reachable, and the search may have missed a better schedule"
        )
    plans = []
    for r in range(rounds):
        tables = tuple(
            SeatedTable(seats=tuple(names[p] for p in table if p is not None))
            for table in search.tab[r]
        )
        plans.append(
            RoundPlan(
                number=first + r,
                tables=tables,
                wonders=draws[r],
                guilds=draw_guilds(seed, first + r),
                sides=draw_sides(seed, ruleset, first + r),
            )
        )
    meter.at(1.0)
    report = ScheduleReport(
        repeats=comp["repeats"],
        lower_bound=bound,
        neighbour_repeats=comp["neighbour"],
        notes=tuple(all_notes),
        wonder_repeats=comp["wonder"],
        wonder_lower_bound=wonder_bound,
        start_spread=comp["spread"],
        seat_repeats=comp["seat"],
        start_spread_bound=spread_bound,
        search_attempts=search.attempts,
    )
    return Schedule(rounds=tuple(plans), report=report)


# --------------------------------------------------------------------------------------------
# Swiss rounds


@dataclass(slots=True)
class _History:
    """What earlier rounds did to each player: starts, wonders, neighbours, seats, opponents."""

    starts: dict[str, int] = field(default_factory=dict)
    wonders: dict[str, set[str]] = field(default_factory=dict)
    neighbours: dict[frozenset[str], int] = field(default_factory=dict)
    met: dict[frozenset[str], int] = field(default_factory=dict)
    seats: dict[tuple[str, int], int] = field(default_factory=dict)

    @classmethod
    def of(cls, rounds: Sequence[RoundPlan], *, wonders_by_seat: bool) -> _History:
        h = cls()
        for plan in rounds:
            for table in plan.tables:
                seats = table.seats
                s = len(seats)
                if s:
                    h.starts[seats[0]] = h.starts.get(seats[0], 0) + 1
                for k, p in enumerate(seats):
                    h.seats[(p, k)] = h.seats.get((p, k), 0) + 1
                    if wonders_by_seat and k < len(plan.wonders):
                        h.wonders.setdefault(p, set()).add(plan.wonders[k])
                for a, b in combinations(seats, 2):
                    key = frozenset((a, b))
                    h.met[key] = h.met.get(key, 0) + 1
                for k in range(s if s > 2 else s - 1):
                    key = frozenset((seats[k], seats[(k + 1) % s]))
                    h.neighbours[key] = h.neighbours.get(key, 0) + 1
        return h


def arrange_table(
    players: Sequence[str],
    wonders: Sequence[str] | None,
    history: _History,
    tie_break: Sequence[str],
    weights: Weights = WEIGHTS,
) -> tuple[str, ...]:
    """The seat order of one table: the permutation with the least weighted cost.

    Costs: a wonder already played (``wonders`` None when seats do not map to wonders), the start
    player's earlier starts (fewest first), repeated neighbours, repeated seat numbers. Equal costs
    go to the earliest permutation of ``tie_break`` order (a seeded shuffle).
    """
    order = sorted(players, key=tie_break.index)
    best: tuple[int, tuple[str, ...]] | None = None
    min_starts = min(history.starts.get(p, 0) for p in order)
    for perm in permutations(order):
        cost = weights.start * (history.starts.get(perm[0], 0) - min_starts)
        s = len(perm)
        for k, p in enumerate(perm):
            if wonders is not None and wonders[k] in history.wonders.get(p, ()):
                cost += weights.wonder
            cost += weights.seat * history.seats.get((p, k), 0)
        for k in range(s if s > 2 else s - 1):
            if history.neighbours.get(frozenset((perm[k], perm[(k + 1) % s])), 0):
                cost += weights.neighbour
        if best is None or cost < best[0]:
            best = (cost, perm)
    assert best is not None
    return best[1]


#: Swiss rematch avoidance swaps players of adjacent tables at most this many standings apart.
SWISS_SWAP_DISTANCE = 3


def seat_swiss_round(
    ranked_players: Sequence[str],
    *,
    round_number: int,
    seed: str,
    ruleset: Ruleset,
    history: Sequence[RoundPlan],
    ratings: Mapping[str, float] | None = None,
) -> RoundPlan:
    """Swiss round (Ludolimpico 2015, 1., "alla svizzera").

    Round 1 is random (``ranked_players``' order ignored) — unless ``ratings`` (seeding ratings,
    :func:`spread_by_rating`) are given: then round 1 spreads the strongest over the tables. Later
    rounds cut the standings into
    tables (best five at table 1, …); then, while a swap of two players of adjacent tables at most
    :data:`SWISS_SWAP_DISTANCE` standings apart (closest first) lowers the number of rematches, it
    is made. Seats within a table: start player with the fewest starts, a new wonder for every
    player where seats map to wonders, new neighbours (:func:`arrange_table`). ``ranked_players``
    are the checked-in players, so drops and late entries are whoever the caller passes.

    Raises:
        InvalidInput: duplicate or empty names, a count the tables cannot seat, round < 1.
    """
    if round_number < 1:
        raise InvalidInput(f"round number must be at least 1, got {round_number}")
    names = list(ranked_players)
    _check_players(names)
    sizes = table_sizes(len(names), ruleset)
    wonders = draw_wonders(seed, round_number, _wonder_count(sizes, ruleset))
    tie = sorted(names)
    rng(seed, "swiss-seat-order", round_number).shuffle(tie)
    order = tie[:] if round_number == 1 else names[:]
    past = _History.of(history, wonders_by_seat=not ruleset.auction)
    groups: list[list[str]] = []
    if round_number == 1 and ratings:
        groups = spread_by_rating(tie, sizes, ratings)
    else:
        i = 0
        for s in sizes:
            groups.append(order[i : i + s])
            i += s
    if round_number > 1:
        _avoid_rematches(groups, {p: j for j, p in enumerate(order)}, past.met)
    by_seat = None if ruleset.auction else wonders
    tables = tuple(SeatedTable(seats=arrange_table(group, by_seat, past, tie)) for group in groups)
    return RoundPlan(
        number=round_number,
        tables=tables,
        wonders=wonders,
        guilds=draw_guilds(seed, round_number),
        sides=draw_sides(seed, ruleset, round_number),
    )


def spread_by_rating(
    players: Sequence[str], sizes: Sequence[int], ratings: Mapping[str, float]
) -> list[list[str]]:
    """Round 1 of a Swiss event seeded by rating: the strongest spread over the tables.

    Players are ordered by rating, best first (a player without one counts 0.0, a newcomer's
    ordinal; equal ratings keep the order of ``players``, the round's seeded shuffle) and dealt to
    the tables in snake order — 1, 2, …, T, T, …, 2, 1, 1, 2, … — skipping full tables. Each table
    then holds one player of every strength band, like the first round of a chess Swiss (top half
    against bottom half): the favourites do not knock each other out in round 1, and the standings
    after it sort them apart.

    >>> spread_by_rating(["a", "b", "c", "d", "e", "f"], [3, 3], {"a": 1, "b": 6, "c": 5, "d": 4})
    [['b', 'a', 'e'], ['c', 'd', 'f']]
    """
    order = sorted(players, key=lambda p: -ratings.get(p, 0.0))
    groups: list[list[str]] = [[] for _ in sizes]
    snake = [*range(len(sizes)), *reversed(range(len(sizes)))]
    k = 0
    for player in order:
        while len(groups[snake[k % len(snake)]]) >= sizes[snake[k % len(snake)]]:
            k += 1
        groups[snake[k % len(snake)]].append(player)
        k += 1
    return groups


def _rematches(group: Sequence[str], met: Mapping[frozenset[str], int]) -> int:
    return sum(1 for a, b in combinations(group, 2) if met.get(frozenset((a, b)), 0))


def _avoid_rematches(
    groups: list[list[str]], rank: Mapping[str, int], met: Mapping[frozenset[str], int]
) -> None:
    improved = True
    while improved:
        improved = False
        for t in range(len(groups) - 1):
            upper, lower = groups[t], groups[t + 1]
            before = _rematches(upper, met) + _rematches(lower, met)
            if before == 0:
                continue
            candidates = sorted(
                ((a, b) for a in upper for b in lower if rank[b] - rank[a] <= SWISS_SWAP_DISTANCE),
                key=lambda ab: (rank[ab[1]] - rank[ab[0]], rank[ab[0]]),
            )
            for a, b in candidates:
                new_upper = [b if x == a else x for x in upper]
                new_lower = [a if x == b else x for x in lower]
                if _rematches(new_upper, met) + _rematches(new_lower, met) < before:
                    groups[t], groups[t + 1] = new_upper, new_lower
                    improved = True
                    break
