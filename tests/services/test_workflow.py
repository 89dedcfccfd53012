"""A whole event through the services, on SQLite and PostgreSQL: Bonn (schedule, 4 rounds) and
Ludolimpico (3 Swiss rounds, bids, final). Standings equal those of the exported event file,
export/import round-trips, the journal rebuilds the state, undo reverts the last change."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from sqlalchemy.orm import Session
from svc_helpers import new_tournament, play_round, split, state

from agon.services import exchange, journal, players, rounds
from agon.tournament.event import load_event
from agon.tournament.standings import compute_standings


def _rows(standings: object) -> list[tuple[int, str, str]]:
    return [(r.rank, r.player, str(r.totals.points)) for r in standings.rows]  # type: ignore[attr-defined]


def test_bonn_event_standings_equal_those_of_the_exported_file(
    session: Session, tmp_path: Path
) -> None:
    names = new_tournament(session, "bonn", "bonn-2018", 13)
    rng = random.Random(2018)
    for _ in range(4):
        order = names[:]
        rng.shuffle(order)
        play_round(session, "bonn", split(order, (5, 4, 4)), rng)
    live = exchange.standings(session, tournament="bonn")
    path = tmp_path / "bonn.json"
    path.write_text(json.dumps(exchange.export_event(session, tournament="bonn")), encoding="utf-8")
    event, ruleset = load_event(path)
    from_file = compute_standings(event, ruleset)
    assert _rows(live) == _rows(from_file)
    assert len(event.rounds) == 4 and all(r.tables[0].results[0].breakdown for r in event.rounds)
    # every player scored in every round: 4 games each
    assert {r.totals.games for r in live.rows} == {4}


def test_export_import_export_round_trips(session: Session, tmp_path: Path) -> None:
    names = new_tournament(session, "ludo", "ludolimpico-2015", 9)
    rng = random.Random(15)
    for _ in range(3):
        play_round(session, "ludo", split(names, (5, 4)), rng, bids=True)
        names = names[3:] + names[:3]
    players.add_sanction(
        session, tournament="ludo", player=names[0], kind="warning", reason="2.3", actor="director"
    )
    players.drop_player(
        session, tournament="ludo", player=names[1], kind="withdraw", reason="ill", actor="director"
    )
    first = exchange.export_event(session, tournament="ludo")
    schema = json.loads(
        resources.files("agon.schemas").joinpath("event.schema.json").read_text(encoding="utf-8")
    )
    jsonschema.validate(first, schema)
    path = tmp_path / "ludo.json"
    path.write_text(json.dumps(first), encoding="utf-8")
    exchange.import_event(session, slug="ludo-copy", path=path, actor="director")
    assert exchange.export_event(session, tournament="ludo-copy") == first
    assert _rows(exchange.standings(session, tournament="ludo-copy")) == _rows(
        exchange.standings(session, tournament="ludo")
    )
    copied = {p.name: p for p in players.list_players(session, tournament="ludo-copy")}
    assert copied[names[1]].status == "withdrawn"
    assert [s.reason for s in copied[names[0]].sanctions] == ["2.3"]
    # the imported copy is closed and confirmed: its rounds cannot take results any more
    assert {r.status for r in rounds.list_rounds(session, tournament="ludo-copy")} == {"closed"}


def test_rebuild_from_the_journal_equals_the_live_state(session: Session) -> None:
    names = new_tournament(session, "bonn", "bonn-2018", 12)
    new_tournament(session, "other", "bonn-2018", 12)
    rng = random.Random(7)
    play_round(session, "bonn", split(names, (4, 4, 4)), rng)
    play_round(session, "bonn", split(names[::-1], (5, 4, 3)), rng, close=False)
    live = state(session, "bonn")
    other = state(session, "other")
    applied = journal.rebuild(session, tournament="bonn")
    assert applied == len(journal.list_journal(session, tournament="bonn"))
    assert state(session, "bonn") == live
    assert state(session, "other") == other  # several tournaments per database, untouched
    assert journal.verify(session, tournament="bonn")


def test_undo_reverts_the_last_change_and_is_journalled(session: Session) -> None:
    names = new_tournament(session, "bonn", "bonn-2018", 12)
    rng = random.Random(1)
    play_round(session, "bonn", split(names, (4, 4, 4)), rng, close=False)
    before_close = state(session, "bonn")
    rounds.close_round(session, tournament="bonn", actor="director", number=1)
    assert state(session, "bonn") != before_close
    entry = journal.undo(session, tournament="bonn", actor="director")
    assert entry.action == "undo" and entry.payload["action"] == "round.close"
    assert state(session, "bonn") == before_close
    # a second undo reverts the confirmation before it, not the undo itself
    second = journal.undo(session, tournament="bonn", actor="director")
    assert second.payload["action"] == "result.confirm"
    table3 = rounds.get_round(session, tournament="bonn", number=1).tables[2]
    assert table3.state == "pending"
    listed = journal.list_journal(session, tournament="bonn")
    assert [e.action for e in listed[-2:]] == ["undo", "undo"]
    assert sum(e.undone for e in listed) == 2
    assert journal.verify(session, tournament="bonn")


@pytest.mark.parametrize("sample", ["bonn-2018-sample.json", "ludolimpico-2015-sample.json"])
def test_importing_the_sample_events_keeps_their_standings(session: Session, sample: str) -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / sample
    event, ruleset = load_event(path)
    exchange.import_event(session, slug="sample", path=path, actor="director")
    assert _rows(exchange.standings(session, tournament="sample")) == _rows(
        compute_standings(event, ruleset)
    )
    assert journal.verify(session, tournament="sample")
