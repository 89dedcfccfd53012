"""The command line's conventions (docs/cli.md): ``--json`` on every read command with the
documented shape, the exit codes, no option told apart by case alone, and ``--bots`` read alike
by both games."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from tests.commands.test_director_cli import Agon, agon

from agon.cli import cli
from agon.errors import EXIT_BAD_INPUT, EXIT_CONFLICT, EXIT_MISMATCH
from agon.tournament.auction import Auction
from agon.tournament.draws import commitment

__all__ = ["agon"]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LUDO = EXAMPLES / "ludolimpico-2015-sample.json"


def as_json(agon: Agon, *args: str) -> Any:
    return json.loads(agon(*args, "--json"))


def _finished_ludolimpico(agon: Agon) -> list[str]:
    """The Ludolimpico sample imported, its final seated, auctioned, entered and confirmed;
    returns the final's seats (seat order)."""
    agon("import", str(LUDO), "--slug", "ludo")
    agon("tournament", "use", "ludo")
    agon("round", "final")
    final = as_json(agon, "round", "show")
    seats = final["tables"][0]["seats"]
    auction = Auction(seats, final["wonders"], seed="ludo-2015-sample", label="round 4 table 1")
    while not auction.finished:
        auction.apply(auction.legal_actions()[0])
    agon("round", "auction", "-r", "4", "--table", "1", *(str(a) for a in auction.history))
    agon("result", "enter", "-r", "4", "--table", "1",
         *(f"{n}={80 - 5 * i},coins={i}" for i, n in enumerate(seats)))  # fmt: skip
    agon("result", "confirm", "-r", "4", "--table", "1")
    return list(seats)


# ------------------------------------------------------------------------------ --json


def test_validate_json(agon: Agon) -> None:
    doc = as_json(agon, "validate", str(LUDO))
    event = json.loads(LUDO.read_text(encoding="utf-8"))
    assert doc == {
        "file": str(LUDO),
        "ok": True,
        "event": event["name"],
        "ruleset": "ludolimpico-2015",
        "players": len(event["players"]),
        "rounds": len(event["rounds"]),
        "tables": sum(len(r["tables"]) for r in event["rounds"]),
    }


def test_tournament_list_show_and_player_list_json(agon: Agon) -> None:
    agon("tournament", "create", "bonn", "--name", "Bonn", "--ruleset", "bonn-2018",
         "--seed", "s1")  # fmt: skip
    agon("tournament", "create", "koeln", "--name", "Koeln", "--ruleset", "bonn-2018",
         "--seed", "s2", "--no-use")  # fmt: skip
    agon("player", "add", "Anna", "--paid", "--extra", "club=Spielwiese")
    agon("player", "add", "Ben")
    agon("player", "checkin", "Ben")
    listed = as_json(agon, "tournament", "list")["tournaments"]
    assert [(t["slug"], t["name"], t["players"]) for t in listed] == [
        ("bonn", "Bonn", 2),
        ("koeln", "Koeln", 0),
    ]
    assert listed[1]["commitment"] == commitment("s2")
    shown = as_json(agon, "tournament", "show")
    assert shown["slug"] == "bonn" and shown["ruleset"] == "bonn-2018"
    assert shown["commitment"] == commitment("s1") and shown["seed"] == "s1"
    assert (shown["min_players"], shown["max_players"], shown["rounds"]) == (12, 40, 0)
    assert shown["status"]["rounds_closed"] == 0 and shown["status"]["finished"] is False
    players = as_json(agon, "player", "list")
    assert players["tournament"] == "bonn"
    by_name = {p["name"]: p for p in players["players"]}
    assert by_name["Anna"]["fee_paid"] is True and by_name["Anna"]["checked_in"] is False
    assert by_name["Anna"]["extra"] == {"club": "Spielwiese"}
    assert by_name["Ben"]["fee_paid"] is False and by_name["Ben"]["checked_in"] is True
    assert by_name["Ben"]["status"] == "active" and by_name["Ben"]["sanctions"] == []
    assert as_json(agon, "player", "list", "-t", "koeln") == {"tournament": "koeln", "players": []}


