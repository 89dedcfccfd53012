"""Hypothesis properties of scoring and standings (issue "Foundation", *Tests and benchmark*)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from agon.tournament.event import Event, Player, Result, Round, Table
from agon.tournament.ruleset import Ruleset, load_ruleset
from agon.tournament.scoring import score_table
from agon.tournament.standings import compute_standings

RULESETS = [load_ruleset(name) for name in ("bonn-2018", "ludolimpico-2015", "de-championship")]
rulesets = st.sampled_from(RULESETS)


@st.composite
def table_results(draw: st.DrawFn, ruleset: Ruleset, min_vp: int = -10) -> list[Result]:
    size = draw(st.sampled_from(ruleset.table_sizes))
    bids = st.integers(0, 8) if ruleset.auction else st.just(0)
    return [
        Result(f"P{i}", draw(st.integers(min_vp, 90)), draw(st.integers(0, 30)), draw(bids))
        for i in range(size)
    ]


@st.composite
def events(draw: st.DrawFn, min_vp: int = -10) -> Event:
    ruleset = draw(rulesets)
    n_players = draw(st.integers(max(ruleset.table_sizes), 16))
    names = [f"Player {i:02d}" for i in range(n_players)]
    rounds = []
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(1, 4))):
        present = [n for n in names if draw(st.booleans()) or n_players < 9]
        rng.shuffle(present)
        tables = []
        size = max(ruleset.table_sizes)
        while len(present) >= min(ruleset.table_sizes):
            take = (
                size
                if len(present) - size not in range(1, min(ruleset.table_sizes))
                else min(ruleset.table_sizes)
            )
            take = min(take, len(present))
            if take not in ruleset.table_sizes:
                break
            seat, present = present[:take], present[take:]
            bid = st.integers(0, 6) if ruleset.auction else st.just(0)
            tables.append(
                Table(
                    tuple(
                        Result(
                            p, draw(st.integers(min_vp, 80)), draw(st.integers(0, 20)), draw(bid)
                        )
                        for p in seat
                    )
                )
            )
        rounds.append(Round(tuple(tables)))
    return Event(
        name="prop",
        ruleset_ref=ruleset.name,
        seed=draw(st.text(max_size=8)),
        players=tuple(Player(n) for n in names),
        rounds=tuple(rounds),
    )


def ruleset_of(event: Event) -> Ruleset:
    return next(r for r in RULESETS if r.name == event.ruleset_ref)


@given(st.data())
def test_rank_points_at_a_table_sum_to_the_rulesets_total(data: st.DataObject) -> None:
    """Real seats plus the discarded virtual ones get exactly the points of all places."""
    ruleset = data.draw(rulesets)
    results = data.draw(table_results(ruleset))
    scored = score_table(ruleset, results)
    places = ruleset.places_at(len(results))
    assert sum(s.rank_points for s in scored.seats) == sum(ruleset.rank_points(places))
    assert scored.rank_points_total == sum(ruleset.rank_points(places))
    if any(s.share for s in scored.seats if ruleset.virtual_in_share or not s.virtual):
        shares = [s.share for s in scored.seats if ruleset.virtual_in_share or not s.virtual]
        assert sum(shares) == 1


@given(events(), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_reordering_seats_or_players_never_changes_the_standings(
    event: Event, rnd: random.Random
) -> None:
    ruleset = ruleset_of(event)
    before = compute_standings(event, ruleset)
    players = list(event.players)
    rnd.shuffle(players)
    rounds = []
    for r in event.rounds:
        tables = []
        for t in r.tables:
            seats = list(t.results)
            rnd.shuffle(seats)
            tables.append(Table(tuple(seats)))
        rnd.shuffle(tables)
        rounds.append(Round(tuple(tables)))
    shuffled = Event(event.name, event.ruleset_ref, event.seed, tuple(players), tuple(rounds))
    after = compute_standings(shuffled, ruleset)
    assert [(r.player, r.totals, r.decided_by) for r in before.rows] == [
        (r.player, r.totals, r.decided_by) for r in after.rows
    ]


@given(events(min_vp=0), st.data())
@settings(max_examples=80, deadline=None)
def test_one_more_victory_point_never_lowers_a_player(event: Event, data: st.DataObject) -> None:
    """Adding 1 to a player's ``vp`` in one game never moves them down the standings.

    Scores are drawn from 0 up: with a negative table total the share (VP / table total) is no
    longer a fraction of the table, and one more VP can lower it — a property of the Bonn rule
    itself (five players on -5, -10, -10, -10, -10: the winner's share is 5/45; on -4 it is 4/44).
    """
    ruleset = ruleset_of(event)
    games = [
        (ri, ti, si)
        for ri, r in enumerate(event.rounds)
        for ti, t in enumerate(r.tables)
        for si in range(len(t.results))
    ]
    if not games:
        return
    ri, ti, si = data.draw(st.sampled_from(games))
    old = event.rounds[ri].tables[ti].results[si]
    new = Result(old.player, old.vp + 1, old.coins, old.bid)
    rounds = list(event.rounds)
    tables = list(rounds[ri].tables)
    seats = list(tables[ti].results)
    seats[si] = new
    tables[ti] = Table(tuple(seats))
    rounds[ri] = Round(tuple(tables))
    better = Event(event.name, event.ruleset_ref, event.seed, event.players, tuple(rounds))
    rank_before = compute_standings(event, ruleset).row_of(old.player).rank
    rank_after = compute_standings(better, ruleset).row_of(old.player).rank
    assert rank_after <= rank_before


@given(st.data())
def test_tied_seats_get_equal_points_and_better_seats_never_fewer(data: st.DataObject) -> None:
    ruleset = data.draw(rulesets)
    scored = score_table(ruleset, data.draw(table_results(ruleset)))
    placed = [s for s in scored.seats if s.place is not None]
    for a, b in itertools.pairwise(placed):
        assert a.rank_points >= b.rank_points
        if a.place == b.place:
            assert a.rank_points == b.rank_points
    assert all(isinstance(s.rank_points, Fraction) for s in scored.seats)


@given(
    st.lists(
        st.tuples(
            st.integers(0, 6),
            st.fractions(min_value=0, max_value=3, max_denominator=10**6),
            st.integers(0, 5),
        ),
        min_size=1,
        max_size=40,
    ),
    st.sampled_from([10**-15, 0, 10**-9]),
)
def test_fast_ordering_equals_the_exact_ordering(
    rows: list[tuple[int, Fraction, int]], nudge: float
) -> None:
    """Float keys with exact re-sorting of close runs give exactly the Fraction ordering."""
    from agon.tournament.standings import Totals, _chain, _order, _sort_value, _values

    bonn = RULESETS[0]
    totals = [
        Totals(f"p{i}", Fraction(pts), share + Fraction(nudge) * (i % 2), vp, 0, 0, 1)
        for i, (pts, share, vp) in enumerate(rows)
    ]
    chain = _chain(bonn)
    exact = sorted(totals, key=lambda t: (tuple(_sort_value(t, c, "s") for c in chain), t.player))
    columns = [_values(totals, c, "s") for c in chain]
    assert [totals[n] for n in _order(totals, chain, columns)] == exact
