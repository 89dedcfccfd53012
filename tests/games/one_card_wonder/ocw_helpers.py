"""Compact fixtures for One Card Wonder rule tests: a game after setup with chosen wonders,
boards and leaders, and storage contents written as cost strings ("KWW$")."""

from __future__ import annotations

import random

from agon.games.one_card_wonder.content import COIN, Cost, default_content
from agon.games.one_card_wonder.engine import Action, Game, Variant


def vec(text: str) -> list[int]:
    """Storage vector from letters: ``"WW$"`` -> [0, 2, 0, 0, 0, 1]."""
    c = Cost.parse(text)
    assert c.joker == 0
    return [*c.res, c.coin]


def board(bid: str):  # type: ignore[no-untyped-def]
    return next(b for b in default_content().boards if b.id == bid)


def leader(lid: str):  # type: ignore[no-untyped-def]
    return next(x for x in default_content().leaders if x.id == lid)


def setup(
    n: int = 2,
    wonders: tuple[str, ...] = ("pharos", "zeus"),
    boards: tuple[str, ...] = ("triumph", "harmony"),
    variant: Variant | None = None,
    leaders: tuple[str, ...] | None = None,
    seed: int = 1,
    stores: tuple[str, ...] | None = None,
    own: tuple[str, ...] | None = None,
) -> Game:
    """A game ready for seat 0's first turn: seat s plays ``wonders[s]`` and ``boards[s]``.

    ``stores`` replaces every storage afterwards (the rest goes back into the bag, so the
    component totals stay right); ``own`` gives Two Card Wonder's random personal wonders.
    """
    g = Game.new(n, seed, variant or Variant())
    c = g.content
    if own is not None:
        for seat, wid in enumerate(own):
            p = g.players[seat]
            p.wonders, p.built, p.rebuild, p.rows, p.wb_slot = [], [], [], [], {}
            g._add_wonder(p, c.wonder(wid))
    for i, wid in enumerate(wonders):
        g.display[i][0] = c.wonder(wid)
    for seat, bid in enumerate(boards):
        g.players[seat].board_options = (board(bid), board("fortune"))
    if leaders is not None:
        for seat, lid in enumerate(leaders):
            g.players[seat].leader = leader(lid)
    while not g.over and g.stack[-1][0] in ("wonder", "board"):
        f = g.stack[-1]
        seat = f[1]
        if f[0] == "wonder":
            g.apply(Action("wonder", (wonders[seat],)))
        else:
            g.apply(Action("board", (boards[seat],)))
    if stores is not None:
        for seat, text in enumerate(stores):
            set_store(g, seat, text)
    return g


def set_store(g: Game, seat: int, text: str) -> None:
    """Set a storage; resources come from / go back to the bag, coins from / to the pool."""
    p = g.players[seat]
    new = vec(text)
    for i in range(5):
        g.bag[i] += p.store[i] - new[i]
        assert g.bag[i] >= 0, f"not enough {i} in the bag for the fixture"
    g.coins += p.store[COIN] - new[COIN]
    assert g.coins >= 0
    p.store = new


def acts(g: Game) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def play(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply(t)


def totals(g: Game) -> tuple[list[int], int]:
    """Every resource and coin in the game, wherever it lies (incl. items held by frames)."""
    res = [g.bag[i] + g.supply[i] for i in range(5)]
    coins = g.coins
    for p in g.players:
        for i in range(5):
            res[i] += p.store[i]
        coins += p.store[COIN] + p.zeus
    for d in g.display:
        if d[2] is None:
            for r in d[1]:
                if r is not None:
                    res[r] += 1
    for f in g.stack:
        if f[0] in ("return", "supply"):
            for r in f[2]:
                res[r] += 1
        if f[0] == "tribute":
            for _who, item, _fs in f[5]:
                if item == COIN:
                    coins += 1
                else:
                    res[item] += 1
    return res, coins


def random_game(n: int, seed: int, variant: Variant) -> Game:
    g = Game.new(n, seed, variant)
    rng = random.Random(seed)
    while not g.over:
        g.apply_unchecked(rng.choice(g.legal_actions()))
    return g


def give(g: Game, seat: int, bid: str) -> None:
    """Mark a building as built (fixture shortcut; uses a token like a real build)."""
    p = g.players[seat]
    g._place_building(seat, g._find_building(p, bid))
    g._run()


def built(g: Game, seat: int, *stage_ids: str, slot: int = 0) -> None:
    """Mark stages of a wonder card as completed (fixture shortcut)."""
    p = g.players[seat]
    w = p.wonders[slot]
    for sid in stage_ids:
        p.built[slot] |= 1 << w.stage_index(sid)


def built_ids(g: Game, seat: int, slot: int = 0) -> list[str]:
    p = g.players[seat]
    w = p.wonders[slot]
    return [s.id for i, s in enumerate(w.stages) if p.built[slot] >> i & 1]
