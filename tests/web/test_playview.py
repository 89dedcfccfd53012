"""The play pages' board, rendered from the service's per-seat state through whole games: every
legal action is exactly one button (7 Wonders with Halikarnassos, Olympia and Babylon powers;
One Card Wonder in every variant), a seat sees only its own hand, the spectator no hand at all,
hidden leaders stay hidden, and the cards are drawn from the data in the reader's language."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest

from agon.games.one_card_wonder.content import default_content
from agon.games.seven_wonders import data as sw
from agon.play.adapters import Adapter, Setup, new_adapter
from agon.web.playview import score_rows, sw_card, sw_effect_text, sw_moves
from agon.web.tableview import table_context
from agon.web.templating import environment

BUTTON = re.compile(r'<button type="submit" name="action" value="([^"]*)"')
HAND_CARD = re.compile(r'<details class="hcard[^"]*" data-card="([^"]+)"')


def state_of(adapter: Adapter, seat: int | None, version: int = 0) -> dict[str, Any]:
    """What the service answers for ``seat`` (the shape of ``GET /api/play/{id}``)."""
    names = [f"Player {i + 1}" for i in range(adapter.setup.seats)]
    legal = adapter.legal(seat) if seat is not None else []
    return {
        "seat": seat,
        "version": version,
        "over": adapter.over,
        "to_act": bool(legal),
        "legal": legal,
        "view": adapter.view(seat) | {"names": names},
        "scores": adapter.scores(names) if adapter.over else None,
    }


def board(state: dict[str, Any], game: str, lang: str = "en") -> str:
    watch = state["seat"] is None
    return (
        environment(lang)
        .get_template("play/_board.html")
        .render(
            t=table_context(state, lang, game),
            version=state["version"],
            game_id="g",
            token="" if watch else "t",
            watch=watch,
            csrf=lambda: "c",
        )
    )


def buttons(page: str) -> list[str]:
    return [html.unescape(v) for v in BUTTON.findall(page)]


def test_effects_and_cards_in_three_languages() -> None:
    assert sw_effect_text(sw.parse_effect("vp 3", "t"), "de") == "3 SP"
    assert sw_effect_text(sw.parse_effect("vp 3", "t"), "it") == "3 PV"
    trade = sw.parse_effect("trade raw left", "t")
    assert sw_effect_text(trade, "en") == "buy raw materials for 1 coin from the left neighbour"
    assert "Rohstoffe" in sw_effect_text(trade, "de")
    card = sw_card(sw.card_by_id("apothecary"), "de")
    assert card["name"] == sw.card_by_id("apothecary").de and card["color"] == "green"
    assert card["cost"] == [{"res": "loom", "n": 1, "label": "Stoff", "text": "Stoff"}]
    assert card["chains_to"]  # Apothecary makes Stables and Dispensary free
    assert sw_card(sw.card_by_id("stables"), "it")["chain_from"] == [sw.card_by_id("apothecary").it]


def test_every_payment_option_is_its_own_button() -> None:
    moves = sw_moves(
        ["stone_pit", "temple"],
        ["build temple pay 1 2", "build temple pay 2 1", "discard temple", "build stone_pit"],
        "en",
    )
    temple = next(h for h in moves["hand"] if h.card["id"] == "temple")
    labels = [m.label for m in temple.moves]
    assert labels == [
        "Build · pay 1 to the left, 2 to the right",
        "Build · pay 2 to the left, 1 to the right",
        "Discard for 3 coins",
    ]


def _pick(legal: list[str], rng: random.Random) -> str:
    """Random play that prefers wonder stages (so that the wonders' powers come into play)."""
    stages = [a for a in legal if a.startswith(("wonder", "revive", "free", "stage"))]
    return rng.choice(stages if stages and rng.random() < 0.8 else legal)


def test_a_whole_7_wonders_game_with_the_wonder_powers() -> None:
    adapter = new_adapter(
        Setup(
            game="7w",
            variant="base",
            seats=3,
            seed="powers5",
            wonders=("halikarnassos", "olympia", "babylon"),
            sides=("B", "A", "B"),
        )
    )
    rng, langs = random.Random(3), random.Random(0)
    seen: set[str] = set()
    while not adapter.over:
        for seat in range(3):
            state = state_of(adapter, seat)
            page = board(state, "7w", langs.choice(["en", "de", "it"]))
            assert sorted(buttons(page)) == sorted(state["legal"])  # each move once
            # the hand shown is this seat's own hand, nobody else's
            assert sorted(HAND_CARD.findall(page.split('<section class="city')[0])) == sorted(
                set(state["view"]["hand"])
                | {a.split()[1] for a in state["legal"] if a.startswith("revive")}
            )
            seen.add(state["view"]["phase"])
            seen.update(a.split()[0] for a in state["legal"])
        spectator = board(state_of(adapter, None), "7w")
        assert "pcard" not in spectator and "moves-form" not in spectator
        for seat in adapter.waiting_for():
            legal = adapter.legal(seat)
            if legal:
                adapter.apply(seat, _pick(legal, rng))
    assert {"revive", "seventh"} <= seen  # Halikarnassos and Babylon B came into play
    assert "free" in seen  # Olympia's free build
    end = board(state_of(adapter, 0), "7w", "de")
    assert "Spielende" in end and "Militärische Konflikte" in end and "Summe" in end


@pytest.mark.parametrize(
    ("variant", "seats"), [("base", 2), ("leaders", 3), ("two-card", 2), ("trade", 4)]
)
def test_whole_one_card_wonder_games(variant: str, seats: int) -> None:
    adapter = new_adapter(Setup(game="ocw", variant=variant, seats=seats, seed=f"ui-{variant}"))
    rng = random.Random(7)
    leaders = {le.id: le for le in default_content().leaders}
    steps = 0
    while not adapter.over and steps < 3000:
        seat = adapter.waiting_for()[0]
        state = state_of(adapter, seat)
        if steps % 5 == 0 or variant == "trade":
            page = board(state, "ocw", rng.choice(["en", "de", "it"]))
            assert sorted(buttons(page)) == sorted(state["legal"])
            for p in state["view"]["players"]:
                if p["seat"] != seat and p["leader_state"] == "hidden" and p["leader"]:
                    hidden = adapter.game.players[p["seat"]].leader  # type: ignore[attr-defined]
                    assert leaders[hidden.id].names.en not in page
        adapter.apply(seat, _pick(state["legal"], rng))
        steps += 1
    assert adapter.over
    end = board(state_of(adapter, 0), "ocw", "it")
    assert "Fine della partita" in end and "Meraviglie completate" in end


def test_the_score_pad_names_the_categories_of_the_pad() -> None:
    pad = score_rows(
        [
            {
                "player": "Ann",
                "military": 3,
                "coins": 2,
                "wonder": 5,
                "civilian": 0,
                "commercial": 0,
                "guilds": 0,
                "science": 1,
                "total": 11,
            }
        ],
        "en",
    )
    assert [label for label, _ in pad["rows"]][:2] == [
        "Military conflicts",
        "Treasury (1 VP per 3 coins)",
    ]
    assert pad["totals"] == [11] and pad["total_label"] == "Total"
    olympia = score_rows([{"player": "Bea", "guilds": 7, "copied_guild": "scientists_guild",
                           "total": 7}], "de")  # fmt: skip
    assert olympia["copied"] == [sw.card_by_id("scientists_guild").de]
