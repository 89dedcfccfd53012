"""Starting rounds by the ruleset's method: Bonn's pre-planned schedule (stored once, replanned when
the players change), Ludolimpico's Swiss rounds with the wonder auction, draws from the seed."""

from __future__ import annotations

import random

import pytest
from sqlalchemy.orm import Session
from svc_helpers import new_tournament, random_results

from agon.errors import IllegalAction, InvalidInput
from agon.services import exchange, journal, players, results, rounds
from agon.services.schemas import ResultIn
from agon.tournament.auction import Auction
from agon.tournament.draws import draw_guilds, draw_wonders
from agon.tournament.ruleset import load_ruleset
from agon.tournament.seating import RoundPlan, SeatedTable, plan_schedule


def finish(session: Session, slug: str, number: int, rng: random.Random) -> None:
    rnd = rounds.get_round(session, tournament=slug, number=number)
    for table in rnd.tables:
        results.enter_result(
            session,
            tournament=slug,
            round_number=number,
            table=table.number,
            results=random_results(table.seats, rng),
            actor="s",
        )
        results.confirm_result(
            session, tournament=slug, round_number=number, table=table.number, actor="d"
        )
    rounds.close_round(session, tournament=slug, actor="d", number=number)


def test_bonn_rounds_follow_the_pre_planned_schedule(session: Session) -> None:
    names = new_tournament(session, "b", "bonn-2018", 13)
    schedule = plan_schedule(names, rounds=4, seed="seed-b", ruleset=load_ruleset("bonn-2018"))
    rng = random.Random(8)
    for number in (1, 2):
        rnd = rounds.start_round(session, tournament="b", actor="d")
        plan = schedule.rounds[number - 1]
        assert [t.seats for t in rnd.tables] == [p.seats for p in plan.tables]
        assert rnd.wonders == plan.wonders and rnd.guilds == plan.guilds
        assert rnd.info["planned_in_round"] == 1
        assert len(rnd.tables[0].seats) == 5  # 13 -> (5, 4, 4)
        finish(session, "b", number, rng)
    # seat k plays the k-th drawn wonder: filled into the results
    first = rounds.get_round(session, tournament="b", number=1).tables[0]
    assert [r.wonder for r in first.results] == list(schedule.rounds[0].wonders[:5])
    # a drop changes the players: the remaining rounds are re-planned for twelve, keeping the
    # committed draws and counting the two rounds played (issue 11)
    players.drop_player(session, tournament="b", player=names[0], kind="drop", reason="", actor="d")
    third = rounds.start_round(session, tournament="b", actor="d")
    assert third.info["planned_in_round"] == 3
    assert sorted(n for t in third.tables for n in t.seats) == sorted(names[1:])
    assert third.wonders == schedule.rounds[2].wonders[:4]  # 4+4+4 now: the draw's first four
    assert third.guilds == schedule.rounds[2].guilds
    played = [
        RoundPlan(
            number=r.number,
            tables=tuple(SeatedTable(seats=t.seats) for t in r.tables),
            wonders=r.wonders,
            guilds=r.guilds,
            sides=r.sides,
        )
        for r in rounds.list_rounds(session, tournament="b")[:2]
    ]
    again = plan_schedule(
        names[1:], rounds=2, seed="seed-b", ruleset=load_ruleset("bonn-2018"), history=played
    )
    assert [t.seats for t in third.tables] == [t.seats for t in again.rounds[0].tables]
    report = third.info["report"]
    assert report["start_spread"] <= 1  # over all three rounds, for the twelve
    assert journal.verify(session, tournament="b")


def play_auction(
    players_: tuple[str, ...], wonders: tuple[str, ...], seed: str, label: str, rng: random.Random
) -> list[str]:
    auction = Auction(players_, wonders, seed=seed, label=label)
    while not auction.finished:
        auction.apply(rng.choice(auction.legal_actions()[:4]))
    return [str(a) for a in auction.history]


