"""One page, one computation of the standings (exchange.shared_standings): the standings table,
the status and the podium of a page share them, equal to a computation of their own, and a
change flushed inside the block is never hidden by what was kept."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy.orm import Session
from svc_helpers import new_tournament, play_round, random_results, split

from agon.services import exchange, results
from agon.tournament.incremental import StandingsKeepers


def _count_computations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every standings computation from here on, full or incremental, noted by kind."""
    made: list[str] = []
    full, kept = exchange.compute_standings, StandingsKeepers.standings

    def counted_full(*args: Any, **kwargs: Any) -> Any:
        made.append("full")
        return full(*args, **kwargs)

    def counted_kept(self: StandingsKeepers, *args: Any, **kwargs: Any) -> Any:
        made.append("kept")
        return kept(self, *args, **kwargs)

    monkeypatch.setattr(exchange, "compute_standings", counted_full)
    monkeypatch.setattr(StandingsKeepers, "standings", counted_kept)
    return made


def _finished_bonn(session: Session) -> list[str]:
    names = new_tournament(session, "b", "bonn-2018", 15)
    rng = random.Random(2018)
    for _ in range(4):
        rng.shuffle(names)
        play_round(session, "b", split(names, (5, 5, 5)), rng)
    return names


def test_a_page_worth_of_questions_computes_the_standings_once(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    _finished_bonn(session)
    alone = (
        exchange.standings(session, tournament="b"),
        exchange.tournament_status(session, slug="b"),
        exchange.final_ranking(session, tournament="b"),
    )
    made = _count_computations(monkeypatch)
    keepers = StandingsKeepers()
    with exchange.shared_standings(session, keepers):
        shared = (
            exchange.standings(session, tournament="b"),
            exchange.tournament_status(session, slug="b"),
            exchange.final_ranking(session, tournament="b"),
        )
    assert made == ["kept"]  # once, by the keepers; without the block: three full computations
    assert shared == alone
    exchange.standings(session, tournament="b")
    assert made == ["kept", "full"]  # outside the block, each call computes them again


def test_a_change_flushed_inside_the_block_is_seen(session: Session) -> None:
    names = new_tournament(session, "b", "bonn-2018", 15)
    rng = random.Random(7)
    play_round(session, "b", split(names, (5, 5, 5)), rng, close=False)
    with exchange.shared_standings(session, StandingsKeepers()):
        before = exchange.standings(session, tournament="b")
        table = results.get_table(session, tournament="b", round_number=1, table=1)
        results.enter_result(
            session,
            tournament="b",
            round_number=1,
            table=1,
            results=random_results(names[:5], random.Random(99)),
            actor="scorer",
            expected_version=table.version,
        )
        after = exchange.standings(session, tournament="b")
    fresh = exchange.standings(session, tournament="b")
    assert after == fresh and after != before


def test_the_blocks_nest_and_leave_nothing_behind(session: Session) -> None:
    _finished_bonn(session)
    with exchange.shared_standings(session):
        outer = exchange.standings(session, tournament="b")
        with exchange.shared_standings(session):
            assert exchange.standings(session, tournament="b") == outer
        assert exchange.standings(session, tournament="b") is outer  # the outer block's, kept
    assert "agon.shared_standings" not in session.info
