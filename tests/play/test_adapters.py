"""The online-play adapters over both engines: action strings, replay, scores, hidden views."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.errors import IllegalAction, InvalidInput
from agon.games.one_card_wonder.engine import Action as OcwAction
from agon.games.seven_wonders.data import cards
from agon.games.seven_wonders.engine import Action as SwAction
from agon.games.seven_wonders.scoresheet import score_sheet
from agon.play.adapters import (
    Adapter,
    OneCardWonder,
    Setup,
    SevenWonders,
    new_adapter,
)
from agon.play.catalog import catalog
from tests.play.helpers import hidden_from, leaks

OCW_VARIANTS = [("base", 2), ("base", 3), ("trade", 4), ("two-card", 2), ("leaders", 3)]


def play_randomly(adapter: Adapter, rng: random.Random) -> list[tuple[int, str]]:
    """Play to the end with random legal actions; every legal string must round-trip through
    the engine's parser. Returns the log."""
    parse = SwAction.parse if isinstance(adapter, SevenWonders) else OcwAction.parse
    log: list[tuple[int, str]] = []
    seats = adapter.setup.seats
    while not adapter.over:
        movers = [s for s in range(seats) if adapter.legal(s)]
        assert movers, "a running game must have a seat to act"
        assert sorted(movers) == sorted(adapter.waiting_for())
        for s in movers:
            legal = adapter.legal(s)
            assert all(str(parse(a)) == a for a in legal)
            assert len(set(legal)) == len(legal)
            action = rng.choice(legal)
            adapter.apply(s, action)
            log.append((s, action))
        assert len(log) < 5000
    return log


