"""Building (Rulebook: AKTION 3 BAU, WUNDER-KARTEN, GEBÄUDE, KLARSTELLUNGEN, SPIELENDE)."""

from __future__ import annotations

from ocw_helpers import acts, built, built_ids, give, play, setup

from agon.games.one_card_wonder.content import COIN


# Rulebook: WUNDER-KARTEN (a stage with arrows into it needs every source first)
def test_arrows_need_all_sources() -> None:
    g = setup(stores=("SSS$", ""))
    built(g, 0, "s1a")
    g.apply("build")
    assert "stage pharos:s2a" not in acts(g)  # s2a needs s1a and s1b
    built(g, 0, "s1b")
    assert "stage pharos:s2a" in acts(g)


# Rulebook: WUNDER-KARTEN (several stages per turn, one by one, each can open the next)
def test_several_stages_in_one_turn_each_unlocking_the_next() -> None:
    g = setup(stores=("KKSSSS$", ""))
    play(g, "build", "stage pharos:s1a", "pay stone", "pay stone", "stage pharos:s1b")
    play(g, "pay knowledge", "pay knowledge")
    assert "stage pharos:s2a" in acts(g)
    play(g, "stage pharos:s2a", "done")  # coin and stones are forced: paid at once
    assert built_ids(g, 0) == ["s1a", "s1b", "s2a"]
    assert g.players[0].store == [0] * 6


# Rulebook: AKTION 3 BAU (paid resources into the bag, coins into the general supply)
def test_payment_goes_to_bag_and_coin_supply_at_once() -> None:
    g = setup(stores=("S$", ""))
    bag, pool = g.bag[:], g.coins
    play(g, "build", "stage pharos:s1a")  # SS: a coin stands in for the missing stone
    assert acts(g) == ["pay stone", "pay coin"]
    g.apply("pay coin")  # the second unit is then forced (stone) and paid automatically
    assert g.bag[3] == bag[3] + 1 and g.coins == pool + 1
    assert g.players[0].store == [0] * 6


# Rulebook: KLARSTELLUNGEN MÜNZEN (a coin pays any resource, a coin cost only a coin; "Gärten")
def test_coin_cost_cannot_be_paid_with_resources() -> None:
    g = setup(wonders=("hanging_gardens", "zeus"), stores=("WWW", ""))
    assert "build" not in acts(g)  # W$ with W W W: nothing to build (the coin is missing)
    g2 = setup(wonders=("hanging_gardens", "zeus"), stores=("W$", ""))
    play(g2, "build", "building gardens")
    assert "gardens" in g2.players[0].built_ids


# Rulebook: KLARSTELLUNGEN JOKER-SYMBOL UND MÜNZEN (a joker is any resource or a coin)
def test_joker_paid_with_any_resource_or_coin_step_by_step() -> None:
    g = setup(stores=("SSKW$", ""))
    built(g, 0, "s1a", "s1b", "s1c", "s2a", "s2b")
    play(g, "build", "stage pharos:s3a")  # SSJ
    assert acts(g) == ["pay stone", "pay coin"]
    play(g, "pay stone", "pay stone")
    assert acts(g) == ["pay knowledge", "pay wood", "pay coin"]
    bag_wood = g.bag[1]
    g.apply("pay wood")
    assert g.bag[1] == bag_wood + 1
    assert "s3a" in built_ids(g, 0)
    assert g.players[0].store == [1, 0, 0, 0, 0, 1]


# Rulebook: AKTION 3 BAU (at most 1 building, before or after the stages, not between)
def test_building_before_stages_then_stages_allowed_but_no_second_building() -> None:
    g = setup(stores=("WCSSKK", ""))
    play(g, "build", "building kiln")
    options = acts(g)
    assert "stage pharos:s1a" in options
    assert not any(a.startswith("building") for a in options)
    play(g, "stage pharos:s1a")
    assert not any(a.startswith("building") for a in acts(g))


def test_building_after_stages_ends_the_stages() -> None:
    g = setup(stores=("SSWCKK", ""))
    play(g, "build", "stage pharos:s1a", "building kiln")
    assert acts(g)[0] != "stage pharos:s1b"
    assert g.stack[-1][0] == "turn" and g.current == 1  # nothing more to do: turn over


# Rulebook: GEBÄUDE Hinweis (at most 4 buildings per game)
def test_at_most_four_buildings() -> None:
    g = setup(stores=("WC", ""))
    g.players[0].tokens = 4
    assert "build" not in acts(g)
    g.players[0].tokens = 3
    play(g, "build")
    assert "building kiln" in acts(g)


