"""Balance statistics (agon.games.balance), the random-setup mode, the balance commands and
their plots, and runs spread over processes giving the single-process result."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from agon.errors import InvalidInput
from agon.games import distribute
from agon.games.balance import (
    GameOutcome,
    SeatOutcome,
    mean_interval,
    plot,
    report,
    t975,
)
from agon.games.ladder import ONE_CARD_WONDER_BOTS, one_card_wonder_play, parse_entries, run_ladder
from agon.games.one_card_wonder import native
from agon.games.one_card_wonder import sim as ocw_sim
from agon.games.one_card_wonder.content import default_content
from agon.games.one_card_wonder.engine import Game, GameRecord, Variant
from agon.games.seven_wonders import sim as sw_sim
from tests.cli_runner import run_agon

DATA = Path(ocw_sim.__file__).parent / "data"


# ------------------------------------------------------------------ statistics by hand


def test_t_quantiles_match_the_table_and_the_expansion() -> None:
    assert t975(1) == 12.706
    assert t975(3) == 3.182
    assert t975(30) == 2.042
    # tabulated values: t(0.975; 40) = 2.0211, t(0.975; 100) = 1.9840
    assert abs(t975(40) - 2.0211) < 0.001
    assert abs(t975(100) - 1.9840) < 0.001
    with pytest.raises(ValueError):
        t975(0)


def test_mean_interval_by_hand() -> None:
    # 1, 2, 3, 4: mean 2.5, s = sqrt(5/3) = 1.290994, s/sqrt(4) = 0.645497, t(3) = 3.182
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert low is not None and high is not None
    assert abs(low - (2.5 - 3.182 * 0.645497)) < 1e-5
    assert abs(high - (2.5 + 3.182 * 0.645497)) < 1e-5
    # -3, 5: mean 1, s = sqrt(32), s/sqrt(2) = 4, t(1) = 12.706
    assert mean_interval([-3.0, 5.0]) == (1.0, 1.0 - 4 * 12.706, 1.0 + 4 * 12.706)
    assert mean_interval([7.0]) == (7.0, None, None)


def seat(wonder: str, s: int, win: float, margin: float) -> SeatOutcome:
    return SeatOutcome((("wonder", wonder), ("seat", str(s))), win, margin)


def test_report_rates_margins_and_capped_games_by_hand() -> None:
    games = [
        GameOutcome((seat("a", 0, 1, 2), seat("b", 1, 0, -2))),
        GameOutcome((seat("b", 0, 0, -1), seat("a", 1, 1, 1))),
        GameOutcome((seat("a", 0, 0, -3), seat("b", 1, 1, 3))),
        GameOutcome((seat("b", 0, 0, -4), seat("a", 1, 0, -4))),  # both lost
        GameOutcome((seat("a", 0, 1, 9), seat("b", 1, 0, 9)), finished=False),  # capped
    ]
    rep = report(games, ["wonder", "seat", "leader"])
    assert (rep.games, rep.capped, rep.players) == (5, 1, 2)
    assert "leader" not in rep.factors  # no seat had a leader
    a = {r.level: r for r in rep.factors["wonder"]}["a"]
    # a: 2 wins in 4 finished games; Wilson(2, 4) with z = 1.959964:
    # centre = (0.5 + z²/8) / (1 + z²/4) = 0.5; half = z·sqrt(1/16 + z²/64) / (1 + z²/4)
    z2 = 1.959964**2
    half = 1.959964 * math.sqrt(1 / 16 + z2 / 64) / (1 + z2 / 4)
    assert a.played == 4 and a.wins == 2 and a.win_rate == 0.5
    assert abs(a.win_low - (0.5 - half)) < 1e-9 and abs(a.win_high - (0.5 + half)) < 1e-9
    # margins 2, 1, -3, -4: mean -1, s = sqrt(26/3) = 2.943920, se = 1.471960, t(3) = 3.182
    assert a.margin == -1.0
    assert a.margin_low is not None and abs(a.margin_low - (-1 - 3.182 * 1.471960)) < 1e-5
    b = {r.level: r for r in rep.factors["wonder"]}["b"]
    assert (b.played, b.wins) == (4, 1)
    assert [r.level for r in rep.factors["wonder"]] == ["a", "b"]  # best first
    doc = rep.as_json()
    assert doc["capped"] == 1 and doc["fair_win_rate"] == 0.5
    assert doc["by"]["wonder"][0]["win_ci"] == [round(0.5 - half, 4), round(0.5 + half, 4)]


def test_shared_wins_count_as_fractions() -> None:
    g = GameOutcome((seat("a", 0, 0.5, 0), seat("b", 1, 0.5, 0), seat("c", 2, 0, -5)))
    rows = {r.level: r for r in report([g], ["wonder"]).factors["wonder"]}
    assert rows["a"].wins == 0.5 and rows["c"].wins == 0


# ------------------------------------------------------------------ One Card Wonder


def test_random_setup_deals_wonders_and_boards_from_the_seed() -> None:
    v = Variant(random_wonders=True, random_boards=True)
    g = Game.new(4, 11, v)
    assert g.stack[-1][0] == "turn"  # no setup decision left
    again = Game.new(4, 11, v)
    assert [p.wonders for p in g.players] == [p.wonders for p in again.players]
    assert [p.board for p in g.players] == [p.board for p in again.players]
    assert all(p.board in p.board_options for p in g.players)
    assert len({p.wonders[0].id for p in g.players}) == 4
    # the same seeds with the bots choosing give other wonders to other seats
    chosen = ocw_sim.simulate(4, 12, ["heuristic"], 3, Variant(max_turns=3000), "python")
    dealt = ocw_sim.simulate(4, 12, ["heuristic"], 3, replace(v, max_turns=3000), "python")
    assert [r.seed for r in chosen] == [r.seed for r in dealt]
    assert [r.wonders for r in chosen] != [r.wonders for r in dealt]
    assert dealt == ocw_sim.simulate(4, 12, ["heuristic"], 3, replace(v, max_turns=3000))


def test_random_setup_is_python_only_with_a_clear_error() -> None:
    v = Variant(random_wonders=True)
    assert not native.can_play(4, ["heuristic"] * 4, v, default_content())
    assert ocw_sim.resolve_engine("auto", 4, ["heuristic"] * 4, v, default_content()) == "python"
    with pytest.raises(InvalidInput, match="random wonders"):
        ocw_sim.simulate(4, 2, ["heuristic"], 0, v, "native")


def test_game_seeds_are_the_sequential_draws_for_any_start() -> None:
    import random

    r = random.Random(42)
    seq = [r.getrandbits(31) for _ in range(50)]
    assert ocw_sim.game_seeds(42, 0, 50) == seq
    assert ocw_sim.game_seeds(42, 17, 31) == seq[17:31]


@pytest.mark.skipif(not native.available(), reason="compiled core not installed")
def test_native_game_by_game_gives_the_python_records() -> None:
    v = Variant(leaders=True, max_turns=3000)
    py = ocw_sim.simulate(3, 5, ["heuristic", "random", "heuristic"], 9, v, "python")
    nat = ocw_sim.simulate(3, 5, ["heuristic", "random", "heuristic"], 9, v, "native")
    assert py == nat
    assert all(len(r.stages) == 3 for r in py)


def test_two_workers_give_the_single_process_records() -> None:
    v = Variant(max_turns=3000)
    one = ocw_sim.simulate(4, 10, ["heuristic", "random"], 5, v, "python")
    two = ocw_sim.simulate(4, 10, ["heuristic", "random"], 5, v, "python", workers=2)
    assert one == two
    spec = sw_sim.Spec(3, ("heuristic", "random", "heuristic"), 7, "python", rotate=True)
    assert sw_sim.simulate(spec, 6) == sw_sim.simulate(spec, 6, workers=2)


def test_a_ladder_on_two_workers_is_the_same_table() -> None:
    entries = parse_entries("random,heuristic", ONE_CARD_WONDER_BOTS)
    play = one_card_wonder_play(Variant(max_turns=500))
    one = run_ladder(entries, play, players=2, games=8, seed="w")
    two = run_ladder(entries, play, players=2, games=8, seed="w", workers=2)
    assert one == two


def test_chunks_and_worker_counts() -> None:
    assert distribute.chunks(10, 3) == [(0, 4), (4, 7), (7, 10)]
    assert distribute.chunks(2, 8) == [(0, 1), (1, 2)]
    assert distribute.cpu_workers(0) == (os.cpu_count() or 1)
    with pytest.raises(InvalidInput, match="--workers -1"):
        distribute.cpu_workers(-1)


def test_capped_games_are_counted_and_left_out() -> None:
    recs = ocw_sim.simulate(3, 6, ["random"], 1, Variant(max_turns=5), "python")
    assert all(r.winner is None for r in recs)
    rep = report(ocw_sim.outcomes(recs, default_content()), ocw_sim.BALANCE_FACTORS)
    assert (rep.games, rep.capped) == (6, 6)
    assert rep.factors == {}


def test_progress_margin_is_the_lead_over_the_best_opponent() -> None:
    c = default_content()
    sizes = {w.id: len(w.stages) for w in c.wonders}
    w = [c.wonders[0].id, c.wonders[1].id, c.wonders[2].id]
    rec = GameRecord(
        seed=1, winner=0, turns=9, bots=("a", "b", "c"), wonders=((w[0],), (w[1],), (w[2],)),
        boards=("x", "y", "z"), leaders=(None, None, None),
        stages=(sizes[w[0]], 1, 2),
    )  # fmt: skip
    seats = ocw_sim.outcomes([rec], c)[0].seats
    second = 100 * 2 / sizes[w[2]]
    assert seats[0].win == 1 and seats[0].margin == pytest.approx(100 - second)
    assert seats[2].margin == pytest.approx(second - 100)
    assert dict(seats[1].factors)["board"] == "y"


# ------------------------------------------------------------------ commands and plots


def test_ocw_balance_json_and_plot(tmp_path: Path) -> None:
    svg = tmp_path / "ocw.svg"
    proc = run_agon(
        "ocw", "balance", "--players", "3", "--games", "12", "--seed", "2",
        "--max-turns", "3000", "--plot", str(svg), "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["games"] == 12 and doc["assign"] == "choose"
    assert set(doc["by"]) == {"wonder", "board", "seat", "bot"}
    row = doc["by"]["seat"][0]
    assert row["win_ci"][0] <= row["win_rate"] <= row["win_ci"][1]
    assert row["margin_ci"][0] <= row["margin"] <= row["margin_ci"][1]
    assert sum(r["played"] for r in doc["by"]["seat"]) == 3 * (12 - doc["capped"])
    text = svg.read_text("utf-8")
    assert text.startswith("<?xml") and "<svg" in text and len(text) > 10_000


def test_ocw_balance_with_a_designers_content_and_random_setup(tmp_path: Path) -> None:
    content = tmp_path / "mine"
    shutil.copytree(DATA, content)
    wonders = content / "wonders.toml"
    wonders.write_text(
        wonders.read_text("utf-8").replace('id = "pharos"', 'id = "my_lighthouse"'), "utf-8"
    )
    png = tmp_path / "ocw.png"
    proc = run_agon(
        "ocw", "balance", "--players", "3", "--games", "6", "--content", str(content),
        "--assign", "random", "--plot", str(png), "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    levels = {r["level"] for r in doc["by"]["wonder"]}
    assert "pharos" not in levels and doc["engine"] == "python"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_7w_balance_json(tmp_path: Path) -> None:
    proc = run_agon("7w", "balance", "--players", "3", "--games", "9", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc["by"]) == {"wonder", "side", "board", "seat", "bot"}
    assert doc["capped"] == 0 and doc["games"] == 9
    assert sum(r["wins"] for r in doc["by"]["seat"]) == pytest.approx(9)
    assert {r["level"] for r in doc["by"]["side"]} <= {"A", "B"}
    # the winner's margin is >= 0 and everyone else's <= 0: the mean over all seats is <= 0
    assert all(r["margin"] <= 0 for r in doc["by"]["bot"])


def test_7w_balance_records_follow_the_seed() -> None:
    spec = sw_sim.Spec(4, ("heuristic",) * 4, 3, "python", rotate=True)
    a = sw_sim.simulate(spec, 3)
    b = sw_sim.simulate(replace(spec, seed=4), 3)
    assert [r.wonders for r in a[1:]] == [r.wonders for r in b[:2]]  # game i is Game(n, seed + i)
    for r in a:
        best = max(r.totals)
        assert sum(r.wins) == pytest.approx(1)
        assert all(w == 0 for w, t in zip(r.wins, r.totals, strict=True) if t < best)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--plot", "report.pdf"), "give a .svg or .png file"),
        (("--workers", "-2"), "--workers': -2 is not in the range"),
        (("--content", "/no/such/dir"), "/no/such/dir"),
    ],
)
def test_balance_bad_input_is_one_line_exit_2(args: tuple[str, ...], message: str) -> None:
    proc = run_agon("ocw", "balance", "--players", "2", "--games", "2", *args)
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_plot_without_matplotlib_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    rep = report([GameOutcome((seat("a", 0, 1, 1), seat("b", 1, 0, -1)))], ["wonder"])
    with pytest.raises(InvalidInput, match=r"pip install 'agon-tournaments\[plot\]'"):
        plot(rep, tmp_path / "x.svg", "t", "points")


def test_cluster_without_ray_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(InvalidInput, match=r"agon-tournaments\[cluster\]"):
        distribute.run_chunks(ocw_sim.play_range, None, 4, cluster="local")


# ------------------------------------------------------------------ Ray


@pytest.fixture(scope="module")
def ray_local() -> object:
    """A private Ray cluster of 2 CPUs, stopped when this module's tests are done: left running
    for the rest of the session, its idle daemons and workers cost the pytest worker that started
    it ~50 s of CPU (measured: a ``make test`` run, 2026-11-23)."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