@pytest.mark.parametrize("players", [3, 4, 7])
def test_a_turn_is_stepped_with_the_checked_actions_as_the_engines_own_step_would(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The adapter checks each seat's action against the engine's legal actions of the state
    and steps the turn without the engine computing them all again (issue 30: they were
    computed twice per seat and turn); the game is the very game of the engine's checked
    ``step`` — every turn's state, the final scores."""
    from agon.games.seven_wonders.engine import Game

    setup = Setup("7w", "base", players, f"steps-{players}")
    game = new_adapter(setup)
    assert isinstance(game, SevenWonders)
    checked = new_adapter(setup)
    assert isinstance(checked, SevenWonders)
    calls = 0
    legal_actions = Game.legal_actions

    def counted(self: Game, player: int) -> list[SwAction]:
        nonlocal calls
        calls += 1
        return legal_actions(self, player)

    monkeypatch.setattr(Game, "legal_actions", counted)
    rng = random.Random(players)
    turns = 0
    while not game.over:
        movers = game.waiting_for()
        before = calls
        actions = {s: rng.choice(game.legal(s)) for s in movers}
        for s, action in actions.items():
            game.apply(s, action)
        # one list per seat that acts (the adapter's check), none more for the step itself
        assert calls - before <= len(movers), (turns, calls - before)
        checked.game.step({s: SwAction.parse(a) for s, a in actions.items()})
        for seat in [None, *range(players)]:  # "moves": the adapter's own record of the turns
            shown, expected = game.view(seat), checked.view(seat)
            shown.pop("moves", None)
            expected.pop("moves", None)
            assert shown == expected
        assert [c.coins for c in game.game.cities] == [c.coins for c in checked.game.cities]
        turns += 1
    assert checked.game.over
    names = [f"P{i}" for i in range(players)]
    assert game.scores(names) == checked.scores(names)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_seven_wonders_plays_to_the_end_and_replays_exactly(players: int) -> None:
    setup = Setup("7w", "base", players, f"seed-{players}")
    game = new_adapter(setup)
    log = play_randomly(game, random.Random(players))
    again = new_adapter(setup)
    for seat, action in log:
        again.apply(seat, action)
    assert again.over
    names = [f"P{i}" for i in range(players)]
    assert again.scores(names) == game.scores(names)
    for seat in [None, *range(players)]:
        assert again.view(seat) == game.view(seat)


@pytest.mark.parametrize(("variant", "players"), OCW_VARIANTS)
def test_one_card_wonder_plays_to_the_end_and_replays_exactly(variant: str, players: int) -> None:
    setup = Setup("ocw", variant, players, f"seed-{variant}")
    game = new_adapter(setup)
    log = play_randomly(game, random.Random(7))
    again = new_adapter(setup)
    for seat, action in log:
        again.apply(seat, action)
    names = [f"P{i}" for i in range(players)]
    rows = again.scores(names)
    assert rows == game.scores(names)
    assert sum(r["total"] for r in rows) <= 1
    assert json.dumps(again.view(None)) == json.dumps(game.view(None))


def test_seven_wonders_scores_are_the_score_sheet_categories() -> None:
    game = new_adapter(Setup("7w", "base", 4, "sheet"))
    assert isinstance(game, SevenWonders)
    play_randomly(game, random.Random(3))
    names = ["Ann", "Bob", "Cid", "Dan"]
    sheet = {
        "players": [
            {
                "name": names[p],
                "wonder": c.wonder.en,
                "side": c.side,
                "stages": c.stages_built,
                "coins": c.coins,
                "military": c.military,
                "defeats": c.defeats,
                "cards": [cards()[i].en for i in c.cards],
            }
            for p, c in enumerate(game.game.cities)
        ]
    }
    assert game.scores(names) == score_sheet(sheet)["scores"]
    details = game.details()
    assert [d["treasury"] for d in details] == [c.coins for c in game.game.cities]


def test_a_seat_sees_its_own_hand_only_and_who_has_chosen_not_what() -> None:
    game = new_adapter(Setup("7w", "base", 3, "hidden"))
    assert isinstance(game, SevenWonders)
    secret = hidden_from(game, 0)
    assert secret  # other hands hold cards seat 0 cannot know
    assert leaks(game.view(0), secret) == []
    assert leaks(game.view(None), secret | hidden_from(game, 1)) == []
    # the checker can fail: seat 1's own view shows its hand, which seat 0 must not see
    assert leaks(game.view(1), secret)
    choice = game.legal(1)[0]
    game.apply(1, choice)
    view = game.view(0)
    assert view["cities"][1]["chosen"] is True and view["waiting_for"] == [0, 2]
    assert choice not in json.dumps(view)
    assert game.legal(1) == [] and game.view(1)["chosen"] is True


def test_a_hidden_leader_is_seen_by_its_owner_only() -> None:
    game = new_adapter(Setup("ocw", "leaders", 3, "leaders"))
    assert isinstance(game, OneCardWonder)
    own = game.game.players[1].leader
    assert own is not None
    assert game.view(1)["players"][1]["leader"] == own.id
    for seat in (0, 2, None):
        view = game.view(seat)
        assert view["players"][1]["leader"] == "hidden"
        assert own.id not in json.dumps(view)
    # the spectator does not see seat 0's leader either (it is built from seat 0's observation)
    first = game.game.players[0].leader
    assert first is not None and first.id not in json.dumps(game.view(None))


def test_only_the_deciding_seat_has_legal_actions_in_one_card_wonder() -> None:
    game = new_adapter(Setup("ocw", "base", 3, "turns"))
    mover = game.waiting_for()[0]
    others = [s for s in range(3) if s != mover]
    assert game.legal(mover) and all(game.legal(s) == [] for s in others)
    with pytest.raises(IllegalAction):
        game.apply(others[0], game.legal(mover)[0])


@pytest.mark.parametrize(
    ("game", "variant", "seats"),
    [
        ("chess", "base", 2),
        ("7w", "trade", 3),
        ("7w", "base", 2),
        ("7w", "base", 8),
        ("ocw", "base", 1),
        ("ocw", "two-card", 5),
        ("ocw", "trade", 3),
    ],
)
def test_bad_setups_are_refused(game: str, variant: str, seats: int) -> None:
    with pytest.raises(InvalidInput):
        new_adapter(Setup(game, variant, seats, "s"))


def test_tournament_wonders_and_sides_are_used() -> None:
    game = new_adapter(
        Setup("7w", "base", 3, "t", wonders=("Rhodos", "Gizah", "Ephesos"), sides=("A", "B", "A"))
    )
    view = game.view(None)
    assert [(c["wonder_name"]["en"], c["side"]) for c in view["cities"]] == [
        ("Rhodos", "A"),
        ("Gizah", "B"),
        ("Ephesos", "A"),
    ]


def test_the_catalog_names_every_card_a_view_can_show() -> None:
    data = catalog("7w")
    assert set(data["cards"]) == {c.id for c in cards()}
    game = new_adapter(Setup("7w", "base", 3, "c"))
    assert set(game.view(0)["hand"]) <= set(data["cards"])
    assert set(catalog("ocw")["boards"])
    with pytest.raises(InvalidInput):
        catalog("go")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["7w", "ocw"]),
    text=st.one_of(
        st.text(max_size=40),
        st.builds(
            lambda verb, rest: f"{verb} {rest}",
            st.sampled_from(
                [
                    "build",
                    "wonder",
                    "discard",
                    "free",
                    "revive",
                    "pass",
                    "stage",
                    "building",
                    "pay",
                    "board",
                    "supply",
                ]
            ),
            st.text(alphabet="abcdefghijklmnopqrstuvwxyz_: 0123456789-", max_size=30),
        ),
    ),
)
def test_any_action_text_is_either_legal_or_refused_cleanly(game: str, text: str) -> None:
    seats = 3
    adapter = new_adapter(Setup(game, "base", seats, "fuzz"))
    seat = adapter.waiting_for()[0]
    legal = adapter.legal(seat)
    before = json.dumps(adapter.view(None))
    try:
        adapter.apply(seat, text)
    except (InvalidInput, IllegalAction):
        assert text not in legal
        assert json.dumps(adapter.view(None)) == before
        assert adapter.legal(seat) == legal
    else:
        assert text in legal


