"""Registration: ruleset limits (with explicit override), duplicate names, CSV import, entry fee,
check-in deadline and late entries, drops/withdrawals/expulsions, warnings and penalties."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy.orm import Session
from svc_helpers import T0, new_tournament, play_round, split

from agon.errors import Conflict, IllegalAction, InvalidInput
from agon.services import players, rounds, tournaments
from agon.services.schemas import PlayerCreate, TournamentCreate


def test_ruleset_player_limits_hold_unless_overridden(session: Session) -> None:
    names = new_tournament(session, "ludo", "ludolimpico-2015", 20)
    with pytest.raises(InvalidInput, match="at most 20 players"):
        players.register_player(
            session, tournament="ludo", data=PlayerCreate("Extra"), actor="desk"
        )
    small = new_tournament(session, "bonn", "bonn-2018", 11)
    with pytest.raises(IllegalAction, match="needs at least 12"):
        rounds.start_round(session, tournament="bonn", actor="d", tables=split(small, (4, 4, 3)))
    few = new_tournament(session, "few", "bonn-2018", 7, min_players=6)
    assert tournaments.get_tournament(session, slug="few").players_override
    rounds.start_round(session, tournament="few", actor="d", tables=split(few, (4, 3)))
    assert len(names) == 20


def test_duplicate_names_need_a_distinguishing_tag(session: Session) -> None:
    tournaments.create_tournament(
        session,
        data=TournamentCreate(slug="b", name="B", ruleset="bonn-2018", seed="s"),
        actor="d",
    )
    players.register_player(session, tournament="b", data=PlayerCreate("Anna"), actor="d")
    with pytest.raises(Conflict, match="registered already"):
        players.register_player(session, tournament="b", data=PlayerCreate("Anna"), actor="d")
    with pytest.raises(Conflict, match="give both a distinguishing"):
        players.register_player(
            session, tournament="b", data=PlayerCreate("Anna", tag="Köln"), actor="d"
        )
    players.register_player(
        session, tournament="b", data=PlayerCreate("Ben", tag="Bonn"), actor="d"
    )
    second = players.register_player(
        session, tournament="b", data=PlayerCreate("Ben", tag="Köln"), actor="d"
    )
    assert second.name == "Ben (Köln)" and second.extra["tag"] == "Köln"


def test_csv_import_is_all_or_nothing() -> None:
    text = "name,tag,club,fee_paid\nAnna,Bonn,Spielwiese,yes\nAnna,Köln,,no\nCarla,,,\n"
    parsed = players.parse_players_csv(text, origin="p.csv")
    assert [p.key for p in parsed] == ["Anna (Bonn)", "Anna (Köln)", "Carla"]
    assert [p.fee_paid for p in parsed] == [True, False, False]
    assert parsed[0].extra == {"club": "Spielwiese"}
    with pytest.raises(
        InvalidInput,
        match=r"p.csv: line 3: player 'Anna' is also on line 2; add a distinguishing 'tag'",
    ):
        players.parse_players_csv("name\nAnna\nAnna\n", origin="p.csv")
    with pytest.raises(InvalidInput, match="line 2: fee_paid 'maybe'"):
        players.parse_players_csv("name,fee_paid\nAnna,maybe\n", origin="p.csv")
    with pytest.raises(InvalidInput, match="header with a 'name' column"):
        players.parse_players_csv("player\nAnna\n", origin="p.csv")


def test_fee_and_check_in_deadline_decide_who_is_seated(session: Session) -> None:
    # Ludolimpico 1: the fee is due 15 minutes before the start
    start = T0 + timedelta(hours=1)
    tournaments.create_tournament(
        session,
        data=TournamentCreate(
            slug="l", name="L", ruleset="ludolimpico-2015", seed="s", starts_at=start
        ),
        actor="d",
        now=T0,
    )
    t = tournaments.get_tournament(session, slug="l")
    assert t.checkin_deadline == start - timedelta(minutes=15) and t.fee_required
    names = [f"P{i}" for i in range(10)]
    players.import_players(
        session, tournament="l", players=[PlayerCreate(n) for n in names], actor="d", now=T0
    )
    with pytest.raises(IllegalAction, match="entry fee is due"):
        players.check_in(session, tournament="l", player="P0", actor="d", now=T0)
    for n in names[:9]:
        players.set_fee(session, tournament="l", player=n, paid=True, actor="d", now=T0)
        players.check_in(session, tournament="l", player=n, actor="d", now=T0)
    players.set_fee(session, tournament="l", player="P9", paid=True, actor="d", now=T0)
    too_late = start - timedelta(minutes=10)
    with pytest.raises(IllegalAction, match=r"deadline .* has passed"):
        players.check_in(session, tournament="l", player="P9", actor="d", now=too_late)
    late = players.check_in(
        session, tournament="l", player="P9", actor="d", now=too_late, late=True
    )
    assert late.late and late.checked_in
    # the late entry is seated like everyone once checked in; a non-checked-in player is not
    with pytest.raises(InvalidInput, match="'P9' is not seated"):
        rounds.start_round(session, tournament="l", actor="d", tables=split(names[:9], (5, 4)))
    rounds.start_round(session, tournament="l", actor="d", tables=split(names, (5, 5)))


def test_late_entry_joins_from_the_next_round(session: Session) -> None:
    names = new_tournament(session, "b", "bonn-2018", 12)
    rng = random.Random(3)
    rounds.start_round(session, tournament="b", actor="d", tables=split(names, (4, 4, 4)))
    newcomer = players.register_player(session, tournament="b", data=PlayerCreate("Zoe"), actor="d")
    assert newcomer.late
    with pytest.raises(IllegalAction, match="round 1 has started"):
        players.check_in(session, tournament="b", player="Zoe", actor="d")
    players.check_in(session, tournament="b", player="Zoe", actor="d", late=True)
    from agon.services import results

    for table, seats in enumerate(split(names, (4, 4, 4)), start=1):
        from svc_helpers import random_results

        results.enter_result(
            session,
            tournament="b",
            round_number=1,
            table=table,
            results=random_results(seats, rng),
            actor="s",
        )
        results.confirm_result(session, tournament="b", round_number=1, table=table, actor="d")
    rounds.close_round(session, tournament="b", actor="d")
    play_round(session, "b", split([*names, "Zoe"], (5, 4, 4)), rng)


def test_drops_and_sanctions(session: Session) -> None:
    names = new_tournament(session, "l", "ludolimpico-2015", 11)
    rng = random.Random(4)
    play_round(session, "l", split(names, (4, 4, 3)), rng)
    gone = players.drop_player(
        session, tournament="l", player=names[0], kind="withdraw", reason="ill", actor="d"
    )
    assert (gone.status, gone.status_round) == ("withdrawn", 1)
    players.drop_player(
        session, tournament="l", player=names[1], kind="expel", reason="2.5: cheating", actor="d"
    )
    with pytest.raises(IllegalAction, match="expelled already"):
        players.drop_player(
            session, tournament="l", player=names[1], kind="drop", reason="", actor="d"
        )
    with pytest.raises(InvalidInput, match=f"player {names[0]!r} cannot be seated"):
        rounds.start_round(session, tournament="l", actor="d", tables=split(names[:9], (5, 4)))
    play_round(session, "l", split(names[2:], (5, 4)), rng)
    warned = players.add_sanction(
        session,
        tournament="l",
        player=names[2],
        kind="warning",
        reason="2.3: card played wrongly",
        actor="d",
    )
    assert [(s.kind, s.round) for s in warned.sanctions] == [("warning", 2)]
    with pytest.raises(InvalidInput, match="needs a reason"):
        players.add_sanction(
            session, tournament="l", player=names[2], kind="penalty", reason=" ", actor="d"
        )
    # the withdrawn player's round-1 result still counts
    from agon.services import exchange

    row = exchange.standings(session, tournament="l").row_of(names[0])
    assert row.totals.games == 1
