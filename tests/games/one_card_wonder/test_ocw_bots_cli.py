"""Bots, simulations, balance report and the ``agon ocw`` command."""

from __future__ import annotations

import json

import pytest
from ocw_helpers import setup
from tests.cli_runner import run_agon

from agon.errors import InvalidInput
from agon.games.one_card_wonder.bots import HeuristicBot, SearchBot, make_bot
from agon.games.one_card_wonder.engine import Game, Variant
from agon.games.one_card_wonder.sim import play_game, simulate, summary


@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_bots_choose_only_legal_actions(name: str) -> None:
    g = Game.new(3, 4, Variant(leaders=True, max_turns=40))
    bot = SearchBot(1, worlds=2, depth=1) if name == "search" else make_bot(name, 1)
    while not g.over:
        a = bot.choose(g)
        assert a in g.legal_actions()
        g.apply(a)


def test_unknown_bot() -> None:
    with pytest.raises(InvalidInput, match="unknown bot 'nope'"):
        make_bot("nope", 1)


def test_heuristic_beats_random() -> None:
    s = summary(simulate(2, 20, ["heuristic", "random"], 7, Variant(max_turns=2000)))
    assert s["by_bot"]["heuristic"]["wins"] >= 16


def test_heuristic_builds_when_it_can() -> None:
    g = setup(stores=("SS", ""))
    assert str(HeuristicBot(1).choose(g)) == "build"


def test_search_bot_takes_the_winning_stage() -> None:
    g = setup(stores=("KSI$SS", ""))
    p = g.players[0]
    p.built[0] = (1 << len(p.wonders[0].stages)) - 1 - (1 << p.wonders[0].stage_index("s4"))
    g.apply("build")
    assert str(SearchBot(3, worlds=2, depth=1).choose(g)) == "stage pharos:s4"


def test_simulation_is_deterministic_and_rotates_seats() -> None:
    a = simulate(2, 4, ["random", "heuristic"], 5, Variant(max_turns=500))
    b = simulate(2, 4, ["random", "heuristic"], 5, Variant(max_turns=500))
    assert a == b
    assert [r.bots for r in a] == [("random", "heuristic"), ("heuristic", "random")] * 2
    rec = play_game(2, ["random", "random"], 3, Variant(max_turns=500))
    assert rec.winner in (0, 1, None) and len(rec.wonders) == 2


def test_balance_summary_counts_every_seat() -> None:
    s = summary(simulate(3, 6, ["heuristic"], 2, Variant(max_turns=1000)))
    assert sum(v["played"] for v in s["by_board"].values()) == 18
    assert sum(v["played"] for v in s["by_wonder"].values()) == 18
    assert sum(v["wins"] for v in s["by_wonder"].values()) == 6 - s["capped"]


def test_cli_simulate_json() -> None:
    proc = run_agon("ocw", "simulate", "--players", "2", "--games", "4", "--bots",
                    "random,heuristic", "--seed", "1", "--json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["games"] == 4 and set(data["by_bot"]) == {"random", "heuristic"}


def test_cli_balance_and_errors() -> None:
    proc = run_agon("ocw", "balance", "--players", "2", "--games", "4", "--seed", "1")
    assert proc.returncode == 0 and "by wonder:" in proc.stdout and "by board:" in proc.stdout
    bad = run_agon("ocw", "simulate", "--bots", "nope")
    assert bad.returncode == 2 and "unknown bot 'nope'" in bad.stderr
    assert "Traceback" not in bad.stderr
    bad2 = run_agon("ocw", "simulate", "--variant", "solo")
    assert bad2.returncode == 2 and "--variant 'solo'" in bad2.stderr


def test_cli_check_content(tmp_path) -> None:  # type: ignore[no-untyped-def]
    proc = run_agon("ocw", "check", str(tmp_path))
    assert proc.returncode == 2 and "no such content file" in proc.stderr  # an empty folder
    from importlib import resources

    src = resources.files("agon.games.one_card_wonder").joinpath("data")
    for name in ("rules.toml", "wonders.toml", "boards.toml", "leaders.toml"):
        (tmp_path / name).write_text(src.joinpath(name).read_text("utf-8"), "utf-8")
    ok = run_agon("ocw", "check", str(tmp_path))
    assert ok.returncode == 0 and "ok: 10 wonders, 12 boards, 10 leaders" in ok.stdout


def test_cli_play_a_person_against_bots() -> None:
    # a person who always answers the first option ("0") plays a whole game
    proc = run_agon("ocw", "play", "--players", "2", "--bots", "heuristic", "--seed", "2",
                    stdin="0\n" * 3000)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-500:]
    assert "wins" in proc.stdout or "you win!" in proc.stdout
    assert "  options: [0]" in proc.stdout