def test_round_result_podium_journal_and_db_json(agon: Agon) -> None:
    seats = _finished_ludolimpico(agon)
    shown = as_json(agon, "round", "show", "4")
    assert shown["tournament"] == "ludo" and shown["number"] == 4 and shown["final"] is True
    table = shown["tables"][0]
    assert table["state"] == "confirmed" and table["version"] >= 1
    assert [r["player"] for r in table["results"]] == seats
    assert [r["vp"] for r in table["results"]] == [80 - 5 * i for i in range(len(seats))]
    assert all(r["confirmed"] for r in table["results"])
    assert shown["auctions"]["1"] is None or shown["auctions"]["1"]["finished"] is True
    results = as_json(agon, "result", "show", "-r", "4")
    assert results["tables"] == shown["tables"] and "auctions" not in results
    first = as_json(agon, "round", "show", "1")
    assert first["number"] == 1 and first["final"] is False and len(first["tables"]) == 2
    podium = as_json(agon, "tournament", "podium")
    assert podium["tournament"] == "ludo"
    assert [p["player"] for p in podium["final"]] == seats  # 80, 75, 70, … VP
    assert [p["medal"] for p in podium["final"][:3]] == ["gold", "silver", "bronze"]
    assert [p["place"] for p in podium["final"]] == list(range(1, len(seats) + 1))
    assert [o["rank"] for o in podium["others"]] == list(range(6, 10))
    assert {o["player"] for o in podium["others"]}.isdisjoint(seats)
    entries = as_json(agon, "tournament", "journal")
    assert entries["tournament"] == "ludo"
    actions = [e["action"] for e in entries["entries"]]
    assert actions[0] == "tournament.import" and actions[-2:] == ["result.enter", "result.confirm"]
    assert [e["id"] for e in entries["entries"]] == sorted(e["id"] for e in entries["entries"])
    assert all(e["actor"] == "Marco" and "T" in e["at"] for e in entries["entries"])
    current = as_json(agon, "db", "current")
    assert current["revision"] == current["newest"] and current["up_to_date"] is True
    assert as_json(agon, "db", "verify") == {
        "ok": True,
        "tournaments": [{"slug": "ludo", "ok": True, "chain_ok": True, "chain": []}],
        "games": [],
    }


def test_verify_json_and_its_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    schedule = runner.invoke(cli, ["schedule", "--players", "13", "--rounds", "2", "--seed",
                                   "sekret", "--json"])  # fmt: skip
    path = tmp_path / "schedule.json"
    path.write_text(schedule.stdout, encoding="utf-8")
    ok = runner.invoke(cli, ["verify", str(path), "--seed", "sekret", "--json"])
    assert ok.exit_code == 0, ok.stderr
    doc = json.loads(ok.stdout)
    assert doc["ok"] is True and doc["kind"] == "schedule" and doc["problems"] == []
    assert doc["commitment"] == commitment("sekret") and doc["commitment_ok"] is None
    assert doc["summary"].startswith("2 round(s) of draws and seatings match the seed")
    wrong = runner.invoke(cli, ["verify", str(path), "--seed", "other", "--json",
                                "--commitment", commitment("sekret")])  # fmt: skip
    assert wrong.exit_code == EXIT_MISMATCH
    doc = json.loads(wrong.stdout)
    assert doc["ok"] is False and doc["commitment_ok"] is False and doc["summary"] is None
    assert "the file's commitment is not the SHA-256 of this seed" in doc["problems"]
    assert any(p.startswith("round 1: wonders differ") for p in doc["problems"])


def test_ocw_check_and_secret_path_json(tmp_path: Path) -> None:
    import agon.games.one_card_wonder as ocw
    from agon.games.one_card_wonder.content import load_content

    runner = CliRunner()
    content = Path(ocw.__file__).parent / "data"  # the content agon ships
    default = load_content()
    done = runner.invoke(cli, ["ocw", "check", str(content), "--json"])
    assert done.exit_code == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["ok"] is True and doc["directory"] == str(content)
    assert doc["wonders"] == [w.id for w in default.wonders] and doc["wonders"]
    assert len(doc["boards"]) == len(default.boards) and len(doc["leaders"]) == len(default.leaders)
    database = f"sqlite:///{tmp_path}/agon.db"
    shown = runner.invoke(cli, ["secret", "path", "--database", database, "--json"],
                          env={"AGON_SECRET_KEY": "", "AGON_SECRET_FILE": ""})  # fmt: skip
    assert shown.exit_code == 0, shown.stderr
    doc = json.loads(shown.stdout)
    assert doc == {"path": str(tmp_path / "agon.key"), "exists": False, "from_environment": False}


