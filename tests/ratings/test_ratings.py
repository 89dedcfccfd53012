"""Ratings (agon.ratings, ``agon rating``): checked against Plackett–Luce updates computed by hand
(Weng & Lin 2011, algorithm 4, as openskill documents it), player matching by name + tag, and the
command's JSON shape and errors."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from agon.cli import cli
from agon.ratings import Game, PlayerKey, games_of, player_key, rate, rate_events
from agon.tournament.event import load_event

ROOT = Path(__file__).resolve().parents[2]
BETA = 25 / 6  # openskill's default: sigma0 / 2
TAU = 25 / 300  # the dynamics factor added to sigma before every game
KAPPA = 1e-4


def plackett_luce_by_hand(
    players: list[tuple[float, float]], ranks: list[int]
) -> list[tuple[float, float]]:
    """One Plackett–Luce update, written from the paper's formulas (not from openskill's code)."""
    players = [(mu, math.sqrt(s * s + TAU * TAU)) for mu, s in players]
    c = math.sqrt(sum(s * s + BETA * BETA for _mu, s in players))
    n = len(players)
    sum_q = [
        sum(math.exp(players[s][0] / c) for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)
    ]
    a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i, (mu, sigma) in enumerate(players):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                quotient = math.exp(mu / c) / sum_q[q]
                omega += ((1 - quotient) if q == i else -quotient) / a[q]
                delta += quotient * (1 - quotient) / a[q]
        gamma = sigma / c
        new_sigma = sigma * math.sqrt(max(1 - gamma * delta * sigma * sigma / (c * c), KAPPA))
        out.append((mu + sigma * sigma / c * omega, new_sigma))
    return out


def game(event: str, table: int, *ranks: tuple[str, int]) -> Game:
    return Game(event, 1, table, False, tuple((PlayerKey(p), r) for p, r in ranks))


def test_two_games_match_the_hand_computed_updates() -> None:
    first = game("e", 1, ("Anna", 1), ("Ben", 2), ("Clara", 2))  # Ben and Clara tie
    second = game("e", 2, ("Clara", 1), ("Anna", 2), ("Dora", 3), ("Ben", 4))
    result = rate([first, second])

    start = (25.0, 25 / 3)
    anna, ben, clara = plackett_luce_by_hand([start, start, start], [1, 2, 2])
    clara2, anna2, dora2, ben2 = plackett_luce_by_hand([clara, anna, start, ben], [1, 2, 3, 4])
    expected = {"Anna": anna2, "Ben": ben2, "Clara": clara2, "Dora": dora2}
    got = {str(r.player): r for r in result.ratings}
    for name, (mu, sigma) in expected.items():
        assert got[name].mu == pytest.approx(mu, abs=1e-9), name
        assert got[name].sigma == pytest.approx(sigma, abs=1e-9), name
        assert got[name].ordinal == pytest.approx(mu - 3 * sigma, abs=1e-9)
    assert {n: got[n].games for n in got} == {"Anna": 2, "Ben": 2, "Clara": 2, "Dora": 1}
    ordinals = [r.ordinal for r in result.ratings]
    assert ordinals == sorted(ordinals, reverse=True)
    # a tie is a tie: Ben and Clara moved alike in the first game
    steps = {str(k): v for k, v in result.history.items()}
    assert steps["Ben"][0].mu == steps["Clara"][0].mu < steps["Anna"][0].mu


def test_order_of_games_matters_and_is_kept() -> None:
    a = game("e", 1, ("Anna", 1), ("Ben", 2), ("Clara", 3))
    b = game("e", 2, ("Clara", 1), ("Ben", 2), ("Anna", 3))
    forward = {str(r.player): r.mu for r in rate([a, b]).ratings}
    backward = {str(r.player): r.mu for r in rate([b, a]).ratings}
    assert forward != backward
    assert forward == {str(r.player): r.mu for r in rate([a, b]).ratings}  # deterministic


def test_player_key_keeps_tags_apart() -> None:
    assert player_key("Jan Müller (Köln)", {"tag": "Köln"}) == PlayerKey("Jan Müller", "Köln")
    assert player_key("Jan Müller", {"tag": "Köln"}) == PlayerKey("Jan Müller", "Köln")
    assert player_key("Jan Müller") != player_key("Jan Müller (Bonn)", {"tag": "Bonn"})


def _event(
    tmp_path: Path, name: str, players: list[Any], tables: list[list[tuple[str, int]]]
) -> Path:
    doc = {
        "name": name,
        "ruleset": "bonn-2018",
        "players": players,
        "rounds": [
            {
                "tables": [
                    {"results": [{"player": p, "vp": vp, "coins": 0} for p, vp in table]}
                    for table in tables
                ]
            }
        ],
    }
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def test_players_are_matched_across_events_by_name_and_tag(tmp_path: Path) -> None:
    koeln = {"name": "Jan Müller (Köln)", "tag": "Köln"}
    one = _event(
        tmp_path,
        "one",
        [koeln, "Jan Müller", "Ann", "Bo"],
        [[("Jan Müller (Köln)", 50), ("Jan Müller", 40), ("Ann", 45), ("Bo", 30)]],
    )
    two = _event(
        tmp_path,
        "two",
        [koeln, "Ann", "Bo"],
        [[("Jan Müller (Köln)", 60), ("Ann", 41), ("Bo", 39)]],
    )
    result = rate_events([load_event(one), load_event(two)])
    games = {str(r.player): r.games for r in result.ratings}
    assert games == {"Jan Müller (Köln)": 2, "Jan Müller": 1, "Ann": 2, "Bo": 2}
    assert result.find("Jan Müller (Köln)") == PlayerKey("Jan Müller", "Köln")
    assert result.find("Jan Müller") == PlayerKey("Jan Müller")


def test_virtual_seats_are_not_rated() -> None:
    event, ruleset = load_event(ROOT / "examples" / "bonn-2018-sample.json")
    four = [g for g in games_of(event, ruleset) if len(g.ranks) == 4]
    assert four, "the sample has tables of four (Bonn adds a virtual fifth player)"
    for g in four:
        assert len({k for k, _r in g.ranks}) == 4


def test_rating_json_shape_and_history(tmp_path: Path) -> None:
    runner = CliRunner()
    files = [
        str(ROOT / "examples" / f)
        for f in ("bonn-2018-sample.json", "ludolimpico-2015-sample.json")
    ]
    out = runner.invoke(cli, ["rating", *files, "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert list(doc) == ["ratings"]
    for row in doc["ratings"]:
        assert list(row) == ["player", "mu", "sigma", "ordinal", "games"]
        assert row["ordinal"] == pytest.approx(row["mu"] - 3 * row["sigma"], abs=1e-5)
    expected = rate_events([load_event(f) for f in files])
    assert [r["player"] for r in doc["ratings"]] == [str(r.player) for r in expected.ratings]
    hist = runner.invoke(cli, ["rating", *files, "--json", "--history", "David"])
    games = json.loads(hist.output)["history"]["games"]
    assert [g["round"] for g in games] == [1, 2, 3, 4]
    assert games[-1]["mu"] == pytest.approx(
        next(r["mu"] for r in doc["ratings"] if r["player"] == "David")
    )


def test_rating_of_a_database_tournament_equals_its_file(tmp_path: Path) -> None:
    env = {"AGON_DATABASE_URL": f"sqlite:///{tmp_path / 'agon.db'}", "AGON_ACTOR": "test"}
    sample = str(ROOT / "examples" / "bonn-2018-sample.json")
    runner = CliRunner()
    imported = runner.invoke(cli, ["import", sample, "--slug", "bonn"], env=env)
    assert imported.exit_code == 0, imported.output
    from_db = runner.invoke(cli, ["rating", "bonn", "--json"], env=env)
    from_file = runner.invoke(cli, ["rating", sample, "--json"], env=env)
    assert from_db.exit_code == 0, from_db.output
    assert json.loads(from_db.output) == json.loads(from_file.output)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rating", "missing.json"], "no such file"),
        (["rating", "no-such-slug"], "no database at"),  # a read never creates one
        (["rating", "{sample}", "--history", "Nobody"], "no rated player 'Nobody'"),
    ],
)
def test_rating_errors_are_one_line_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    sample = str(ROOT / "examples" / "bonn-2018-sample.json")
    args = [a.replace("{sample}", sample) for a in args]
    proc = subprocess.run(
        [sys.executable, "-m", "agon", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={
            "AGON_DATABASE_URL": f"sqlite:///{tmp_path / 'agon.db'}",
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": ":".join(sys.path),
        },
    )
    assert proc.returncode == 2, proc.stderr
    assert (
        message in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    )
