"""Card data: counts per age and player count, card facts, names in three languages."""

from __future__ import annotations

import pytest

from agon.errors import InvalidInput
from agon.games.seven_wonders.data import (
    age_deck,
    card_by_id,
    card_by_name,
    cards,
    guilds,
    wonder_by_name,
    wonders,
)
from agon.games.seven_wonders.rules import GREY, card_rules


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("age", [1, 2])
def test_ages_one_and_two_hold_seven_cards_per_player(age: int, players: int) -> None:
    assert len(age_deck(age, players)) == 7 * players


@pytest.mark.parametrize(("players", "non_guild"), [(3, 16), (4, 22), (5, 28), (6, 34), (7, 40)])
def test_age_three_is_non_guild_cards_plus_players_plus_two_guilds(
    players: int, non_guild: int
) -> None:
    deck = age_deck(3, players)
    assert len(deck) == non_guild
    assert non_guild + players + 2 == 7 * players


def test_ten_guilds_and_seven_wonders_with_stage_counts() -> None:
    assert len(guilds()) == 10
    stages = {w.id: (len(w.a), len(w.b)) for w in wonders()}
    assert stages == {
        "rhodos": (3, 2),
        "alexandria": (3, 3),
        "ephesos": (3, 3),
        "babylon": (3, 3),
        "olympia": (3, 3),
        "halikarnassos": (3, 3),
        "gizah": (3, 4),
    }


def test_first_edition_has_148_age_cards() -> None:
    # 49 + 49 + 40 age cards and 10 guilds in the box (7-player copies).
    assert sum(len(c.copies) for c in cards() if not c.is_guild) == 138
    assert sum(len(c.copies) for c in cards() if not c.is_guild) + len(guilds()) == 148


def test_lighthouse_counts_yellow_not_grey() -> None:
    """Lighthouse: 1 coin and 1 VP per yellow card (a widely copied list says grey)."""
    lighthouse = card_by_name("Lighthouse")
    assert [str(e) for e in lighthouse.effects] == [
        "coins_per yellow self 1",
        "vp_per yellow self 1",
    ]


def test_chamber_of_commerce_and_craftsmens_guild_count_grey_two_each() -> None:
    """Bonn 2018: the German rulebook misprints both; they count grey cards, 2 each."""
    chamber = card_rules()[card_by_id("chamber_of_commerce").index]
    assert chamber.coins_per[0].what == (GREY,) and chamber.coins_per[0].n == 2
    assert chamber.vp_per[0].what == (GREY,) and chamber.vp_per[0].self_
    craftsmen = card_rules()[card_by_name("Gilde der Künstler").index]
    assert craftsmen.vp_per[0].what == (GREY,) and craftsmen.vp_per[0].n == 2
    assert craftsmen.vp_per[0].neighbours and not craftsmen.vp_per[0].self_


def test_bazar_counts_grey_two_vineyard_brown_one_in_three_cities() -> None:
    """Official card text; Ludolimpico FAQ 3.2 says yellow for the Bazar, a slip."""
    bazar = card_rules()[card_by_id("bazar").index].coins_per[0]
    vineyard = card_rules()[card_by_id("vineyard").index].coins_per[0]
    assert (bazar.what, bazar.n, bazar.self_, bazar.neighbours) == ((GREY,), 2, True, True)
    assert (vineyard.what, vineyard.n, vineyard.self_, vineyard.neighbours) == ((0,), 1, True, True)


@pytest.mark.parametrize(
    ("card", "chains"),
    [
        ("stables", ("apothecary",)),
        ("archery_range", ("workshop",)),
        ("forum", ("east_trading_post", "west_trading_post")),
        ("caravansery", ("marketplace",)),
        ("lighthouse", ("caravansery",)),
        ("haven", ("forum",)),
        ("arena", ("dispensary",)),
        ("pantheon", ("temple",)),
        ("senate", ("library",)),
        ("study", ("school",)),
    ],
)
def test_chains(card: str, chains: tuple[str, ...]) -> None:
    assert card_by_id(card).chain_from == chains


def test_names_in_three_languages_and_unknown_name() -> None:
    assert card_by_name("Leuchtturm") == card_by_name("faro") == card_by_name("LIGHTHOUSE")
    assert card_by_name("Gilde der Reeder").id == "shipowners_guild"
    assert wonder_by_name("Babilonia").id == wonder_by_name("Babylon").id == "babylon"
    with pytest.raises(InvalidInput, match="Lighthose"):
        card_by_name("Lighthose")


def test_loom_of_both_ages_is_one_building() -> None:
    assert card_by_id("loom").building == card_by_id("loom_2").building
