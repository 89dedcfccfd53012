"""Player profiles in the services, on SQLite and PostgreSQL: linking is journaled (undo takes
each link back exactly, a rebuild restores them), bad links are refused with one clear line, and
the player page rates a person across events by profile."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session
from svc_helpers import new_tournament, play_round, split, state

from agon.errors import Conflict, InvalidInput, NotFound
from agon.services import journal, players, profiles
from agon.services.schemas import PlayerCreate

_SLUGS = itertools.count()

#: (player index, profile index or None to unlink)
OPS = st.lists(st.tuples(st.integers(0, 3), st.one_of(st.none(), st.integers(0, 2))), max_size=8)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=OPS)
def test_links_and_unlinks_are_undone_exactly(
    session: Session, ops: list[tuple[int, int | None]]
) -> None:
    slug = f"t{next(_SLUGS)}"
    names = new_tournament(session, slug, "bonn-2018", 4)
    ids = [profiles.create_profile(session, name=f"Person {slug} {i}").id for i in range(3)]
    states = [state(session, slug)]
    for who, which in ops:
        try:
            profiles.link_player(
                session,
                tournament=slug,
                player=names[who],
                profile=None if which is None else ids[which],
                actor="director",
            )
        except Conflict:  # the same link again, or a profile another player has
            assert state(session, slug) == states[-1]
            continue
        states.append(state(session, slug))
        linked = players.get_player(session, tournament=slug, name=names[who]).extra
        assert linked.get("profile") == (None if which is None else ids[which])
    assert journal.verify(session, tournament=slug)
    while len(states) > 1:
        states.pop()
        journal.undo(session, tournament=slug, actor="director")
        assert state(session, slug) == states[-1]


def test_bad_links_are_refused_and_change_nothing(session: Session) -> None:
    names = new_tournament(session, "t", "bonn-2018", 4)
    jan = profiles.create_profile(session, name="Jan Müller", tag="Köln")
    before = state(session, "t")
    with pytest.raises(NotFound, match="no player profile 'nobody'"):
        profiles.link_player(session, tournament="t", player=names[0], profile="nobody", actor="d")
    with pytest.raises(InvalidInput, match="profile id"):
        profiles.link_player(session, tournament="t", player=names[0], profile="Bad Id", actor="d")
    with pytest.raises(NotFound):
        profiles.link_player(session, tournament="t", player="Nobody", profile=jan.id, actor="d")
    with pytest.raises(Conflict, match="already unlinked"):
        profiles.link_player(session, tournament="t", player=names[0], profile=None, actor="d")
    assert state(session, "t") == before
    profiles.link_player(session, tournament="t", player=names[0], profile=jan.id, actor="d")
    with pytest.raises(Conflict, match="already linked to 'Player 01'"):
        profiles.link_player(session, tournament="t", player=names[1], profile=jan.id, actor="d")
    with pytest.raises(Conflict, match="already linked"):
        profiles.link_new_profile(session, tournament="t", player=names[0], actor="d")
    with pytest.raises(InvalidInput):
        profiles.create_profile(session, name="  ")
    with pytest.raises(InvalidInput):
        profiles.create_profile(session, name="A\nB")
    with pytest.raises(InvalidInput):
        profiles.create_profile(session, name="Anna", tag="x" * 300)


def test_a_rename_keeps_the_link_and_a_rebuild_restores_it(session: Session) -> None:
    names = new_tournament(session, "t", "bonn-2018", 4)
    made, _ = profiles.link_new_profile(session, tournament="t", player=names[0], actor="d")
    assert made.id == "player-01"
    players.rename_player(session, tournament="t", player=names[0], name="Anna", actor="d")
    assert players.get_player(session, tournament="t", name="Anna").extra["profile"] == made.id
    before = state(session, "t")
    journal.rebuild(session, tournament="t")
    assert state(session, "t") == before


def test_suggestions_rank_similar_names_and_the_same_tag_first(session: Session) -> None:
    new_tournament(session, "t", "bonn-2018", 4)
    players.register_player(
        session, tournament="t", data=PlayerCreate(name="Jan Mueller", tag="Köln"), actor="d"
    )
    profiles.create_profile(session, name="Jan Müller", tag="Bonn")
    profiles.create_profile(session, name="Jan Müller", tag="Köln")
    profiles.create_profile(session, name="Zoe")
    found = profiles.suggest_profiles(session, tournament="t", player="Jan Mueller (Köln)")
    assert [(s.profile.id, s.same_tag) for s in found] == [
        ("jan-muller-2", True),
        ("jan-muller", False),
    ]


def test_the_player_page_rates_one_person_across_renamed_entries(session: Session) -> None:
    first = new_tournament(session, "a", "bonn-2018", 12)
    play_round(session, "a", split(first, (4, 4, 4)), random.Random(1))
    second = new_tournament(session, "b", "bonn-2018", 12)
    players.rename_player(session, tournament="b", player=second[0], name="P. One", actor="d")
    second[0] = "P. One"
    play_round(session, "b", split(second, (4, 4, 4)), random.Random(2))
    one = profiles.create_profile(session, name="Player One")
    page = profiles.player_page(session, profile=one.id)
    assert page.events == () and page.history == ()
    profiles.link_player(session, tournament="a", player=first[0], profile=one.id, actor="d")
    profiles.link_player(session, tournament="b", player="P. One", profile=one.id, actor="d")
    page = profiles.player_page(session, profile=one.id)
    assert [(e.tournament, e.player, e.players) for e in page.events] == [
        ("a", "Player 01", 12),
        ("b", "P. One", 12),
    ]
    assert all(e.place is not None and 1 <= e.place <= 12 for e in page.events)
    assert [h.tournament for h in page.history] == ["a", "b"]
    assert len(page.history) == 2 and page.history[0].mu != page.history[1].mu
    profiles.set_hidden(session, profile=one.id, hidden=True)
    with pytest.raises(NotFound):
        profiles.player_page(session, profile=one.id)
    assert profiles.player_page(session, profile=one.id, public=False).history == page.history
    assert profiles.public_links(session, tournament="a") == {}
    profiles.set_hidden(session, profile=one.id, hidden=False)
    assert profiles.public_links(session, tournament="a") == {"Player 01": one.id}
    journal.undo(session, tournament="b", actor="d")
    assert [h.tournament for h in profiles.player_page(session, profile=one.id).history] == ["a"]


def test_the_player_page_rates_the_events_oldest_first(session: Session) -> None:
    """Made later but held earlier (its date): the later-made event is rated first."""
    late = new_tournament(session, "late", "bonn-2018", 12, info={"date": "2019-05-01"})
    early = new_tournament(session, "early", "bonn-2018", 12, info={"date": "2018-05-01"})
    for slug, names, seed in (("late", late, 1), ("early", early, 2)):
        play_round(session, slug, split(names, (4, 4, 4)), random.Random(seed))
    one = profiles.create_profile(session, name="One")
    for slug in ("late", "early"):
        profiles.link_player(
            session, tournament=slug, player="Player 01", profile=one.id, actor="d"
        )
    page = profiles.player_page(session, profile=one.id)
    assert [e.tournament for e in page.events] == ["early", "late"]
    assert [h.tournament for h in page.history] == ["early", "late"]


def test_a_profile_is_made_and_hidden_after_another_writer_committed(db_url: str) -> None:
    """A session that has read (a request that looked first) and then makes or hides a profile
    while another connection committed meanwhile: the write begins a writing transaction of its
    own (SQLite: a read snapshot older than another writer's commit cannot become a writing one,
    and fails at once with "database is locked" whatever the busy timeout)."""
    from sqlalchemy import select

    from agon.store.db import Settings, make_engine, make_session_factory
    from agon.store.profiles import ProfileRow

    engine = make_engine(Settings(db_url))
    factory = make_session_factory(engine)
    try:
        with factory() as mine, factory() as other:
            first = profiles.create_profile(mine, name="Anna Erste")
            for step in ("create", "hide"):
                mine.scalars(select(ProfileRow.id)).all()  # a read transaction left open
                profiles.create_profile(other, name=f"Berta {step}")  # committed meanwhile
                if step == "create":
                    made = profiles.create_profile(mine, name="Carla Dritte")
                    assert made.name == "Carla Dritte"
                else:
                    assert profiles.set_hidden(mine, profile=first.id, hidden=True).hidden
            with factory() as check:
                names = set(check.scalars(select(ProfileRow.name)))
            assert names == {"Anna Erste", "Berta create", "Carla Dritte", "Berta hide"}
    finally:
        engine.dispose()