def _read_commands() -> list[tuple[str, ...]]:
    """Every command of the tree that reads and changes nothing, found by walking it."""
    writes = {
        ("db", "upgrade"), ("db", "rebuild"), ("secret", "rotate"), ("serve",), ("import",),
        ("export",), ("tournament", "create"), ("tournament", "edit"), ("tournament", "use"),
        ("db", "backup"), ("db", "restore"), ("desk", "link"),  # a link: it writes one
        ("tournament", "undo"), ("play", "export"),  # the exports write JSON files already
        ("user", "create"), ("user", "grant"), ("user", "revoke"), ("user", "reset-link"),
        ("org", "create"), ("org", "attach"),  # people and organisations (docs/accounts.md)
        ("venue", "wifi"), ("venue", "clear"),  # local settings, not journaled (docs/director-guide.md)
        ("sync", "token", "create"), ("sync", "token", "revoke"),  # the hosted side's tokens
        ("sync", "push"), ("sync", "watch"),  # they write to the hosted agon
    }  # fmt: skip
    out = []

    def walk(cmd: click.Command, path: tuple[str, ...], ctx: click.Context) -> None:
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                assert sub is not None
                walk(sub, (*path, name), click.Context(sub, parent=ctx, info_name=name))
            return
        changes = {"actor", "dry_run"} & {p.name for p in cmd.params}
        interactive = path[-1] == "play"
        printing = path[0] == "print"  # writes PDF files
        if not (changes or interactive or printing or path in writes):
            out.append(path)

    walk(cli, (), click.Context(cli, info_name="agon"))
    return out


def test_every_read_command_has_json() -> None:
    reads = _read_commands()
    named = {("validate",), ("verify",), ("player", "list"), ("tournament", "show"),
             ("tournament", "list"), ("tournament", "podium"), ("round", "show"),
             ("result", "show"), ("db", "current")}  # fmt: skip
    assert named <= set(reads)
    missing = []
    ctx = click.Context(cli, info_name="agon")
    for path in reads:
        cmd: click.Command = cli
        for name in path:
            assert isinstance(cmd, click.Group)
            found = cmd.get_command(ctx, name)
            assert found is not None
            cmd = found
        if not any(isinstance(p, click.Option) and "--json" in p.opts for p in cmd.params):
            missing.append(" ".join(path))
    assert missing == []


# ------------------------------------------------------------------------------ exit codes


def test_exit_codes_bad_input_conflict_and_mismatch(agon: Agon, tmp_path: Path) -> None:
    _finished_ludolimpico(agon)
    version = as_json(agon, "round", "show", "4")["tables"][0]["version"]
    stale = agon.fails("result", "correct", "-r", "4", "--table", "1",
                       "--expect-version", str(version - 1), "Carlo=1", code=EXIT_CONFLICT)  # fmt: skip
    assert f"the result changed meanwhile (you saw version {version - 1}" in stale
    assert "the result changed meanwhile" in agon.fails("result", "confirm", "-r", "4", "--table", "1",
                                   "--expect-version", str(version + 5), code=EXIT_CONFLICT)  # fmt: skip
    assert "exists already" in agon.fails("import", str(LUDO), "--slug", "ludo", code=3)
    assert "no tournament 'nope'" in agon.fails("player", "list", "-t", "nope", code=2)
    assert "--round" in agon.fails("result", "show", "-r", "x", code=EXIT_BAD_INPUT)
    # a state that differs from its journal: exit 1, the JSON says which
    from sqlalchemy import create_engine, text

    engine = create_engine(os.environ["AGON_DATABASE_URL"])
    with engine.begin() as conn:
        conn.execute(text("UPDATE players SET fee_paid = NOT fee_paid"))
    engine.dispose()
    agon.capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        agon("db", "verify", "--json")
    assert exit_info.value.code == EXIT_MISMATCH
    captured = agon.capsys.readouterr()
    assert json.loads(captured.out) == {
        "ok": False,
        "tournaments": [{"slug": "ludo", "ok": False, "chain_ok": True, "chain": []}],
        "games": [],
    }
    assert captured.err.startswith("agon: error: state differs from the journal for: ludo")


def test_a_prompt_at_the_end_of_the_input_is_bad_input() -> None:
    result = CliRunner().invoke(cli, ["7w", "play", "--players", "3"], input="")
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stderr.endswith("agon: error: the input ended while a question was waiting "
                                  "for an answer\n")  # fmt: skip


# ------------------------------------------------------------------------------ option names


def _all_commands() -> list[tuple[str, click.Command]]:
    out = []

    def walk(cmd: click.Command, path: str, ctx: click.Context) -> None:
        out.append((path, cmd))
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                assert sub is not None
                walk(sub, f"{path} {name}", click.Context(sub, parent=ctx, info_name=name))

    walk(cli, "agon", click.Context(cli, info_name="agon"))
    return out


