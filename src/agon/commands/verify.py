"""``agon verify``: recompute every draw, seating, opener, re-plan and lot from the revealed seed;
replay a finished online game from its revealed seed and log (:mod:`agon.play.gamefile`).

Input: either a schedule file as printed by ``agon schedule --json`` (published before the event),
or the event file ``agon export`` writes after it; and the seed (revealed afterwards, optional for
an export, which carries it); optionally the published commitment (the SHA-256 of the seed).

For an exported event every round is recomputed the way the event service seated it
(:mod:`agon.services.seating`): a pre-planned schedule (Bonn 2018) round by round, re-planned with
the played rounds as history where the seated players changed; Swiss rounds (Ludolimpico 2015)
from the standings of the rounds before; a final's draws; every table's auction replayed from its
drawn opener (Ludolimpico 2.1); and the lot's input from the results (docs/standings.md).

A journal document (``agon export --journal``) or, with ``--database``, the journals stored in a
database: their hash chain is checked (:mod:`agon.commands.verify_journal`).

Each mismatch is one line. Exit code 0 when everything matches, 1 when something does not, 2 for
unreadable input.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from agon.commands._json import echo_json, json_option
from agon.errors import EXIT_MISMATCH, AgonError, InvalidInput
from agon.tournament.auction import Auction
from agon.tournament.draws import commitment, draw_guilds, draw_sides, draw_wonders
from agon.tournament.event import Event, parse_event
from agon.tournament.ruleset import Ruleset, load_ruleset
from agon.tournament.safeload import loads_json, read_text
from agon.tournament.seating import (
    PLAN_VERSION,
    RoundPlan,
    SeatedTable,
    plan_schedule,
    seat_swiss_round,
)
from agon.tournament.standings import compute_standings, lot_input, results_digest
from agon.tournament.tables import table_sizes

from .schedule import round_json
from .verify_journal import JOURNAL_FORMAT, verify_database, verify_journal_document

#: The ``format`` of a game file (:data:`agon.play.gamefile.FORMAT`; not imported here, so that
#: checking a schedule loads no game engine).
GAME_FORMAT = "agon-game/1"


def _read(path: Path) -> dict[str, Any]:
    doc = loads_json(
        read_text(path, what="schedule, event or game file"),
        origin=f"{path}: cannot read schedule, event or game file",
    )
    if isinstance(doc, dict) and doc.get("format") in (GAME_FORMAT, JOURNAL_FORMAT):
        return doc  # a finished online game (agon play export), a journal (agon export --journal)
    if not isinstance(doc, dict) or not isinstance(doc.get("rounds"), list) or not doc["rounds"]:
        raise InvalidInput(f"{path}: field 'rounds': expected a non-empty list of rounds")
    return doc


def is_event_file(doc: dict[str, Any]) -> bool:
    """An exported event (tables of ``results``) rather than a schedule (tables of ``seats``)."""
    first = doc["rounds"][0]
    tables = first.get("tables") if isinstance(first, dict) else None
    return (
        isinstance(tables, list)
        and bool(tables)
        and isinstance(tables[0], dict)
        and ("results" in tables[0])
    )


def _check_schedule_shape(path: Path, doc: dict[str, Any]) -> None:
    for i, plan in enumerate(doc["rounds"], start=1):
        if not isinstance(plan, dict) or not isinstance(plan.get("tables"), list):
            raise InvalidInput(f"{path}: round {i}: expected an object with 'tables'")
        for t, table in enumerate(plan["tables"], start=1):
            seats = table.get("seats") if isinstance(table, dict) else None
            if not isinstance(seats, list) or not all(isinstance(p, str) for p in seats):
                raise InvalidInput(f"{path}: round {i}, table {t}: 'seats' must list names")


def _commitment_problems(doc: dict[str, Any], seed: str) -> list[str]:
    if "commitment" not in doc:
        return ["the file has no 'commitment': it was removed, or never published"]
    if doc["commitment"] != commitment(seed):
        return ["the file's commitment is not the SHA-256 of this seed"]
    return []


def _compare(
    number: int, got: dict[str, Any], want: dict[str, Any], keys: tuple[str, ...]
) -> list[str]:
    problems = []
    for key in keys:
        if key not in got:
            if key == "sides" and want.get(key) is None:
                continue
            problems.append(f"round {number}: the file has no {key!r}")
        elif got[key] != want[key]:
            problems.append(
                f"round {number}: {key} differ: published {got[key]!r}, seed gives {want[key]!r}"
            )
    return problems


def verify_document(doc: dict[str, Any], *, seed: str, ruleset_name: str | None) -> list[str]:
    """Every difference between a schedule file and what ``seed`` produces, as one line each."""
    problems = _commitment_problems(doc, seed)
    name = ruleset_name or doc.get("ruleset")
    if not isinstance(name, str):
        raise InvalidInput("the schedule file names no ruleset; pass --ruleset")
    ruleset = load_ruleset(name)
    published = doc["rounds"]
    players = sorted(p for t in published[0]["tables"] for p in t["seats"])
    mode = doc.get("seating", "schedule")
    if mode not in ("schedule", "swiss"):
        raise InvalidInput(f"field 'seating': expected 'schedule' or 'swiss', got {mode!r}")
    version = doc.get("plan_version", 1)
    if mode == "schedule" and version != PLAN_VERSION:
        # the draws do not depend on the optimiser; the seatings do (docs/seating.md, section 4)
        problems.append(
            f"the seatings were planned by optimiser version {version!r:.40}, this agon plans with "
            f"version {PLAN_VERSION}: they cannot be recomputed here (verify them with the agon "
            "that made the file); the draws are checked"
        )
        count = max(table_sizes(len(players), ruleset)) + (1 if ruleset.auction else 0)
        expected: list[dict[str, Any]] = [
            {**_draws_json(seed, ruleset, number, count), "tables": None}
            for number in range(1, len(published) + 1)
        ]
    elif mode == "schedule":
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
        keys = ("wonders", "guilds", "sides") + (() if want["tables"] is None else ("tables",))
        problems += _compare(number, got, want, keys)
    return problems


# --------------------------------------------------------------------------------------------
# exported events


def _played(number: int, rnd_doc: dict[str, Any], seats: list[list[str]]) -> RoundPlan:
    return RoundPlan(
        number=number,
        tables=tuple(SeatedTable(seats=tuple(s)) for s in seats),
        wonders=tuple(rnd_doc.get("wonders") or ()),
        guilds=tuple(rnd_doc.get("guilds") or ()),
        sides=rnd_doc.get("sides"),
    )


def _draws_json(seed: str, ruleset: Ruleset, number: int, count: int) -> dict[str, Any]:
    return {
        "wonders": list(draw_wonders(seed, number, count)),
        "guilds": list(draw_guilds(seed, number)),
        "sides": None
        if (sides := draw_sides(seed, ruleset, number)) is None
        else dict(sorted(sides.items())),
    }


def verify_event(
    doc: dict[str, Any], *, seed: str | None, ruleset_name: str | None, base_dir: Path | None
) -> tuple[list[str], str]:
    """Every difference between an exported event and what its seed produces, one line each,
    and a one-line summary of what was checked.

    Rounds are recomputed as :mod:`agon.services.seating` seats them: the pre-planned schedule
    with its re-plans (the players seated in a round decide whether the plan still holds; a
    re-plan takes the rounds before as history), Swiss rounds from the standings of the rounds
    before, and a final's draws.
    """
    event = parse_event(doc, origin="the event file")
    problems: list[str] = []
    if seed is None:
        seed = event.seed
    elif seed != event.seed:
        problems.append("the file's seed is not the revealed seed")
        event = dataclasses.replace(event, seed=seed)  # recompute everything from the revealed one
    problems += _commitment_problems(doc, seed)
    ruleset = load_ruleset(ruleset_name or event.ruleset_ref, base_dir=base_dir)
    rounds_doc: list[dict[str, Any]] = doc["rounds"]
    seats_of = [[[r.player for r in table.results] for table in rnd.tables] for rnd in event.rounds]
    played: list[RoundPlan] = []
    plan: list[RoundPlan] = []
    plan_players: list[str] = []
    replans: list[int] = []
    for i, (rnd, rnd_doc) in enumerate(zip(event.rounds, rounds_doc, strict=True)):
        number = i + 1
        seats = seats_of[i]
        players = sorted(p for table in seats for p in table)
        got: dict[str, Any] = {"tables": seats}
        for key in ("wonders", "guilds", "sides"):
            if rnd_doc.get(key) is not None:
                got[key] = rnd_doc[key]
        if "sides" in got:
            got["sides"] = dict(sorted(rnd.sides.items()))
        if rnd.final:
            count = len(players) + (1 if ruleset.auction else 0)
            problems += _compare(
                number,
                got,
                _draws_json(seed, ruleset, number, count),
                ("wonders", "guilds", "sides"),
            )
            ranked = [r.player for r in _standings_before(event, i, ruleset).rows]
            in_order = sorted(seats[0], key=ranked.index)
            if len(seats) != 1 or seats[0] != in_order:
                problems.append(
                    f"round {number} (final): seats {seats[0]!r} are not in standings order "
                    f"{in_order!r}"
                )
        elif ruleset.seating == "swiss":
            present = set(players)
            ranked = [r.player for r in _standings_before(event, i, ruleset).rows]
            want = seat_swiss_round(
                [p for p in ranked if p in present],
                round_number=number,
                seed=seed,
                ruleset=ruleset,
                history=played,
                ratings=event.seed_ratings if number == 1 else None,
            )
            expected = {**round_json(want), "tables": [list(t.seats) for t in want.tables]}
            problems += _compare(number, got, expected, ("wonders", "guilds", "sides", "tables"))
        else:
            offset = number - plan[0].number if plan else -1
            if not (plan and plan_players == players and 0 <= offset < len(plan)):
                if number > 1:
                    replans.append(number)
                schedule = plan_schedule(
                    players,
                    rounds=max(1, ruleset.rounds - number + 1),
                    seed=seed,
                    ruleset=ruleset,
                    history=played,
                )
                plan, plan_players, offset = list(schedule.rounds), players, 0
            want_plan = plan[offset]
            expected = {
                **round_json(want_plan),
                "tables": [list(t.seats) for t in want_plan.tables],
            }
            problems += _compare(number, got, expected, ("wonders", "guilds", "sides", "tables"))
        if not rnd.final:
            played.append(_played(number, rnd_doc, seats))
        if ruleset.auction:
            problems += _auction_problems(number, rnd_doc, seats, seed)
    digest = results_digest(event.rounds)
    if "results_digest" not in doc:
        problems.append("the file has no 'results_digest': it was removed")
    elif doc["results_digest"] != digest:
        problems.append(
            f"results_digest differs: published {doc['results_digest']!r}, the results give "
            f"{digest!r} (a result was changed after the export)"
        )
    lot = lot_input(event)
    decided = [row for row in compute_standings(event, ruleset).rows if row.decided_by == "lot"]
    by_lot = ", ".join(f"rank {row.rank} ({row.player})" for row in decided) or "no place"
    summary = (
        f"{len(event.rounds)} round(s) of draws and seatings match the seed"
        + (f" (re-planned from round {', '.join(map(str, replans))})" if replans else "")
        + (
            f"; seeded by {len(event.seed_ratings)} rating(s) from round 1"
            if event.seed_ratings
            else ""
        )
        + f"; the lot (input {lot[:24]}…) decides {by_lot}"
    )
    return problems, summary


def _standings_before(event: Event, index: int, ruleset: Ruleset) -> Any:
    """The standings as they stood when round ``index + 1`` was seated (the rounds before it)."""
    return compute_standings(dataclasses.replace(event, rounds=event.rounds[:index]), ruleset)


def _auction_problems(
    number: int, rnd_doc: dict[str, Any], seats: list[list[str]], seed: str
) -> list[str]:
    """Replay every table's auction from its drawn opener; compare wonders and bids won."""
    problems = []
    wonders = rnd_doc.get("wonders") or []
    for t, (table_doc, table) in enumerate(zip(rnd_doc["tables"], seats, strict=True), start=1):
        place = f"round {number}, table {t}"
        actions = table_doc.get("auction")
        if not actions:
            problems.append(f"{place}: no auction recorded, so its opener cannot be checked")
            continue
        label = f"round {number} table {t}"
        try:
            auction = Auction.replay(table, wonders, actions, seed=seed, label=label)
        except AgonError as exc:
            opener = Auction(table, wonders, seed=seed, label=label).first_opener
            problems.append(f"{place}: the auction does not replay (drawn opener {opener}): {exc}")
            continue
        won = auction.results()
        for result in table_doc["results"]:
            name = result["player"]
            got = (result.get("wonder"), result.get("bid", 0))
            want = won.get(name)
            if want is not None and (
                (got[0] is not None and got[0] != want[0]) or got[1] != want[1]
            ):
                problems.append(
                    f"{place}, player {name!r}: wonder and bid {got!r} differ from the "
                    f"auction's {want!r}"
                )
    return problems


