"""The director's tools of issue 11 at the command line: required result fields, validated result
keys, plausibility warnings, tournament edit, player rename and tag, check-in of many, dry runs,
the finished tournament and the standings caption."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.commands.test_director_cli import Agon, agon

from agon.tournament.draws import WONDERS

__all__ = ["agon"]


def _bonn(agon: Agon, players: int = 12) -> list[str]:
    agon("tournament", "create", "bonn", "--name", "Bonn", "--ruleset", "bonn-2018", "--seed", "s")
    names = [f"P{i}" for i in range(players)]
    for name in names:
        agon("player", "add", name)
    agon("player", "checkin", *names)
    return names


def _hand_seated(agon: Agon) -> None:
    agon(
        "round", "start", "--table", "P0,P1,P2,P3", "--table", "P4,P5,P6,P7",
        "--table", "P8,P9,P10,P11",
    )  # fmt: skip


def test_bonn_refuses_a_sheet_without_coins(agon: Agon) -> None:
    _bonn(agon)
    _hand_seated(agon)
    err = agon.fails(
        "result", "enter", "-r", "1", "--table", "1",
        "P0=40,coins=2", "P1=30,coins=1", "P2=20", "P3=10,coins=0",
    )  # fmt: skip
    assert "player 'P2': no coins given; ruleset 'bonn-2018' requires vp, coins" in err
    assert "[open, version 0]" in agon("round", "show")
    out = agon(
        "result", "enter", "-r", "1", "--table", "1",
        "P0=40,coins=2", "P1=30,coins=1", "P2=20,coins=0", "P3=10,coins=0",
    )  # fmt: skip
    assert "pending" in out


def test_ludolimpico_needs_no_coins(agon: Agon) -> None:
    agon("tournament", "create", "l", "--name", "L", "--ruleset", "ludolimpico-2015")
    names = [f"L{i}" for i in range(8)]
    for name in names:
        agon("player", "add", name, "--paid")
    agon("player", "checkin", *names)
    agon("round", "start", "--table", "L0,L1,L2,L3", "--table", "L4,L5,L6,L7")
    out = agon("result", "enter", "-r", "1", "--table", "1", "L0=40", "L1=35", "L2=32", "L3=31")
    assert "pending" in out
    assert "L0: 40 VP, 0 coins" in agon("round", "show")


def test_result_keys_and_values_are_validated(agon: Agon) -> None:
    _bonn(agon)
    _hand_seated(agon)
    enter = ("result", "enter", "-r", "1", "--table", "1")
    rest = ("P1=30,coins=1", "P2=20,coins=0", "P3=10,coins=0")
    assert "wonder 'Atlantis' is not a wonder of the game" in agon.fails(
        *enter, "P0=40,coins=2,wonder=Atlantis", *rest
    )
    assert "'coins' is given twice" in agon.fails(*enter, "P0=40,coins=2,coins=3", *rest)
    assert "unknown field 'mili'" in agon.fails(*enter, "P0=40,coins=2,mili=3", *rest)
    assert "side must be A or B" in agon.fails(*enter, "P0=40,coins=2,side=C", *rest)
    # wonder=40 is the score pad's wonder points, never a wonder called "40"
    assert "categories add up to 40, but vp is 41" in agon.fails(
        *enter, "P0=41,coins=2,wonder=40", *rest
    )
    agon(*enter, "P0=40,coins=2,wonder=40", *rest)
    shown = agon("round", "show")
    assert "P0: 40 VP, 2 coins" in shown and " 40 " not in shown.split("P0: 40 VP")[1][:20]
    help_text = agon("result", "enter", "--help")
    assert all(w in help_text for w in WONDERS) and "coins=N" in help_text


def test_a_typo_is_warned_about_but_stored(agon: Agon, capsys: pytest.CaptureFixture[str]) -> None:
    _bonn(agon)
    _hand_seated(agon)
    capsys.readouterr()
    from agon.cli import main

    main(["result", "enter", "-r", "1", "--table", "1",
          "P0=500,coins=2", "P1=48,coins=1", "P2=51,coins=0", "P3=45,coins=0"])  # fmt: skip
    captured = capsys.readouterr()
    assert "pending" in captured.out
    assert "warning: round 1, table 1: P0: 500 VP is 10× the table's median" in captured.err
    main(["result", "enter", "-r", "1", "--table", "2",
          "P4=52,coins=2", "P5=48,coins=1", "P6=51,coins=0", "P7=45,coins=0"])  # fmt: skip
    assert capsys.readouterr().err == ""


def test_import_refuses_a_bonn_event_without_coins(agon: Agon, tmp_path: Path) -> None:
    data = json.loads(Path("examples/bonn-2018-sample.json").read_text(encoding="utf-8"))
    del data["rounds"][1]["tables"][0]["results"][2]["coins"]
    event = tmp_path / "no-coins.json"
    event.write_text(json.dumps(data), encoding="utf-8")
    err = agon.fails("import", str(event), "--slug", "x")
    assert "round 2, table 1, player" in err and "no coins given" in err


def test_a_ruleset_names_only_known_result_fields() -> None:
    from agon.errors import InvalidInput
    from agon.tournament.ruleset import load_ruleset, parse_ruleset

    assert load_ruleset("bonn-2018").required_fields == ("vp", "coins")
    assert load_ruleset("ludolimpico-2015").required_fields == ("vp",)
    text = Path("src/agon/tournament/rulesets/bonn-2018.toml").read_text(encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"results\.required.*unknown entry 'cions'"):
        parse_ruleset(text.replace('required = ["vp", "coins"]', 'required = ["cions"]'))


def test_a_tournament_is_edited_after_creation_and_undo_restores_it(agon: Agon) -> None:
    agon("tournament", "create", "l", "--name", "Ludo", "--ruleset", "ludolimpico-2015",
         "--starts-at", "2015-05-16T15:00+02:00")  # fmt: skip
    agon("player", "add", "Anna", "--paid")
    assert "has passed" in agon.fails("player", "checkin", "Anna")
    out = agon(
        "tournament", "edit", "--name", "Ludolimpico", "--starts-at", "2999-05-16T15:00+02:00",
        "--checkin-deadline", "2999-05-16T14:30+02:00", "--max-players", "18",
        "--round-minutes", "40",
    )  # fmt: skip
    assert "edited l: Ludolimpico" in out and "8–18 players (overridden)" in out
    assert "check-in, fee due until 2999-05-16 12:30 UTC" in out
    assert "rounds of 40 minutes" in out
    assert "[paid; checked in]" in agon("player", "checkin", "Anna")
    assert "nothing to change" in agon.fails("tournament", "edit")
    assert "do not make a range" in agon.fails("tournament", "edit", "--min-players", "19")
    for huge in ("1001", str(2**63)):  # as at creation: at most 1,000 (found by the CLI fuzzer)
        assert "max players" in agon.fails("tournament", "edit", "--max-players", huge)
    assert "round minutes must be 1 to 600" in agon.fails(
        "tournament", "edit", "--round-minutes", "0"
    )
    assert "tournament.edit" in agon("tournament", "journal").splitlines()[-2]
    agon("tournament", "undo")  # the check-in
    agon("tournament", "undo")  # the edit
    shown = agon("tournament", "show")
    assert "l: Ludo\n" in shown and "rounds of 30 minutes" in shown
    assert "2015-05-16 12:45 UTC" in shown


def test_two_jan_muellers_never_dead_end(agon: Agon) -> None:
    names = _bonn(agon, 11)
    agon("player", "add", "Jan Müller")
    agon("player", "checkin", "Jan Müller")
    agon("round", "start")
    assert "share the name 'Jan Müller'" in agon.fails(
        "player", "add", "Jan Müller", "--tag", "Bonn", code=3
    )
    out = agon("player", "tag", "Jan Müller", "Köln")
    assert out.startswith("Jan Müller is now Jan Müller (Köln)  [")
    agon("player", "add", "Jan Müller", "--tag", "Bonn")
    shown = agon("round", "show")
    assert "Jan Müller (Köln)" in shown and "Jan Müller," not in shown
    agon("player", "rename", "P0", "Petra")
    seats = [s for line in shown.splitlines() if line.strip().startswith("table ")
             for s in line.split(": ", 1)[1].split(", ")]  # fmt: skip
    assert sorted(seats) == sorted([*names, "Jan Müller (Köln)"])
    shown = agon("round", "show")
    assert "Petra" in shown and "P0," not in shown and "P0\n" not in shown
    assert "is registered already" in agon.fails("player", "rename", "Petra", "P1", code=3)
    assert ": ok" in agon("db", "verify")  # the journal's replay gives the same state


def test_fees_and_check_in_for_many_at_once(agon: Agon) -> None:
    agon("tournament", "create", "l", "--name", "L", "--ruleset", "ludolimpico-2015")
    for i in range(6):
        agon("player", "add", f"L{i}")
    assert "no player 'Nobody'" in agon.fails("player", "fee", "L0", "Nobody")
    assert agon("player", "list").count("unpaid") == 6  # all or none
    assert agon("player", "fee", "L0", "L1", "L2", "L3").count("[paid;") == 4
    assert "not both" in agon.fails("player", "checkin", "L0", "--all")
    out = agon("player", "checkin", "--all")  # the unpaid are left for the desk
    assert out.count("checked in]") == 4 and "L4" not in out
    assert "nobody left to check in" in agon.fails("player", "checkin", "--all")


def test_dry_runs_show_what_would_change_and_change_nothing(agon: Agon) -> None:
    _bonn(agon)
    journal = agon("tournament", "journal")
    preview = agon("round", "start", "--dry-run")
    assert "round 1 (open)" in preview and "table 1 [open, version 0]" in preview
    assert "would record: round.start" in preview and "nothing was changed" in preview
    assert agon("tournament", "journal") == journal
    assert "no round has been started" in agon.fails("round", "show")
    started = agon("round", "start")
    assert preview.split("would record")[0] == started  # the same seating, for real
    assert "cannot close: table 1 (open)" in agon.fails("round", "close", "--dry-run")
    journal = agon("tournament", "journal")
    out = agon("player", "drop", "P3", "--kind", "expel", "--reason", "2.5", "--dry-run")
    assert "would be: P3  [unpaid; checked in; expelled after round 1]" in out
    assert "expelled" not in agon("player", "list")
    out = agon("tournament", "undo", "--dry-run")
    assert out.startswith("would undo entry") and "(round.start)" in out
    assert agon("tournament", "journal") == journal
    assert "round 1 (open)" in agon("round", "show")
    assert ": ok" in agon("db", "verify")


def test_round_start_names_seat_wonder_and_the_guilds_of_each_table(agon: Agon) -> None:
    from agon.tournament.draws import guilds_for_table

    _bonn(agon, 13)
    shown = agon("round", "start")
    wonders = shown.split("wonders: ")[1].splitlines()[0].split(", ")
    blocks = shown.split("\n  table ")[1:]
    assert [len(b.split(": ", 1)[1].splitlines()[0].split(", ")) for b in blocks] == [5, 4, 4]
    for block in blocks:
        seats = block.split(": ", 1)[1].splitlines()[0].split(", ")
        lines = block.splitlines()[1:]
        assert lines[0] == f"    seat 1 (starts) {seats[0]}: {wonders[0]}"
        assert (
            lines[len(seats) - 1] == f"    seat {len(seats)} {seats[-1]}: {wonders[len(seats) - 1]}"
        )
        guilds = lines[len(seats)].removeprefix("    guilds: ").split(", ")
        assert len(guilds) == len(seats) + 2
    assert "\n  guilds: " not in shown  # no round-wide list: each table shows its own
    assert guilds_for_table(("a", "b", "c", "d", "e", "f", "g"), 4) == (
        "a",
        "b",
        "c",
        "d",
        "e",
        "f",
    )


def test_the_caption_counts_closed_rounds_and_names_the_one_in_progress(agon: Agon) -> None:
    _bonn(agon)
    _hand_seated(agon)
    caption = agon("tournament", "standings").splitlines()[0]
    assert (
        caption
        == "Bonn — standings after 0 of 4 round(s); round 1 in progress (its entered results count)"
    )
    for t, seats in enumerate(("P0 P1 P2 P3", "P4 P5 P6 P7", "P8 P9 P10 P11"), start=1):
        agon("result", "enter", "-r", "1", "--table", str(t),
             *(f"{n}={40 + i},coins={i}" for i, n in enumerate(seats.split())))  # fmt: skip
        agon("result", "confirm", "-r", "1", "--table", str(t))
    agon("round", "close")
    assert agon("tournament", "standings").splitlines()[0] == (
        "Bonn — standings after 1 of 4 round(s)"
    )
    assert "rounds closed: 1 of 4 round(s)" in agon("tournament", "show")


def test_a_player_who_left_mid_game_is_recorded_without_a_score(agon: Agon, tmp_path: Path) -> None:
    """Ludolimpico 2.5: `NAME=left` records the game left during play; the standings explain it
    and the export/import round trip keeps it."""
    agon("tournament", "create", "l", "--name", "L", "--ruleset", "ludolimpico-2015")
    names = [f"L{i}" for i in range(8)]
    for name in names:
        agon("player", "add", name, "--paid")
    agon("player", "checkin", *names)
    agon("round", "start", "--table", "L0,L1,L2,L3", "--table", "L4,L5,L6,L7")
    err = agon.fails("result", "enter", "-r", "1", "--table", "1", "L0=left,coins=3", "L1=3")
    assert "a player who left during the game (Ludolimpico 2.5) has no score" in err
    out = agon("result", "enter", "-r", "1", "--table", "1", "L0=left", "L1=35", "L2=32", "L3=31")
    assert "pending" in out
    assert "L0: left during the game (no score)" in agon("round", "show")
    agon("result", "enter", "-r", "1", "--table", "2", "L4=40", "L5=35", "L6=32", "L7=31")
    standings = agon("tournament", "standings")
    assert (
        "L0: left during round 1 (table 1): no score for that game, the table was scored "
        "without them (Ludolimpico 2015, 2.5 «Ritiro / Espulsione»)"
    ) in standings
    assert "left during round 1" in agon("tournament", "standings", "--explain", "L0", "L1")
    agon("result", "confirm", "-r", "1", "--table", "1")
    agon("result", "confirm", "-r", "1", "--table", "2")
    agon("round", "close")
    standings = agon("tournament", "standings")
    path = tmp_path / "l.json"
    agon("export", "-o", str(path))
    agon("import", str(path), "--slug", "copy")
    assert "L0: left during the game (no score)" in agon(
        "round", "show", "1", "--tournament", "copy"
    )
    assert agon("tournament", "standings", "--tournament", "copy") == standings
    assert "left during round 1 (table 1)" in agon("standings", str(path))


def test_round_start_with_nobody_checked_in_names_the_minimum(agon: Agon) -> None:
    """Regression: with nobody checked in, ``round start`` said "cannot seat 0 players" (the
    seating search's words) instead of how many players the round needs."""
    agon("tournament", "create", "bonn", "--name", "Bonn", "--ruleset", "bonn-2018", "--seed", "s")
    for name in ("P0", "P1"):
        agon("player", "add", name)
    err = agon.fails("round", "start")
    assert "no players are checked in; at least 12 are needed" in err, err
    assert "cannot seat" not in err
    assert "no players are checked in" in agon.fails("round", "start", "--dry-run")
    agon("player", "checkin", "P0")  # one is not enough either: the min-players message
    err = agon.fails("round", "start")
    assert "1 players are checked in" in err and "needs at least 12" in err, err


def test_round_start_and_round_show_name_the_auction_opener_alike(agon: Agon) -> None:
    """Regression: ``round start`` said "auction: X opens", ``round show`` "X opens first (drawn
    from the seed)": one wording for both."""
    agon(
        "tournament",
        "create",
        "ludo",
        "--name",
        "L",
        "--ruleset",
        "ludolimpico-2015",
        "--seed",
        "s",
    )
    names = [f"P{i}" for i in range(8)]
    for name in names:
        agon("player", "add", name, "--paid")
    agon("player", "checkin", *names)
    started = agon("round", "start")
    shown = agon("round", "show")

    def openers(out: str) -> list[str]:
        return [line.strip() for line in out.splitlines() if line.strip().startswith("auction: ")]

    assert len(openers(started)) == 2
    assert openers(started) == openers(shown)
    assert all(line.endswith(" opens first (drawn from the seed)") for line in openers(started))
