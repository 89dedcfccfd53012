"""Leaders expansion (Rulebook: ERWEITERUNG „ANFÜHRER“) and its FAQ II."""

from __future__ import annotations

from ocw_helpers import acts, built, built_ids, give, play, setup

from agon.games.one_card_wonder.content import COIN
from agon.games.one_card_wonder.engine import Game, Variant

L = Variant(leaders=True)
W3 = dict(wonders=("pharos", "zeus", "apollo"), boards=("triumph", "harmony", "dawn"))
W4 = dict(wonders=("pharos", "zeus", "apollo", "artemis"),
          boards=("triumph", "harmony", "dawn", "valour"))  # fmt: skip


def end_turn(g: Game) -> None:
    """The player on turn takes a subsidy (and discards any overflow)."""
    g.apply(next(a for a in g.legal_actions() if a.verb == "subsidy"))
    while g.stack[-1][0] == "discard":
        g.apply(g.legal_actions()[0])


def answer(g: Game, *pairs: tuple[int, str]) -> None:
    for seat, text in pairs:
        assert g.current_player() == seat, (seat, text, g.stack[-1])
        g.apply(text)


# Rulebook: ANFÜHRER SPIELVORBEREITUNG (one secret leader each, seen only by its owner)
def test_leader_dealt_secretly() -> None:
    g = setup(n=3, variant=L, leaders=("hatshepsut", "pericles", "imhotep"), **W3)  # type: ignore[arg-type]
    obs = g.observation(1)
    assert obs["players"][1]["leader"] == "pericles"
    assert obs["players"][0]["leader"] == "hidden" and obs["players"][2]["leader"] == "hidden"


# Rulebook: EINEN ANFÜHRER AKTIVIEREN (after the turn of any player)
def test_window_after_each_turn_asks_from_the_mover() -> None:
    g = setup(n=3, variant=L, leaders=("hatshepsut", "pericles", "imhotep"), **W3)  # type: ignore[arg-type]
    end_turn(g)
    assert acts(g) == ["pass", "reveal"]
    answer(g, (0, "pass"), (1, "pass"), (2, "pass"))
    assert g.stack[-1] == ("turn", 1)


# Rulebook: EINEN ANFÜHRER AKTIVIEREN (opponents pay together; paid cost goes to the owner)
def test_defeat_by_joint_tribute() -> None:
    g = setup(n=4, variant=L, leaders=("hatshepsut", "pericles", "imhotep", "croesus"),
              stores=("", "WC", "$", ""), **W4)  # type: ignore[arg-type]  # fmt: skip
    end_turn(g)
    answer(g, (0, "reveal"), (1, "pass"), (2, "pass"), (3, "pass"))
    assert g.current_player() == 1
    assert acts(g) == ["stop", "tribute wood", "tribute clay"]  # no globe with 4 players
    answer(g, (1, "tribute wood"), (1, "tribute clay"), (1, "stop"), (2, "tribute coin"))
    p0 = g.players[0]
    assert p0.leader_state == 2  # defeated: no effect
    assert p0.store[1] >= 1 and p0.store[2] >= 1 and p0.store[COIN] == 1
    assert g.players[1].store[:3] == [0, 0, 0] and g.players[2].store[COIN] == 0
    assert g.stack[-1][0] == "ask"  # the game goes on: another leader may come now (FAQ II)


def test_not_paid_in_full_refund_and_effect() -> None:
    g = setup(n=4, variant=L, leaders=("hatshepsut", "pericles", "imhotep", "croesus"),
              stores=("", "WC", "", ""), **W4)  # type: ignore[arg-type]  # fmt: skip
    end_turn(g)
    answer(g, (0, "reveal"), (1, "pass"), (2, "pass"), (3, "pass"))
    answer(g, (1, "tribute wood"), (1, "stop"), (2, "stop"), (3, "stop"))
    assert g.players[1].store[:3] == [0, 1, 1]  # paid back
    assert g.current_player() == 0 and acts(g)[0].startswith("take")  # Hatshepsut: 3 from bag
    before = sum(g.players[0].store)
    for _ in range(3):
        g.apply(acts(g)[0])
    assert sum(g.players[0].store) == before + 3
    assert g.players[0].leader_state == 3


