"""Verifiable draws: every draw is a function of the seed, the purpose and the round."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.tournament.draws import (
    GUILD_DATA,
    GUILDS,
    WONDER_DATA,
    WONDERS,
    commitment,
    draw_guilds,
    draw_sides,
    draw_wonders,
    guilds_for_table,
    rng,
)
from agon.tournament.ruleset import load_ruleset


def test_base_game_data() -> None:
    assert WONDERS == (
        "alexandria",
        "babylon",
        "ephesos",
        "gizah",
        "halikarnassos",
        "olympia",
        "rhodos",
    )
    assert len(GUILDS) == 10
    assert {"workers", "craftsmens", "shipowners", "builders"} <= set(GUILDS)
    for item in (*WONDER_DATA, *GUILD_DATA):
        assert set(item.names) == {"en", "de", "it"}
    assert WONDER_DATA[3].name_in("de") == "Gizeh"
    assert GUILD_DATA[GUILDS.index("shipowners")].name_in("de") == "Gilde der Reeder"


def test_commitment_is_sha256_of_the_seed() -> None:
    assert commitment("bonn 2018") == hashlib.sha256(b"bonn 2018").hexdigest()
    assert commitment("a") != commitment("b")


def test_rng_derivation_is_documented() -> None:
    import random

    digest = hashlib.sha256(b"seed|wonders|2").digest()
    expected = random.Random(int.from_bytes(digest, "big"))
    assert rng("seed", "wonders", 2).random() == expected.random()


@given(st.text(max_size=20), st.integers(1, 12), st.integers(1, 7))
def test_wonder_draw_is_deterministic_and_distinct(
    seed: str, round_number: int, count: int
) -> None:
    drawn = draw_wonders(seed, round_number, count)
    assert drawn == draw_wonders(seed, round_number, count)
    assert len(drawn) == count == len(set(drawn))
    assert set(drawn) <= set(WONDERS)


def test_rounds_draw_differently() -> None:
    draws = {draw_wonders("s", r, 5) for r in range(1, 9)}
    assert len(draws) > 1


@pytest.mark.parametrize("count", [0, 8])
def test_impossible_wonder_count(count: int) -> None:
    with pytest.raises(InvalidInput, match=f"cannot draw {count} wonders"):
        draw_wonders("s", 1, count)


def test_guild_draw_is_a_permutation_and_tables_use_k_plus_two() -> None:
    guilds = draw_guilds("s", 3)
    assert sorted(guilds) == sorted(GUILDS)
    assert guilds == draw_guilds("s", 3)
    assert guilds_for_table(guilds, 4) == guilds[:6]
    assert guilds_for_table(guilds, 5) == guilds[:7]


def test_sides_per_ruleset() -> None:
    assert draw_sides("s", load_ruleset("bonn-2018")) is None
    ludo = load_ruleset("ludolimpico-2015")
    once = draw_sides("s", ludo, 1)
    assert once is not None
    assert set(once) == set(WONDERS)
    assert set(once.values()) <= {"A", "B"}
    assert draw_sides("s", ludo, 3) == once  # drawn once for the whole tournament
    assert draw_sides("s") == once
    assert any(draw_sides(f"seed {i}") != once for i in range(5))


def test_one_source_for_the_names_of_wonders_and_guilds() -> None:
    """The draws, the translations and the engine name every wonder and guild alike (issue 13:
    three files once disagreed — 'Gilde der Magistrate' vs 'Gilde der Beamten', an Italian
    guild as 'Mercanti' vs 'Commercianti', 'Rhodes' vs 'Rhodos')."""
    from agon.games.seven_wonders.data import card_by_id, wonder_by_name
    from agon.i18n import guild_name, wonder_name

    for item in WONDER_DATA:
        board = wonder_by_name(item.id)
        for lang in ("en", "de", "it"):
            assert item.name_in(lang) == wonder_name(item.id, lang) == getattr(board, lang)
    for item in GUILD_DATA:
        card = card_by_id(f"{item.id}_guild")
        for lang in ("en", "de", "it"):
            assert item.name_in(lang) == guild_name(item.id, lang) == getattr(card, lang)
    magistrates = GUILD_DATA[GUILDS.index("magistrates")]
    assert magistrates.name_in("de") == "Gilde der Beamten"
    # English spellings and full names are still understood as input
    assert wonder_name("Rhodes", "de") == "Rhodos"
    assert wonder_name("The Colossus of Rhodes", "it") == "Rodi"
