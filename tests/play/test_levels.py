"""Bots by level (issue 28): the levels are data (``data/levels.toml`` of each game), every name
and level plays a legal move from a fixed, bounded budget, the same for the same seed; a bad
levels file is refused with one line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.games import levels
from agon.play.adapters import Setup, new_adapter
from agon.play.bots import bot_seed

GOOD_7W = """
[bots.random]
kind = "random"
[bots.deep]
kind = "ismcts"
iterations = {iterations}
[levels]
easy = "random"
medium = "random"
hard = "deep"
expert = "deep"
"""


@pytest.mark.parametrize("game", ["7w", "ocw"])
def test_every_level_names_a_bot_of_the_game_within_the_limits(game: str) -> None:
    bots, table = levels.load(game)
    assert tuple(table) == levels.LEVELS
    assert {"random", "heuristic", "search", "mcts", "ismcts"} <= set(bots)
    for level in levels.LEVELS:
        spec = levels.resolve(game, level)
        assert spec is bots[table[level]] and spec.kind in levels.KINDS[game]
    # harder levels search, the easy ones do not; expert is the strongest kind, ismcts
    assert not levels.resolve(game, "easy").searches
    assert not levels.resolve(game, "medium").searches
    assert levels.resolve(game, "hard").searches and levels.resolve(game, "expert").searches
    assert levels.resolve(game, "expert").kind == {"7w": "ismcts", "ocw": "ismctsh"}[game]
    for spec in bots.values():  # every budget a whole number within the limits
        for key in ("rounds", "iterations", "worlds", "side_playouts"):
            value = getattr(spec, key)
            if value:
                assert 1 <= value <= levels.LIMITS[(game, key)]


def test_the_online_7w_search_bot_is_what_it_was() -> None:
    spec = levels.resolve("7w", "search")
    assert (spec.kind, spec.rounds, spec.side_playouts) == ("mcts", 8, 32)
    assert levels.resolve("ocw", "search").worlds == 8


def test_the_ocw_ismctsh_bot_is_ismcts_with_the_others_played_by_the_heuristic() -> None:
    spec = levels.resolve("ocw", "ismctsh")
    assert (spec.kind, spec.iterations) == ("ismctsh", 150) and spec.searches
    assert levels.resolve("ocw", "expert") == spec  # stronger than search at 2, 3 and 4


@pytest.mark.parametrize(("game", "players"), [("7w", 3), ("ocw", 2)], ids=["7w", "ocw"])
def test_each_name_plays_a_legal_move_the_same_for_the_same_seed(game: str, players: int) -> None:
    adapter = new_adapter(Setup(game=game, variant="base", seats=players, seed="levels-1"))
    seat = adapter.waiting_for()[0]
    legal = adapter.legal(seat)
    seed = bot_seed("levels-1", seat, 0)
    by_spec: dict[levels.BotSpec, str] = {}
    for name in levels.names(game):
        first = adapter.snapshot().bot_action(seat, name, seed)
        assert first in legal, name
        spec = levels.resolve(game, name)
        if spec in by_spec:  # a level plays exactly its bot
            assert by_spec[spec] == first, name
        else:  # and the same again from the same seed
            assert adapter.snapshot().bot_action(seat, name, seed) == first, name
            by_spec[spec] = first


def test_an_unknown_name_is_refused_in_one_line() -> None:
    adapter = new_adapter(Setup(game="7w", variant="base", seats=3, seed="x"))
    with pytest.raises(InvalidInput, match="unknown bot 'grandmaster'"):
        adapter.bot_action(0, "grandmaster", 1)
    with pytest.raises(InvalidInput, match="unknown bot"):
        levels.resolve("ocw", "grandmaster")


@settings(max_examples=60, deadline=None)
@given(iterations=st.integers(min_value=-5, max_value=30_000))
def test_a_budget_is_accepted_exactly_within_the_limit(iterations: int) -> None:
    text = GOOD_7W.format(iterations=iterations)
    if 1 <= iterations <= levels.LIMITS[("7w", "iterations")]:
        bots, table = levels.parse("7w", text)
        assert bots["deep"].iterations == iterations and table["expert"] == "deep"
    else:
        with pytest.raises(InvalidInput, match="iterations must be a whole number"):
            levels.parse("7w", text)


@settings(max_examples=80, deadline=None)
@given(
    kind=st.sampled_from(["random", "heuristic", "mcts", "ismcts", "search", "alphazero"]),
    key=st.sampled_from(["rounds", "iterations", "worlds", "side_playouts", "seconds"]),
    level=st.sampled_from([*levels.LEVELS, "master"]),
)
def test_a_levels_file_is_checked_whole(kind: str, key: str, level: str) -> None:
    """Any file either parses to bots of the game's kinds and all four levels, or is refused
    with InvalidInput (never another error)."""
    text = f'[bots.b]\nkind = "{kind}"\n{key} = 4\n[levels]\n'
    text += "".join(f'{lv} = "b"\n' for lv in {*levels.LEVELS[:3], level})
    try:
        bots, table = levels.parse("7w", text)
    except InvalidInput as exc:
        assert "levels.toml" in str(exc) and "\n" not in str(exc)
        return
    assert bots["b"].kind in levels.KINDS["7w"] and set(table) == set(levels.LEVELS)
    assert (kind, key, level) != ("alphazero", key, level) and key != "seconds"


def test_a_broken_file_is_one_line() -> None:
    with pytest.raises(InvalidInput, match=r"levels\.toml"):
        levels.parse("ocw", "[bots")
    with pytest.raises(InvalidInput, match=r"no \[bots\.NAME\]"):
        levels.parse("ocw", "[levels]\neasy='x'")
    with pytest.raises(InvalidInput, match="named like a level"):
        levels.parse("ocw", '[bots.easy]\nkind="random"\n[levels]\n')