def _verify_game(
    path: Path, doc: dict[str, Any], seed: str | None, published: str | None, as_json: bool
) -> None:
    """A finished online game (``agon play export``): its seed against the SHA-256 it published,
    its log replayed step by step, its final scores; with ``--seed`` (the tournament's, revealed)
    its seed derived from the tournament's, with ``--commitment`` that seed's commitment."""
    from agon.play.gamefile import verify_game

    check = verify_game(doc, tournament_seed=seed)
    problems = list(check.problems)
    digest = None if seed is None else commitment(seed)
    commitment_ok = (
        None if published is None or digest is None else published.strip().lower() == digest
    )
    if published is not None and seed is None:
        raise InvalidInput("--commitment of a game file needs the tournament's --seed")
    ok = commitment_ok is not False and not problems
    if as_json:
        echo_json(
            {
                "ok": ok,
                "commitment": digest,
                "commitment_ok": commitment_ok,
                "file": str(path),
                "kind": "game",
                "seed_sha256": doc.get("seed_sha256"),
                "problems": problems,
                "summary": None if problems else check.summary,
            }
        )
    else:
        if digest is not None:
            click.echo(f"commitment of the tournament seed: {digest}")
        _echo_outcome(path, commitment_ok, problems, check.summary)
    if not ok:
        sys.exit(EXIT_MISMATCH)