# Rulebook: Triumph, Brennofen; KLARSTELLUNGEN GEBÄUDE-EFFEKTE (usable for stages the same turn)
def test_kiln_built_then_used_in_the_same_turn_once() -> None:
    g = setup(wonders=("khazne", "zeus"), stores=("WCCCC", ""))
    play(g, "build", "building kiln")  # pays W C
    assert acts(g) == [
        "stage khazne:s1b",
        "stage khazne:s1b kiln",
        "stage khazne:s1c",
        "stage khazne:s1c kiln",
        "done",
    ]
    play(g, "stage khazne:s1b kiln")  # pays only C
    assert g.players[0].store[2] == 2
    assert acts(g) == ["stage khazne:s1c", "done"]  # once per turn


# Rulebook: KLARSTELLUNGEN KOSTENREDUZIERUNGEN (jokers and coins are never reduced)
def test_discount_does_not_reduce_jokers() -> None:
    g = setup(wonders=("khazne", "zeus"), stores=("C", ""))
    give(g, 0, "kiln")
    built(g, 0, "s1a", "s1b", "s1c", "s2a", "s2b")  # s3a costs CCJ
    assert "build" not in acts(g)  # C + kiln leaves C J: the joker still needs paying
    g2 = setup(wonders=("khazne", "zeus"), stores=("CK", ""))
    give(g2, 0, "kiln")
    built(g2, 0, "s1a", "s1b", "s1c", "s2a", "s2b")
    g2.apply("build")
    assert "stage khazne:s3a kiln" in acts(g2) and "stage khazne:s3a" not in acts(g2)


# Rulebook: GEBÄUDE ("Sofort" once, after paying); Pharos AUSSICHTSPLATTFORM (take 4 from supply)
def test_viewing_platform_immediately_takes_four_from_the_supply() -> None:
    g = setup(stores=("WSS", ""))
    g.supply = [4, 4, 0, 0, 0]
    play(g, "build", "building viewing_platform")
    play(g, "take wood", "take wood", "take wood", "take knowledge")
    assert g.players[0].store[:2] == [1, 3]
    assert g.supply == [3, 1, 0, 0, 0]
    assert not any(a.startswith("take") for a in acts(g))


# Rulebook: KLARSTELLUNG ZUR ABFOLGE (pay into the bag before the building's effect)
def test_payment_in_bag_before_effect() -> None:
    g = setup(wonders=("mausoleum", "zeus"), stores=("SSK", ""))
    g.bag = [0, 0, 0, 0, 0]
    play(g, "build", "building sculptors")  # Sofort: take 3 of your choice from the bag
    assert acts(g) == ["take knowledge", "take stone"]  # exactly what was just paid


# Khazne al-Firaun: oases in order, the token moves right; take from bag and both neighbours
def test_oases_in_order_one_token_and_neighbours() -> None:
    g = setup(
        n=3,
        wonders=("khazne", "zeus", "apollo"),
        boards=("triumph", "harmony", "dawn"),
        stores=("WCC", "K", "I"),
    )
    play(g, "build")
    assert "building oasis_2" not in acts(g)
    play(g, "building oasis_1")
    assert g.players[0].tokens == 1
    play(g, "take wood", "take iron")  # 2 of my choice from the bag
    assert acts(g) == ["take knowledge"]  # left neighbour (seat 1) has only knowledge
    g.apply("take knowledge")
    assert acts(g) == ["take iron"]  # right neighbour (seat 2)
    g.apply("take iron")
    assert g.players[0].store[:5] == [1, 1, 0, 0, 2]
    assert g.players[1].store[0] == 0 and g.players[2].store[4] == 0
    p = g.players[0]
    p.store = [0, 0, 2, 2, 0, 1]
    g.players[0].used.clear()
    g.stack[-1] = ("turn", 0)
    g.current = 0
    play(g, "build", "building oasis_2")
    assert g.players[0].tokens == 1  # the token moved right: no new one


# Rulebook: SPIELLENDE UND SIEGER (the first to complete every stage wins at once)
def test_completing_the_wonder_wins_at_once() -> None:
    g = setup(stores=("KSI$SS", ""))
    built(g, 0, "s1a", "s1b", "s1c", "s2a", "s2b", "s2c", "s3a", "s3b")
    play(g, "build", "stage pharos:s4")
    assert g.over and g.winner == 0
    assert g.legal_actions() == []
    assert g.players[0].store[COIN] == 0
