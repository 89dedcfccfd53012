"""Bad input anywhere gives a clear error (naming the place and the value) and changes nothing:
neither the state nor the journal."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.orm import Session
from svc_helpers import journal_length, new_tournament, play_round, split, state
from tests.db_fixtures import backend_factory

from agon.errors import AgonError, Conflict, IllegalAction, InvalidInput, NotFound
from agon.services import journal, players, results, rounds, tournaments
from agon.services.schemas import PlayerCreate, ResultIn, TournamentCreate
from agon.store.db import Settings, make_engine, make_session_factory

BAD: list[tuple[str, type[AgonError], str, Callable[[Session, list[str]], object]]] = [
    (
        "unknown tournament",
        NotFound,
        "no tournament 'nope'",
        lambda s, n: players.register_player(
            s, tournament="nope", data=PlayerCreate("X"), actor="d"
        ),
    ),
    (
        "bad slug",
        InvalidInput,
        "slug 'Bad Slug'",
        lambda s, n: tournaments.create_tournament(
            s, data=TournamentCreate(slug="Bad Slug", name="x", ruleset="bonn-2018"), actor="d"
        ),
    ),
    (
        "unknown ruleset",
        InvalidInput,
        "unknown ruleset 'chess'",
        lambda s, n: tournaments.create_tournament(
            s, data=TournamentCreate(slug="x", name="x", ruleset="chess"), actor="d"
        ),
    ),
    (
        "taken slug",
        Conflict,
        "exists already",
        lambda s, n: tournaments.create_tournament(
            s, data=TournamentCreate(slug="b", name="x", ruleset="bonn-2018"), actor="d"
        ),
    ),
    (
        "empty name",
        InvalidInput,
        "name must not be empty",
        lambda s, n: players.register_player(s, tournament="b", data=PlayerCreate(" "), actor="d"),
    ),
    (
        "unknown player",
        NotFound,
        "no player 'Nobody'",
        lambda s, n: players.check_in(s, tournament="b", player="Nobody", actor="d"),
    ),
    (
        "wrong table size",
        InvalidInput,
        "round 1, table 1: 6 players, ruleset .bonn-2018. allows 3, 4, 5",
        lambda s, n: rounds.start_round(s, tournament="c", actor="d", tables=split(n, (6, 6))),
    ),
    (
        "seated twice",
        InvalidInput,
        "seated twice",
        lambda s, n: rounds.start_round(
            s, tournament="c", actor="d", tables=[n[:4], n[4:8], [*n[8:11], n[0]]]
        ),
    ),
    (
        "breakdown sum",
        InvalidInput,
        "categories add up to 3, but vp is 50",
        lambda s, n: results.enter_result(
            s,
            tournament="b",
            round_number=2,
            table=1,
            actor="d",
            results=[
                ResultIn(n[0], 50, coins=0, breakdown={"military": 3}),
                *(ResultIn(x, 40, coins=0) for x in n[1:4]),
            ],
        ),
    ),
    (
        "player not at table",
        InvalidInput,
        "not seated at this table",
        lambda s, n: results.enter_result(
            s,
            tournament="b",
            round_number=2,
            table=1,
            actor="d",
            results=[ResultIn(x, 40, coins=0) for x in n[4:8]],
        ),
    ),
    (
        "missing player",
        InvalidInput,
        "no result given",
        lambda s, n: results.enter_result(
            s,
            tournament="b",
            round_number=2,
            table=1,
            actor="d",
            results=[ResultIn(x, 40, coins=0) for x in n[:3]],
        ),
    ),
    (
        "negative coins",
        InvalidInput,
        "must not be negative",
        lambda s, n: results.enter_result(
            s,
            tournament="b",
            round_number=2,
            table=1,
            actor="d",
            results=[ResultIn(n[0], 40, coins=-1), *(ResultIn(x, 40, coins=0) for x in n[1:4])],
        ),
    ),
    (
        "bid without auction",
        InvalidInput,
        "field 'bid': this ruleset has no auction",
        lambda s, n: results.enter_result(
            s,
            tournament="b",
            round_number=2,
            table=1,
            actor="d",
            results=[
                ResultIn(n[0], 40, coins=0, bid=2),
                *(ResultIn(x, 40, coins=0) for x in n[1:4]),
            ],
        ),
    ),
    (
        "no such table",
        NotFound,
        "round 2 has no table 9",
        lambda s, n: results.enter_result(
            s, tournament="b", round_number=2, table=9, actor="d", results=[]
        ),
    ),
    (
        "closed round",
        IllegalAction,
        "the round is closed",
        lambda s, n: results.enter_result(
            s,
            tournament="b",
            round_number=1,
            table=1,
            actor="d",
            expected_version=0,
            results=[ResultIn(x, 40, coins=0) for x in n[:4]],
        ),
    ),
    (
        "stale version",
        Conflict,
        "changed meanwhile",
        lambda s, n: results.enter_result(
            s,
            tournament="b",
            round_number=2,
            table=2,
            actor="d",
            expected_version=1,
            results=[ResultIn(x, 40, coins=0) for x in n[4:8]],
        ),
    ),
    (
        "already entered",
        Conflict,
        "already has a result",
        lambda s, n: results.enter_result(
            s,
            tournament="b",
            round_number=2,
            table=2,
            actor="d",
            results=[ResultIn(x, 40, coins=0) for x in n[4:8]],
        ),
    ),
    (
        "close with pending table",
        IllegalAction,
        r"cannot close: table 1 \(open\), table 2 \(pending\)",
        lambda s, n: rounds.close_round(s, tournament="b", actor="d", number=2),
    ),
    (
        "next round while open",
        IllegalAction,
        "round 2 is still open",
        lambda s, n: rounds.start_round(s, tournament="b", actor="d", tables=split(n, (4, 4, 4))),
    ),
    (
        "no final in Bonn",
        IllegalAction,
        "has no final",
        lambda s, n: rounds.start_final(s, tournament="b", actor="d"),
    ),
    (
        "confirm a stranger",
        InvalidInput,
        "'Nobody': not seated",
        lambda s, n: results.confirm_result(
            s, tournament="b", round_number=2, table=2, actor="d", players=["Nobody"]
        ),
    ),
]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def prepared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Session, list[str]]]:
    """One database per backend for all cases: since bad input changes nothing, every case finds
    the same state (and checks it: a case that changed something fails)."""
    factory = backend_factory(str(request.param))  # fails instead of skipping under CI
    engine = make_engine(Settings(factory.new_url(tmp_path_factory.mktemp("bad"))))
    with make_session_factory(engine)() as session:
        names = new_tournament(session, "b", "bonn-2018", 12)
        rng = random.Random(5)
        play_round(session, "b", split(names, (4, 4, 4)), rng)
        rounds.start_round(session, tournament="b", actor="d", tables=split(names, (4, 4, 4)))
        results.enter_result(
            session,
            tournament="b",
            round_number=2,
            table=2,
            actor="d",
            results=[ResultIn(x, 30, coins=0) for x in names[4:8]],
        )
        new_tournament(session, "c", "bonn-2018", 12)  # same names, no round yet
        yield session, names
    engine.dispose()


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_input_is_refused_and_changes_nothing(
    prepared: tuple[Session, list[str]],
    case: tuple[str, type[AgonError], str, Callable[[Session, list[str]], object]],
) -> None:
    _, error, message, call = case
    session, names = prepared
    before = (state(session, "b"), state(session, "c"))
    entries = journal_length(session)
    with pytest.raises(error, match=message):
        call(session, names)
    assert (state(session, "b"), state(session, "c")) == before
    assert journal_length(session) == entries
    assert journal.verify(session, tournament="b")


def test_a_round_start_while_a_round_is_open_is_refused_before_any_seating(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 11 (found by the form fuzzer): a refused start ran Bonn's schedule search first
    (2.5 s on the desk for a double tap on "start"); now the open round is checked first."""
    from agon.services import seating

    new_tournament(session, "open", "bonn-2018", 13)
    rounds.start_round(session, tournament="open", actor="d")

    def no_seating(*args: object, **kwargs: object) -> None:
        raise AssertionError("the seating search ran for a start that is refused")

    monkeypatch.setattr(seating, "seat_next_round", no_seating)
    with pytest.raises(IllegalAction, match="round 1 is still open"):
        rounds.start_round(session, tournament="open", actor="d")
