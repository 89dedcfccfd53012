"""Variants (Rulebook: VARIANTEN — HANDEL, TWO CARD WONDER) and the Zeus statue (FAQ I)."""

from __future__ import annotations

import pytest
from ocw_helpers import acts, built, play, setup

from agon.errors import IllegalAction
from agon.games.one_card_wonder.content import COIN
from agon.games.one_card_wonder.engine import Variant

FOUR = dict(wonders=("pharos", "zeus", "apollo", "artemis"),
            boards=("triumph", "harmony", "dawn", "valour"))  # fmt: skip


# Rulebook: HANDEL (4+ players, the player on turn takes no part; gifts allowed)
def test_trade_between_players_not_on_turn() -> None:
    g = setup(n=4, variant=Variant(trade=True), stores=("KK", "WW", "CC", ""), **FOUR)  # type: ignore[arg-type]
    g.trade(1, 2, {"wood": 1}, {"clay": 2})
    assert g.players[1].store[:3] == [0, 1, 2] and g.players[2].store[:3] == [0, 1, 0]
    g.trade(2, 3, {"wood": 1}, {})  # a gift
    assert g.players[3].store[1] == 1
    with pytest.raises(IllegalAction, match="on turn"):
        g.trade(0, 1, {"knowledge": 1}, {})
    with pytest.raises(IllegalAction, match="has only"):
        g.trade(1, 2, {"iron": 1}, {})


def test_trade_needs_the_variant_and_respects_storage() -> None:
    g = setup(n=4, stores=("", "W", "", ""), **FOUR)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="not in play"):
        g.trade(1, 2, {"wood": 1}, {})
    g2 = setup(n=4, variant=Variant(trade=True), stores=("", "W", "KKKKKKKK", ""), **FOUR)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="exceed"):
        g2.trade(1, 2, {"wood": 1}, {})


# Rulebook: TWO CARD WONDER (a random wonder each plus one chosen with 2 start resources)
def test_two_card_setup() -> None:
    g = setup(variant=Variant(two_card=True), own=("colossus", "artemis"))
    assert [w.id for w in g.players[0].wonders] == ["colossus", "pharos"]
    assert [w.id for w in g.players[1].wonders] == ["artemis", "zeus"]


# Rulebook: TWO CARD WONDER (after building on one card the other waits for a first wonder)
def test_two_card_lock_until_someone_completes_a_first_wonder() -> None:
    g = setup(variant=Variant(two_card=True), own=("colossus", "artemis"), stores=("SSSI", ""))
    play(g, "build")
    assert "stage colossus:s1a" in acts(g) and "stage pharos:s1a" in acts(g)
    play(g, "stage pharos:s1a")
    assert not any(a.startswith("stage colossus") for a in acts(g))
    assert "building colossus_harbour" not in acts(g)
    g.first_done = True  # someone completed a first wonder
    assert "stage colossus:s1a" in acts(g)


def test_two_card_first_wonder_unlocks_second_wins() -> None:
    g = setup(variant=Variant(two_card=True), own=("colossus", "artemis"), stores=("KSI$SSI$", ""))
    built(g, 0, "s1a", "s1b", "s1c", "s2a", "s2b", "s2c", "s3a", "s3b", slot=1)
    built(g, 0, "s1a", "s1b", "s1c", "s2a", "s2b", "s2c", "s3a", "s3b", "s3c", slot=0)
    g.players[0].active = 1
    play(g, "build")
    assert "stage colossus:s4" not in acts(g)  # locked: nobody has completed a wonder yet
    play(g, "stage pharos:s4")
    while g.stack[-1][0] == "pay":
        g.apply(acts(g)[0])  # resources before coins
    assert not g.over and g.first_done and g.completed(0) == 1
    assert "stage colossus:s4" in acts(g)  # unlocked for everybody, at once
    play(g, "stage colossus:s4")
    while not g.over and g.stack[-1][0] == "pay":
        g.apply(acts(g)[0])
    assert g.over and g.winner == 0 and g.completed(0) == 2


# FAQ I: Wettkampfstätte (no coin received in a turn: a coin onto it, taken at the next start)
def test_competition_ground_coin() -> None:
    g = setup(wonders=("zeus", "pharos"), stores=("IIS", ""))
    play(g, "build", "building competition_ground", "done")
    assert g.players[0].zeus == 1  # this turn brought no coin
    g.apply(acts(g)[0])  # seat 1 plays
    while g.current_player() == 1:
        g.apply(acts(g)[0])
    assert g.players[0].zeus == 0 and g.players[0].store[COIN] == 1
    # a turn in which a coin was received (sale) puts nothing on the ground
    g.players[0].store = [0, 2, 0, 0, 0, 1]
    play(g, "sell", "sell wood", "done")
    assert g.players[0].zeus == 0
