"""Finals (Ludolimpico 1): the best five qualify, an absent finalist is replaced by the next in the
standings, the final's own ranking decides the podium (medals for the top three)."""

from __future__ import annotations

import random

import pytest
from sqlalchemy.orm import Session
from svc_helpers import new_tournament, play_round, split

from agon.errors import IllegalAction
from agon.services import exchange, results, rounds
from agon.services.schemas import ResultIn


def test_final_with_an_absent_finalist_and_the_podium(session: Session) -> None:
    names = new_tournament(session, "l", "ludolimpico-2015", 10)
    rng = random.Random(2015)
    with pytest.raises(IllegalAction, match="after 3 closed qualifying rounds"):
        rounds.start_final(session, tournament="l", actor="d")
    for _ in range(3):
        rng.shuffle(names)
        play_round(session, "l", split(names, (5, 5)), rng, bids=True)
    ranked = [r.player for r in exchange.standings(session, tournament="l").rows]
    absent = ranked[1]
    final = rounds.start_final(session, tournament="l", actor="d", absent=[absent])
    seats = list(final.tables[0].seats)
    assert final.final and seats == [ranked[0], *ranked[2:6]]  # the 6th replaces the 2nd
    assert final.info["replaced"] == {absent: ranked[5]}
    with pytest.raises(IllegalAction, match=r"final has not been started|result is open"):
        exchange.final_ranking(session, tournament="l")
    # the final's own result decides, whatever the qualifying standings were: reverse them
    vps = {name: 40 + 5 * i for i, name in enumerate(seats)}
    vps[seats[0]] = vps[seats[1]]  # a tie for places 4-5 after the reversal, equal bids
    results.enter_result(
        session,
        tournament="l",
        round_number=4,
        table=1,
        actor="d",
        results=[ResultIn(n, vps[n]) for n in seats],
    )
    results.confirm_result(session, tournament="l", round_number=4, table=1, actor="d")
    ranking = exchange.final_ranking(session, tournament="l")
    podium = [(p.place, p.player, p.medal) for p in ranking.final]
    assert podium[:3] == [(1, seats[4], "gold"), (2, seats[3], "silver"), (3, seats[2], "bronze")]
    assert {p.player for p in ranking.final[3:]} == {seats[0], seats[1]}
    assert all(p.place == 4 and p.tied == 2 for p in ranking.final[3:])
    assert [name for _, name in ranking.others] == [n for n in ranked if n not in seats]
    assert ranking.others[0][0] == 6
    # the final does not count for the qualifying standings
    assert [r.player for r in exchange.standings(session, tournament="l").rows] == ranked
    rounds.close_round(session, tournament="l", actor="d", number=4)
    with pytest.raises(IllegalAction, match="the final has been played"):
        rounds.start_final(session, tournament="l", actor="d")
