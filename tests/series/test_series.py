"""Series standings (agon.series, ``agon series``) on hand-computed cases: points per place, best k
of n, tie-breaks with their reasons, qualification, finals, and one-line errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from agon.cli import cli
from agon.errors import InvalidInput
from agon.series import compute_series, event_places, parse_series
from agon.tournament.event import load_event

SERIES = """
name = "Hand series"
seed = "s"
best = 2
qualify = 2
points = [10, 6, 3]
tie_breaks = ["all-points", "best-place", "events", "lot"]

[[events]]
file = "e1.json"

[[events]]
file = "e2.json"

[[events]]
file = "e3.json"
"""


def _write_event(
    folder: Path, name: str, rounds: list[tuple[bool, list[tuple[str, int]]]], ruleset: str
) -> None:
    players = sorted({p for _final, table in rounds for p, _vp in table})
    doc: dict[str, Any] = {
        "name": name,
        "ruleset": ruleset,
        "players": players,
        "rounds": [
            {
                "final": final,
                "tables": [{"results": [{"player": p, "vp": vp, "coins": 0} for p, vp in table]}],
            }
            for final, table in rounds
        ],
    }
    (folder / f"{name}.json").write_text(json.dumps(doc), encoding="utf-8")


@pytest.fixture
def series_file(tmp_path: Path) -> Path:
    # e1: A 1st (10), B 2nd (6), D 3rd (3), C 4th (0)
    _write_event(
        tmp_path, "e1", [(False, [("A", 60), ("B", 50), ("C", 30), ("D", 40)])], "bonn-2018"
    )
    # e2: B 1st (10), C 2nd (6), A 3rd (3); D absent
    _write_event(tmp_path, "e2", [(False, [("A", 40), ("B", 60), ("C", 50)])], "bonn-2018")
    # e3: C 1st (10), D 2nd (6), B 3rd (3), A 4th (0)
    _write_event(
        tmp_path, "e3", [(False, [("A", 30), ("B", 40), ("C", 60), ("D", 50)])], "bonn-2018"
    )
    path = tmp_path / "series.toml"
    path.write_text(SERIES, encoding="utf-8")
    return path


def test_hand_computed_series(series_file: Path) -> None:
    out = CliRunner().invoke(cli, ["series", str(series_file), "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)["standings"]
    # best 2 of 3: B 6+10 (3 not counted) = 16, all 19; C 6+10 (0 not counted) = 16, all 16;
    # A 10+3 = 13; D 3+6 = 9.
    assert [(r["rank"], r["player"], r["points"]) for r in rows] == [
        (1, "B", 16),
        (2, "C", 16),
        (3, "A", 13),
        (4, "D", 9),
    ]
    assert [r["decided_by"] for r in rows] == [None, "all-points", "points", "points"]
    assert [r["qualified"] for r in rows] == [True, True, False, False]
    b = rows[0]
    assert [(e["event"], e["place"], e["points"], e["counted"]) for e in b["events"]] == [
        ("e1", 2, 6, True),
        ("e2", 1, 10, True),
        ("e3", 3, 3, False),
    ]
    assert b["tiebreaks"] == {"all-points": 19, "best-place": 1, "events": 3}
    assert "the points of every event" in rows[1]["reason"]
    text = CliRunner().invoke(cli, ["series", str(series_file)])
    assert text.exit_code == 0 and "not counted" in text.output and "Q: qualified" in text.output


def test_lot_decides_only_full_ties_and_follows_the_seed(tmp_path: Path) -> None:
    _write_event(tmp_path, "e1", [(False, [("A", 50), ("B", 40), ("C", 30)])], "bonn-2018")
    _write_event(tmp_path, "e2", [(False, [("A", 30), ("B", 50), ("C", 40)])], "bonn-2018")
    text = 'name = "x"\nseed = "{seed}"\npoints = [5, 3, 1]\n[[events]]\nfile = "e1.json"\n[[events]]\nfile = "e2.json"\n'
    orders = set()
    for seed in ("a", "b", "c", "d", "e", "f"):
        series = parse_series(text.format(seed=seed))
        events = [load_event(tmp_path / "e1.json"), load_event(tmp_path / "e2.json")]
        rows = compute_series(series, events)
        # A 5+1=6, B 3+5=8, C 1+3=4: points decide everything here
        assert [str(r.player) for r in rows] == ["B", "A", "C"]
    # A and B equal on every criterion but the lot: the seed decides, reproducibly
    _write_event(tmp_path, "e3", [(False, [("A", 50), ("B", 40), ("C", 30)])], "bonn-2018")
    _write_event(tmp_path, "e4", [(False, [("A", 40), ("B", 50), ("C", 30)])], "bonn-2018")
    for seed in ("a", "b", "c", "d", "e", "f", "g", "h"):
        series = parse_series(
            f'name = "x"\nseed = "{seed}"\npoints = [5, 3, 1]\n[[events]]\nfile = "e3.json"\n'
            '[[events]]\nfile = "e4.json"\n'
        )
        events = [load_event(tmp_path / "e3.json"), load_event(tmp_path / "e4.json")]
        rows = compute_series(series, events)
        assert rows[1].decided_by == "lot" and rows[1].points == rows[0].points == 8
        assert compute_series(series, events) == rows
        orders.add(str(rows[0].player))
    assert orders == {"A", "B"}, "the seed must be able to put either first"


def test_final_places_and_shared_points(tmp_path: Path) -> None:
    qualifying = [("P1", 50), ("P2", 49), ("P3", 48), ("P4", 47), ("P5", 46)]
    # the final: P5 wins; P1 and P2 tie for 2nd (same VP, no bid)
    final = [("P1", 40), ("P2", 40), ("P3", 30), ("P4", 20), ("P5", 60)]
    _write_event(tmp_path, "lu", [(False, qualifying), (True, final)], "ludolimpico-2015")
    event, ruleset = load_event(tmp_path / "lu.json")
    assert [(p, place) for p, place, _tied in event_places(event, ruleset)] == [
        ("P5", 1),
        ("P1", 2),
        ("P2", 2),
        ("P3", 4),
        ("P4", 5),
    ]
    series = parse_series('name = "x"\npoints = [10, 7, 5, 3, 1]\n[[events]]\nfile = "lu.json"\n')
    rows = {str(r.player): r.points for r in compute_series(series, [(event, ruleset)])}
    assert rows == {"P5": 10, "P1": 6, "P2": 6, "P3": 3, "P4": 1}
    assert isinstance(rows["P1"], Fraction)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'name = "x"\npoints = [1]\nbogus = 1\n[[events]]\nfile = "a.json"\n',
            "unknown field 'bogus'",
        ),
        (
            'name = "x"\npoints = [1]\n[[events]]\nfile = "a.json"\ntournament = "b"\n',
            "either 'file'",
        ),
        (
            'name = "x"\npoints = [1]\ntie_breaks = ["luck"]\n[[events]]\nfile = "a.json"\n',
            "unknown 'luck'",
        ),
        ('name = "x"\npoints = []\n[[events]]\nfile = "a.json"\n', "field 'points'"),
        ('name = "x"\npoints = [1]\nbest = 0\n[[events]]\nfile = "a.json"\n', "field 'best'"),
        ('name = "x"\npoints = [1]\n', "field 'events'"),
        ("name = ", "malformed TOML"),
    ],
)
def test_bad_series_files(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_series(text)
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    from agon.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["series", str(path)])
    assert exit_info.value.code == 2


def test_missing_event_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.toml"
    path.write_text('name = "x"\npoints = [1]\n[[events]]\nfile = "gone.json"\n', encoding="utf-8")
    from agon.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["series", str(path)])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "gone.json: no such file" in err and err.count("\n") == 1


def test_two_events_with_one_name_are_refused(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    series = parse_series(
        'name = "s"\npoints = [3, 2, 1]\n[[events]]\nfile = "a.json"\n[[events]]\nfile = "a.json"\n'
    )
    event = load_event(examples / "bonn-2018-sample.json")
    with pytest.raises(InvalidInput, match="two events are both called"):
        compute_series(series, [event, event])
