"""``agon verify``: recompute every draw and seating from the revealed seed and compare.

Input: a schedule file as printed by ``agon schedule --json`` (published before or during the
event) and the seed (revealed afterwards); optionally the published commitment (the SHA-256 of the
seed). A file with ``"seating": "swiss"`` (rounds seated by standings, e.g. exported by the event
service) has its draws and its round-1 seating checked; later seatings depend on standings. Exit code 0 when everything matches, 1 when something does not (each mismatch is listed),
2 for unreadable input.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from agon.errors import InvalidInput
from agon.tournament.draws import commitment
from agon.tournament.ruleset import load_ruleset
from agon.tournament.safeload import loads_json, read_text
from agon.tournament.seating import plan_schedule, seat_swiss_round

from .schedule import round_json


def _load(path: Path) -> dict[str, Any]:
    doc = loads_json(
        read_text(path, what="schedule file"), origin=f"{path}: cannot read schedule file"
    )
    if not isinstance(doc, dict) or not isinstance(doc.get("rounds"), list) or not doc["rounds"]:
        raise InvalidInput(f"{path}: field 'rounds': expected a non-empty list of rounds")
    for i, plan in enumerate(doc["rounds"], start=1):
        if not isinstance(plan, dict) or not isinstance(plan.get("tables"), list):
            raise InvalidInput(f"{path}: round {i}: expected an object with 'tables'")
        for t, table in enumerate(plan["tables"], start=1):
            seats = table.get("seats") if isinstance(table, dict) else None
            if not isinstance(seats, list) or not all(isinstance(p, str) for p in seats):
                raise InvalidInput(f"{path}: round {i}, table {t}: 'seats' must list names")
    return doc


def verify_document(doc: dict[str, Any], *, seed: str, ruleset_name: str | None) -> list[str]:
    """Every difference between ``doc`` and what ``seed`` produces, as plain sentences."""
    problems: list[str] = []
    if "commitment" in doc and doc["commitment"] != commitment(seed):
        problems.append("the file's commitment is not the SHA-256 of this seed")
    name = ruleset_name or doc.get("ruleset")
    if not isinstance(name, str):
        raise InvalidInput("the schedule file names no ruleset; pass --ruleset")
    ruleset = load_ruleset(name)
    published = doc["rounds"]
    players = sorted(p for t in published[0]["tables"] for p in t["seats"])
    mode = doc.get("seating", "schedule")
    if mode not in ("schedule", "swiss"):
        raise InvalidInput(f"field 'seating': expected 'schedule' or 'swiss', got {mode!r}")
    if mode == "schedule":
        schedule = plan_schedule(players, rounds=len(published), seed=seed, ruleset=ruleset)
        expected = [round_json(plan) for plan in schedule.rounds]
    else:
        first = seat_swiss_round(players, round_number=1, seed=seed, ruleset=ruleset, history=[])
        expected = [round_json(first)]
        for number in range(2, len(published) + 1):
            ranked = sorted(p for t in published[number - 1]["tables"] for p in t["seats"])
            plan = seat_swiss_round(
                ranked, round_number=number, seed=seed, ruleset=ruleset, history=[]
            )
            expected.append({**round_json(plan), "tables": None})  # depends on standings
    for number, (got, want) in enumerate(zip(published, expected, strict=True), start=1):
        for key in ("wonders", "guilds", "sides", "tables"):
            if want[key] is None and key == "tables":
                continue
            if key not in got:
                if key == "sides":
                    continue
                problems.append(f"round {number}: the file has no {key!r}")
            elif got[key] != want[key]:
                problems.append(
                    f"round {number}: {key} differ: published {got[key]!r}, "
                    f"seed gives {want[key]!r}"
                )
    return problems


@click.command("verify")
@click.argument("schedule_file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--seed", required=True, help="The revealed tournament seed.")
@click.option("--commitment", "published", help="The SHA-256 hex published before the event.")
@click.option("--ruleset", "ruleset_name", help="Ruleset (default: the one the file names).")
def verify_command(
    schedule_file: Path | None, seed: str, published: str | None, ruleset_name: str | None
) -> None:
    """Check a published schedule (and/or commitment) against the revealed seed."""
    ok = True
    digest = commitment(seed)
    click.echo(f"commitment of the seed: {digest}")
    if published is not None:
        if published.strip().lower() == digest:
            click.echo("commitment: ok (the seed is the one committed to)")
        else:
            click.echo("commitment: MISMATCH (this is not the seed that was committed to)")
            ok = False
    if schedule_file is not None:
        doc = _load(schedule_file)
        problems = verify_document(doc, seed=seed, ruleset_name=ruleset_name)
        if problems:
            ok = False
            click.echo(f"{schedule_file}: MISMATCH")
            for problem in problems:
                click.echo(f"  {problem}")
        else:
            swiss = (
                " (Swiss: seatings after round 1 depend on standings and are not checked)"
                if doc.get("seating") == "swiss"
                else ""
            )
            click.echo(
                f"{schedule_file}: ok — {len(doc['rounds'])} round(s) of draws and seatings "
                f"match the seed{swiss}"
            )
    if not ok:
        sys.exit(1)
