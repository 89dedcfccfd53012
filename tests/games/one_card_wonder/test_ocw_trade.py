"""The trade variant as listed decisions (Rulebook: VARIANTEN, HANDEL): offers, answers, bots."""

from __future__ import annotations

import pytest
from ocw_helpers import acts, setup

from agon.errors import IllegalAction, InvalidInput
from agon.games.one_card_wonder.bots import HeuristicBot, RandomBot
from agon.games.one_card_wonder.engine import Action, Game, Variant, parse_offer

T = Variant(trade=True)
FOUR = dict(wonders=("pharos", "zeus", "apollo", "artemis"),
            boards=("triumph", "harmony", "dawn", "valour"))  # fmt: skip


def test_players_not_on_turn_may_offer_before_the_turn() -> None:
    """HANDEL: "Dabei darf der Spieler am Zug allerdings nicht beteiligt sein"."""
    g = setup(n=4, variant=T, stores=("KK", "W", "C", ""), **FOUR)  # type: ignore[arg-type]
    assert g.stack[-1] == ("trade", 0, (1, 2, 3), 0) and g.current_player() == 1
    options = acts(g)
    assert options[0] == "pass"
    assert "offer 2 wood for clay" in options  # one for one
    assert "offer 3 wood for nothing" in options  # a gift ("Ihr dürft ... verschenken")
    assert "offer 2 nothing for clay" in options  # a request
    assert not any(o.startswith("offer 0 ") for o in options)  # the player on turn
    assert "offer 3 nothing for wood" not in options  # seat 3 has nothing
    for text in options:
        assert str(Action.parse(text)) == text


def test_accepted_offer_swaps_declined_changes_nothing_then_the_turn() -> None:
    g = setup(n=4, variant=T, stores=("KK", "W", "C", "I"), **FOUR)  # type: ignore[arg-type]
    g.apply("offer 2 wood for clay")
    assert g.current_player() == 2 and acts(g) == ["accept", "decline"]
    g.apply("accept")
    assert g.players[1].store[:3] == [0, 0, 1] and g.players[2].store[:3] == [0, 1, 0]
    assert g.current_player() == 2 and g.stack[-1][0] == "trade"  # seat 2's own offer
    g.apply("offer 3 wood for iron")
    g.apply("decline")
    assert g.players[3].store[4] == 1 and g.players[2].store[1] == 1
    g.apply("pass")  # seat 3
    assert g.stack[-1] == ("turn", 0)


def test_a_trade_may_not_overfill_a_storage() -> None:
    """A trade is not "Erhalten", so no discard makes room: the offer is not listed."""
    g = setup(n=4, variant=T, stores=("", "W", "KKKKKKKK", ""), **FOUR)  # type: ignore[arg-type]
    assert "offer 2 wood for nothing" not in acts(g)
    assert "offer 2 wood for knowledge" in acts(g)
    with pytest.raises(IllegalAction):
        g.apply("offer 2 wood for nothing")


def test_offer_text_is_checked() -> None:
    with pytest.raises(InvalidInput, match="offer"):
        parse_offer(Action.parse("offer 2 wood clay"))
    assert parse_offer(Action.parse("offer 3 nothing for coin")) == (3, -1, 5)


def test_no_trade_window_without_the_variant() -> None:
    g = setup(n=4, **FOUR)  # type: ignore[arg-type]
    assert g.stack[-1] == ("turn", 0)


@pytest.mark.parametrize("bot", [RandomBot, HeuristicBot])
def test_bots_play_trade_games_to_the_end_and_trade(bot: type) -> None:
    accepted = 0
    for seed in range(3):
        g = Game.new(4, seed, Variant(trade=True, max_turns=3000))
        bots = [bot(seed * 10 + s) for s in range(4)]
        while not g.over:
            a = bots[g.current_player()].choose(g)
            assert a in g.legal_actions()
            accepted += a.verb == "accept"
            g.apply(a)
            assert all(x >= 0 for p in g.players for x in p.store)
            assert all(sum(p.store) <= 8 for p in g.players) or g.stack[-1][0] == "discard"
    assert accepted > 0


def test_heuristic_offers_a_swap_that_helps_both_and_accepts_it() -> None:
    """Zeus needs iron and little clay, Apollo needs clay and little iron: a swap helps both."""
    g = setup(n=4, variant=T, stores=("", "CC", "IIII", ""), **FOUR)  # type: ignore[arg-type]
    assert str(HeuristicBot(1).choose(g)) == "offer 2 clay for iron"
    g.apply("offer 2 clay for iron")
    assert str(HeuristicBot(2).choose(g)) == "accept"
    g.apply("accept")
    assert g.players[1].store[4] == 1 and g.players[2].store[2] == 1
    g2 = setup(n=4, variant=T, stores=("", "CC", "IIII", ""), **FOUR)  # type: ignore[arg-type]
    g2.apply("offer 2 clay for nothing")  # a gift to Apollo: accepted; asked for iron: declined
    assert str(HeuristicBot(2).choose(g2)) == "accept"
    g3 = setup(n=4, variant=T, stores=("", "CC", "I", ""), **FOUR)  # type: ignore[arg-type]
    g3.apply("offer 2 nothing for iron")
    assert str(HeuristicBot(2).choose(g3)) == "decline"