# Rulebook: ANFÜHRER, globe logo: "Spielt ihr zu Zweit oder zu Dritt, dürfen die Mitspieler
# zum Besiegen dieses Anführers eine beliebige Ressource aus dem Vorrat nehmen, um die Kosten zu
# bezahlen" -- ONE resource of their choice from the supply board, not every unit.
def test_globe_rule_with_three_players() -> None:
    g = setup(n=3, variant=L, leaders=("hatshepsut", "pericles", "imhotep"),
              stores=("", "", "C"), **W3)  # type: ignore[arg-type]  # fmt: skip
    g.supply = [0, 2, 1, 0, 0]
    g.apply("subsidy wood")
    g.supply = [0, 1, 1, 0, 0]
    answer(g, (0, "reveal"), (1, "pass"), (2, "pass"))
    assert acts(g) == ["stop", "tribute wood supply", "tribute clay supply"]
    answer(g, (1, "tribute wood supply"))
    assert acts(g) == ["stop"]  # the one resource from the supply is taken
    answer(g, (1, "stop"))
    assert acts(g) == ["stop", "tribute clay"]  # the next opponent: own storage only
    assert g.supply == [0, 0, 1, 0, 0]
    answer(g, (2, "tribute clay"), (2, "stop"))  # the joker stays unpaid: all back
    assert g.supply == [0, 1, 1, 0, 0] and g.players[2].store[2] == 1
    assert g.players[0].leader_state == 3  # the effect happens


def test_globe_one_supply_resource_can_complete_a_defeat() -> None:
    """The one supply resource counts towards the cost like any other unit."""
    g = setup(n=3, variant=L, leaders=("hatshepsut", "pericles", "imhotep"),
              stores=("", "C", "K"), **W3)  # type: ignore[arg-type]  # fmt: skip
    g.supply = [0, 2, 1, 0, 0]
    g.apply("subsidy wood")
    g.supply = [0, 1, 0, 0, 0]
    answer(g, (0, "reveal"), (1, "pass"), (2, "pass"))
    answer(
        g, (1, "tribute wood supply"), (1, "tribute clay"), (1, "stop"), (2, "tribute knowledge")
    )
    assert g.players[0].leader_state == 2  # defeated
    assert g.supply == [0, 0, 0, 0, 0]


# FAQ II: several leaders at once (resolved in turn order from the player who just moved)
def test_simultaneous_reveals_resolved_from_the_mover() -> None:
    g = setup(n=3, variant=L, leaders=("croesus", "hatshepsut", "pericles"), **W3)  # type: ignore[arg-type]
    end_turn(g)
    answer(g, (0, "pass"), (1, "pass"), (2, "pass"))
    end_turn(g)  # seat 1 moved
    answer(g, (1, "pass"), (2, "reveal"), (0, "reveal"))
    # seat 2 (first after the mover) is resolved first: its tribute is asked of 0 then 1
    answer(g, (0, "stop"), (1, "stop"))
    assert g.stack[-1][0] == "kind" and g.current_player() == 2  # Pericles' effect
    g.apply(acts(g)[0])
    answer(g, (1, "stop"), (2, "stop"))  # then seat 0's Croesus
    assert g.players[0].leader_state == 3


# FAQ II: Cartimandua revealed in answer defeats the revealed leader
def test_cartimandua_answers_and_defeats() -> None:
    g = setup(n=3, variant=L, leaders=("hatshepsut", "cartimandua", "pericles"), **W3)  # type: ignore[arg-type]
    end_turn(g)
    answer(g, (0, "reveal"), (1, "pass"), (2, "pass"))
    assert g.current_player() == 1 and g.stack[-1][0] == "respond"
    coins = g.players[1].store[COIN]
    answer(g, (1, "reveal"))
    answer(g, (2, "stop"), (0, "stop"))  # nobody defeats Cartimandua
    assert g.players[1].store[COIN] == coins + 3
    assert g.players[0].leader_state == 2  # Hatshepsut defeated, no tribute to seat 0
    assert g.stack[-1][0] == "ask"


