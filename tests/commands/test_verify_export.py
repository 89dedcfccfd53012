"""``agon verify`` on the event file ``agon export`` writes (issue 11): every seating, draw, opener,
re-plan and lot of a finished event re-derives from the export and the revealed seed, and each
tampering is reported in one line naming what differs."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session
from tests.cli_runner import run_agon
from tests.services.svc_helpers import new_tournament, random_results

from agon.commands import verify
from agon.commands.verify import verify_event
from agon.services import exchange, players, results, rounds
from agon.services.schemas import ResultIn
from agon.tournament.auction import Auction
from agon.tournament.event import parse_event
from agon.tournament.ruleset import load_ruleset
from agon.tournament.standings import compute_standings, lot_input


def _finish(
    session: Session,
    slug: str,
    number: int,
    rng: random.Random,
    auction: bool,
    seed: str | None = None,
) -> None:
    rnd = rounds.get_round(session, tournament=slug, number=number)
    for table in rnd.tables:
        entered: list[ResultIn]
        if auction:
            label = f"round {number} table {table.number}"
            a = Auction(table.seats, rnd.wonders, seed=seed or f"seed-{slug}", label=label)
            while not a.finished:
                a.apply(rng.choice(a.legal_actions()[:4]))
            results.record_auction(
                session,
                tournament=slug,
                round_number=number,
                table=table.number,
                actor="d",
                actions=[str(x) for x in a.history],
            )
            entered = [
                ResultIn(n, rng.randint(30, 60), coins=rng.randint(0, 9)) for n in table.seats
            ]
        else:
            entered = random_results(table.seats, rng)
        results.enter_result(
            session,
            tournament=slug,
            round_number=number,
            table=table.number,
            results=entered,
            actor="s",
        )
        results.confirm_result(
            session, tournament=slug, round_number=number, table=table.number, actor="d"
        )
    rounds.close_round(session, tournament=slug, actor="d", number=number)


def bonn_export(session: Session) -> dict[str, Any]:
    """13 players; after round 1 a player who did not start drops (a re-plan from round 2)."""
    names = new_tournament(session, "b", "bonn-2018", 13)
    rng = random.Random(5)
    rounds.start_round(session, tournament="b", actor="d")
    _finish(session, "b", 1, rng, False)
    first = rounds.get_round(session, tournament="b", number=1)
    leaving = first.tables[0].seats[1]
    players.drop_player(session, tournament="b", player=leaving, kind="drop", reason="", actor="d")
    for number in (2, 3, 4):
        rnd = rounds.start_round(session, tournament="b", actor="d")
        assert rnd.info["planned_in_round"] == 2
        _finish(session, "b", number, rng, False)
    assert len(names) == 13
    return exchange.export_event(session, tournament="b")


def ludo_export(session: Session) -> dict[str, Any]:
    """9 players, three Swiss rounds with auctions, the final."""
    new_tournament(session, "l", "ludolimpico-2015", 9)
    rng = random.Random(3)
    for number in (1, 2, 3):
        rounds.start_round(session, tournament="l", actor="d")
        _finish(session, "l", number, rng, True)
    rounds.start_final(session, tournament="l", actor="d")
    _finish(session, "l", 4, rng, True)
    return exchange.export_event(session, tournament="l")


def check(doc: dict[str, Any], seed: str | None = None) -> list[str]:
    problems, _summary = verify_event(doc, seed=seed, ruleset_name=None, base_dir=None)
    return problems


agon = run_agon  # in process (tests/cli_runner.py): the same output and exit codes


class PlannedOnce:
    """``plan_schedule`` as ``agon verify`` calls it, each distinct call planned once: the plan
    depends only on its arguments (the set of names, rounds, seed, ruleset, history: see
    :func:`agon.tournament.seating.plan_schedule`), so a later verify of a tampered copy gets the
    very plan the first verify of the same event re-derived and compared. The first verify still
    plans everything itself, independently of the tournament's own planning."""

    def __init__(self) -> None:
        self.real = verify.plan_schedule
        self.plans: list[tuple[tuple[Any, ...], dict[str, Any], Any]] = []
        self.planned = self.reused = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for known_args, known_kwargs, plan in self.plans:
            if known_args == args and known_kwargs == kwargs:
                self.reused += 1
                return copy.deepcopy(plan)
        plan = self.real(*args, **kwargs)
        self.planned += 1
        self.plans.append((copy.deepcopy(args), copy.deepcopy(kwargs), copy.deepcopy(plan)))
        return plan


