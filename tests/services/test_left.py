"""A player who leaves during a game (Ludolimpico 2.5 "Ritiro / Espulsione"): recorded through the
journal without a score, the table scored without that seat, the standings saying so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy.orm import Session
from tests.services.svc_helpers import new_tournament, split

from agon.errors import InvalidInput
from agon.services import exchange, journal, results, rounds
from agon.services.schemas import ResultIn
from agon.tournament.event import parse_event
from agon.tournament.standings import compute_standings

pytestmark = pytest.mark.usefixtures("db_url")


def _round_with_a_leaver(session: Session) -> tuple[list[str], list[list[str]]]:
    names = new_tournament(session, "l", "ludolimpico-2015", 10)
    tables = split(names, (5, 5))
    rounds.start_round(session, tournament="l", actor="d", tables=tables)
    first = tables[0]
    results.enter_result(
        session,
        tournament="l",
        round_number=1,
        table=1,
        actor="d",
        results=[
            ResultIn(first[0], 0, left=True),
            *(ResultIn(n, 40 + i, coins=3) for i, n in enumerate(first[1:])),
        ],
    )
    results.enter_result(
        session,
        tournament="l",
        round_number=1,
        table=2,
        actor="d",
        results=[ResultIn(n, 30 + i, coins=2) for i, n in enumerate(tables[1])],
    )
    return names, tables


def test_a_player_who_left_scores_nothing_and_the_table_is_scored_without_them(
    session: Session,
) -> None:
    _, tables = _round_with_a_leaver(session)
    leaver = tables[0][0]
    table = results.get_table(session, tournament="l", round_number=1, table=1)
    stored = {r.player: r for r in table.results}
    # no score at all (issue 32: not "0 0"): VP and coins are absent, not zero
    assert stored[leaver].left and stored[leaver].vp is None and stored[leaver].coins is None
    assert not any(r.left for r in table.results if r.player != leaver)
    rows = {r.player: r for r in exchange.standings(session, tournament="l").rows}
    assert rows[leaver].totals.points == 0 and rows[leaver].totals.games == 0
    assert rows[leaver].notes == (
        "left during round 1 (table 1): no score for that game, the table was scored without "
        "them (Ludolimpico 2015, 2.5 «Ritiro / Espulsione»)",
    )
    # four real players at table 1: the virtual player fills it to five (Ludolimpico 4), so the
    # best of the four gets the points of first place, as in a complete table
    best = tables[0][4]
    assert rows[best].totals.points == rows[tables[1][4]].totals.points


def test_left_goes_through_the_journal_undo_and_rebuild(session: Session) -> None:
    _, tables = _round_with_a_leaver(session)
    leaver = tables[0][0]
    entry = next(
        e for e in journal.list_journal(session, tournament="l") if e.action == "result.enter"
    )
    assert entry.payload["results"][0] == {**entry.payload["results"][0], "left": True}
    assert journal.verify(session, tournament="l")
    journal.rebuild(session, tournament="l")
    table = results.get_table(session, tournament="l", round_number=1, table=1)
    assert [r.player for r in table.results if r.left] == [leaver]
    journal.undo(session, tournament="l", actor="d")  # table 2's result
    journal.undo(session, tournament="l", actor="d")  # table 1's result
    assert results.get_table(session, tournament="l", round_number=1, table=1).results == ()


def test_a_score_for_a_player_who_left_is_refused(session: Session) -> None:
    names = new_tournament(session, "l", "ludolimpico-2015", 10)
    tables = split(names, (5, 5))
    rounds.start_round(session, tournament="l", actor="d", tables=tables)
    first = tables[0]
    others = [ResultIn(n, 40, coins=3) for n in first[1:]]
    for bad in (ResultIn(first[0], 12, left=True), ResultIn(first[0], 0, coins=3, left=True)):
        with pytest.raises(
            InvalidInput, match=r"left during the game \(Ludolimpico 2\.5\) has no score"
        ):
            results.enter_result(
                session, tournament="l", round_number=1, table=1, actor="d", results=[bad, *others]
            )
    with pytest.raises(InvalidInput, match="every player left"):
        results.enter_result(
            session,
            tournament="l",
            round_number=1,
            table=1,
            actor="d",
            results=[ResultIn(n, 0, left=True) for n in first],
        )


def test_left_round_trips_through_export_and_import(session: Session, tmp_path: Path) -> None:
    _, tables = _round_with_a_leaver(session)
    leaver = tables[0][0]
    for table in (1, 2):
        results.confirm_result(session, tournament="l", round_number=1, table=table, actor="d")
    rounds.close_round(session, tournament="l", actor="d", number=1)
    doc = exchange.export_event(session, tournament="l")
    first = doc["rounds"][0]["tables"][0]["results"][0]
    assert first == {"player": leaver, "left": True}
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    exchange.import_event(session, path=path, slug="copy", actor="d")
    table = results.get_table(session, tournament="copy", round_number=1, table=1)
    assert [r.player for r in table.results if r.left] == [leaver]
    theirs = exchange.standings(session, tournament="copy")
    ours = exchange.standings(session, tournament="l")
    assert [(r.player, r.totals, r.notes) for r in theirs.rows] == [
        (r.player, r.totals, r.notes) for r in ours.rows
    ]
    # and the file alone scores the same (agon standings FILE)
    from_file = compute_standings(parse_event(doc, origin="export.json"), ours.ruleset)
    assert [r.player for r in from_file.rows] == [r.player for r in ours.rows]
