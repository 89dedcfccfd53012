"""Random-play invariant harness: every variant and player count plays to the end by legal
actions only; components are conserved; storage never exceeds 8 at a decision of the turn;
the text form of every action round-trips."""

from __future__ import annotations

import random

import pytest
from ocw_helpers import totals

from agon.errors import IllegalAction
from agon.games.one_card_wonder.engine import Action, Game, Variant

CASES = [
    (2, Variant(max_turns=600)),
    (3, Variant(leaders=True, max_turns=600)),
    (4, Variant(trade=True, leaders=True, max_turns=600)),
    (4, Variant(two_card=True, max_turns=800)),
    (2, Variant(two_card=True, leaders=True, max_turns=800)),
    (5, Variant(max_turns=600)),
    (6, Variant(leaders=True, max_turns=600)),
]


@pytest.mark.parametrize(("n", "variant"), CASES)
def test_random_play_invariants(n: int, variant: Variant) -> None:
    for seed in range(3):
        g = Game.new(n, seed, variant)
        per = g.content.rules.bag[n] + 1
        rng = random.Random(seed)
        steps = 0
        while not g.over:
            legal = g.legal_actions()
            assert legal, g.stack[-1]
            a = rng.choice(legal)
            assert Action.parse(str(a)) == a
            g.apply(a)
            steps += 1
            res, coins = totals(g)
            assert res == [per] * 5 and coins == 16, (steps, g.stack[-3:])
            if g.stack and g.stack[-1][0] == "turn":
                assert all(sum(p.store) <= 8 for p in g.players)
            assert all(x >= 0 for x in g.bag + g.supply) and g.coins >= 0
        if g.winner is not None:
            assert g.completed(g.winner) == (2 if variant.two_card else 1)
        else:
            assert g.turn == variant.max_turns


def test_illegal_action_is_refused_with_context() -> None:
    g = Game.new(2, 1)
    with pytest.raises(IllegalAction, match=r"player 1, turn 0: 'produce' is not legal here"):
        g.apply("produce")


def test_clone_is_independent_and_reseedable() -> None:
    g = Game.new(3, 2)
    while g.stack[-1][0] in ("wonder", "board"):
        g.apply(g.legal_actions()[0])
    c = g.clone()
    c.apply("produce")
    assert g.stack[-1] == ("turn", 0) and c.stack[-1] != ("turn", 0)
    a, b = g.clone(seed=5), g.clone(seed=5)
    a.apply("produce")
    b.apply("produce")
    assert a.observation(0) == b.observation(0)


def test_turn_cap_ends_without_winner_and_says_so() -> None:
    g = Game.new(2, 3, Variant(max_turns=5))
    rng = random.Random(3)
    while not g.over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.result() == {"winner": None, "turns": 5, "capped": True}
    with pytest.raises(IllegalAction, match="not legal"):
        g.apply("produce")


def test_action_text_errors() -> None:
    from agon.errors import InvalidInput

    with pytest.raises(InvalidInput, match="unknown verb"):
        Action.parse("fly away")
    with pytest.raises(InvalidInput, match="unknown verb"):
        Action.parse("")