@click.command("verify")
@click.argument("schedule_file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--seed",
    help="The revealed tournament seed (default for an export: its own; for a game file: "
    "check that the game's seed derives from it).",
)
@click.option("--commitment", "published", help="The SHA-256 hex published before the event.")
@click.option("--ruleset", "ruleset_name", help="Ruleset (default: the one the file names).")
@click.option(
    "--database",
    is_flag=True,
    help="Check the hash chain of the journals stored in the database (AGON_DATABASE_URL).",
)
@click.option(
    "-t", "--tournament", help="With --database: only this tournament's journal.", default=None
)
@json_option
def verify_command(
    schedule_file: Path | None,
    seed: str | None,
    published: str | None,
    ruleset_name: str | None,
    database: bool,
    tournament: str | None,
    as_json: bool,
) -> None:
    """Check a published schedule, an exported event or a finished online game (and/or a
    commitment) against the seed; or the hash chain of a journal.

    A journal document ('agon export --journal') or, with --database, the journals stored in the
    database: every entry must carry the hash of the one before and a hash that matches its
    content; the chain's last hash is printed.

    A game file ('agon play export') is replayed from its revealed seed: the seed must match the
    SHA-256 the game published, every step must be legal, the final scores must match; the
    first divergent step is named. With --seed (the tournament's) a tournament table's game
    seed must derive from it.

    Exit code 0: everything matches; 1: a mismatch (one line each); 2: unreadable input.
    """
    if database or tournament is not None:
        if not database:
            raise InvalidInput("--tournament needs --database (a file names its own tournament)")
        if schedule_file is not None or seed is not None or published is not None or ruleset_name:
            raise InvalidInput(
                "--database checks the stored journals: give no file, seed or ruleset"
            )
        verify_database(tournament, as_json)
        return
    doc = None
    if schedule_file is not None:
        doc = _read(schedule_file)
        if doc.get("format") == JOURNAL_FORMAT:
            if seed is not None or published is not None or ruleset_name is not None:
                raise InvalidInput(
                    "--seed, --commitment and --ruleset do not apply to a journal document"
                )
            verify_journal_document(schedule_file, doc, as_json)
            return
        if doc.get("format") == GAME_FORMAT:
            if ruleset_name is not None:
                raise InvalidInput("--ruleset does not apply to a game file")
            _verify_game(schedule_file, doc, seed, published, as_json)
            return
        if not is_event_file(doc):
            _check_schedule_shape(schedule_file, doc)
            if seed is None:
                raise InvalidInput("a schedule file needs the revealed seed: pass --seed")
    if seed is None:
        if doc is None:
            raise InvalidInput("give a schedule or event file, or --seed")
        seed = doc.get("seed")
        if not isinstance(seed, str):
            raise InvalidInput(f"{schedule_file}: the event file has no seed; pass --seed")
    digest = commitment(seed)
    commitment_ok = None if published is None else published.strip().lower() == digest
    kind: str | None = None
    problems: list[str] = []
    summary: str | None = None
    if schedule_file is not None and doc is not None:
        if is_event_file(doc):
            kind = "event"
            problems, summary = verify_event(
                doc, seed=seed, ruleset_name=ruleset_name, base_dir=schedule_file.parent
            )
        else:
            kind = "schedule"
            problems = verify_document(doc, seed=seed, ruleset_name=ruleset_name)
            swiss = (
                " (Swiss: seatings after round 1 depend on standings and are not checked)"
                if doc.get("seating") == "swiss"
                else ""
            )
            summary = f"{len(doc['rounds'])} round(s) of draws and seatings match the seed{swiss}"
    ok = commitment_ok is not False and not problems
    if as_json:
        echo_json(
            {
                "ok": ok,
                "commitment": digest,
                "commitment_ok": commitment_ok,
                "file": None if schedule_file is None else str(schedule_file),
                "kind": kind,
                "problems": problems,
                "summary": None if problems else summary,
            }
        )
    else:
        click.echo(f"commitment of the seed: {digest}")
        _echo_outcome(schedule_file, commitment_ok, problems, summary if kind else None)
    if not ok:
        sys.exit(EXIT_MISMATCH)


def _echo_outcome(
    path: object, commitment_ok: bool | None, problems: Sequence[str], summary: str | None
) -> None:
    """The text outcome of a check: the commitment's, then the file's problems or its summary
    (none: nothing to say of the file)."""
    if commitment_ok is True:
        click.echo("commitment: ok (the seed is the one committed to)")
    elif commitment_ok is False:
        click.echo("commitment: MISMATCH (this is not the seed that was committed to)")
    if problems:
        click.echo(f"{path}: MISMATCH")
        for problem in problems:
            click.echo(f"  {problem}")
    elif summary is not None:
        click.echo(f"{path}: ok — {summary}")
