"""The random bot's draw by rejection, counted: what a cruder first bound per card would save.

A prototype that changes nothing in the engines (issue 30, "7W random play", seventh pass). It
plays random 5-player games in the Python engine (the random bot as it is), and at every
decision of the main and seventh-card phases records, per card of the hand, what the draw sees:
the true number of builds, the bound the bot uses now (``Game.payment_bound``, the core's
``pay_bound``), and the missing units. Then it replays each decision's draw under four schemes,
with its own generator (the distribution matters here, not the picks):

* ``now``: the bot's scheme. Every card's bound computed up front (the two-or-more-missing
  case calls ``pay_bound_split`` in the core); a draw that lands beyond a card's count searches
  that card's payments and draws again.
* ``crude-2``: the split bound replaced by a cruder one (below); a draw landing on it searches.
* ``crude-3``: crude first, the split bound computed only when a draw lands on the crude part
  (a third level), the search only when it lands beyond the split bound.
* ``lazy-3``: the crude bound for every card with units missing (no neighbour looked at up
  front), the bot's bound when a draw lands there, the search after that.

The crude bound of a cost with ``u`` units missing and ``c`` coins: every payment buys the same
number ``W <= min(u, c)`` of units (``payments.missing_bound``), ``i`` from the left; for each
``i`` the left pays one of at most ``(plmax - plmin) * i + 1`` sums and the right one of
``(prmax - prmin) * (W - i) + 1`` (the prices over all seven resources), so the count is at most
the largest such sum over ``W`` (``min(u, c) + 1`` at one price a side). It reads the missing
units and the coins only.

Prints, per decision: the draw's total at the first draw (the true number of legal actions
beside it), draws, ``pay_bound`` evaluations and split bounds computed, and payment searches
beyond the drawn card's own listing.

    python bench/seven_wonders_draws.py [--games 300]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise

from agon.games.seven_wonders.bots import RandomBot
from agon.games.seven_wonders.engine import _BUILDING, _CHAIN, _COINS, _COST, _NO_COST, Game


def crude(units: int, coins: int, pl: list[int], pr: list[int]) -> int:
    """The crude bound described above (at least 1: a cost met by the own cards pays once)."""
    dl, dr = max(pl) - min(pl), max(pr) - min(pr)
    best = 1
    for w in range(1, min(units, coins) + 1):
        best = max(best, sum((dl * i + 1) * (dr * (w - i) + 1) for i in range(w + 1)))
    return best


@dataclass
class Region:
    """A card's builds or the wonder stage's payments: its bounds, loosest first, the count
    last; ``costs[j]`` names the work that tightens level ``j`` to ``j + 1``."""

    levels: list[int]
    costs: list[str]
    at: int = 0

    @property
    def value(self) -> int:
        return self.levels[self.at]


@dataclass
class Decision:
    n: int  # legal actions
    stage: list[tuple[int, int | None, int]] | None  # [(units, bound or None, count)]
    cards: list[tuple[bool, int, int | None, int]] = field(default_factory=list)
    # per card: (its builds pay for resources, units missing, bound or None, builds), free
    free: list[int] = field(default_factory=list)
    coins: int = 0
    nch: int = 0
    pl: list[int] = field(default_factory=list)
    pr: list[int] = field(default_factory=list)


def record(games: int) -> list[Decision]:
    out = []
    for gi in range(games):
        game = Game(5, gi)
        bots = [RandomBot(gi * 1000 + p) for p in range(5)]
        while not game.over:
            joint = {}
            for p in game.to_act():
                legal = game.legal_actions(p)
                joint[p] = legal[bots[p].pick(game, p, legal)]
                if game.phase == "revive":
                    continue
                me = game.cities[p]
                fixed = me.fixed
                counts = Counter((a.kind, a.card) for a in legal)
                nst = counts[("wonder", legal[-1].card)]
                d = Decision(len(legal), None, coins=me.coins, nch=len(me.choices))
                d.pl, d.pr = list(me.price_left), list(me.price_right)
                if me.stages_built < len(me.stages):
                    cost = me.stages[me.stages_built].cost
                    units = sum(max(0, c - f) for c, f in zip(cost, fixed, strict=True))
                    d.stage = [(units, game.payment_bound(p, cost), nst)]
                free_ok = me.free_build and me.free_used_age != game.age and game.phase == "main"
                for idx in dict.fromkeys(game.hands[p]):
                    built = _BUILDING[idx] in me.buildings
                    chain = bool(_CHAIN[idx]) and not me.buildings.isdisjoint(_CHAIN[idx])
                    paid = not (built or chain or _COINS[idx] or _NO_COST[idx])
                    units = sum(max(0, c - f) for c, f in zip(_COST[idx], fixed, strict=True))
                    bound = game.payment_bound(p, _COST[idx]) if paid else None
                    d.cards.append((paid, units, bound, counts[("build", idx)]))
                    d.free.append(int(free_ok and not built))
                out.append(d)
            game.step_unchecked(joint)
    return out


def regions(d: Decision, scheme: str, work: Counter[str]) -> tuple[list[Region], Region]:
    """The regions of ``d`` under ``scheme``; the work done up front goes into ``work``."""

    def paid(units: int, bound: int | None, count: int) -> Region:
        if units == 0 or units - d.nch > d.coins:
            return Region([count], [])  # answered before any bound (nothing, or too many)
        work["pay_bound"] += scheme != "lazy-3"
        if scheme == "lazy-3":
            if bound is None:  # pay_bound answers with the count on landing
                return Region([crude(units, d.coins, d.pl, d.pr), count], ["pay_bound"])
            return Region(
                [crude(units, d.coins, d.pl, d.pr), bound, count], ["pay_bound+split", "search"]
            )
        if bound is None:
            return Region([count], [])
        if scheme == "now":
            work["split"] += 1
            return Region([bound, count], ["search"])
        if scheme == "crude-2":
            return Region([crude(units, d.coins, d.pl, d.pr), count], ["search"])
        return Region([crude(units, d.coins, d.pl, d.pr), bound, count], ["split", "search"])

    def checked(r: Region) -> Region:
        assert all(a >= b for a, b in pairwise(r.levels)), r  # each bounds the next
        return r

    cards = [
        paid(units, bound, count) if is_paid else Region([count], [])
        for is_paid, units, bound, count in d.cards
    ]
    stage = Region([0], []) if d.stage is None else paid(*d.stage[0])
    return [checked(c) for c in cards], checked(stage)


def draw(d: Decision, scheme: str, rng: random.Random, work: Counter[str]) -> int:
    """One pick under ``scheme``; returns the first draw's total."""
    cards, stage = regions(d, scheme, work)
    first = 0
    while True:
        total = sum(c.value + f + 1 for c, f in zip(cards, d.free, strict=True))
        total += len(cards) * stage.value
        first = first or total
        work["draws"] += 1
        t = rng.randrange(total)
        for c, f in zip(cards, d.free, strict=True):
            for region in (c, None, stage):
                width = f if region is None else region.value
                if t >= width:
                    t -= width
                    continue
                while region is not None and region.at < len(region.levels) - 1:
                    for cost in region.costs[region.at].split("+"):
                        work[cost] += 1
                    region.at += 1
                    if t >= region.value:
                        break  # beyond the tighter bound: draw again
                else:
                    return first
                break
            else:
                if t == 0:
                    return first
                t -= 1
                continue
            break


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    one, five, _ = os.getloadavg()
    print(f"host {platform.node()}, {os.cpu_count()} cores, load average {one:.1f} {five:.1f}")
    t0 = time.process_time()
    decisions = record(args.games)
    n = len(decisions)
    legal = sum(d.n for d in decisions) / n
    cards = sum(len(d.cards) for d in decisions) / n
    print(
        f"{args.games} random 5-player games (Python engine), {n} decisions of the main and "
        f"seventh-card phases: {legal:.2f} legal actions and {cards:.2f} cards a decision "
        f"({time.process_time() - t0:.1f} s CPU)"
    )
    for scheme in ("now", "crude-2", "crude-3", "lazy-3"):
        work: Counter[str] = Counter()
        rng = random.Random(1)
        first = sum(draw(d, scheme, rng, work) for d in decisions) / n
        print(
            f"  {scheme:8s} first total {first:5.2f}, draws {work['draws'] / n:.2f}, "
            f"pay_bound {work['pay_bound'] / n:.2f}, split bounds {work['split'] / n:.2f}, "
            f"searches {work['search'] / n:.2f} a decision"
        )


if __name__ == "__main__":
    main()