# FAQ II: Cartimandua can always be used for the coins alone
def test_cartimandua_alone_gives_coins() -> None:
    g = setup(n=2, variant=L, leaders=("pericles", "cartimandua"), stores=("", ""))
    end_turn(g)
    answer(g, (0, "pass"), (1, "reveal"), (0, "stop"))
    assert g.players[1].store[COIN] == 3 and g.players[0].leader_state == 0


# FAQ II: Sappho only in the own turn, as the turn: each action once
def test_sappho_each_action_once_as_the_turn() -> None:
    g = setup(n=2, variant=L, leaders=("sappho", "pericles"), stores=("WW", ""))
    end_turn(g)
    assert acts(g) == ["pass", "reveal"] and g.current_player() == 1  # seat 0 is not asked
    answer(g, (1, "pass"))
    end_turn(g)
    answer(g, (1, "pass"))
    assert "leader" in acts(g) and g.current_player() == 0
    answer(g, (0, "leader"), (1, "stop"))
    assert acts(g)[0] == "produce" and acts(g)[-1] == "done"
    play(g, "sell", "sell wood", "done")
    assert "sell" not in acts(g)
    g.bag = [0, 3, 0, 0, 0]
    play(g, "produce", "supply wood")
    assert "produce" not in acts(g) and "sell" not in acts(g)
    g.apply("done")
    assert g.stack[-1][0] == "ask" and g.current == 0  # the turn is over


# FAQ II: Alexander (markers off, placed again one by one by the rules, free)
def test_alexander_replaces_markers() -> None:
    g = setup(n=2, variant=L, leaders=("alexander", "pericles"), stores=("", ""))
    built(g, 0, "s1a", "s1b")
    end_turn(g)
    answer(g, (0, "reveal"), (1, "pass"), (1, "stop"))
    assert acts(g) == ["place pharos:s1a", "place pharos:s1b", "place pharos:s1c"]
    play(g, "place pharos:s1c", "place pharos:s1b")
    assert built_ids(g, 0) == ["s1b", "s1c"]


# FAQ II: Archimedes (board buildings built; "Sofort" not repeated; more than 4 buildings)
def test_archimedes_builds_the_board_without_repeating_sofort() -> None:
    g = setup(n=2, variant=L, leaders=("archimedes", "pericles"), boards=("prosperity", "harmony"),
              stores=("", ""))  # fmt: skip
    give(g, 0, "prosperity_mint")
    coins = g.players[0].store[COIN]
    end_turn(g)
    answer(g, (0, "reveal"), (1, "pass"), (1, "stop"))
    p = g.players[0]
    assert {b.id for b in p.board.buildings} <= p.built_ids  # type: ignore[union-attr]
    assert p.store[COIN] == coins  # the mint's coins came only once
    assert p.tokens == 4
    p.store = [0, 1, 0, 2, 0, 0]
    answer(g, (1, "pass"))
    end_turn(g)
    answer(g, (1, "pass"))
    play(g, "build")
    assert "building viewing_platform" in acts(g)  # a fifth building, on the wonder card


def test_archimedes_new_buildings_do_their_sofort() -> None:
    g = setup(n=2, variant=L, leaders=("archimedes", "pericles"), boards=("prosperity", "harmony"),
              stores=("", ""))  # fmt: skip
    end_turn(g)
    answer(g, (0, "reveal"), (1, "pass"), (1, "stop"))
    assert g.players[0].store[COIN] == 3  # agon reading: built now, so the mint pays


