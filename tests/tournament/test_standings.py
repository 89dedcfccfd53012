"""Standings: totals, each ruleset's tie-break chain, decided_by, the lot, explanations."""

from __future__ import annotations

import pytest

from agon.errors import InvalidInput
from agon.tournament.event import parse_event
from agon.tournament.ruleset import load_ruleset
from agon.tournament.standings import compute_standings, lot_input, lot_key, results_digest
from tests.tournament.builders import event_doc


def standings_of(doc: dict) -> list[tuple[str, str | None]]:  # type: ignore[type-arg]
    event = parse_event(doc)
    result = compute_standings(event, load_ruleset(event.ruleset_ref))
    return [(row.player, row.decided_by) for row in result.rows]


FIVE = ["A", "B", "C", "D", "E"]


def test_points_are_summed_over_rounds_and_absent_players_score_nothing() -> None:
    doc = event_doc(
        "bonn-2018",
        [
            [[("A", 50), ("B", 40), ("C", 30), ("D", 20), ("E", 10)]],
            [[("E", 50), ("D", 40), ("C", 30), ("B", 20)]],  # A absent in round 2
        ],
    )
    event = parse_event(doc)
    rows = {r.player: r for r in compute_standings(event, load_ruleset("bonn-2018")).rows}
    assert rows["A"].totals.points == 6 and rows["A"].totals.games == 1
    assert rows["E"].totals.points == 1 + 6
    assert rows["B"].totals.points == 4 + 1


def test_bonn_equal_points_are_decided_by_share() -> None:
    # Two tables of five; A and F both win with 6 points, A with the larger share.
    doc = event_doc(
        "bonn-2018",
        [
            [
                [("A", 60), ("B", 40), ("C", 30), ("D", 20), ("E", 10)],
                [("F", 61), ("G", 59), ("H", 58), ("I", 57), ("J", 56)],
            ]
        ],
    )
    order = standings_of(doc)
    assert order[0] == ("A", None)
    assert order[1] == ("F", "share")


def test_bonn_then_vp_then_coins_then_lot() -> None:
    # Identical tables: equal points and shares; vp differ by scale only if tables differ.
    # Table 1 and 2 are scaled copies (share equal), so vp decides.
    doc = event_doc(
        "bonn-2018",
        [
            [
                [("A", 40), ("B", 30), ("C", 20), ("D", 10)],
                [("E", 80), ("F", 60), ("G", 40), ("H", 20)],
            ]
        ],
    )
    order = dict(standings_of(doc))
    assert order["A"] == "vp"  # E (80) above A (40): same points and share, more vp
    # Exact copies with different coins: coins decide; with equal coins the lot decides.
    doc = event_doc(
        "bonn-2018",
        [
            [
                [("A", 40, 5), ("B", 30), ("C", 20), ("D", 10)],
                [("E", 40, 7), ("F", 30), ("G", 20), ("H", 10)],
            ]
        ],
    )
    assert standings_of(doc)[:2] == [("E", None), ("A", "coins")]
    doc = event_doc(
        "bonn-2018",
        [
            [
                [("A", 40, 5), ("B", 30), ("C", 20), ("D", 10)],
                [("E", 40, 5), ("F", 30), ("G", 20), ("H", 10)],
            ]
        ],
    )
    top = standings_of(doc)[:2]
    assert top[1][1] == "lot"
    lot = lot_input(parse_event(doc))
    assert lot.startswith("test-seed|results:")
    expected_first = min(["A", "E"], key=lambda p: lot_key(lot, p))
    assert top[0][0] == expected_first


def test_ludolimpico_equal_points_are_decided_by_punti_partita() -> None:
    doc = event_doc(
        "ludolimpico-2015",
        [
            [
                [("A", 50, 0, 2), ("B", 40), ("C", 30), ("D", 20), ("E", 10)],
                [("F", 51), ("G", 40), ("H", 30), ("I", 20), ("J", 10)],
            ]
        ],
    )
    order = standings_of(doc)
    # A: PP 48 (50 - 2), F: PP 51
    assert order[:2] == [("F", None), ("A", "pp")]


def test_ranks_run_without_gaps_and_the_lot_is_stable() -> None:
    doc = event_doc("bonn-2018", [[[(p, 30) for p in FIVE]]])
    event = parse_event(doc)
    first = compute_standings(event, load_ruleset("bonn-2018"))
    assert [r.rank for r in first.rows] == [1, 2, 3, 4, 5]
    assert all(r.decided_by == "lot" for r in first.rows[1:])
    again = compute_standings(parse_event(doc), load_ruleset("bonn-2018"))
    assert [r.player for r in again.rows] == [r.player for r in first.rows]
    other_seed = dict(doc, seed="another seed")
    different = [
        [r.player for r in compute_standings(parse_event(dict(doc, seed=s)), first.ruleset).rows]
        for s in ("x1", "x2", "x3", "x4", "x5")
    ]
    assert len({tuple(d) for d in different}) > 1  # the seed really decides the lot
    assert parse_event(other_seed).seed == "another seed"


