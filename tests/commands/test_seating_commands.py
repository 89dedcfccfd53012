"""``agon schedule``, ``agon verify`` and ``agon auction`` on the command line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tests.cli_runner import run_agon

agon = run_agon  # in process (tests/cli_runner.py): the same output and exit codes


def test_schedule_json_shape(tmp_path: Path) -> None:
    proc = agon("schedule", "--players", "13", "--rounds", "3", "--seed", "s", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert len(doc["rounds"]) == 3
    first = doc["rounds"][0]
    assert len(first["wonders"]) == 5
    assert len(first["guilds"]) == 10
    assert [len(t["seats"]) for t in first["tables"]] == [5, 4, 4]
    assert sorted(p for t in first["tables"] for p in t["seats"]) == [
        f"P{i:02d}" for i in range(1, 14)
    ]
    assert doc["commitment"] == hashlib.sha256(b"s").hexdigest()
    assert doc["report"]["lower_bound"] <= doc["report"]["repeats"]


def test_schedule_players_file_and_text(tmp_path: Path) -> None:
    names = [f"Spieler {c}" for c in "ABCDEFGHIJKL"]
    path = tmp_path / "players.txt"
    path.write_text("\n".join(names) + "\n\n", encoding="utf-8")
    proc = agon("schedule", "--players-file", str(path), "--rounds", "2", "--seed", "s")
    assert proc.returncode == 0, proc.stderr
    assert "Round 2" in proc.stdout
    assert "table 3:" in proc.stdout
    assert "Spieler A" in proc.stdout


def test_schedule_errors_are_one_line_exit_2() -> None:
    proc = agon("schedule", "--seed", "s")
    assert proc.returncode == 2
    assert "exactly one of --players" in proc.stderr
    proc = agon("schedule", "--players", "2", "--seed", "s")
    assert proc.returncode == 2
    assert "cannot be split" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_verify_matches_and_detects_tampering(tmp_path: Path) -> None:
    proc = agon("schedule", "--players", "14", "--rounds", "2", "--seed", "secret", "--json")
    path = tmp_path / "schedule.json"
    path.write_text(proc.stdout, encoding="utf-8")
    digest = hashlib.sha256(b"secret").hexdigest()
    ok = agon("verify", str(path), "--seed", "secret", "--commitment", digest)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "commitment: ok" in ok.stdout
    assert "match the seed" in ok.stdout
    wrong_seed = agon("verify", str(path), "--seed", "guess", "--commitment", digest)
    assert wrong_seed.returncode == 1
    assert "commitment: MISMATCH" in wrong_seed.stdout
    doc = json.loads(proc.stdout)
    seats = doc["rounds"][1]["tables"][0]["seats"]
    seats[0], seats[1] = seats[1], seats[0]  # a director who moved the start player
    path.write_text(json.dumps(doc), encoding="utf-8")
    tampered = agon("verify", str(path), "--seed", "secret")
    assert tampered.returncode == 1
    assert "round 2: tables differ" in tampered.stdout
    assert "round 1" not in tampered.stdout


def test_verify_names_another_optimiser_version_and_still_checks_the_draws(
    tmp_path: Path,
) -> None:
    """Issue 13 changed the optimiser: a schedule file records ``plan_version``; a file of
    another version (or none: version 1) cannot have its seatings recomputed, which verify says
    in one line (a mismatch), while it still checks every draw."""
    proc = agon("schedule", "--players", "13", "--rounds", "2", "--seed", "v", "--json")
    doc = json.loads(proc.stdout)
    assert doc["plan_version"] == 4
    del doc["plan_version"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    old = agon("verify", str(path), "--seed", "v")
    assert old.returncode == 1
    assert "planned by optimiser version 1, this agon plans with version 4" in old.stdout
    assert "differ" not in old.stdout  # the draws match, the seatings are not compared
    doc["plan_version"] = 3  # issue 30: the known 18-player grouping made version 4
    path.write_text(json.dumps(doc), encoding="utf-8")
    two = agon("verify", str(path), "--seed", "v")
    assert two.returncode == 1
    assert "planned by optimiser version 3, this agon plans with version 4" in two.stdout
    assert "differ" not in two.stdout
    del doc["plan_version"]
    doc["rounds"][1]["guilds"].reverse()
    path.write_text(json.dumps(doc), encoding="utf-8")
    tampered = agon("verify", str(path), "--seed", "v")
    assert "round 2: guilds differ" in tampered.stdout and "round 1" not in tampered.stdout
    doc["plan_version"] = "a\nb" * 500  # a hostile version stays in its one line, shortened
    path.write_text(json.dumps(doc), encoding="utf-8")
    hostile = agon("verify", str(path), "--seed", "v")
    assert hostile.returncode == 1
    line = next(x for x in hostile.stdout.splitlines() if "optimiser version" in x)
    assert "'a\\nb" in line and "this agon plans with version 4" in line and len(line) < 300


def test_verify_swiss_file_checks_draws_and_round_one(tmp_path: Path) -> None:
    from agon.commands.schedule import round_json
    from agon.tournament.ruleset import load_ruleset
    from agon.tournament.seating import seat_swiss_round

    ludo = load_ruleset("ludolimpico-2015")
    players = [f"P{i:02d}" for i in range(1, 14)]
    r1 = seat_swiss_round(players, round_number=1, seed="k", ruleset=ludo, history=[])
    r2 = seat_swiss_round(players, round_number=2, seed="k", ruleset=ludo, history=[r1])
    doc = {
        "ruleset": ludo.name,
        "seating": "swiss",
        "commitment": hashlib.sha256(b"k").hexdigest(),
        "rounds": [round_json(r1), round_json(r2)],
    }
    path = tmp_path / "swiss.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    ok = agon("verify", str(path), "--seed", "k")
    assert ok.returncode == 0, ok.stdout
    assert "Swiss" in ok.stdout
    doc["rounds"][1]["guilds"] = list(reversed(doc["rounds"][1]["guilds"]))
    path.write_text(json.dumps(doc), encoding="utf-8")
    bad = agon("verify", str(path), "--seed", "k")
    assert bad.returncode == 1
    assert "round 2: guilds differ" in bad.stdout


def test_verify_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{", encoding="utf-8")
    proc = agon("verify", str(path), "--seed", "s")
    assert proc.returncode == 2
    assert "cannot read schedule, event or game file" in proc.stderr


def test_auction_from_script() -> None:
    wonders = "babylon,rhodos,gizah,olympia"
    probe = agon(
        "auction",
        "--players",
        "Anna,Ben,Clara",
        "--wonders",
        wonders,
        "--seed",
        "s",
        "--script",
        "-",
        "--json",
        stdin="",
    )
    assert probe.returncode == 2
    assert "script ends before the auction does" in probe.stderr
    opener = probe.stderr.split("agon: error: the script ends before the auction does: ")[
        1
    ].split()[0]
    order = ["Anna", "Ben", "Clara"]
    i = order.index(opener)
    second, third = order[(i + 1) % 3], order[(i + 2) % 3]
    script = f"opens babylon 1\n{second} raises 2\n{third} passes\n{opener} passes\n"
    script += f"{opener} opens rhodos 0\n{third} passes\n{third} opens gizah 0\n"
    proc = agon(
        "auction",
        "--players",
        "Anna,Ben,Clara",
        "--wonders",
        wonders,
        "--seed",
        "s",
        "--script",
        "-",
        "--json",
        stdin=script,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["results"][second] == {"wonder": "babylon", "bid": 2}
    assert doc["results"][opener] == {"wonder": "rhodos", "bid": 0}
    assert doc["results"][third] == {"wonder": "gizah", "bid": 0}


def test_auction_illegal_line_names_the_line() -> None:
    proc = agon(
        "auction",
        "--players",
        "Anna,Ben",
        "--wonders",
        "babylon,rhodos,gizah",
        "--seed",
        "s",
        "--script",
        "-",
        stdin="opens babylon 1\nraises 1\n",
    )
    assert proc.returncode == 2
    assert "line 2" in proc.stderr and "bid too low" in proc.stderr