@pytest.mark.parametrize("bot", ["random", "heuristic", "search"])
@pytest.mark.parametrize(("game", "seats"), [("7w", 3), ("ocw", 2)])
def test_every_bot_chooses_a_legal_action_deterministically(
    bot: str, game: str, seats: int
) -> None:
    adapter = new_adapter(Setup(game, "base", seats, "bots"))
    for step in range(4):
        seat = adapter.waiting_for()[0]
        action = adapter.bot_action(seat, bot, step)
        assert action in adapter.legal(seat)
        assert adapter.snapshot().bot_action(seat, bot, step) == action
        adapter.apply(seat, action)
    with pytest.raises(InvalidInput):
        adapter.bot_action(adapter.waiting_for()[0], "genius", 0)


def test_a_turn_resolves_in_the_seats_order_whoever_chose_first() -> None:
    """The seats' actions of a turn are resolved in the seats' order, as the engine's checked
    ``step`` does: the discard pile's order (the revive list, the Halikarnassos view) does not
    depend on who submitted first (it did when the adapter stepped the actions as they came)."""
    setup = Setup("7w", "base", 4, "discards")
    early, late = new_adapter(setup), new_adapter(setup)
    assert isinstance(early, SevenWonders) and isinstance(late, SevenWonders)
    reference = early.game.clone()  # the engine's own checked step, seats in order
    discards = {s: next(a for a in early.legal(s) if a.startswith("discard")) for s in range(4)}
    for s in range(4):
        early.apply(s, discards[s])
    for s in reversed(range(4)):
        late.apply(s, discards[s])
    reference.step({s: SwAction.parse(a) for s, a in discards.items()})
    assert early.game.discard == late.game.discard == reference.discard
    assert len(reference.discard) == 4