@pytest.mark.slow  # plans a 13-player schedule eight times (the tournament's and each verify's)
def test_bonn_export_with_a_re_plan_verifies_and_tampering_is_named(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = bonn_export(session)
    planned_once = PlannedOnce()
    monkeypatch.setattr(verify, "plan_schedule", planned_once)
    problems, summary = verify_event(doc, seed="seed-b", ruleset_name=None, base_dir=None)
    assert problems == []  # the re-planned rounds are no false mismatch
    assert "re-planned from round 2" in summary
    # a seating changed in a re-planned round: one line naming round and field
    swapped = copy.deepcopy(doc)
    table = swapped["rounds"][2]["tables"][0]["results"]
    table[0], table[1] = table[1], table[0]
    problems = check(swapped)
    assert len(problems) >= 1
    assert problems[0].startswith("round 3: tables differ")
    # a draw changed
    drawn = copy.deepcopy(doc)
    drawn["rounds"][1]["guilds"] = list(reversed(drawn["rounds"][1]["guilds"]))
    found = check(drawn)  # (verifying re-plans the seating: once is enough)
    assert [p for p in found if p.startswith("round 2")] == [
        next(p for p in found if p.startswith("round 2: guilds differ"))
    ]
    # the tampered copies were checked against the first verify's own plans
    assert planned_once.planned == 2 and planned_once.reused == 4


def test_ludolimpico_export_verifies_swiss_rounds_openers_final_and_lot(
    session: Session, tmp_path: Path
) -> None:
    doc = ludo_export(session)
    assert check(doc) == []
    path = tmp_path / "event.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    ok = agon("verify", str(path), "--seed", "seed-l")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert f"{path}: ok" in ok.stdout and "the lot (input seed-l|results:" in ok.stdout
    # without --seed the export's own seed is used
    assert agon("verify", str(path)).returncode == 0

    def tampered(change: Any) -> list[str]:
        copy_ = copy.deepcopy(doc)
        change(copy_)
        return check(copy_)

    # a Swiss round after the first: it follows from the results before it
    def swap_round_two(d: dict[str, Any]) -> None:
        t1, t2 = d["rounds"][1]["tables"][0]["results"], d["rounds"][1]["tables"][1]["results"]
        t1[-1], t2[0] = t2[0], t1[-1]

    problems = tampered(swap_round_two)
    assert any(p.startswith("round 2: tables differ") for p in problems)

    # the removed commitment
    problems = tampered(lambda d: d.pop("commitment"))
    assert problems == ["the file has no 'commitment': it was removed, or never published"]

    # an auction opened by someone else than the drawn opener
    def other_opener(d: dict[str, Any]) -> None:
        table = d["rounds"][0]["tables"][0]
        seats = [r["player"] for r in table["results"]]
        first = table["auction"][0]
        opener = first.split(" opens ")[0]
        other = next(p for p in seats if p != opener)
        table["auction"][0] = first.replace(opener, other, 1)

    problems = tampered(other_opener)
    assert len(problems) == 1
    assert problems[0].startswith("round 1, table 1: the auction does not replay (drawn opener ")

    # a result changed after the export: the lot's input (results digest) no longer matches
    def change_result(d: dict[str, Any]) -> None:
        d["rounds"][2]["tables"][1]["results"][0]["vp"] += 1

    problems = tampered(change_result)
    assert any(p.startswith("results_digest differs") for p in problems)

    # the final's seats not in standings order
    def reorder_final(d: dict[str, Any]) -> None:
        seats = d["rounds"][3]["tables"][0]
        seats["results"].reverse()

    problems = tampered(reorder_final)
    assert any(p.startswith("round 4 (final): seats") for p in problems)

    # exit codes: mismatch 1 (one line per problem), bad input 2
    bad = copy.deepcopy(doc)
    bad.pop("commitment")
    path.write_text(json.dumps(bad), encoding="utf-8")
    proc = agon("verify", str(path))
    assert proc.returncode == 1
    assert "  the file has no 'commitment'" in proc.stdout
    path.write_text("{", encoding="utf-8")
    assert agon("verify", str(path)).returncode == 2
    # the lot is reproducible from the export alone
    event = parse_event(doc)
    again = compute_standings(event, load_ruleset("ludolimpico-2015"))
    live = exchange.standings(session, tournament="l")
    assert [r.player for r in again.rows] == [r.player for r in live.rows]
    assert again.seed == lot_input(event) == live.seed


def test_schedule_file_without_commitment_is_a_mismatch(tmp_path: Path) -> None:
    proc = agon("schedule", "--players", "12", "--rounds", "2", "--seed", "s", "--json")
    doc = json.loads(proc.stdout)
    doc.pop("commitment")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = agon("verify", str(path), "--seed", "s")
    assert out.returncode == 1
    assert "  the file has no 'commitment': it was removed, or never published" in out.stdout


def test_a_game_left_during_play_is_shown_by_agon_standings_and_kept_by_import(
    session: Session, tmp_path: Path
) -> None:
    """Ludolimpico 2.5: the readable standings name the game left and why it scores nothing;
    import keeps it (results.left, migration 0005) without inventing a score."""
    from agon.services import results

    names = ["A", "B", "C", "D", "E"]
    doc = {
        "name": "Left",
        "ruleset": "ludolimpico-2015",
        "players": names,
        "rounds": [
            {
                "tables": [
                    {
                        "results": [
                            {"player": "A", "vp": 50},
                            {"player": "B", "left": True},
                            {"player": "C", "vp": 30},
                            {"player": "D", "vp": 20},
                            {"player": "E", "vp": 10},
                        ]
                    }
                ]
            }
        ],
    }
    path = tmp_path / "left.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    shown = agon("standings", str(path))
    assert shown.returncode == 0, shown.stderr
    assert "B: left during round 1 (table 1): no score for that game" in shown.stdout
    exchange.import_event(session, slug="left", path=path, actor="d")
    table = results.get_table(session, tournament="left", round_number=1, table=1)
    assert [(r.player, r.left, r.vp) for r in table.results if r.left] == [("B", True, None)]
    rows = {r.player: r for r in exchange.standings(session, tournament="left").rows}
    assert rows["B"].totals.points == 0 and rows["B"].notes[0].startswith("left during round 1")