# FAQ II: Ramses (any completed stage, lower too; rebuilt before any other)
def test_ramses_destroys_a_lower_stage_rebuild_first() -> None:
    g = setup(n=2, variant=L, leaders=("ramses", "pericles"), stores=("", "SIWIKSI"))
    built(g, 1, "s1a", "s1b", "s2a")
    end_turn(g)
    answer(g, (0, "reveal"), (1, "pass"), (1, "stop"))
    assert acts(g) == ["destroy 1 zeus:s1a", "destroy 1 zeus:s1b", "destroy 1 zeus:s2a"]
    g.apply("destroy 1 zeus:s1a")
    assert built_ids(g, 1) == ["s1b", "s2a"]
    answer(g, (1, "pass"))
    assert g.current_player() == 1
    g.apply("build")
    assert [a for a in acts(g) if a.startswith("stage")] == ["stage zeus:s1a"]
    g.apply("stage zeus:s1a")
    assert "stage zeus:s1c" in acts(g)


def test_leader_window_skipped_without_the_expansion() -> None:
    g = setup(n=2, stores=("", ""))
    end_turn(g)
    assert g.stack[-1] == ("turn", 1)


def test_sappho_defeated_costs_the_turn() -> None:
    g = setup(n=2, variant=L, leaders=("sappho", "pericles"), stores=("", "KKS$"))
    end_turn(g)
    answer(g, (1, "pass"))
    end_turn(g)
    answer(g, (1, "pass"))
    before = g.players[0].store[0]
    answer(g, (0, "leader"))
    answer(g, (1, "tribute knowledge"), (1, "tribute knowledge"), (1, "tribute stone"))
    answer(g, (1, "tribute coin"))  # the joker, paid with a coin: defeated
    assert g.players[0].leader_state == 2 and g.players[0].store[0] == before + 2
    assert g.stack[-1][0] == "ask" and g.current == 0  # agon reading: the turn is used up


# agon-designed leaders (publisher = false): each effect by its registry name
def test_imhotep_builds_one_open_stage_free_and_can_win() -> None:
    g = setup(n=2, variant=L, leaders=("imhotep", "pericles"), stores=("", ""))
    p = g.players[0]
    p.built[0] = (1 << len(p.wonders[0].stages)) - 1 - (1 << p.wonders[0].stage_index("s4"))
    end_turn(g)
    answer(g, (0, "reveal"), (1, "pass"), (1, "stop"))
    assert acts(g) == ["place pharos:s4"]
    g.apply("place pharos:s4")
    assert g.over and g.winner == 0


def test_pericles_hammurabi_croesus() -> None:
    g = setup(n=3, variant=L, leaders=("pericles", "hammurabi", "croesus"),
              stores=("", "W", "KI"), **W3)  # type: ignore[arg-type]  # fmt: skip
    g.supply = [0, 1, 3, 0, 0]
    g.apply("subsidy wood")
    answer(g, (0, "reveal"), (1, "pass"), (2, "pass"), (1, "stop"), (2, "stop"))
    assert acts(g) == ["kind clay"]  # Pericles: all of one kind from the supply board
    g.apply("kind clay")
    assert g.players[0].store[2] == 3 and g.supply[2] == 0
    answer(g, (1, "reveal"), (2, "pass"), (2, "stop"), (0, "stop"))
    assert acts(g) == ["take knowledge", "take iron"]  # Hammurabi: 1 from seat 2 ...
    g.apply("take iron")
    assert acts(g) == ["take wood", "take clay"]  # ... and 1 from seat 0
    g.apply("take clay")
    assert g.players[1].store[:5] == [0, 1, 1, 0, 1]
    g.supply = [1, 1, 0, 0, 0]
    coins = g.players[2].store[COIN]
    answer(g, (2, "reveal"), (0, "stop"), (1, "stop"))
    play(g, "take knowledge", "take wood")  # Croesus: 2 from the supply and 2 coins
    assert g.players[2].store[COIN] == coins + 2 == 2
