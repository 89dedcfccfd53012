"""Rulesets as data: the built-ins say what the documents say; user files are validated."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from agon.errors import InvalidInput
from agon.tournament.event import load_event
from agon.tournament.ruleset import builtin_ruleset_names, load_ruleset, parse_ruleset
from agon.tournament.standings import compute_standings
from tests.tournament.builders import event_doc
from tests.tournament.conftest import WriteEvent


def test_bonn_2018_is_what_the_document_says() -> None:
    bonn = load_ruleset("bonn-2018")
    assert (bonn.min_players, bonn.max_players, bonn.rounds) == (12, 40, 4)  # "Mind. 12, Max. 40"
    assert bonn.rank_points(5) == (6, 4, 3, 2, 1)
    assert bonn.table_sizes == (5, 4, 3) and bonn.preferred_table_size == 5
    assert (bonn.virtual_fill_to, bonn.virtual_score) == (5, "mean")
    assert bonn.standings_tie_breakers == ("share", "vp", "coins", "lot")
    assert bonn.seating == "schedule" and bonn.wonder_sides == "choice"


def test_ludolimpico_2015_is_what_the_document_says() -> None:
    ludo = load_ruleset("ludolimpico-2015")
    assert (ludo.min_players, ludo.max_players, ludo.rounds) == (8, 20, 3)
    assert ludo.rank_points(5) == (10, 7, 5, 3, 1)
    assert ludo.placing_score == "vp-minus-bid" and ludo.virtual_score == "mean-floor"
    assert ludo.game_tie_breakers == ("real-before-virtual", "bid-asc")
    assert ludo.standings_tie_breakers == ("pp", "lot")
    assert ludo.seating == "swiss" and ludo.auction and ludo.finalists == 5
    assert ludo.round_minutes == 30 and ludo.illegal_play == "discard-no-coins"


def test_championship_rank_points_depend_on_table_size() -> None:
    champ = load_ruleset("de-championship")
    assert champ.rank_points(champ.places_at(4)) == (5, 3, 2, 1)
    assert champ.rank_points(champ.places_at(3)) == (5, 3, 1)
    assert champ.game_tie_breakers == ("coins-desc",)
    assert not champ.virtual_take_places and champ.virtual_in_share


def test_titles_in_three_languages() -> None:
    for name in builtin_ruleset_names():
        ruleset = load_ruleset(name)
        assert {"en", "de", "it"} <= set(ruleset.title)
        assert ruleset.title_in("fr") == ruleset.title["en"]


CUSTOM = """
name = "club-night"
[players]
min = 3
max = 10
[rounds]
count = 2
[tables]
sizes = [4, 3]
[virtual]
fill_to = 0
[rank_points]
default = [3, 2, 1, 0]
[standings]
tiebreaks = ["vp", "lot"]
"""


def test_a_user_ruleset_file_next_to_the_event(write_event: WriteEvent) -> None:
    path = write_event(event_doc("club.toml", [[[("A", 40), ("B", 30), ("C", 30)]]]))
    (path.parent / "club.toml").write_text(CUSTOM, encoding="utf-8")
    event, ruleset = load_event(path)
    assert ruleset.name == "club-night"
    rows = compute_standings(event, ruleset).rows
    assert next((r.player, float(r.totals.points)) for r in rows) == ("A", 3.0)
    assert rows[1].totals.points == rows[2].totals.points == pytest.approx(1.5)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("min = 3", 'min = "three"'), "field 'players.min': must be an integer, got 'three'"),
        (("sizes = [4, 3]", "sizes = []"), "field 'tables.sizes': must be a non-empty list"),
        (("default = [3, 2, 1, 0]", "default = [3, 2]"), "a table of 4 hands out 4 places"),
        (('tiebreaks = ["vp", "lot"]', 'tiebreaks = ["elo"]'), "unknown entry 'elo'"),
        (("max = 10", "max = 2"), "field 'players.max': is below players.min"),
        (("[players]", "[players"), "malformed TOML"),
    ],
)
def test_invalid_user_rulesets_name_the_field(change: tuple[str, str], message: str) -> None:
    with pytest.raises(InvalidInput) as err:
        parse_ruleset(CUSTOM.replace(*change), origin="club.toml")
    assert str(err.value).startswith("club.toml: ")
    assert message in str(err.value)


def test_unknown_ruleset_name(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="unknown ruleset 'bonn-2019'"):
        load_ruleset("bonn-2019", base_dir=tmp_path)


def test_time_up_rule_is_data() -> None:
    """Ludolimpico 2015, 1.: half an hour, then the age being played is finished."""
    assert load_ruleset("ludolimpico-2015").time_up == "finish-age"
    assert load_ruleset("bonn-2018").time_up == "finish-game"
    text = (resources.files("agon.tournament.rulesets") / "bonn-2018.toml").read_text("utf-8")
    bad = text.replace("[rounds]", '[rounds]\ntime_up = "stop-now"')
    with pytest.raises(InvalidInput, match=r"rounds\.time_up"):
        parse_ruleset(bad, origin="x")
