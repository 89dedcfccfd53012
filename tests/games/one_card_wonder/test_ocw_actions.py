"""The actions (Rulebook: AKTION 1–5), storage overflow and NIMM."""

from __future__ import annotations

from ocw_helpers import acts, give, play, setup

from agon.games.one_card_wonder.content import COIN


def _turn_passed(g, seat: int) -> bool:  # type: ignore[no-untyped-def]
    return g.current == (seat + 1) % g.n and g.stack[-1][0] == "turn"


# Rulebook: AKTION 1 PRODUKTION (draw 3, 2 into storage, 1 onto the supply board)
def test_production_draw_three_keep_two_one_to_supply() -> None:
    g = setup(stores=("", ""))
    g.bag = [0, 2, 1, 0, 0]
    g.apply("produce")
    assert acts(g) == ["supply wood", "supply clay"]
    g.apply("supply clay")
    assert g.players[0].store[:5] == [0, 2, 0, 0, 0]
    assert g.supply == [1, 1, 2, 1, 1]
    assert g.bag == [0, 0, 0, 0, 0]
    assert _turn_passed(g, 0)


# Rulebook: NIMM ("nicht genügend vorhanden, verfällt der Rest") applied to production
def test_production_with_nearly_empty_bag_keeps_what_was_drawn() -> None:
    g = setup(stores=("", ""))
    g.bag = [0, 0, 1, 0, 0]
    g.apply("produce")
    assert g.players[0].store[:5] == [0, 0, 1, 0, 0]
    assert g.supply == [1, 1, 1, 1, 1]
    assert _turn_passed(g, 0)


# Rulebook: Triumph, Hippodrom ("Sind die gezogenen Ressourcen unterschiedlich, behalte alle 3")
def test_hippodrome_keeps_all_three_if_different() -> None:
    g = setup(stores=("", ""))
    give(g, 0, "hippodrome")
    g.bag = [1, 1, 1, 0, 0]
    g.apply("produce")
    assert g.players[0].store[:5] == [1, 1, 1, 0, 0]
    assert _turn_passed(g, 0)
    g2 = setup(stores=("", ""))
    give(g2, 0, "hippodrome")
    g2.bag = [0, 2, 1, 0, 0]
    g2.apply("produce")
    assert acts(g2) == ["supply wood", "supply clay"]  # two equal: the normal rule


# FAQ I: Orakel (Apollo-Tempel) before Hippodrom: draw 4, put 1 back, then check the 3
def test_oracle_then_hippodrome() -> None:
    g = setup(wonders=("apollo", "zeus"), stores=("", ""))
    give(g, 0, "hippodrome")
    give(g, 0, "oracle")
    g.bag = [2, 1, 1, 0, 0]
    g.apply("produce")
    assert acts(g) == ["return knowledge", "return wood", "return clay"]
    g.apply("return knowledge")
    assert g.bag == [1, 0, 0, 0, 0]
    assert g.players[0].store[:5] == [1, 1, 1, 0, 0]  # all different: all 3 kept
    assert _turn_passed(g, 0)


def test_oracle_without_hippodrome_then_one_to_supply() -> None:
    g = setup(wonders=("apollo", "zeus"), stores=("", ""))
    give(g, 0, "oracle")
    g.bag = [0, 4, 0, 0, 0]
    play(g, "produce", "return wood", "supply wood")
    assert g.players[0].store[:5] == [0, 2, 0, 0, 0]
    assert g.bag[1] == 1 and g.supply[1] == 2


# Rulebook: AKTION 2 SUBVENTION (all resources of one kind from the supply board)
def test_subsidy_takes_all_of_one_kind() -> None:
    g = setup(stores=("", ""))
    g.supply = [0, 3, 0, 0, 0]
    assert [a for a in acts(g) if a.startswith("subsidy")] == ["subsidy wood"]
    g.apply("subsidy wood")
    assert g.players[0].store[1] == 3 and g.supply == [0, 0, 0, 0, 0]


# Rulebook: Triumph, Obelisk ("Subvention: Wenn Du mindestens 1 erhältst, nimm 1 weiteren
# aus dem Beutel")
def test_obelisk_one_more_from_the_bag_or_nothing_if_bag_lacks_it() -> None:
    g = setup(stores=("", ""))
    give(g, 0, "obelisk")
    g.supply = [0, 2, 0, 0, 0]
    bag_wood = g.bag[1]
    g.apply("subsidy wood")
    assert g.players[0].store[1] == 3 and g.bag[1] == bag_wood - 1
    g2 = setup(stores=("", ""))
    give(g2, 0, "obelisk")
    g2.supply = [0, 2, 0, 0, 0]
    g2.bag[1] = 0
    g2.apply("subsidy wood")
    assert g2.players[0].store[1] == 2  # NIMM: nothing there, it lapses