def test_explain_says_which_criterion_decided() -> None:
    doc = event_doc(
        "bonn-2018",
        [
            [
                [("A", 40, 5), ("B", 30), ("C", 20), ("D", 10)],
                [("E", 40, 7), ("F", 30), ("G", 20), ("H", 10)],
            ]
        ],
    )
    event = parse_event(doc)
    standings = compute_standings(event, load_ruleset("bonn-2018"))
    sentence = standings.explain("A", "E")
    assert sentence.startswith("E (rank 1) is above A (rank 2) on sum of coins: 7 against 5")
    assert "after equal tournament points, sum of shares" in sentence
    assert standings.explain("A", "B").endswith("on tournament points: 6 against 4.")


def test_default_seed_is_derived_from_the_name() -> None:
    doc = event_doc("bonn-2018", [[[(p, 30) for p in FIVE]]])
    del doc["seed"]
    one = parse_event(doc).seed
    assert one == parse_event(dict(doc)).seed
    assert one != parse_event(dict(doc, name="Other")).seed


def test_finals_are_not_part_of_the_qualifying_standings() -> None:
    doc = event_doc(
        "bonn-2018",
        [
            [[("A", 50), ("B", 40), ("C", 30), ("D", 20), ("E", 10)]],
            [[("E", 50), ("D", 40), ("C", 30), ("B", 20), ("A", 10)]],
        ],
    )
    doc["rounds"][1]["final"] = True
    event = parse_event(doc)
    rows = compute_standings(event, load_ruleset("bonn-2018")).rows
    assert rows[0].player == "A" and rows[0].totals.games == 1


def test_the_lot_mixes_in_a_digest_of_every_qualifying_result() -> None:
    """Issue 11: a seed chosen in advance cannot steer the lot, because its input includes a
    digest of the results. Changing any one result (VP, coins or bid of any seat) changes the
    lot's input; a final's result does not (the finalists must not change after the final)."""
    rounds = [
        [
            [("A", 40, 5), ("B", 30), ("C", 20), ("D", 10)],
            [("E", 40, 5), ("F", 30), ("G", 20), ("H", 10)],
        ]
    ]
    base = parse_event(event_doc("bonn-2018", rounds))
    assert lot_input(base) == lot_input(parse_event(event_doc("bonn-2018", rounds)))
    changed = [[list(rounds[0][0]), list(rounds[0][1])]]
    changed[0][1][2] = ("G", 20, 3)  # coins of a player outside the tie between A and E
    other = parse_event(event_doc("bonn-2018", changed))
    assert lot_input(other) != lot_input(base)
    assert results_digest(other.rounds) != results_digest(base.rounds)
    coins = [[list(rounds[0][0]), list(rounds[0][1])]]
    coins[0][0][1] = ("B", 30, 1)
    assert lot_input(parse_event(event_doc("bonn-2018", coins))) != lot_input(base)
    # the standings use it: the tie between A and E is decided by the lot of that input
    top = compute_standings(other, load_ruleset("bonn-2018")).rows[0].player
    assert top == min(["A", "E"], key=lambda p: lot_key(lot_input(other), p))
    # a final's result is left out of the digest
    doc = event_doc("ludolimpico-2015", [[[("A", 50), ("B", 40), ("C", 30), ("D", 20), ("E", 10)]]])
    with_final = event_doc(
        "ludolimpico-2015",
        [
            [[("A", 50), ("B", 40), ("C", 30), ("D", 20), ("E", 10)]],
            [[("A", 10), ("B", 40), ("C", 30), ("D", 20), ("E", 50)]],
        ],
    )
    with_final["rounds"][1]["final"] = True
    assert lot_input(parse_event(doc)) == lot_input(parse_event(with_final))


def test_a_player_who_left_during_the_game_scores_nothing_and_the_table_is_scored_without_him() -> (
    None
):
    """Ludolimpico 2.5 (Ritiro): the leaving player's cards leave the game and the others play
    on; the regulation gives him no score. He scores nothing for that game, the table is scored
    as a table of four (filled to five with the virtual player, Ludolimpico 4), and the
    standings say so."""
    doc = event_doc(
        "ludolimpico-2015",
        [[[("A", 50), ("B", 40), ("C", 30), ("D", 20), ("E", 10)]]],
    )
    doc["rounds"][0]["tables"][0]["results"][1] = {"player": "B", "left": True}
    event = parse_event(doc)
    ruleset = load_ruleset("ludolimpico-2015")
    rows = {r.player: r for r in compute_standings(event, ruleset).rows}
    assert rows["B"].totals.points == 0 and rows["B"].totals.games == 0
    assert rows["B"].totals.pp == 0
    # A 50, C 30, D 20, E 10, virtual floor(110 / 4) = 27: A 10, C 7, (virtual 5), D 3, E 1
    assert [rows[p].totals.points for p in "ACDE"] == [10, 7, 3, 1]
    assert rows["B"].notes == (
        "left during round 1 (table 1): no score for that game, the table was scored without "
        "them (Ludolimpico 2015, 2.5 «Ritiro / Espulsione»)",
    )
    assert rows["A"].notes == ()
    explained = compute_standings(event, ruleset).explain("A", "B")
    assert "B left during round 1 (table 1): no score for that game" in explained


def test_left_refuses_an_invented_score() -> None:
    doc = event_doc("ludolimpico-2015", [[[("A", 50), ("B", 40), ("C", 30), ("D", 20)]]])
    doc["rounds"][0]["tables"][0]["results"][1] = {"player": "B", "left": True, "vp": 12}
    with pytest.raises(InvalidInput, match=r"player 'B', field 'vp': a player who left"):
        parse_event(doc)
