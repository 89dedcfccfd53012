"""The "left during the game" box is offered only where the ruleset has a rule for it
(``[results] left_rule``), and the standings explain such a game with that rule's own words from
the ruleset data, never with another regulation's (issue 32, 5.)."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session

from agon.errors import InvalidInput
from agon.i18n.explain import left_notes_in
from agon.services import exchange, results, rounds
from agon.services.schemas import ResultIn
from agon.tournament.event import parse_event
from agon.tournament.ruleset import _builtin_text, load_ruleset, parse_ruleset
from agon.tournament.standings import compute_standings
from tests.web.conftest import BONN_TABLES, TestClient, make_bonn

LUDO_RULE = "Ludolimpico 2015, 2.5 «Ritiro / Espulsione»"


def test_the_rule_is_ruleset_data() -> None:
    assert load_ruleset("ludolimpico-2015").left_rule == LUDO_RULE
    assert not load_ruleset("bonn-2018").has_left_rule
    assert not load_ruleset("de-championship").has_left_rule
    club = _builtin_text("bonn-2018").replace(
        "[results]", '[results]\nleft_rule = "Clubregel 7 (Abbruch)"'
    )
    assert parse_ruleset(club).left_rule == "Clubregel 7 (Abbruch)"
    for bad in ("left_rule = 7", 'left_rule = "a\\nb"', f'left_rule = "{"x" * 201}"'):
        with pytest.raises(InvalidInput, match=r"results\.left_rule"):
            parse_ruleset(_builtin_text("bonn-2018").replace("[results]", f"[results]\n{bad}"))


def test_bonn_tables_offer_no_left_box_ludolimpico_tables_do(
    director: TestClient, db: Session, bonn: str
) -> None:
    page = director.get("/desk/bonn/rounds/1?lang=de").text
    assert "Player A" in page and 'name="vp-1"' in page
    assert 'name="left-' not in page and "Ludolimpico" not in page
    names = tuple(f"P{i}" for i in range(10))
    make_bonn(db, slug="ludo", names=names, ruleset="ludolimpico-2015")
    rounds.start_round(db, tournament="ludo", actor="t", tables=[list(names[:5]), list(names[5:])])
    db.rollback()
    page = html.unescape(director.get("/desk/ludo/rounds/1?lang=it").text)
    assert 'name="left-1"' in page
    title = re.search(r'<label class="left-game" title="([^"]*)"', page)
    assert title and title.group(1).endswith(f"({LUDO_RULE}).")


def test_a_game_left_at_bonn_is_explained_without_another_rulesets_rule(
    client: TestClient, db: Session, bonn: str
) -> None:
    """Left recorded at a Bonn table (through the API or an import): the standings say so,
    citing no rule (Bonn has none), and surely not Ludolimpico's."""
    seats = BONN_TABLES[0]
    entered = [ResultIn(player=seats[0], vp=0, left=True)] + [
        ResultIn(player=p, vp=40 + k, coins=k) for k, p in enumerate(seats[1:])
    ]
    results.enter_result(
        db, tournament=bonn, round_number=1, table=1, results=entered, actor="test"
    )
    db.commit()
    rows = {r.player: r for r in exchange.standings(db, tournament=bonn).rows}
    db.rollback()
    assert rows[seats[0]].notes == (
        "left during round 1 (table 1): no score for that game, the table was scored without them",
    )
    for lang in ("de", "it", "en"):
        page = html.unescape(client.get(f"/p/bonn?lang={lang}").text)
        assert "Ludolimpico" not in page
        assert left_notes_in(rows[seats[0]], lang)[0] in page


def test_the_standings_cite_the_rulesets_own_rule() -> None:
    doc = {
        "name": "Left",
        "ruleset": "ludolimpico-2015",
        "players": list("ABCDE"),
        "rounds": [{"tables": [{"results": [
            {"player": "A", "vp": 50}, {"player": "B", "left": True}, {"player": "C", "vp": 30},
            {"player": "D", "vp": 20}, {"player": "E", "vp": 10},
        ]}]}],
    }  # fmt: skip
    event = parse_event(doc)
    club = parse_ruleset(
        _builtin_text("ludolimpico-2015").replace(LUDO_RULE, "Clubregel 7 (Abbruch)")
    )
    for ruleset, rule in (
        (load_ruleset("ludolimpico-2015"), LUDO_RULE),
        (club, "Clubregel 7 (Abbruch)"),
    ):
        standings = compute_standings(event, ruleset)
        row = standings.row_of("B")
        assert row.notes[0].endswith(f"without them ({rule})")
        german = left_notes_in(row, "de", ruleset.left_rule)[0]
        assert german.endswith(f"ohne diese Person gewertet ({rule}).")
        italian = left_notes_in(row, "it", ruleset.left_rule)[0]
        assert italian.endswith(f"senza tenerne conto ({rule}).") and "lui" not in italian


@settings(max_examples=60, deadline=None, derandomize=True)
@given(value=st.text(max_size=260) | st.integers() | st.booleans() | st.lists(st.text(max_size=3)))
def test_any_left_rule_is_read_or_refused_naming_the_field(value: object) -> None:
    """Fuzzed: whatever ``[results] left_rule`` holds, the ruleset loads with it as one line, or
    the load stops with one line naming the field."""
    import json

    text = _builtin_text("bonn-2018").replace(
        "[results]", f"[results]\nleft_rule = {json.dumps(value)}"
    )
    try:
        ruleset = parse_ruleset(text)
    except InvalidInput as exc:
        assert "field 'results.left_rule'" in str(exc) or "malformed TOML" in str(exc)
        assert "\n" not in str(exc).split("malformed TOML")[0]
        return
    assert isinstance(value, str) and ruleset.left_rule == value.strip()
    assert len(ruleset.left_rule) <= 200 and "\n" not in ruleset.left_rule