def test_no_two_options_differ_by_case_alone() -> None:
    clashes = []
    for path, cmd in _all_commands():
        seen: dict[str, str] = {}
        for p in cmd.params:
            for opt in [*getattr(p, "opts", []), *getattr(p, "secondary_opts", [])]:
                if not opt.startswith("-"):
                    continue
                key = opt.lower()
                if key in seen and seen[key] != opt:
                    clashes.append(f"{path}: {seen[key]} / {opt}")
                seen[key] = opt
    assert clashes == []


def test_corrections_name_the_version_with_expect_version() -> None:
    commands = dict(_all_commands())
    for name in ("agon result correct", "agon result confirm"):
        opts = {o for p in commands[name].params for o in getattr(p, "opts", [])}
        assert "--expect-version" in opts and "--version" not in opts
    assert not any(
        "--version" in getattr(p, "opts", [])
        for path, cmd in _all_commands()
        if path != "agon"
        for p in cmd.params
    )


# ------------------------------------------------------------------------------ --bots


@pytest.mark.parametrize("game", ["7w", "ocw"])
def test_bots_are_read_alike_by_both_games(game: str) -> None:
    runner = CliRunner()

    def sim(*args: str) -> Any:
        return runner.invoke(cli, [game, "simulate", "--games", "2", "--engine", "python",
                                   "--players", "4", *args])  # fmt: skip

    unknown = sim("--bots", "random,rondam")
    assert unknown.exit_code == EXIT_BAD_INPUT
    assert unknown.stderr.startswith("agon: error: --bots: unknown bot 'rondam' (known: random, ")
    assert "heuristic" in unknown.stderr
    counted = sim("--bots", "random,heuristic,random")
    assert counted.exit_code == EXIT_BAD_INPUT
    assert counted.stderr == (
        "agon: error: --bots: 3 bots for 4 seats (give 1, 4, or a count that divides 4)\n"
    )
    for spec in ("heuristic", "random,heuristic", "random,heuristic,random,heuristic"):
        done = sim("--bots", spec, "--json")
        assert done.exit_code == 0, (spec, done.stderr)
    repeated = json.loads(sim("--bots", "random,heuristic", "--json").stdout)
    spelled = json.loads(sim("--bots", "random,heuristic,random,heuristic", "--json").stdout)
    repeated.pop("seconds", None), spelled.pop("seconds", None)
    repeated.pop("games_per_second", None), spelled.pop("games_per_second", None)
    assert repeated == spelled  # a list that repeats is the list spelled out


@pytest.mark.parametrize("game", ["7w", "ocw"])
def test_bots_rotate_seats_game_by_game_in_both_games(game: str) -> None:
    """One meaning of ``--bots`` in both ``simulate`` commands (docs/cli.md): game k seats
    ``bots[(p + k) % players]`` at seat p, so over ``players`` games every bot plays every seat
    (7 Wonders kept its bots in their seats before issue 13)."""
    done = CliRunner().invoke(cli, [game, "simulate", "--games", "3", "--engine", "python",
                                    "--players", "3", "--bots", "heuristic,random,random",
                                    "--json"])  # fmt: skip
    assert done.exit_code == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["rotate"] is True
    assert doc["seat_bots"] == [{"heuristic": 1, "random": 2}] * 3


def test_seven_wonders_seat_figures_are_those_of_the_rotated_games() -> None:
    """The 7 Wonders seat figures come from rotated games: game k of a run with seed s is the
    single game with seed s + k and the bots list turned by k."""
    bots = ["heuristic", "random", "random"]

    def run(games: int, seed: int, order: list[str]) -> Any:
        done = CliRunner().invoke(cli, ["7w", "simulate", "--games", str(games), "--seed",
                                        str(seed), "--engine", "python", "--players", "3",
                                        "--bots", ",".join(order), "--json"])  # fmt: skip
        assert done.exit_code == 0, done.stderr
        return json.loads(done.stdout)

    together = run(3, 5, bots)
    single = [run(1, 5 + k, bots[k:] + bots[:k]) for k in range(3)]
    for p in range(3):
        total = sum(s["seats"][p]["mean_score"] for s in single)
        assert together["seats"][p]["mean_score"] == pytest.approx(total / 3, abs=0.01)
    assert together["bots"]["heuristic"]["seats_played"] == 3