def test_ludolimpico_swiss_rounds_with_auctions_and_final(session: Session) -> None:
    names = new_tournament(session, "l", "ludolimpico-2015", 9)
    rng = random.Random(21)
    for number in (1, 2, 3):
        rnd = rounds.start_round(session, tournament="l", actor="d")
        assert rnd.info["method"] == "swiss"
        assert [len(t.seats) for t in rnd.tables] == [5, 4]
        assert rnd.wonders == draw_wonders("seed-l", number, 6)
        assert rnd.guilds == draw_guilds("seed-l", number)
        assert rnd.sides is not None  # Ludolimpico draws the sides
        if number > 1:  # best five of the standings at table 1
            ranked = [r.player for r in exchange.standings(session, tournament="l").rows]
            assert set(rnd.tables[0].seats) | set(rnd.tables[1].seats) == set(ranked)
        for table in rnd.tables:
            label = f"round {number} table {table.number}"
            with pytest.raises(IllegalAction, match="not finished"):
                results.record_auction(
                    session,
                    tournament="l",
                    round_number=number,
                    table=table.number,
                    actor="d",
                    actions=[],
                )
            actions = play_auction(table.seats, rnd.wonders, "seed-l", label, rng)
            results.record_auction(
                session,
                tournament="l",
                round_number=number,
                table=table.number,
                actor="d",
                actions=actions,
            )
            won = Auction.replay(
                table.seats, rnd.wonders, actions, seed="seed-l", label=label
            ).results()
            entered = [ResultIn(n, 40 + i, coins=i) for i, n in enumerate(table.seats)]
            shown = results.enter_result(
                session,
                tournament="l",
                round_number=number,
                table=table.number,
                results=entered,
                actor="s",
            )
            for r in shown.results:
                assert (r.wonder, r.bid) == won[r.player]
                assert r.side == rnd.sides[r.wonder]
            results.confirm_result(
                session, tournament="l", round_number=number, table=table.number, actor="d"
            )
        rounds.close_round(session, tournament="l", actor="d", number=number)
    with pytest.raises(IllegalAction, match="all 3 qualifying rounds"):
        rounds.start_round(session, tournament="l", actor="d")
    final = rounds.start_final(session, tournament="l", actor="d")
    assert len(final.tables[0].seats) == 5 and len(final.wonders) == 6
    assert final.wonders == draw_wonders("seed-l", 4, 6)
    assert journal.verify(session, tournament="l")
    assert names


def test_auction_results_contradicted_by_entry_are_refused(session: Session) -> None:
    new_tournament(session, "l", "ludolimpico-2015", 8)
    rnd = rounds.start_round(session, tournament="l", actor="d")
    table = rnd.tables[0]
    actions = play_auction(table.seats, rnd.wonders, "seed-l", "round 1 table 1", random.Random(1))
    results.record_auction(
        session, tournament="l", round_number=1, table=1, actor="d", actions=actions
    )
    won = Auction.replay(
        table.seats, rnd.wonders, actions, seed="seed-l", label="round 1 table 1"
    ).results()
    first = table.seats[0]
    wrong = next(w for w in rnd.wonders if w != won[first][0])
    with pytest.raises(InvalidInput, match=f"won {won[first][0]} in the auction, not {wrong}"):
        results.enter_result(
            session,
            tournament="l",
            round_number=1,
            table=1,
            actor="s",
            results=[
                ResultIn(first, 40, wonder=wrong),
                *(ResultIn(n, 40) for n in table.seats[1:]),
            ],
        )
    with pytest.raises(IllegalAction, match=r"auction round 1 table 2: .*raises 99"):
        results.record_auction(
            session,
            tournament="l",
            round_number=1,
            table=2,
            actor="d",
            actions=[f"{rnd.tables[1].seats[0]} raises 99"],
        )


def test_a_plan_is_remembered_by_all_its_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    """services.seating.planned: the same inputs give the very same plan without a second
    search; any other input (players, rounds, seed, ruleset, played rounds) searches anew."""
    from agon.services import seating

    searches: list[dict[str, object]] = []

    def search(players: list[str], **kw: object) -> object:
        searches.append({"players": sorted(players), **kw})
        return object()  # a new plan for every search

    monkeypatch.setattr(seating, "plan_schedule", search)
    monkeypatch.setattr(seating, "_plans", type(seating._plans)())
    monkeypatch.setattr(seating, "PLANS_KEPT", 6)
    bonn, ludo = load_ruleset("bonn-2018"), load_ruleset("ludolimpico-2015")
    names = [f"P{i:02d}" for i in range(12)]
    played = plan_schedule(names, rounds=1, seed="s", ruleset=bonn, max_iterations=100).rounds
    first = seating.planned(names, rounds=2, seed="s", ruleset=bonn)
    assert seating.planned(list(reversed(names)), rounds=2, seed="s", ruleset=bonn) is first
    assert searches == [
        {"players": names, "rounds": 2, "seed": "s", "ruleset": bonn, "history": ()}
    ]
    others = [
        seating.planned(names[:-1], rounds=2, seed="s", ruleset=bonn),
        seating.planned(names, rounds=1, seed="s", ruleset=bonn),
        seating.planned(names, rounds=2, seed="t", ruleset=bonn),
        seating.planned(names, rounds=2, seed="s", ruleset=ludo),
        seating.planned(names, rounds=2, seed="s", ruleset=bonn, history=played),
    ]
    assert len(searches) == 6 and len({id(p) for p in [first, *others]}) == 6
    assert searches[-1]["history"] == played
    assert seating.planned(names, rounds=2, seed="s", ruleset=bonn) is first  # 6 kept
    seating.planned(names, rounds=3, seed="s", ruleset=bonn)  # the 7th: the oldest forgotten
    assert seating.planned(names[:-1], rounds=2, seed="s", ruleset=bonn) is not others[0]