# Rulebook: AKTION 4 VERKAUF (pairs of equal resources into the bag, 1 coin each, at least once)
def test_sale_pairs_for_coins_at_least_once() -> None:
    g = setup(stores=("WWWWI", ""))
    bag_wood, pool = g.bag[1], g.coins
    g.apply("sell")
    assert acts(g) == ["sell wood"]  # no "done" before the first sale
    g.apply("sell wood")
    assert acts(g) == ["sell wood", "done"]
    g.apply("sell wood")
    assert acts(g) == ["done"]
    g.apply("done")
    p = g.players[0]
    assert p.store == [0, 0, 0, 0, 1, 2]
    assert g.bag[1] == bag_wood + 4 and g.coins == pool - 2


def test_sale_not_offered_without_a_pair() -> None:
    g = setup(stores=("KWCSI", ""))
    assert "sell" not in acts(g)


# Rulebook: Triumph, Schmiede (lost icons read as "for each iron pair 1 more coin", see docs)
def test_forge_extra_coin_for_iron_pair_only() -> None:
    g = setup(stores=("IIWW", ""))
    give(g, 0, "forge")
    play(g, "sell", "sell iron", "sell wood", "done")
    assert g.players[0].store[COIN] == 3


# Rulebook: NIMM (not enough coins in the general supply: the rest lapses)
def test_sale_with_empty_coin_supply_gives_nothing() -> None:
    g = setup(stores=("WW", ""))
    g.coins = 0
    play(g, "sell", "sell wood", "done")
    assert g.players[0].store[COIN] == 0


# Rulebook: Hinweis zum Lager (max. 8 places; a coin takes a place; overflow to the supply board)
def test_overflow_goes_to_supply_board_not_bag_and_coins_to_pool() -> None:
    g = setup(stores=("KKSSSSI$", ""))
    g.supply = [0, 2, 0, 0, 0]
    bag = g.bag[:]
    pool = g.coins
    g.apply("subsidy wood")
    assert g.current_player() == 0
    assert acts(g) == [
        "discard knowledge",
        "discard wood",
        "discard stone",
        "discard iron",
        "discard coin",
    ]
    g.apply("discard coin")
    g.apply("discard knowledge")
    assert sum(g.players[0].store) == 8
    assert g.bag == bag
    assert g.supply == [1, 0, 0, 0, 0]
    assert g.coins == pool + 1
    assert _turn_passed(g, 0)


# Rulebook: AKTION 5 SPEZIELLE AKTIONEN and GEBÄUDE ("NEUE AKTION" triggers no other building)
def test_new_action_is_a_turn_and_triggers_no_action_building() -> None:
    g = setup(wonders=("colossus", "zeus"), boards=("commerce", "harmony"), stores=("", ""))
    give(g, 0, "colossus_harbour")
    give(g, 0, "commerce_quarry")  # "Production: also take 1 stone" — must not fire
    assert "new colossus_harbour" in acts(g)
    g.apply("new colossus_harbour")
    assert g.players[0].store[:5] == [0, 0, 0, 0, 2]
    assert _turn_passed(g, 0)


def test_production_bonus_building_fires_on_production() -> None:
    g = setup(boards=("commerce", "harmony"), stores=("", ""))
    give(g, 0, "commerce_quarry")
    g.bag = [0, 0, 0, 5, 0]
    play(g, "produce", "supply stone")
    assert g.players[0].store[:5] == [0, 0, 0, 3, 0]  # 2 kept + 1 from the Quarry
    assert g.bag[3] == 1


# Rulebook: NIMM ("nimm aus dem Vorrat"; not enough: the rest lapses)
def test_take_from_supply_lapses_when_short() -> None:
    g = setup(stores=("WSS", ""))
    g.supply = [2, 1, 0, 0, 0]
    play(g, "build", "building viewing_platform")
    assert acts(g) == ["take knowledge", "take wood"]
    play(g, "take knowledge", "take knowledge", "take wood")
    assert g.players[0].store[:3] == [2, 1, 0]
    # the fourth lapses; back in the build phase, where the new resources already help
    assert acts(g) == ["stage pharos:s1b", "done"]
