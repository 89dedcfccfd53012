"""Setup (Rulebook: SPIELVORBEREITUNG I–VIII) and turn order (SPIELABLAUF)."""

from __future__ import annotations

import pytest
from ocw_helpers import acts, setup, totals

from agon.errors import InvalidInput
from agon.games.one_card_wonder.engine import Game, Variant


# Rulebook: SPIELVORBEREITUNG II (table 5/7/9/9/11, one of each to the side, coins never in the bag)
@pytest.mark.parametrize(("n", "per"), [(2, 5), (3, 7), (4, 9), (5, 9), (6, 11)])
def test_bag_supply_and_coins_by_player_count(n: int, per: int) -> None:
    g = Game.new(n, 3)
    assert g.supply == [1, 1, 1, 1, 1]
    # V: two resources from the bag onto each of the n+1 revealed wonders
    assert len(g.display) == n + 1
    assert all(len(d[1]) == 2 for d in g.display)
    assert sum(g.bag) == 5 * per - 2 * (n + 1)
    assert g.coins == 16
    res, coins = totals(g)
    assert res == [per + 1] * 5 and coins == 16


# Rulebook: SPIELVORBEREITUNG (2–6 players); TWO CARD WONDER (max. 4); HANDEL (4 or more)
def test_player_count_limits() -> None:
    for bad in (1, 7):
        with pytest.raises(InvalidInput, match="2 to 6"):
            Game.new(bad, 1)
    with pytest.raises(InvalidInput, match="at most 4"):
        Game.new(5, 1, Variant(two_card=True))
    with pytest.raises(InvalidInput, match="4 or more"):
        Game.new(3, 1, Variant(trade=True))


# Rulebook: SPIELVORBEREITUNG VI (right of the start player first, then counter-clockwise)
def test_wonder_choice_order_and_start_resources() -> None:
    g = Game.new(4, 5)
    order = []
    while g.stack[-1][0] == "wonder":
        seat = g.current_player()
        order.append(seat)
        entry = next(d for d in g.display if d[2] is None)
        g.apply(f"wonder {entry[0].id}")
        # the two resources on the wonder become the start resources
        assert sorted(i for i in range(5) for _ in range(g.players[seat].store[i])) == sorted(
            entry[1]
        )
    assert order == [3, 2, 1, 0]


# Rulebook: SPIELVORBEREITUNG VI (the left-over wonder's resources go into the bag)
def test_leftover_wonder_resources_back_into_bag() -> None:
    g = setup(n=2)
    assert sum(g.bag) == 5 * 5 - 2 * 2
    assert all(sum(p.store) == 2 for p in g.players)


# Rulebook: SPIELVORBEREITUNG IV and VIII (two boards dealt, one kept, kept secret at first)
def test_board_choice_two_dealt_one_kept_hidden_until_all_chose() -> None:
    g = Game.new(2, 9)
    while g.stack[-1][0] == "wonder":
        g.apply(g.legal_actions()[0])
    assert g.current_player() == 0
    options = acts(g)
    assert options == [f"board {b.id}" for b in g.players[0].board_options]
    assert len(options) == 2
    g.apply(options[1])
    obs = g.observation(1)
    assert obs["players"][0]["board"] is None  # not shown while others still choose
    assert obs["players"][1]["board_options"] is not None
    assert obs["players"][0]["board_options"] is None
    g.apply(g.legal_actions()[0])
    assert g.observation(1)["players"][0]["board"] == options[1].split()[1]
    assert g.players[0].tokens == 0  # Rulebook: SPIELVORBEREITUNG I (4 tokens each, none used)


# Rulebook: SPIELABLAUF (start player first, then clockwise: the left neighbour)
def test_turn_order_clockwise_from_start_player() -> None:
    g = setup(n=3, wonders=("pharos", "zeus", "apollo"), boards=("triumph", "harmony", "dawn"))
    seen = []
    for _ in range(4):
        seen.append(g.current_player())
        g.apply("subsidy " + next(a.args[0] for a in g.legal_actions() if a.verb == "subsidy"))
        while g.stack[-1][0] == "discard":
            g.apply(g.legal_actions()[0])
    assert seen == [0, 1, 2, 0]
    assert g.neighbours(0) == (1, 2)


# Rulebook: SPIELABLAUF (exactly one of the actions per turn)
def test_first_turn_action_count() -> None:
    g = setup(n=2, stores=("SSKK", ""))
    assert acts(g) == [
        "produce",
        "subsidy knowledge",
        "subsidy wood",
        "subsidy clay",
        "subsidy stone",
        "subsidy iron",
        "build",
        "sell",
    ]


def test_determinism_same_seed_same_game() -> None:
    from ocw_helpers import random_game

    a = random_game(3, 17, Variant(max_turns=400))
    b = random_game(3, 17, Variant(max_turns=400))
    assert a.observation(0) == b.observation(0)
    assert a.result() == b.result()
