"""Random legal play to the end from random seeds, checking invariants after every step."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from agon.games.seven_wonders.data import cards
from agon.games.seven_wonders.engine import Action, Game
from agon.games.seven_wonders.payments import payment_options
from agon.games.seven_wonders.rules import card_rules, stage_rule


def check(g: Game, dealt: int, boxed: int) -> None:
    for c in g.cities:
        assert c.coins >= 0
        buildings = [cards()[i].building for i in c.cards]
        assert len(buildings) == len(set(buildings)), "two identical buildings"
    in_play = sum(len(c.cards) + c.stages_built for c in g.cities)
    assert in_play + len(g.discard) + sum(len(h) for h in g.hands) + boxed == dealt
    if g.phase == "main":
        sizes = {len(g.hands[p]) for p in g.to_act()}
        assert sizes == {8 - g.turn}


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 7),
    withdraw_at=st.one_of(st.none(), st.integers(1, 17)),
)
@example(seed=276, players=7, withdraw_at=1)  # a seventh card bought from a turn-6 card
def test_random_play_keeps_invariants(seed: int, players: int, withdraw_at: int | None) -> None:
    g = Game(players, seed)
    rng = random.Random(seed)
    dealt, boxed, age, turns = 7 * players, 0, 1, 0
    while not g.over:
        if g.phase == "main":
            turns += 1
            if withdraw_at == turns and players > 3:
                victim = rng.choice(g.to_act())
                boxed += len(g.hands[victim])
                g.withdraw(victim)
        acts = {}
        for p in g.to_act():
            # Babylon B's seventh card belongs to turn 6: the neighbours as they were before it
            nb = g.before6 if g.phase == "seventh" else g.cities
            me, lc, rc = g.cities[p], nb[g.left[p]], nb[g.right[p]]
            for i in g.hands[p][:2]:
                cost = cards()[i].cost
                assert g.payments(p, cost) == payment_options(
                    cost,
                    tuple(me.fixed),
                    tuple(me.choices),
                    tuple(lc.tfixed),
                    tuple(lc.tchoices),
                    tuple(rc.tfixed),
                    tuple(rc.tchoices),
                    tuple(me.price_left),
                    tuple(me.price_right),
                )
            legal = g.legal_actions(p)
            assert legal, f"player {p} has no legal action"
            for x in legal:
                assert Action.parse(str(x)) == x
            acts[p] = rng.choice(legal)
            assert g.is_legal(p, acts[p])
        g.step(acts)
        if g.age != age:
            age = g.age
            dealt += 7 * len(g.to_act())
        check(g, dealt, boxed)
    assert g.age == 3
    for s in g.scores():
        c = g.cities[s.player]
        assert s.coins == c.coins // 3
        assert s.civilian == sum(card_rules()[i].vp for i in c.cards if cards()[i].color == "blue")
        assert s.wonder == sum(stage_rule(st_).vp for st_ in c.stages[: c.stages_built])
        assert s.total == (
            s.military + s.coins + s.wonder + s.civilian + s.commercial + s.guilds + s.science
        )
    assert set(g.winners()) <= {s.player for s in g.scores()}
