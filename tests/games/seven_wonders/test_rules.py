"""Rules and tournament rulings, one example each; the docstring names the source."""

from __future__ import annotations

import random

import pytest

from agon.errors import IllegalAction, InvalidInput
from agon.games.seven_wonders.data import RES_INDEX, card_by_id, cards
from agon.games.seven_wonders.engine import RULESET_POLICIES, Action, Game, Policy

from .helpers import a, discard_all, idx, make_game

W3 = ["Rhodos", "Alexandria", "Ephesos"]  # starting ore, glass, papyrus


def cost(*names: str) -> tuple[int, ...]:
    vec = [0] * 7
    for n in names:
        vec[RES_INDEX[n]] += 1
    return tuple(vec)


def play_randomly_until(g: Game, stop: object, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not g.over and not stop:
        g.step({p: rng.choice(g.legal_actions(p)) for p in g.to_act()})


def test_setup_three_coins_seven_cards_and_given_guilds() -> None:
    """Rulebook setup; the tournament's central guild draw, first k+2 (Bonn 2018)."""
    names = [c.en for c in cards() if c.is_guild]
    g = Game(4, 3, wonders=["Gizah", "Babylon", "Olympia", "Rhodos"], sides="ABAB", guilds=names)
    assert [c.coins for c in g.cities] == [3, 3, 3, 3]
    assert [len(h) for h in g.hands] == [7, 7, 7, 7]
    assert [c.side for c in g.cities] == ["A", "B", "A", "B"]
    rng = random.Random(1)
    while g.age < 3:
        g.step({p: rng.choice(g.legal_actions(p)) for p in g.to_act()})
    dealt = {i for h in g.hands for i in h if cards()[i].is_guild}
    assert dealt == {card_by_id(c.replace(" ", "_").lower()).index for c in names[:6]}


def test_setup_rejects_bad_input() -> None:
    with pytest.raises(InvalidInput, match="players"):
        Game(8, 1)
    with pytest.raises(InvalidInput, match="twice"):
        Game(3, 1, wonders=["Rhodos", "Rhodes", "Gizah"])
    with pytest.raises(InvalidInput, match="not a guild"):
        Game(3, 1, guilds=["Temple"] * 5)


def test_same_seed_same_game() -> None:
    logs = []
    for _ in range(2):
        g = Game(5, 42)
        play_randomly_until(g, False, seed=9)
        logs.append((g.log, [s.total for s in g.scores()]))
    assert logs[0] == logs[1]


def test_hands_pass_left_in_age_one_and_right_in_age_two() -> None:
    """Rulebook: age I and III to the left (next seat), age II to the right."""
    g = Game(3, 5)
    before = [h[:] for h in g.hands]
    acts = {p: Action("discard", g.hands[p][0]) for p in range(3)}
    g.step(acts)
    assert sorted(g.hands[1]) == sorted(before[0][1:])
    while g.age < 2:
        g.step({p: Action("discard", g.hands[p][0]) for p in g.to_act()})
    before = [h[:] for h in g.hands]
    g.step({p: Action("discard", g.hands[p][0]) for p in range(3)})
    assert sorted(g.hands[0]) == sorted(before[1][1:])


def test_resources_only_from_cards_of_earlier_turns() -> None:
    """Bonn 2018, Handeln: only cards played before the current turn can be bought from."""
    g = make_game(W3, hands=[["stockade"] * 7, ["lumber_yard"] * 7, ["altar"] * 7])
    assert g.payments(0, cost("wood")) == ()
    assert "build stockade" not in map(str, g.legal_actions(0))
    g.step(discard_all(g, p1="build lumber_yard"))
    assert g.payments(0, cost("wood")) == ((2, 0),)


def test_coins_received_in_a_turn_are_usable_next_turn() -> None:
    """Bonn 2018 / Ludolimpico 2.2: payments received are kept apart until the turn ends."""
    g = make_game(
        W3,
        hands=[["workshop"] * 7, ["altar"] * 7, ["barracks"] * 7],
        coins=[0, 3, 3],
    )
    assert not any(x.kind == "build" for x in g.legal_actions(0))
    g.step(discard_all(g, p2="build barracks pay 2 0"))  # seat 2 buys Rhodos' ore
    assert g.cities[0].coins == 3 + 2  # its own discard (3) and the sale (2), both after the turn
    assert g.cities[2].coins == 1


def test_only_brown_grey_and_wonder_resource_are_tradable() -> None:
    """Bonn 2018: no buying from yellow cards; the wonder's own resource can be bought."""
    g = make_game(W3, cities=[[], ["forum", "caravansery"], []])
    assert g.payments(0, cost("loom")) == ()
    assert g.payments(0, cost("wood")) == ()
    assert g.payments(0, cost("glass")) == ((2, 0),)  # Alexandria's starting glass


def test_discounts_do_not_add_up() -> None:
    """Bonn 2018: several discount cards still cost 1 coin per unit (minimum 1)."""
    g = make_game(
        ["Olympia", "Rhodos", "Gizah"],
        ["B", "A", "A"],
        cities=[["west_trading_post"], ["ore_vein"], []],
    )
    g.cities[0].add_stage()  # Olympia B stage 1: raw materials at 1 from both neighbours
    assert g.payments(0, cost("ore", "ore")) == ((2, 0),)
    assert g.payments(0, cost("stone")) == ((0, 1),)


def test_own_production_is_used_before_buying() -> None:
    """Bonn 2018: a bought resource must be used; no trade just to move coins."""
    g = make_game(W3, cities=[["lumber_yard"], ["lumber_yard"], ["lumber_yard"]])
    assert g.payments(0, cost("wood")) == ((0, 0),)
    assert g.payments(0, cost("wood", "wood")) == ((0, 2), (2, 0))


def test_lighthouse_counts_itself_and_pays_when_played() -> None:
    """Bonn 2018, Leuchtturm: it counts itself; coins are taken when it is played."""
    g = make_game(W3, hands=[["lighthouse"] * 7, ["altar"] * 7, ["altar"] * 7])
    g.cities[0].add_card(idx("caravansery"))  # chain -> free, and a yellow card
    g.cities[0].add_card(idx("tavern"))
    g.step(discard_all(g, p0="build lighthouse"))
    assert g.cities[0].coins == 3 + 3
    assert g.scores()[0].commercial == 3


def test_chamber_of_commerce_two_coins_and_two_vp_per_own_grey() -> None:
    """Bonn 2018: Handelskammer counts grey cards, 2 coins and 2 VP each."""
    g = make_game(W3, hands=[["chamber_of_commerce"] * 7, ["altar"] * 7, ["altar"] * 7])
    for c in ("loom", "press", "brickyard"):
        g.cities[0].add_card(idx(c))
    g.step(discard_all(g, p0="build chamber_of_commerce"))
    assert g.cities[0].coins == 3 + 4
    assert g.scores()[0].commercial == 4


def test_vineyard_and_bazar_count_cards_present_when_played() -> None:
    """Ludolimpico FAQ 3.2/3.3: cards present in the three cities at that moment; a
    neighbour's card of the same turn does not count (Bonn 2018)."""
    g = make_game(
        W3,
        hands=[["vineyard"] * 7, ["altar"] * 7, ["stone_pit"] * 7],
        cities=[["lumber_yard", "glassworks"], ["ore_vein", "clay_pool", "loom"], []],
    )
    g.step(discard_all(g, p0="build vineyard", p2="build stone_pit"))
    assert g.cities[0].coins == 3 + 1 + 2  # own 1 brown, left 2 brown, right's new one not
    g = make_game(
        W3,
        hands=[["bazar"] * 7, ["altar"] * 7, ["altar"] * 7],
        cities=[["glassworks"], ["loom", "press"], ["ore_vein"]],
    )
    g.step(discard_all(g, p0="build bazar"))
    assert g.cities[0].coins == 3 + 2 * 3


def test_chain_builds_for_free_and_duplicates_are_illegal() -> None:
    """Rulebook: free chains; never two identical buildings (Loom of age I and II alike)."""
    g = make_game(W3, hands=[["temple", "loom_2"] * 3 + ["altar"], ["altar"] * 7, ["altar"] * 7])
    g.cities[0].add_card(idx("altar"))
    g.cities[0].add_card(idx("loom"))
    legal = set(map(str, g.legal_actions(0)))
    assert "build temple" in legal
    assert not any(s.startswith("build loom_2") for s in legal)
    assert not any(s.startswith("build altar") for s in legal)


def test_military_one_three_five_and_minus_one() -> None:
    """Rulebook: victory tokens 1/3/5 by age, a defeat token -1."""
    g = make_game(W3)
    g.cities[0].shields = 2
    g.cities[1].shields = 1
    for _ in range(6):
        g.step({p: Action("discard", g.hands[p][0]) for p in g.to_act()})
    assert g.age == 2
    assert [c.military for c in g.cities] == [2, 0, -2]
    assert [c.defeats for c in g.cities] == [0, 1, 2]
    for _ in range(6):
        g.step({p: Action("discard", g.hands[p][0]) for p in g.to_act()})
    assert [c.military for c in g.cities] == [8, 2, -4]


def _to_turn_six(g: Game, hands: list[list[str]]) -> None:
    g.turn = 6
    g.hands = [[idx(c) for c in h] for h in hands]


def test_babylon_b_builds_stage_on_sixth_turn_then_plays_seventh_card() -> None:
    """Ludolimpico FAQ 3.1; Bonn 2018: Babylon B works over several turns."""
    g = make_game(["Babylon", "Rhodos", "Gizah"], ["B", "A", "A"])
    g.cities[0].add_card(idx("sawmill"))
    g.cities[0].add_card(idx("glassworks"))
    g.cities[0].add_stage()
    _to_turn_six(g, [["altar", "stockade"], ["altar", "baths"], ["altar", "baths"]])
    g.step(discard_all(g, p0="wonder altar"))
    assert g.phase == "seventh" and g.to_act() == [0]
    g.step({0: a("build stockade")})  # the sawmill's wood serves the stage and the card
    assert idx("stockade") in g.cities[0].cards
    assert g.age == 2 and g.phase == "main"


def test_babylon_b_sixth_card_helps_build_the_seventh() -> None:
    """Ludolimpico FAQ 3.1: the sixth card can supply resources for the seventh."""
    g = make_game(["Babylon", "Rhodos", "Gizah"], ["B", "A", "A"])
    g.cities[0].add_stage()
    g.cities[0].add_stage()
    _to_turn_six(g, [["lumber_yard", "stockade"], ["altar", "baths"], ["altar", "baths"]])
    assert g.payments(0, cost("wood")) == ()
    g.step(discard_all(g, p0="build lumber_yard"))
    assert "build stockade" in map(str, g.legal_actions(0))


def test_halikarnassos_builds_from_the_discard_pile() -> None:
    """Rulebook Halikarnassos; Bonn 2018 allows the immediate use."""
    g = make_game(["Halikarnassos", "Rhodos", "Gizah"], ["A", "A", "A"])
    g.cities[0].add_card(idx("foundry"))
    g.cities[0].add_card(idx("ore_vein"))
    g.cities[0].add_stage()
    g.discard = [idx("temple"), idx("ore_vein")]
    g.hands = [[idx("altar")] * 7, [idx("temple")] * 7, [idx("temple")] * 7]
    g.step(discard_all(g, p0="wonder altar"))  # this turn's discards are in the pile too
    assert g.phase == "revive" and g.to_act() == [0]
    assert [str(x) for x in g.legal_actions(0)] == ["revive temple", "pass"]
    assert g.observation(0).discard is not None and g.observation(1).discard is None
    g.step({0: a("revive temple")})
    assert g.cities[0].blue_vp == 3 and g.phase == "main" and g.turn == 2


def test_olympia_a_builds_one_card_free_per_age() -> None:
    """Rulebook Olympia A: once per age, a building for free."""
    g = make_game(["Olympia", "Rhodos", "Gizah"], ["A", "A", "A"])
    g.cities[0].add_stage()
    g.cities[0].add_stage()
    g.hands[0] = [idx("palace")] + [idx("altar")] * 6
    assert "free palace" in map(str, g.legal_actions(0))
    g.step(discard_all(g, p0="free palace"))
    assert g.cities[0].blue_vp == 8 and g.cities[0].coins == 3
    assert not any(x.kind == "free" for x in g.legal_actions(0))


def test_olympia_b_copies_best_neighbour_guild_which_is_not_purple() -> None:
    """Rulebook Olympia B; Bonn 2018: the copied guild is no purple card (Shipowners)."""
    g = make_game(
        ["Olympia", "Rhodos", "Gizah"],
        ["B", "A", "A"],
        cities=[
            ["lumber_yard", "ore_vein", "loom", "shipowners_guild"],
            ["workers_guild", "stone_pit"],
            ["shipowners_guild", "clay_pool"],
        ],
    )
    for _ in range(3):
        g.cities[0].add_stage()
    s = g.scores()[0]
    # own Shipowners: 2 brown + 1 grey + 1 purple = 4; copied Shipowners adds 4 (not 5),
    # the Workers Guild would add only 2 (one brown in each neighbour).
    assert s.copied_guild == "shipowners_guild"
    assert s.guilds == 8


def test_science_takes_best_wildcards() -> None:
    """Rulebook: Scientists Guild / Babylon choose the symbol at the end."""
    g = make_game(["Babylon", "Rhodos", "Gizah"], ["A", "A", "A"])
    for c in ("apothecary", "dispensary", "workshop", "scientists_guild"):
        g.cities[0].add_card(idx(c))
    assert g.scores()[0].science == 4 + 1 + 1 + 7  # wildcard -> tablet: 2,1,1


@pytest.mark.parametrize("ruleset", ["bonn-2018", "ludolimpico-2015", "de-championship"])
def test_ruleset_policies(ruleset: str) -> None:
    assert RULESET_POLICIES[ruleset].value in (
        "discard-3-coins",
        "discard-no-coins",
        "choose-discard-or-wonder",
    )


def _illegal_palace(policy: Policy) -> Game:
    g = make_game(W3, policy=policy, hands=[["palace"] * 7, ["altar"] * 7, ["altar"] * 7])
    g.cities[0].add_card(idx("sawmill"))  # 2 wood: Rhodos A's first stage, not the Palace
    return g


def test_illegal_play_casual_is_refused() -> None:
    g = _illegal_palace(Policy.CASUAL)
    with pytest.raises(IllegalAction, match="player 0: build palace"):
        g.step(discard_all(g, p0="build palace"))


def test_illegal_play_bonn_discards_for_three_coins() -> None:
    """Bonn 2018: an impossible build or stage is discarded for 3 coins."""
    g = _illegal_palace(RULESET_POLICIES["bonn-2018"])
    g.step(discard_all(g, p0="build palace"))
    assert g.cities[0].coins == 6 and g.discard.count(idx("palace")) == 1


def test_illegal_play_ludolimpico_discards_without_coins() -> None:
    """Ludolimpico 2015, 2.3: discarded without effect and without the 3 coins."""
    g = _illegal_palace(RULESET_POLICIES["ludolimpico-2015"])
    g.step(discard_all(g, p0="build palace"))
    assert g.cities[0].coins == 3 and idx("palace") in g.discard


def test_illegal_play_de_championship_player_chooses() -> None:
    """German championship: discard for 3 coins or a wonder stage where legal."""
    g = _illegal_palace(RULESET_POLICIES["de-championship"])
    with pytest.raises(IllegalAction, match="else discard"):
        g.step(discard_all(g, p0="build palace"))
    g.step(discard_all(g, p0="build palace else wonder"))
    assert g.cities[0].stages_built == 1 and g.cities[0].coins == 3
    g = _illegal_palace(RULESET_POLICIES["de-championship"])
    g.step(discard_all(g, p0="build palace else discard"))
    assert g.cities[0].coins == 6


def test_withdrawal_boxes_hand_skips_passing_and_resizes_next_age() -> None:
    """Ludolimpico 2015, 2.5."""
    g = Game(4, 11)
    g.step({p: Action("discard", g.hands[p][0]) for p in range(4)})
    g.withdraw(3)
    assert g.hands[3] == [] and g.to_act() == [0, 1, 2]
    before = [h[:] for h in g.hands]
    g.step({p: Action("discard", g.hands[p][0]) for p in range(3)})
    assert sorted(g.hands[0]) == sorted(before[2][1:])  # seat 3 skipped
    g.cities[3].shields = 10  # still at war this age
    while g.age == 1:
        g.step({p: Action("discard", g.hands[p][0]) for p in g.to_act()})
    assert g.cities[0].defeats == 1 and g.cities[2].defeats == 1
    assert g.ring == [0, 1, 2] and [len(h) for h in g.hands[:3]] == [7, 7, 7]
    assert g.left[2] == 0 and g.right[0] == 2
    assert 3 not in [s.player for s in g.scores()]
    with pytest.raises(IllegalAction, match="fewer than three"):
        g.withdraw(0)


def test_legal_actions_of_a_hand_counted_by_hand() -> None:
    """Perft-style: Rhodos (ore) between Alexandria (glass, left) and Ephesos (papyrus)."""
    hand = ["workshop", "scriptorium", "apothecary", "barracks", "stockade", "lumber_yard", "altar"]
    g = make_game(W3, hands=[hand, ["altar"] * 7, ["altar"] * 7])
    legal = [str(x) for x in g.legal_actions(0)]
    builds = [s for s in legal if not s.startswith("discard")]
    assert builds == [
        "build workshop pay 2 0",
        "build scriptorium pay 0 2",
        "build barracks",
        "build lumber_yard",
        "build altar",
    ]
    assert len(legal) == 5 + 7


@pytest.mark.parametrize(
    ("wonder", "side", "stages", "check"),
    [
        ("Rhodos", "A", 2, lambda c: c.shields == 2),
        ("Rhodos", "B", 2, lambda c: (c.shields, c.wonder_vp, c.coins) == (2, 7, 3 + 3 + 4)),
        ("Ephesos", "A", 2, lambda c: (c.coins, c.wonder_vp) == (3 + 9, 3)),
        ("Ephesos", "B", 3, lambda c: (c.coins, c.wonder_vp) == (3 + 12, 10)),
        ("Gizah", "B", 4, lambda c: c.wonder_vp == 20),
        ("Babylon", "A", 2, lambda c: c.wild == 1),
        ("Alexandria", "B", 2, lambda c: c.choices == [0b1111, 0b1110000] and c.tchoices == []),
    ],
)
def test_stage_powers_through_play(wonder: str, side: str, stages: int, check: object) -> None:
    """Rulebook wonder boards: each stage built by playing a card, with its effect."""
    g = make_game(
        [wonder, "Olympia" if wonder != "Olympia" else "Gizah", "Halikarnassos"], [side, "A", "A"]
    )
    me = g.cities[0]
    for r in range(7):
        me.fixed[r] = 5  # enough of everything
    for _ in range(stages):
        g.hands = [[idx("altar")] * (8 - g.turn) for _ in range(3)]
        g.step(discard_all(g, p0="wonder altar"))
    assert callable(check) and check(me)


def test_arena_and_haven_pay_when_played_and_score_at_the_end() -> None:
    """Arena: 3 coins and 1 VP per own stage; Haven: 1 coin and 1 VP per own brown card."""
    g = make_game(W3, hands=[["arena"] * 7, ["altar"] * 7, ["altar"] * 7])
    g.cities[0].add_card(idx("dispensary"))  # chain
    g.cities[0].add_stage()
    g.cities[0].add_stage()
    g.step(discard_all(g, p0="build arena"))
    assert g.cities[0].coins == 3 + 6 and g.scores()[0].commercial == 2
    g = make_game(W3, hands=[["haven"] * 7, ["altar"] * 7, ["altar"] * 7])
    for c in ("forum", "lumber_yard", "clay_pool", "sawmill"):
        g.cities[0].add_card(idx(c))
    g.step(discard_all(g, p0="build haven"))
    assert g.cities[0].coins == 3 + 3 and g.scores()[0].commercial == 3


def test_observation_hides_other_hands_and_lists_own_legal_actions() -> None:
    g = Game(4, 8)
    obs = g.observation(2)
    assert obs.hand == tuple(cards()[i].en for i in g.hands[2])
    assert obs.discard is None and obs.discard_size == 0
    assert obs.legal == tuple(str(x) for x in g.legal_actions(2))
    assert len(obs.cities) == 4 and all(c.coins == 3 for c in obs.cities)
    assert not hasattr(obs, "hands")


@pytest.mark.parametrize("text", ["", "dance temple", "build", "build temple pay one 2"])
def test_action_text_errors(text: str) -> None:
    with pytest.raises(InvalidInput):
        Action.parse(text)


def test_action_names_in_any_language_parse_to_the_same_card() -> None:
    assert Action.parse("build Leuchtturm") == Action.parse("build lighthouse")
    assert str(Action.parse("wonder Faro pay 0 1 else discard")) == (
        "wonder lighthouse pay 0 1 else discard"
    )


# ---------------------------------------------------------------- issue 11: plays and Babylon B
@pytest.mark.parametrize("policy", list(Policy))
@pytest.mark.parametrize(
    "text", ["build workshop pay 0 2", "build workshop", "build workshop pay 5 5"]
)
def test_a_possible_build_with_an_unusable_coin_split_is_paid_the_cheapest_way(
    policy: Policy, text: str
) -> None:
    """Bonn 2018, "Karte ins Spiel bringen": only a play that is "nicht regelgerecht möglich"
    (duplicate, too few resources or coins) is illegal; a wrong split of the coins is not, the
    card is built and paid the cheapest legal way."""
    g = make_game(W3, policy=policy, hands=[["workshop"] * 7, ["altar"] * 7, ["altar"] * 7])
    assert [str(x) for x in g.legal_actions(0) if x.kind == "build"] == ["build workshop pay 2 0"]
    assert g.resolve(0, a(text)) == a("build workshop pay 2 0")
    g.step(discard_all(g, p0=text))
    assert idx("workshop") in g.cities[0].cards
    assert g.cities[0].coins == 1 and g.cities[1].coins == 3 + 3 + 2


def test_the_cheapest_split_is_chosen_among_several() -> None:
    """Bonn 2018: the build stands; of the legal splits the cheapest is paid."""
    g = make_game(
        ["Rhodos", "Gizah", "Ephesos"],
        ["A", "A", "A"],
        hands=[["stockade"] * 7, ["altar"] * 7, ["altar"] * 7],
        cities=[["east_trading_post"], ["lumber_yard"], ["lumber_yard"]],
    )
    pays = sorted((x.left, x.right) for x in g.legal_actions(0) if x.kind == "build")
    assert len(pays) == 2 and pays[0] != pays[1]
    cheapest = min(pays, key=sum)
    assert sum(cheapest) < max(sum(p) for p in pays)
    got = g.resolve(0, a("build stockade pay 9 9"))
    assert got is not None and (got.left, got.right) == cheapest


def test_an_impossible_build_says_why() -> None:
    """Casual play refuses an impossible build with the reason."""
    g = make_game(W3, hands=[["workshop", "apothecary"] * 3 + ["workshop"]] * 3, coins=[1, 3, 3])
    assert g.resolve(0, a("build workshop")) is None
    assert "at least 2 coins, you have 1" in g.why_illegal(0, a("build workshop"))
    assert "cannot be produced" in g.why_illegal(0, a("build apothecary"))
    assert "not in your hand" in g.why_illegal(0, a("build temple"))
    g.cities[0].add_card(idx("workshop"))
    assert "already have Workshop" in g.why_illegal(0, a("build workshop pay 2 0"))
    with pytest.raises(IllegalAction, match="already have Workshop"):
        g.step(discard_all(g, p0="build workshop pay 2 0"))


def test_babylon_b_seventh_card_cannot_buy_from_neighbours_turn_six_cards() -> None:
    """Bonn 2018, "Ergänzungen zum Handeln": only cards played before the current turn can be
    bought from; the seventh card is part of turn 6 (Ludolimpico 2015, 3.1), so a neighbour's
    sixth card does not help it."""
    g = make_game(["Babylon", "Rhodos", "Gizah"], ["B", "A", "A"])
    g.cities[0].add_stage()
    g.cities[0].add_stage()
    _to_turn_six(g, [["altar", "stockade"], ["lumber_yard", "baths"], ["altar", "baths"]])
    g.step(discard_all(g, p1="build lumber_yard"))
    assert g.phase == "seventh" and g.to_act() == [0]
    assert g.payments(0, cost("wood")) == ()
    assert not any(x.kind == "build" for x in g.legal_actions(0))
    g.step({0: a("discard stockade")})
    assert g.phase == "main" and g.age == 2
    assert g.payments(0, cost("wood")) == ((2, 0),)  # from age II on, the yard trades


def test_babylon_b_seventh_card_gets_turn_six_coins_only_after_it() -> None:
    """Bonn 2018: "erhaltenes Geld wird getrennt vom restlichen Vermögen gehalten, bis alle
    Spieler ihre Karte gespielt haben" — the coins a neighbour paid on turn 6 (and the own
    turn-6 income) arrive after the seventh card, which belongs to turn 6."""
    g = make_game(["Babylon", "Rhodos", "Gizah"], ["B", "A", "A"], cities=[[], ["lumber_yard"], []])
    g.cities[0].add_stage()
    g.cities[0].add_stage()
    g.cities[0].coins = 0
    _to_turn_six(g, [["altar", "stockade"], ["altar", "baths"], ["guard_tower", "baths"]])
    # seat 2 (Gizah, whose left neighbour is Babylon) buys Babylon's clay on turn 6
    g.step(discard_all(g, p0="build altar", p2="build guard_tower pay 2 0"))
    assert g.phase == "seventh" and g.cities[0].coins == 0
    assert g.payments(0, cost("wood")) == ((2, 0),)  # Rhodos' lumber yard of an earlier turn
    assert not any(x.kind == "build" for x in g.legal_actions(0))  # the 2 coins are not there
    g.step({0: a("discard stockade")})
    assert g.cities[0].coins == 2 + 3 and g.age == 2
