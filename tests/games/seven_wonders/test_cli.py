"""``agon 7w``: the score calculator (hand-checked sheet), simulate, errors as exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from agon.commands.seven_wonders import group
from tests.cli_runner import run_agon

SHEET = Path(__file__).parent / "fixtures" / "sheet3.json"


def test_score_sheet_json_matches_hand_count() -> None:
    # Anna: Babylon A 2 stages (3 VP + science wildcard -> compass: 3,1,1 = 9+1+1+7);
    #   Lighthouse counts 3 yellow; Gilde der Künstler: 2 x (2 grey Bert + 1 grey Carla).
    # Bert: Olympia B copies the Craftsmens Guild (2 x 2 grey) besides own Shipowners
    #   (2 brown + 2 grey + 1 purple).  Carla: Gizah B 3+5+5+7, Palace 8, Workers Guild 2.
    result = CliRunner().invoke(group, ["score", str(SHEET), "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["player"]: r for r in json.loads(result.output)["scores"]}
    assert rows["Anna"] == {
        "player": "Anna",
        "military": 4,
        "coins": 2,
        "wonder": 3,
        "civilian": 0,
        "commercial": 3,
        "guilds": 6,
        "science": 18,
        "total": 36,
    }
    assert rows["Bert"]["guilds"] == 9 and rows["Bert"]["copied_guild"] == "craftsmens_guild"
    assert (rows["Bert"]["total"], rows["Carla"]["total"]) == (16, 43)


def test_score_table_output() -> None:
    result = CliRunner().invoke(group, ["score", str(SHEET)])
    assert result.exit_code == 0
    assert result.output.splitlines()[1].split() == [
        "Anna",
        "4",
        "2",
        "3",
        "0",
        "3",
        "6",
        "18",
        "36",
    ]


def test_unknown_card_name_is_exit_2_naming_player(tmp_path: Path) -> None:
    data = json.loads(SHEET.read_text("utf-8"))
    data["players"][1]["cards"].append("Lighthose")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), "utf-8")
    proc = run_agon("7w", "score", str(bad))
    assert proc.returncode == 2
    assert "Bert" in proc.stderr and "Lighthose" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_strategists_guild_needs_defeats(tmp_path: Path) -> None:
    data = json.loads(SHEET.read_text("utf-8"))
    data["players"][0]["cards"].append("Strategists Guild")
    bad = tmp_path / "s.json"
    bad.write_text(json.dumps(data), "utf-8")
    proc = run_agon("7w", "score", str(bad))
    assert proc.returncode == 2 and "defeats" in proc.stderr


def test_simulate_json_reports_games_and_wins() -> None:
    args = [
        "simulate",
        "--players",
        "4",
        "--games",
        "3",
        "--bots",
        "heuristic,random,random,random",
    ]
    result = CliRunner().invoke(group, [*args, "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["games"] == 3 and len(out["seats"]) == 4
    assert sum(out["wins_by_bot"].values()) == 3
    again = json.loads(CliRunner().invoke(group, [*args, "--seed", "5", "--json"]).output)
    assert [s["mean_score"] for s in again["seats"]] == [s["mean_score"] for s in out["seats"]]


def test_play_against_bots_by_typing_action_numbers() -> None:
    answers = "\n".join(["0"] * 60) + "\n"
    result = CliRunner().invoke(group, ["play", "--players", "3", "--seed", "2"], input=answers)
    assert result.exit_code == 0, result.output
    assert "final scores" in result.output and "winner(s)" in result.output


def _first_turn_with_paid_and_impossible_build() -> tuple[int, str, str]:
    """A seed whose first hand (seat 0, 3 players) has a paid build and an impossible one."""
    from agon.games.seven_wonders.engine import Action, Game

    for seed in range(200):
        g = Game(3, seed)
        legal = g.legal_actions(0)
        paid = [x for x in legal if x.kind == "build" and x.left + x.right]
        impossible = [
            Action("build", c) for c in g.hands[0] if g.resolve(0, Action("build", c)) is None
        ]
        if len(paid) == 1 and impossible:
            return seed, str(paid[0]), str(impossible[0])
    raise AssertionError("no seed found")


def test_play_pays_a_wrong_split_the_cheapest_way_and_explains_an_impossible_build() -> None:
    """Bonn 2018: only a build impossible by the rules is illegal; a wrong split is repaid."""
    seed, paid, impossible = _first_turn_with_paid_and_impossible_build()
    wrong = paid.split(" pay ")[0] + " pay 7 7"
    answers = "\n".join([impossible, wrong] + ["0"] * 60) + "\n"
    result = CliRunner().invoke(
        group, ["play", "--players", "3", "--seed", str(seed)], input=answers
    )
    assert result.exit_code == 0, result.output
    assert f"not possible: {impossible}: " in result.output
    assert f"that coin split does not work; paid the cheapest way: {paid}" in result.output
