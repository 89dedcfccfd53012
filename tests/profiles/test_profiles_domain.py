"""Player profiles in the pure domain: ratings and series match linked players by profile, and
unlinked players by name + tag as before; suggestions; the rating plot's geometry."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.profiles.plot import HEIGHT, WIDTH, PlotPoint, rating_plot
from agon.profiles.profiles import (
    PROFILE_ID,
    Profile,
    ProfileIndex,
    check_profile_id,
    new_profile_id,
    suggest,
)
from agon.ratings import Game, PlayerKey, player_key, rate
from agon.series import compute_series, parse_series
from agon.tournament.event import Event, Player, load_event

ROOT = Path(__file__).resolve().parents[2]

NAMES = [f"P{i}" for i in range(8)]


@st.composite
def tables(draw: st.DrawFn) -> list[list[tuple[str, int]]]:
    """Games as lists of (name, rank): 3–5 distinct players each, ranks 1…n with ties."""
    out = []
    for _ in range(draw(st.integers(1, 12))):
        seated = draw(st.lists(st.sampled_from(NAMES), min_size=3, max_size=5, unique=True))
        ranks = draw(
            st.lists(st.integers(1, len(seated)), min_size=len(seated), max_size=len(seated))
        )
        out.append(list(zip(seated, ranks, strict=True)))
    return out


def _games(played: list[list[tuple[str, int]]], extra_of: Any) -> list[Game]:
    return [
        Game(f"e{i // 4}", i + 1, 1, False, tuple((player_key(n, extra_of(n, i)), r) for n, r in t))
        for i, t in enumerate(played)
    ]


@settings(max_examples=60, deadline=None)
@given(tables())
def test_ratings_by_profile_equal_ratings_by_name_when_names_are_unique(
    played: list[list[tuple[str, int]]],
) -> None:
    by_name = rate(_games(played, lambda n, i: {}))
    by_profile = rate(_games(played, lambda n, i: {"profile": f"id-{n.lower()}"}))
    assert [(str(r.player), r.mu, r.sigma, r.games) for r in by_name.ratings] == [
        (str(r.player), r.mu, r.sigma, r.games) for r in by_profile.ratings
    ]
    assert all(r.player.profile == f"id-{str(r.player).lower()}" for r in by_profile.ratings)


@settings(max_examples=60, deadline=None)
@given(tables())
def test_a_linked_player_renamed_between_events_is_still_one_person(
    played: list[list[tuple[str, int]]],
) -> None:
    """P0 is called "Pzero (event i)" in every game but linked to one profile: the ratings are
    those of one P0 — while without the link each name is a different person."""
    same = rate(_games(played, lambda n, i: {}))

    def renamed(n: str, i: int) -> tuple[str, dict[str, str]]:
        return (f"Pzero {i}", {"profile": "p0"}) if n == "P0" else (n, {})

    games = [
        Game("e", i + 1, 1, False, tuple((player_key(*renamed(n, i)), r) for n, r in t))
        for i, t in enumerate(played)
    ]
    linked = rate(games)
    assert [(r.mu, r.sigma, r.games) for r in same.ratings] == [
        (r.mu, r.sigma, r.games) for r in linked.ratings
    ]
    zero = [r for r in linked.ratings if r.player.profile == "p0"]
    if zero:  # listed under the name of its last game, found by its profile's id
        last = max(i for i, t in enumerate(played) if any(n == "P0" for n, _r in t))
        assert str(zero[0].player) == f"Pzero {last}"
        assert linked.find("p0") == zero[0].player
        assert len(linked.history[linked.find("p0")]) == zero[0].games
        assert zero[0].as_json()["profile"] == "p0"
    unlinked = rate(
        [
            Game("e", i + 1, 1, False, tuple((PlayerKey(renamed(n, i)[0]), r) for n, r in t))
            for i, t in enumerate(played)
        ]
    )
    assert len(unlinked.ratings) >= len(linked.ratings)


def test_keys_are_equal_by_profile_and_otherwise_by_name_and_tag() -> None:
    assert player_key("Jan", {"profile": "jan"}) == player_key("J. M.", {"profile": "jan"})
    assert player_key("Jan", {"profile": "jan"}) != player_key("Jan")
    assert player_key("Jan (Köln)", {"tag": "Köln"}) == PlayerKey("Jan", "Köln")
    assert len({player_key("A", {"profile": "x"}), player_key("B", {"profile": "x"})}) == 1
    assert sorted([PlayerKey("B"), PlayerKey("A", profile="z")]) == [
        PlayerKey("A", profile="z"),
        PlayerKey("B"),
    ]


def _renamed(event: Event, old: str, new: str, extra: dict[str, str]) -> Event:
    """``event`` with player ``old`` called ``new`` and given ``extra``, everywhere."""

    def result(r: Any) -> Any:
        return dataclasses.replace(r, player=new) if r.player == old else r

    return dataclasses.replace(
        event,
        players=tuple(
            Player(new, {**p.extra, **extra}) if p.name == old else p for p in event.players
        ),
        rounds=tuple(
            dataclasses.replace(
                rnd,
                tables=tuple(
                    dataclasses.replace(tb, results=tuple(result(r) for r in tb.results))
                    for tb in rnd.tables
                ),
            )
            for rnd in event.rounds
        ),
    )


def test_a_series_counts_a_linked_player_once_across_renamed_entries() -> None:
    event, ruleset = load_event(ROOT / "examples" / "bonn-2018-sample.json")
    series = parse_series(
        'name = "S"\npoints = [10, 8, 6, 5, 4, 3, 2, 1]\n'
        '[[events]]\nfile = "a"\nname = "A"\n[[events]]\nfile = "b"\nname = "B"\n'
    )
    first = event.players[0].name
    plain = {str(r.player): r.points for r in compute_series(series, [(event, ruleset)] * 2)}
    linked = compute_series(
        series,
        [
            (_renamed(event, first, first, {"profile": "one"}), ruleset),
            (_renamed(event, first, "Renamed", {"profile": "one"}), ruleset),
        ],
    )
    one = [r for r in linked if r.player.profile == "one"]
    assert len(one) == 1 and [e.event for e in one[0].events] == ["A", "B"]
    assert one[0].points == plain[first]
    assert one[0].as_json()["profile"] == "one"
    unlinked = compute_series(
        series, [(event, ruleset), (_renamed(event, first, "Renamed", {}), ruleset)]
    )
    assert {first, "Renamed"} <= {str(r.player) for r in unlinked}
    assert "profile" not in unlinked[0].as_json()


def test_new_ids_are_well_formed_and_free() -> None:
    taken: set[str] = set()
    for name in [
        "Jan Müller",
        "Jan Müller",
        "jan  müller",
        "李小龍",
        "-",
        "Ångström Æsir",
        "x" * 200,
    ]:
        made = new_profile_id(name, taken)
        assert PROFILE_ID.match(made) and made not in taken
        taken.add(made)
    assert sorted(taken)[:3] == ["angstrom-sir", "jan-muller", "jan-muller-2"]


@given(st.text(max_size=80))
def test_any_name_gets_a_well_formed_id(name: str) -> None:
    assert PROFILE_ID.match(new_profile_id(name, {"player"}))


def test_bad_ids_are_refused_with_one_line() -> None:
    for bad in ["", "A", "a b", "-a", "a-", "a" * 65, 3, None]:
        try:
            check_profile_id(bad)
        except InvalidInput as exc:
            assert "\n" not in str(exc)
        else:
            raise AssertionError(f"{bad!r} accepted")


def test_suggestions_prefer_similar_names_and_the_same_tag() -> None:
    people = [
        Profile("jan-muller", "Jan Müller", "Köln"),
        Profile("jan-muller-2", "Jan Müller", "Bonn"),
        Profile("jana", "Jana Miller", ""),
        Profile("anna", "Anna Rossi", ""),
    ]
    found = suggest("Jan Mueller", "Köln", people)
    assert [s.profile.id for s in found][:2] == ["jan-muller", "jan-muller-2"]
    assert found[0].same_tag and not found[1].same_tag
    assert "anna" not in [s.profile.id for s in found]
    assert suggest("Zoe", "", people) == []


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["A", "B", "C"]),
            st.floats(-50, 80, allow_nan=False),
            st.floats(-50, 80, allow_nan=False),
        ),
        max_size=40,
    )
)
def test_the_plot_stays_inside_its_box(points: list[tuple[str, float, float]]) -> None:
    plot = rating_plot([PlotPoint(e, mu, o) for e, mu, o in points])
    if not points:
        assert plot is None
        return
    assert plot is not None
    for line in (plot.mu_points, plot.ordinal_points):
        pairs = [tuple(map(float, p.split(","))) for p in line.split()]
        assert len(pairs) == len(points)
        assert all(0 <= x <= WIDTH and 0 <= y <= HEIGHT for x, y in pairs)
        assert [x for x, _y in pairs] == sorted(x for x, _y in pairs)
    assert 2 <= len(plot.y_ticks) <= 8
    assert all(re.fullmatch(r"-?[0-9.e+]+", label) for label, _y in plot.y_ticks)
    assert plot.x_ticks[0][0] == points[0][0]


def _suggest_by_hand(name: str, tag: str, people: list[Profile]) -> list[tuple[str, float]]:
    """Every profile compared with difflib, no shortcut (what the index must agree with)."""
    import difflib

    from agon.profiles.profiles import NAME_BAR, TAG_BAR, TAG_BONUS, fold

    out = []
    for p in people:
        if not fold(p.name) and not fold(name):
            continue  # two blank names: nothing to compare, no suggestion (difflib says 1.0)
        same = bool(fold(tag)) and fold(p.tag) == fold(tag)
        ratio = difflib.SequenceMatcher(None, fold(p.name), fold(name)).ratio()
        if ratio >= (TAG_BAR if same else NAME_BAR):
            out.append((p.id, round(min(1.0, ratio + (TAG_BONUS if same else 0.0)), 4)))
    out.sort(key=lambda x: (-x[1], x[0]))
    return out


NAMEISH = st.text(alphabet="abcdeklmnouüé ", min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(NAMEISH, st.sampled_from(["", "Bonn", "Köln"])), max_size=12),
    NAMEISH,
    st.sampled_from(["", "Bonn"]),
)
def test_the_index_suggests_what_comparing_every_name_would(
    people: list[tuple[str, str]], name: str, tag: str
) -> None:
    profiles = [Profile(f"p{i:02d}", n, t) for i, (n, t) in enumerate(people)]
    found = ProfileIndex(profiles).suggest(name, tag, limit=len(profiles) + 1)
    by_hand = _suggest_by_hand(name, tag, profiles)
    assert sorted((s.profile.id, s.score) for s in found) == sorted(by_hand)
