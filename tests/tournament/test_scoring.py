"""Scoring one table: every numbered rule of the contract, and the documents' worked examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from agon.tournament.event import Result
from agon.tournament.ruleset import Ruleset, load_ruleset
from agon.tournament.scoring import TableScore, placing_score, score_table, virtual_score

BONN = load_ruleset("bonn-2018")
LUDO = load_ruleset("ludolimpico-2015")
CHAMP = load_ruleset("de-championship")


def table(ruleset: Ruleset, *rows: tuple[str, int] | tuple[str, int, int, int]) -> TableScore:
    """Score a table from (player, vp[, coins, bid]) rows in seat order."""
    results = [
        Result(row[0], row[1], *(row[2:] if len(row) > 2 else ()))  # type: ignore[arg-type]
        for row in rows
    ]
    return score_table(ruleset, results)


def points(scored: TableScore) -> dict[str, Fraction]:
    return {s.player: s.rank_points for s in scored.seats if s.player is not None}


# Rule 1 — placing score -------------------------------------------------------------------------


def test_rule1_bonn_places_by_vp_and_ignores_bid() -> None:
    assert placing_score(BONN, Result("A", 50, coins=3, bid=4)) == 50


def test_rule1_ludolimpico_places_by_vp_minus_bid() -> None:
    # Ludolimpico 2.1: the auction is paid in victory points.
    assert placing_score(LUDO, Result("A", 50, coins=3, bid=4)) == 46
    scored = table(LUDO, ("A", 50, 0, 6), ("B", 47, 0, 0), ("C", 40), ("D", 30), ("E", 20))
    assert points(scored)["B"] == 10 and points(scored)["A"] == 7


# Rule 2 — virtual players -----------------------------------------------------------------------


def test_rule2_bonn_virtual_player_scores_the_exact_mean() -> None:
    scored = table(BONN, ("A", 10), ("B", 11), ("C", 11))
    virtual = [s for s in scored.seats if s.virtual]
    assert len(virtual) == 2  # a table of three gets two virtual players (5 - 3)
    assert all(s.placing == Fraction(32, 3) for s in virtual)


def test_rule2_ludolimpico_virtual_player_rounds_the_mean_down() -> None:
    assert virtual_score(LUDO, [41, 35, 25, 20]) == 30  # 121 / 4 = 30.25 -> 30
    assert virtual_score(LUDO, [-1, -2]) == -2  # rounded down, also below zero
    assert virtual_score(BONN, [41, 35, 25, 20]) == Fraction(121, 4)


def test_rule2_full_table_has_no_virtual_player() -> None:
    scored = table(BONN, ("A", 50), ("B", 40), ("C", 30), ("D", 20), ("E", 10))
    assert not any(s.virtual for s in scored.seats)


# Rule 3 — order and ties ------------------------------------------------------------------------


def test_rule3_bonn_real_player_can_tie_the_virtual_player() -> None:
    # 40, 35, 25, 20 -> virtual 30; a real 30 would tie it. Use 45, 30, 25, 20: mean 30.
    scored = table(BONN, ("A", 45), ("B", 30), ("C", 25), ("D", 20))
    b = scored.seat_of("B")
    assert b.place == 2 and b.tied == 2
    assert b.rank_points == Fraction(4 + 3, 2)


def test_rule3_ludolimpico_smaller_bid_is_placed_first() -> None:
    # equal placing scores (52 - 3 = 50 - 1 = 49) with different bids
    scored = table(LUDO, ("A", 52, 0, 3), ("B", 50, 0, 1), ("C", 40), ("D", 30), ("E", 20))
    assert scored.seat_of("A").placing == scored.seat_of("B").placing == 49
    assert points(scored)["B"] == 10 and points(scored)["A"] == 7


def test_rule3_ludolimpico_equal_bids_too_are_tied() -> None:
    scored = table(LUDO, ("A", 52, 0, 2), ("B", 52, 9, 2), ("C", 40), ("D", 30), ("E", 20))
    assert points(scored)["A"] == points(scored)["B"] == Fraction(17, 2)


def test_rule3_ludolimpico_virtual_player_behind_real_players_with_same_score() -> None:
    # 45, 30, 25, 20: virtual 30, equal to B's 30 -> B placed before the virtual player.
    scored = table(LUDO, ("A", 45), ("B", 30), ("C", 25), ("D", 20))
    assert [s.player for s in scored.seats] == ["A", "B", None, "C", "D"]
    assert points(scored) == {"A": 10, "B": 7, "C": 3, "D": 1}


def test_rule3_bonn_coins_do_not_break_ties_in_a_game() -> None:
    # Bonn, "Münzen": "Die Münzen entscheiden nicht in der aktuellen Partie (hier erfolgt eine Punktteilung)".
    scored = table(BONN, ("A", 50, 9, 0), ("B", 50, 1, 0), ("C", 40), ("D", 30), ("E", 20))
    assert points(scored)["A"] == points(scored)["B"] == 5


def test_rule3_championship_breaks_ties_by_coins_then_shares() -> None:
    scored = table(CHAMP, ("A", 50, 3, 0), ("B", 50, 7, 0), ("C", 40, 0, 0), ("D", 30, 0, 0))
    assert points(scored) == {"B": 5, "A": 3, "C": 2, "D": 1}
    scored = table(CHAMP, ("A", 50, 7, 0), ("B", 50, 7, 0), ("C", 40, 0, 0), ("D", 30, 0, 0))
    assert points(scored)["A"] == points(scored)["B"] == 4


# Rule 4 — rank points -----------------------------------------------------------------------------


def test_rule4_bonn_worked_example_two_tied_first_get_five_each() -> None:
    # Bonn, "Wie erfolgt die Wertung": "2x erster Platz = (6 + 4)/2 = 5 Punkte".
    scored = table(BONN, ("A", 55), ("B", 55), ("C", 48), ("D", 40), ("E", 31))
    assert points(scored) == {"A": 5, "B": 5, "C": 3, "D": 2, "E": 1}


def test_rule4_three_way_tie_shares_three_places() -> None:
    scored = table(BONN, ("A", 40), ("B", 50), ("C", 50), ("D", 50), ("E", 20))
    assert points(scored)["B"] == Fraction(6 + 4 + 3, 3)
    assert points(scored)["A"] == 2


def test_rule4_ludolimpico_worked_examples() -> None:
    # Ludolimpico 4: 40/35/25/20, virtual 120/4 = 30 comes third; its points are discarded.
    scored = table(LUDO, ("A", 40), ("B", 35), ("C", 25), ("D", 20))
    assert [s.player for s in scored.seats] == ["A", "B", None, "C", "D"]
    assert scored.seats[2].placing == 30
    assert points(scored) == {"A": 10, "B": 7, "C": 3, "D": 1}
    # "(10+7)/2 ... 8,5 a testa" and "(7+5)/2 ... 6 a testa".
    first = table(LUDO, ("A", 50), ("B", 50), ("C", 40), ("D", 30), ("E", 20))
    assert points(first)["A"] == points(first)["B"] == Fraction(17, 2)
    second = table(LUDO, ("A", 60), ("B", 50), ("C", 50), ("D", 30), ("E", 20))
    assert points(second)["B"] == points(second)["C"] == 6


def test_rule4_virtual_points_are_discarded_but_counted_in_the_total() -> None:
    scored = table(BONN, ("A", 45), ("B", 30), ("C", 25), ("D", 20))
    assert sum(s.rank_points for s in scored.seats) == 16 == scored.rank_points_total
    assert sum(points(scored).values()) == 16 - Fraction(7, 2)


def test_rule4_championship_table_of_three_uses_5_3_1_and_no_virtual_place() -> None:
    scored = table(CHAMP, ("A", 50), ("B", 40), ("C", 30))
    assert points(scored) == {"A": 5, "B": 3, "C": 1}
    virtual = [s for s in scored.seats if s.virtual]
    assert len(virtual) == 1 and virtual[0].place is None and virtual[0].rank_points == 0


# Rule 5 — share -------------------------------------------------------------------------------------


def test_rule5_share_includes_virtual_seats() -> None:
    scored = table(BONN, ("A", 40), ("B", 35), ("C", 25), ("D", 20))
    # total = 120 + virtual 30 = 150
    assert scored.seat_of("A").share == Fraction(40, 150)
    assert sum(s.share for s in scored.seats) == 1


def test_rule5_zero_total_gives_one_fifth_each() -> None:
    scored = table(BONN, ("A", 0), ("B", 0), ("C", 0), ("D", 0))
    assert all(s.share == Fraction(1, 5) for s in scored.seats)


def test_rule5_championship_share_counts_the_virtual_fourth() -> None:
    scored = table(CHAMP, ("A", 50), ("B", 40), ("C", 30))
    # exact mean 40 for the virtual fourth: total 160
    assert scored.seat_of("A").share == Fraction(50, 160)


@pytest.mark.parametrize("ruleset", [BONN, LUDO, CHAMP], ids=lambda r: r.name)
def test_every_allowed_table_size_scores(ruleset: Ruleset) -> None:
    for size in ruleset.table_sizes:
        scored = score_table(ruleset, [Result(f"P{i}", 30 + i) for i in range(size)])
        assert len(scored.real()) == size
        best = max(scored.real(), key=lambda s: s.placing)
        assert best.rank_points == ruleset.rank_points(ruleset.places_at(size))[0]