@pytest.mark.slow
def test_a_local_ray_cluster_of_two_cpus_gives_the_single_process_results(
    ray_local: object,
) -> None:
    v = Variant(max_turns=3000)
    one = ocw_sim.simulate(4, 10, ["heuristic", "random"], 5, v, "python")
    assert ocw_sim.simulate(4, 10, ["heuristic", "random"], 5, v, "python", cluster="local") == one
    spec = sw_sim.Spec(3, ("heuristic", "random", "heuristic"), 7, "python", rotate=True)
    assert sw_sim.simulate(spec, 6, cluster="auto") == sw_sim.simulate(spec, 6)
    entries = parse_entries("random,heuristic", ONE_CARD_WONDER_BOTS)
    play = one_card_wonder_play(Variant(max_turns=500))
    assert run_ladder(entries, play, players=2, games=8, seed="r", cluster="local") == run_ladder(
        entries, play, players=2, games=8, seed="r"
    )


@pytest.mark.parametrize(
    ("address", "message"),
    [("127.0.0.1:1", "no Ray head answers there"), ("nonsense", "give HOST:PORT")],
)
def test_an_unreachable_cluster_is_one_line_at_once(address: str, message: str) -> None:
    """Refused before Ray is even imported (its import alone is about 0.8 s of CPU)."""
    pytest.importorskip("ray")
    # a process of its own: in this one, the session's local Ray cluster is already running;
    # it runs ``python -m agon`` and then says whether Ray was imported
    argv = ["agon", "ocw", "simulate", "--games", "2", "--cluster", address]
    script = (
        "import runpy, sys\n"
        f"sys.argv = {argv!r}\n"
        "try:\n"
        "    runpy.run_module('agon', run_name='__main__', alter_sys=True)\n"
        "finally:\n"
        "    print('ray imported:', 'ray' in sys.modules)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert proc.stdout.strip().endswith("ray imported: False"), proc.stdout
