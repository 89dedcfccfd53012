"""The bot ladder (agon.games.ladder, ``agon 7w ladder`` / ``agon ocw ladder``): seeded and
reproducible, rated by the players' rating code, win rates with Wilson intervals, clear errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from agon.cli import cli
from agon.errors import InvalidInput
from agon.games.ladder import (
    ONE_CARD_WONDER_BOTS,
    SEVEN_WONDERS_BOTS,
    Entry,
    one_card_wonder_play,
    parse_entries,
    ranks_of,
    run_ladder,
    seatings,
    wilson,
)
from agon.games.one_card_wonder import native as ocw_native
from agon.games.one_card_wonder.engine import Variant
from agon.ratings import Game, PlayerKey, rate


def test_entries_and_budgets() -> None:
    entries = parse_entries("random, heuristic,mcts@200,mcts@0.5s", SEVEN_WONDERS_BOTS)
    assert entries == [
        Entry("random", "random"),
        Entry("heuristic", "heuristic"),
        Entry("mcts@200", "mcts", rounds=200),
        Entry("mcts@0.5s", "mcts", seconds=0.5),
    ]


def test_copy_numbers_seat_one_bot_against_a_field_of_another() -> None:
    spec = "ismcts@0.5s,mcts@0.5s#1,mcts@0.5s#2,heuristic#1"
    entries = parse_entries(spec, SEVEN_WONDERS_BOTS)
    assert [e.text for e in entries] == spec.split(",")
    assert entries[0] == Entry("ismcts@0.5s", "ismcts", seconds=0.5)
    assert entries[2] == Entry("mcts@0.5s#2", "mcts", seconds=0.5)
    assert entries[3] == Entry("heuristic#1", "heuristic")
    with pytest.raises(InvalidInput, match="named twice"):
        parse_entries("mcts#1,mcts#1", SEVEN_WONDERS_BOTS)
    for bad in ("mcts#0", "mcts#", "mcts#100"):
        with pytest.raises(InvalidInput, match="not a bot entry"):
            parse_entries(bad, SEVEN_WONDERS_BOTS)


def test_a_field_of_copies_fills_every_seat_of_every_game() -> None:
    entries = parse_entries("ismcts@2,heuristic#1,heuristic#2", SEVEN_WONDERS_BOTS)
    for seated in seatings(entries, 3, 10, "field"):
        assert sorted(e.text for e in seated) == sorted(e.text for e in entries)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("random,alphazero", "unknown bot 'alphazero'"),
        ("random,random", "named twice"),
        ("mcts@0", "whole number"),
        ("mcts@1.5", "whole number"),
        ("mcts@99s", "seconds per move"),
        ("mcts@", "not a bot entry"),
        ("", "not a bot entry"),
    ],
)
def test_bad_entries(spec: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_entries(spec, SEVEN_WONDERS_BOTS)


def test_ranks_share_ties() -> None:
    assert ranks_of([(50, 3), (61, 0), (50, 3), (50, 4)]) == [3, 1, 3, 2]
    assert ranks_of([(1,), (0,), (0,)]) == [1, 2, 2]


def test_wilson_interval_by_hand() -> None:
    low, high = wilson(19, 20)
    # p = 0.95, n = 20, z = 1.96: centre (0.95 + 0.0960)/1.1921, half 1.96*sqrt(0.002375+0.0024)/1.1921
    assert low == pytest.approx(0.7639, abs=1e-3) and high == pytest.approx(0.9911, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_seatings_are_seeded_and_fair_in_the_long_run() -> None:
    entries = [Entry(k, k) for k in ("a", "b", "c", "d")]
    one = seatings(entries, 3, 400, "s")
    assert one == seatings(entries, 3, 400, "s")
    assert one != seatings(entries, 3, 400, "t")
    assert all(len({e.text for e in table}) == 3 for table in one)
    seats = [sum(1 for table in one if table[0].text == k) for k in "abcd"]
    assert min(seats) > 70  # each entry starts about 100 of 400 games
    with pytest.raises(InvalidInput, match="need at least 4"):
        seatings(entries[:3], 4, 1, "s")


def test_run_ladder_rates_with_the_players_rating_code() -> None:
    entries = [Entry(k, k) for k in ("strong", "middle", "weak")]
    strength = {"strong": 3, "middle": 2, "weak": 1}

    def play(seated: list[Entry], seed: int) -> list[tuple[int, ...]]:
        return [(strength[e.text],) for e in seated]

    rows = run_ladder(entries, play, players=3, games=12, seed="x")
    assert [r.entry for r in rows] == ["strong", "middle", "weak"]
    assert [r.wins for r in rows] == [12, 0, 0] and rows[0].mean_rank == 1.0
    by_hand = rate(
        Game("ladder", g, 1, False, tuple((PlayerKey(e.text), 4 - strength[e.text]) for e in table))
        for g, table in enumerate(seatings(entries, 3, 12, "x"), start=1)
    )
    assert [(r.player.name, r.mu) for r in by_hand.ratings] == [(r.entry, r.mu) for r in rows]


def test_seven_wonders_ladder_is_reproducible() -> None:
    args = ["7w", "ladder", "--bots", "random,heuristic,mcts@2", "--games", "3", "--json"]
    args += ["--engine", "python"]
    first = CliRunner().invoke(cli, [*args, "--seed", "a"])
    assert first.exit_code == 0, first.output
    doc = json.loads(first.output)
    assert sorted(r["bot"] for r in doc["ladder"]) == ["heuristic", "mcts@2", "random"]
    assert sum(r["wins"] for r in doc["ladder"]) == pytest.approx(3)
    again = CliRunner().invoke(cli, [*args, "--seed", "a"])
    assert json.loads(again.output) == doc


def test_ismcts_ladders_are_reproducible_with_an_iteration_budget() -> None:
    args = ["7w", "ladder", "--bots", "ismcts@3,heuristic#1,heuristic#2", "--games", "2"]
    first = CliRunner().invoke(cli, [*args, "--json"])
    assert first.exit_code == 0, first.output
    doc = json.loads(first.output)
    assert {r["bot"] for r in doc["ladder"]} == {"ismcts@3", "heuristic#1", "heuristic#2"}
    assert json.loads(CliRunner().invoke(cli, [*args, "--json"]).output) == doc
    args = ["ocw", "ladder", "--bots", "ismcts@3,heuristic", "--players", "2", "--games", "2"]
    first = CliRunner().invoke(cli, [*args, "--max-turns", "200", "--json"])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(cli, [*args, "--max-turns", "200", "--json"])
    assert json.loads(again.output) == json.loads(first.output)


def test_one_card_wonder_ladder_seats_ismctsh_with_its_budget() -> None:
    args = ["ocw", "ladder", "--bots", "ismctsh@3,search@2", "--players", "2", "--games", "2"]
    first = CliRunner().invoke(cli, [*args, "--max-turns", "120", "--json"])
    assert first.exit_code == 0, first.output
    assert {r["bot"] for r in json.loads(first.output)["ladder"]} == {"ismctsh@3", "search@2"}
    again = CliRunner().invoke(cli, [*args, "--max-turns", "120", "--json"])
    assert json.loads(again.output) == json.loads(first.output)


def test_one_card_wonder_ladder_is_reproducible() -> None:
    args = ["ocw", "ladder", "--bots", "random,heuristic", "--players", "2", "--games", "4"]
    first = CliRunner().invoke(cli, [*args, "--json"])
    assert first.exit_code == 0, first.output
    assert json.loads(first.output) == json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    other = CliRunner().invoke(cli, [*args, "--json", "--seed", "other"])
    assert other.exit_code == 0


@pytest.mark.skipif(not ocw_native.available(), reason="needs the compiled core")
@pytest.mark.parametrize(
    ("bots", "players", "variant"),
    [
        ("random,heuristic,search@3", 3, Variant(max_turns=3000)),
        ("heuristic,search@2#1,search@2#2", 3, Variant(leaders=True, max_turns=3000)),
        ("search@2,search@3,random", 3, Variant(max_turns=60)),  # two budgets, one per seat
    ],
)
def test_one_card_wonder_ladder_games_are_the_same_on_the_compiled_core(
    bots: str, players: int, variant: Variant
) -> None:
    """``auto`` plays a game of random, heuristic and search bots on the compiled core: the
    same games as the Python engine, so the same table."""
    entries = parse_entries(bots, ONE_CARD_WONDER_BOTS)
    auto = run_ladder(entries, one_card_wonder_play(variant), players=players, games=4, seed="n")
    python = one_card_wonder_play(variant, engine="python")
    assert auto == run_ladder(entries, python, players=players, games=4, seed="n")


@pytest.mark.skipif(not ocw_native.available(), reason="needs the compiled core")
def test_search_bots_of_different_budgets_play_on_the_compiled_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two search budgets at one table no longer send the game to the Python engine."""
    calls: list[int] = []
    new_game = ocw_native.new_game

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return new_game(*args, **kwargs)

    monkeypatch.setattr(ocw_native, "new_game", spy)
    entries = parse_entries("search@2,search@3,random", ONE_CARD_WONDER_BOTS)
    play = one_card_wonder_play(Variant(max_turns=60))
    play(entries, 7)
    assert calls == [1]


def test_ladder_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from agon.cli import main

    for args in (
        ["7w", "ladder", "--bots", "random,heuristic", "--players", "3"],
        ["ocw", "ladder", "--bots", "random,chess"],
    ):
        with pytest.raises(SystemExit) as exit_info:
            main(args)
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("agon: error: --bots") and err.count("\n") == 1
