"""The wonder auction (Ludolimpico 2015, 2.1) as a state machine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agon.errors import IllegalAction, InvalidInput
from agon.tournament.auction import LISTED_BIDS, Auction, AuctionAction

PLAYERS = ["Anna", "Ben", "Clara"]
WONDERS = ["babylon", "rhodos", "gizah", "olympia"]


def opened_by(name: str) -> Auction:
    """An auction whose drawn opener is ``name`` (search labels until the seed draws him)."""
    for i in range(100):
        auction = Auction(PLAYERS, WONDERS, seed="s", label=f"t{i}")
        if auction.to_act == name:
            return auction
    raise AssertionError("no label draws that opener")


def test_opener_is_drawn_from_seed_and_label() -> None:
    a = Auction(PLAYERS, WONDERS, seed="s", label="round 1 table 1")
    b = Auction(PLAYERS, WONDERS, seed="s", label="round 1 table 1")
    assert a.to_act == b.to_act == a.first_opener
    openers = {Auction(PLAYERS, WONDERS, seed="s", label=f"t{i}").to_act for i in range(30)}
    assert openers == set(PLAYERS)


def test_protocol_opener_loses_and_opens_again() -> None:
    a = opened_by("Anna")
    a.apply(AuctionAction.parse("Anna opens babylon 2"))
    assert a.to_act == "Ben"
    a.apply(AuctionAction.parse("Ben raises 3"))
    assert a.to_act == "Clara"
    a.apply(AuctionAction.parse("Clara passes"))
    assert a.to_act == "Anna"
    a.apply(AuctionAction.parse("Anna passes"))
    # Ben won babylon for 3; the opener (Anna) did not win, so she opens again
    assert a.results() == {"Ben": ("babylon", 3)}
    assert a.to_act == "Anna"
    a.apply(AuctionAction.parse("Anna opens rhodos 0"))
    assert a.to_act == "Clara"  # Ben has a wonder and is skipped
    a.apply(AuctionAction.parse("Clara passes"))
    # Anna (the opener) won: the next player without a wonder opens
    assert a.results()["Anna"] == ("rhodos", 0)
    assert a.to_act == "Clara"
    a.apply(AuctionAction.parse("Clara opens olympia 0"))
    assert a.finished
    assert a.to_act is None
    assert a.results() == {"Ben": ("babylon", 3), "Anna": ("rhodos", 0), "Clara": ("olympia", 0)}
    assert [str(x) for x in a.history][:2] == ["Anna opens babylon 2", "Ben raises 3"]


def test_illegal_actions_are_refused_with_clear_messages() -> None:
    a = opened_by("Anna")
    with pytest.raises(IllegalAction, match="it is Anna's turn, not Ben's") as turn:
        a.apply(AuctionAction("Ben", "opens", "babylon", 1))
    assert "''" not in str(turn.value)  # regression: the name was quoted twice ('Anna''s)
    assert turn.value.render(lambda m: m) == "It is Anna's turn, not Ben's."
    with pytest.raises(IllegalAction, match="must open"):
        a.apply(AuctionAction("Anna", "raises", None, 1))
    with pytest.raises(IllegalAction, match="'alexandria' is not among the drawn wonders"):
        a.apply(AuctionAction("Anna", "opens", "alexandria", 0))
    with pytest.raises(IllegalAction, match="Dora is not at this table"):
        a.apply(AuctionAction("Dora", "passes"))
    a.apply(AuctionAction("Anna", "opens", "babylon", 2))
    with pytest.raises(IllegalAction, match="bid too low: Ben must bid at least 3"):
        a.apply(AuctionAction("Ben", "raises", None, 2))
    a.apply(AuctionAction("Ben", "passes"))
    a.apply(AuctionAction("Clara", "raises", None, 4))
    with pytest.raises(IllegalAction, match="Ben passed on babylon and cannot bid"):
        a.apply(AuctionAction("Ben", "raises", None, 9))
    a.apply(AuctionAction("Anna", "passes"))  # Clara takes babylon for 4
    assert a.to_act == "Anna"
    with pytest.raises(IllegalAction, match="babylon is already taken by Clara"):
        a.apply(AuctionAction("Anna", "opens", "babylon", 0))
    with pytest.raises(IllegalAction, match="Clara already has a wonder"):
        a.apply(AuctionAction("Clara", "opens", "rhodos", 0))
    assert len(a.history) == 4  # refused actions leave no trace


@pytest.mark.parametrize(
    "text",
    ["Anna opens babylon 2", "Ben raises 3", "Clara passes", "Anna Maria opens gizah 0"],
)
def test_text_form_round_trips(text: str) -> None:
    assert str(AuctionAction.parse(text)) == text


@pytest.mark.parametrize("text", ["Anna bids 3", "Anna opens babylon", "Ben raises -1", ""])
def test_unreadable_actions(text: str) -> None:
    with pytest.raises(InvalidInput, match="cannot read auction action"):
        AuctionAction.parse(text)


def test_setup_errors() -> None:
    with pytest.raises(InvalidInput, match="needs 4 wonders"):
        Auction(PLAYERS, WONDERS[:3], seed="s")
    with pytest.raises(InvalidInput, match="distinct"):
        Auction(["A", "A"], WONDERS, seed="s")
    # a table of 4 in a tournament with tables of 5 uses the first 5 of the 6 drawn
    a = Auction(["A", "B", "C", "D"], [*WONDERS, "ephesos", "alexandria"], seed="s")
    assert a.wonders == (*WONDERS, "ephesos")


def test_legal_actions_counts() -> None:
    a = opened_by("Anna")
    assert len(a.legal_actions()) == 4 * (LISTED_BIDS + 1)  # four wonders, bids 0..cap
    a.apply(AuctionAction("Anna", "opens", "babylon", 5))
    legal = a.legal_actions()
    assert legal[0] == AuctionAction("Ben", "passes")
    assert legal[1] == AuctionAction("Ben", "raises", None, 6)
    assert len(legal) == 1 + LISTED_BIDS + 1
    assert a.is_legal(AuctionAction("Ben", "raises", None, 100))  # above the listing cap: legal


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.integers(0, 10_000))
def test_random_play_invariants(n: int, play_seed: int) -> None:
    players = [f"p{i}" for i in range(n)]
    wonders = ["alexandria", "babylon", "ephesos", "gizah", "halikarnassos", "olympia", "rhodos"]
    wonders += [f"w{i}" for i in range(n + 1 - len(wonders))]
    auction = Auction(players, wonders[: n + 1], seed=str(play_seed))
    rand = random.Random(play_seed)
    steps = 0
    while not auction.finished:
        legal = auction.legal_actions()
        assert legal and all(auction.is_legal(x) for x in legal)
        assert all(x.player == auction.to_act for x in legal)
        auction.apply(rand.choice(legal[:4]))
        steps += 1
        assert steps < 10_000
    results = auction.results()
    assert set(results) == set(players)
    assert len({w for w, _ in results.values()}) == n
    assert auction.legal_actions() == []
    replay = Auction.replay(
        players, wonders[: n + 1], [str(x) for x in auction.history], seed=str(play_seed)
    )
    assert replay.results() == results
