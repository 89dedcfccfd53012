"""The director's command line, end to end as docs/director-guide.md tells it: a Ludolimpico event
(Swiss rounds, auction, final, podium) and the error contract (one line, exit code 2, no change)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from agon.cli import main
from agon.store.migrate import package_head
from agon.tournament.auction import Auction
from agon.tournament.event import load_event
from agon.tournament.standings import compute_standings


class Agon:
    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys

    def __call__(self, *args: str) -> str:
        self.capsys.readouterr()
        main(list(args))
        return self.capsys.readouterr().out

    def fails(self, *args: str, code: int = 2) -> str:
        """The one error line of ``agon ARGS``, which must exit with ``code`` (2 bad input,
        3 a conflict: docs/cli.md)."""
        self.capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            main(list(args))
        assert exit_info.value.code == code
        err = self.capsys.readouterr().err
        assert err.startswith("agon: error: ") and err.count("\n") == 1
        return err


@pytest.fixture
def agon(db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Agon:
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)
    monkeypatch.setenv("AGON_ACTOR", "Marco")
    monkeypatch.delenv("AGON_TOURNAMENT", raising=False)
    return Agon(capsys)


def _tables(shown: str) -> list[list[str]]:
    return [
        line.split(": ", 1)[1].split(", ")
        for line in shown.splitlines()
        if line.strip().startswith("table ")
    ]


def test_a_ludolimpico_event_from_registration_to_podium(agon: Agon, tmp_path: Path) -> None:
    out = agon(
        "tournament",
        "create",
        "ludo-2015",
        "--name",
        "Ludolimpico 2015",
        "--ruleset",
        "ludolimpico-2015",
        "--seed",
        "ludo-seed",
        "--starts-at",
        "2015-05-16T15:00+02:00",
    )
    assert "check-in, fee due until 2015-05-16 12:45 UTC" in out
    csv_file = tmp_path / "players.csv"
    csv_file.write_text(
        "name,tag,club\n" + "".join(f"Giocatore {i},,Club {i % 3}\n" for i in range(1, 10)),
        encoding="utf-8",
    )
    assert "registered 9 players" in agon("player", "import", str(csv_file))
    names = [f"Giocatore {i}" for i in range(1, 10)]
    for name in names:
        agon("player", "fee", name)
    err = agon.fails("player", "checkin", *names[:2])  # the deadline has long passed
    assert "check in as a late entry (--late)" in err
    err = agon.fails("player", "checkin", "--late", names[0], "Nessuno")
    assert "no player 'Nessuno'" in err
    assert "not checked in" in agon("player", "list").splitlines()[0]  # all or none
    agon("player", "checkin", "--late", *names)
    rng = random.Random(2015)
    for number in (1, 2, 3):
        shown = agon("round", "start")
        tables = _tables(shown)
        assert sorted(n for t in tables for n in t) == sorted(names)
        wonders = shown.split("wonders: ")[1].splitlines()[0].split(", ")
        for t, seats in enumerate(tables, start=1):
            auction = Auction(seats, wonders, seed="ludo-seed", label=f"round {number} table {t}")
            opener = shown.split(f"table {t} [")[1].split("auction: ")[1].splitlines()[0]
            assert opener == f"{auction.first_opener} opens first (drawn from the seed)"
            while not auction.finished:
                auction.apply(auction.legal_actions()[rng.randrange(2)])
            agon(
                "round",
                "auction",
                "-r",
                str(number),
                "--table",
                str(t),
                *(str(a) for a in auction.history),
            )
            entries = [f"{n}={rng.randint(30, 70)},coins={rng.randint(0, 9)}" for n in seats]
            assert "pending" in agon(
                "result", "enter", "-r", str(number), "--table", str(t), *entries
            )
            out = agon(
                "result", "confirm", "-r", str(number), "--table", str(t), "--player", seats[0]
            )
            assert "waiting for" in out
            agon("result", "confirm", "-r", str(number), "--table", str(t))
        assert f"round {number} closed" in agon("round", "close")
    standings = agon("tournament", "standings")
    assert "standings after 3 of 3 round(s); the final is not counted" in standings
    export = tmp_path / "ludo.json"
    agon("export", "-o", str(export))
    event, ruleset = load_event(export)
    from_file = compute_standings(event, ruleset)
    shown = json.loads(agon("tournament", "standings", "--json"))
    assert [r["player"] for r in shown["standings"]] == [r.player for r in from_file.rows]
    csv_out = agon("export", "--csv")
    assert csv_out.splitlines()[0] == "rank,player,tag,points,pp,games"
    assert len(csv_out.splitlines()) == 10
    absent = from_file.rows[0].player
    final = agon("round", "final", "--absent", absent)
    assert absent not in _tables(final)[0] and from_file.rows[5].player in _tables(final)[0]
    seats = _tables(final)[0]
    wonders = final.split("wonders: ")[1].splitlines()[0].split(", ")
    auction = Auction(seats, wonders, seed="ludo-seed", label="round 4 table 1")
    while not auction.finished:
        auction.apply(auction.legal_actions()[0])
    agon("round", "auction", "-r", "4", "--table", "1", *(str(a) for a in auction.history))
    agon(
        "result",
        "enter",
        "-r",
        "4",
        "--table",
        "1",
        *(f"{n}={80 - 5 * i}" for i, n in enumerate(seats)),
    )
    agon("result", "confirm", "-r", "4", "--table", "1")
    podium = agon("tournament", "podium").splitlines()
    assert podium[0].endswith("gold") and podium[1].endswith("silver")
    assert podium[2].endswith("bronze") and len(podium) == 9
    # Ludolimpico places the final by VP minus the bid: the podium shows the net VP it went by
    assert all(" net VP (" in line and " bid)" in line for line in podium[:5])
    assert "finished" not in agon("tournament", "standings")
    agon("round", "close", "4")
    standings = agon("tournament", "standings")
    assert "; finished" in standings.splitlines()[0]
    gold = podium[0].split("  ")[0].split(". ", 1)[1]
    assert f"finished: winner {gold}\n" in standings
    assert "qualified for the final: " + ", ".join(seats) in standings
    assert "verify" not in agon("db", "verify") and ": ok" in agon("db", "verify")


def test_errors_are_one_line_and_change_nothing(agon: Agon) -> None:
    agon("tournament", "create", "bonn", "--name", "Bonn", "--ruleset", "bonn-2018")
    for i in range(12):
        agon("player", "add", f"P{i}")
    agon("player", "checkin", *(f"P{i}" for i in range(12)))
    agon(
        "round",
        "start",
        "--table",
        "P0,P1,P2,P3",
        "--table",
        "P4,P5,P6,P7",
        "--table",
        "P8,P9,P10,P11",
    )
    journal = agon("tournament", "journal")
    assert "vp must be an integer" in agon.fails(
        "result", "enter", "-r", "1", "--table", "1", "P0=x"
    )
    assert "categories add up to 3, but vp is 40" in agon.fails(
        "result",
        "enter",
        "-r",
        "1",
        "--table",
        "1",
        "P0=40,mil=3",
        "P1=1,coins=1",
        "P2=2,coins=1",
        "P3=3,coins=1",
    )
    assert "cannot close: table 1 (open)" in agon.fails("round", "close")
    assert "no tournament 'nope'" in agon.fails("player", "list", "-t", "nope")
    assert "registered already" in agon.fails("player", "add", "P1", code=3)
    assert agon("tournament", "journal") == journal
    agon(
        "result",
        "enter",
        "-r",
        "1",
        "--table",
        "1",
        "P0=40,coins=1",
        "P1=30,coins=1",
        "P2=20,coins=1",
        "P3=10,coins=1",
    )
    assert "a correction names the version it corrects (" in agon.fails(
        "result",
        "enter",
        "-r",
        "1",
        "--table",
        "1",
        "P0=41,coins=1",
        "P1=30,coins=1",
        "P2=20,coins=1",
        "P3=10,coins=1",
        code=3,
    )
    out = agon("tournament", "undo")
    assert "(result.enter)" in out
    assert "[open, version 0]" in agon("round", "show", "1")
    assert "rebuilt from" in agon("db", "rebuild")
    head = package_head()
    assert f"database {head}, newest {head}" in agon("db", "current")


def test_a_bonn_event_as_the_guide_runs_it(agon: Agon, tmp_path: Path) -> None:
    agon(
        "tournament",
        "create",
        "bonn-2018",
        "--name",
        "BONN-SPIELT 2018",
        "--ruleset",
        "bonn-2018",
        "--starts-at",
        "2018-03-18T11:00+01:00",
        "--date",
        "2018-03-18",
        "--location",
        "Bonn",
        "--director",
        "Marco",
    )
    csv_file = tmp_path / "anmeldungen.csv"
    csv_file.write_text(
        "name,tag,club\n"
        + "".join(f"Spieler {i},,Club\n" for i in range(1, 12))
        + "Jan Müller,Köln,\nJan Müller,Bonn,\n",
        encoding="utf-8",
    )
    agon("player", "import", str(csv_file))
    assert "share the name 'Jan Müller'" in agon.fails("player", "add", "Jan Müller", code=3)
    names = [f"Spieler {i}" for i in range(1, 12)] + ["Jan Müller (Köln)", "Jan Müller (Bonn)"]
    agon("player", "checkin", "--late", *names)  # 2018 is long past: late entries, all seated
    rng = random.Random(18)
    for number in (1, 2, 3, 4):
        shown = agon("round", "start")
        assert "seated by the pre-planned schedule (planned in round 1)" in shown
        tables = _tables(shown)
        assert [len(t) for t in tables] == [5, 4, 4]
        for t, seats in enumerate(tables, start=1):
            cats = [[rng.randint(0, 9) for _ in range(7)] for _ in seats]
            entries = [
                f"{n}={sum(c)},coins={rng.randint(0, 8)},mil={c[0]},tre={c[1]},won={c[2]},"
                f"civ={c[3]},com={c[4]},gui={c[5]},sci={c[6]}"
                for n, c in zip(seats, cats, strict=True)
            ]
            agon("result", "enter", "-r", str(number), "--table", str(t), *entries)
            agon("result", "confirm", "-r", str(number), "--table", str(t))
        agon("round", "close")
    export = tmp_path / "bonn-2018.json"
    agon("export", "-o", str(export))
    from_file = agon("standings", str(export)).splitlines()
    live = agon("tournament", "standings").splitlines()
    assert from_file[1:] == live[1 : len(from_file)]
    assert "standings after 4 of 4 round(s); finished" in live[0]
    winner = json.loads(agon("tournament", "standings", "--json"))["standings"][0]["player"]
    assert live[len(from_file)] == f"finished: winner {winner}"
    assert [line.split()[0] for line in live[len(from_file) + 1 :]] == ["1.", "2.", "3."]
    assert "has no final" in agon.fails("round", "final")
    # Bonn has no final: its podium is the top three of the standings after the last round
    rows = json.loads(agon("tournament", "standings", "--json"))["standings"]
    podium = agon("tournament", "podium").splitlines()
    top = [r for r in rows if r["rank"] <= 3]
    medals = {1: "gold", 2: "silver", 3: "bronze"}
    for line, row in zip(podium, top, strict=False):
        tied = sum(o["rank"] == row["rank"] for o in rows)
        assert line.startswith(f"{row['rank']}. {row['player']}  ")
        assert line.endswith(medals[row["rank"]])
        assert (f"(shared by {tied})" in line) == (tied > 1)
    assert [line.split(". ", 1)[1].split("  ")[0] for line in podium] == [r["player"] for r in rows]
    shown = json.loads(agon("tournament", "podium", "--json"))
    assert [p["player"] for p in shown["final"]] == [r["player"] for r in top]
    assert shown["others"][0]["rank"] == rows[len(top)]["rank"]


def test_the_podium_of_an_unfinished_event_without_a_final(agon: Agon) -> None:
    agon("tournament", "create", "b", "--name", "B", "--ruleset", "bonn-2018")
    assert "not finished (0 of 4 round(s) closed)" in agon.fails("tournament", "podium")
