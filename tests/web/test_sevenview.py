"""The 7 Wonders seat page's extras (issue 28): payments in words, the production bar with the
neighbours' prices after discounts, the running VP estimate, and a card's kind named."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from agon.games.seven_wonders import data as sw
from agon.play.adapters import Setup, new_adapter
from agon.web import sevenview
from agon.web.tableview import table_context
from tests.web.test_playview import board, state_of


def city(wonder: str, cards: list[str], **more: Any) -> dict[str, Any]:
    return {"wonder": wonder, "side": "A", "stages_built": 0, "coins": 3, "cards": cards} | more


def three(me: list[str], left: list[str], right: list[str]) -> tuple[Any, Any, Any]:
    """Rhodos (ore) between Gizah (stone, on the left) and Olympia (wood, on the right)."""
    return (
        sevenview.rebuild(city("rhodos", me)),
        sevenview.rebuild(city("gizah", left)),
        sevenview.rebuild(city("olympia", right)),
    )


def test_a_payment_says_who_gets_how_many_coins_for_what_in_three_languages() -> None:
    cities = three([], ["stone_pit"], [])
    assert sevenview.payment_words("build baths pay 2 0", cities, "en") == (
        "2 coins to the left for stone"
    )
    assert sevenview.payment_words("build baths pay 2 0", cities, "de") == (
        "2 Münzen nach links für Stein"
    )
    assert sevenview.payment_words("build baths pay 2 0", cities, "it") == (
        "2 monete a sinistra per pietra"
    )
    # a discount (West Trading Post: raw materials from the left for 1 coin)
    cheap = three(["west_trading_post"], ["stone_pit"], [])
    assert sevenview.payment_words("build baths pay 1 0", cheap, "en") == (
        "1 coin to the left for stone"
    )
    # a wonder stage of Rhodos A (2 wood) from the right neighbour, which has two
    both = three([], [], ["lumber_yard"])
    assert sevenview.payment_words("wonder baths pay 0 4", both, "en") == (
        "4 coins to the right for 2×wood"
    )
    # from both sides (2 stone: one from each neighbour)
    split = three([], ["stone_pit"], ["stone_pit"])
    assert sevenview.payment_words("build baths pay 0 2", split, "en") == (
        "2 coins to the right for stone"
    )
    assert sevenview.payment_words("build baths", cities, "en") is None
    assert sevenview.payment_words("discard baths", cities, "en") is None


def test_the_production_bar_shows_choices_and_the_neighbours_prices() -> None:
    me, left, right = three(["tree_farm", "east_trading_post"], ["caravansery"], ["lumber_yard"])
    bar = sevenview.production(me, left, right, "en")
    mine = bar["mine"]["units"]
    assert [u["choice"] for u in mine] == [None, "wood / clay"]  # ore fixed, then the choice
    # Gizah sells its stone, not its Caravansery (not for sale), at 2 coins
    assert [i["icon"] for u in bar["left"]["units"] for i in u["icons"]] == ["res-stone"]
    assert [p["price"] for p in bar["left"]["prices"]] == [2]
    # East Trading Post: raw materials from the right for 1 coin
    assert [p["price"] for p in bar["right"]["prices"]] == [1] and bar["right"]["discount"]


def test_the_vp_estimate_is_the_final_score_at_the_end() -> None:
    """At the end of a game the running estimate of every city is its score on the pad."""
    setup = Setup(game="7w", variant="base", seats=5, seed="estimate")
    a = new_adapter(setup)
    rng = random.Random(7)
    while not a.over:
        for seat in a.waiting_for():
            legal = a.legal(seat)
            if legal:
                a.apply(seat, rng.choice(legal))
    view = a.view(0)
    names = [f"P{i}" for i in range(5)]
    totals = {s["player"]: s["total"] for s in a.scores(names)}
    estimate = sevenview.seat_extras(view, 0, "en")["vp"]
    assert estimate == [totals[n] for n in names]


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_every_card_names_its_kind_and_the_seat_page_shows_it(lang: str) -> None:
    kinds = {sevenview.compact_card(c, lang)["kind"] for c in sw.cards()}
    assert len(kinds) == len(sw.COLORS)
    a = new_adapter(Setup(game="7w", variant="base", seats=7, seed="kinds"))
    state = state_of(a, 0)
    page = board(state, "7w", lang)
    t = table_context(state, lang, "7w")
    for h in t["moves"]["hand"]:
        # the kind is named in the card's face (not its colour alone)
        face = re.search(rf'data-card="{h.card["id"]}".*?</summary>', page, re.S)
        assert face and h.card["compact"]["kind"] in face.group(0)
    assert page.count('class="city-row') == 7
    assert "/static/play-icons.svg#i-" in page


def test_the_docs_show_the_phone_screenshots_the_suite_makes() -> None:
    """docs/online-play.md shows the seat page's phone screenshots, which exist (made by
    tests/web/test_play_seven_phone.py with AGON_DOC_SHOTS set)."""
    docs = Path(__file__).resolve().parents[2] / "docs"
    text = (docs / "online-play.md").read_text(encoding="utf-8")
    shown = re.findall(r"!\[[^\]]+\]\((img/play-7w-phone-[a-z-]+\.png)\)", text)
    assert sorted(shown) == ["img/play-7w-phone-hand.png", "img/play-7w-phone-move.png"]
    for name in shown:
        assert (docs / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    made = (Path(__file__).parent / "test_play_seven_phone.py").read_text(encoding="utf-8")
    for name in shown:
        assert f'"{Path(name).stem}"' in made  # the suite makes it
