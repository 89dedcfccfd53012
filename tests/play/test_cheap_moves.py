"""Less work per online move (issue 30): the quick bots' copy shares the 7 Wonders game until it
steps, the compiled core's heuristic picks the bots' 7 Wonders actions, One Card Wonder lists a
decision's legal actions once, and an action that is a text of the seat's list is not parsed —
the same games, choices and refusals as before."""

from __future__ import annotations

import json
import random

import pytest

from agon.errors import IllegalAction, InvalidInput
from agon.games.one_card_wonder import engine as ocw_engine
from agon.games.seven_wonders import core as fast
from agon.games.seven_wonders.bots import HeuristicBot
from agon.games.seven_wonders.engine import Action as SwAction
from agon.play.adapters import OneCardWonder, Setup, SevenWonders, new_adapter
from agon.play.bots import bot_seed, decide

needs_core = pytest.mark.skipif(not fast.native_available(), reason="no compiled core")


def _sw(seed: str, seats: int = 3, engine: str = "auto") -> SevenWonders:
    return SevenWonders(Setup("7w", "base", seats, seed), engine=engine)


def _ocw(seed: str, seats: int = 2) -> OneCardWonder:
    adapter = new_adapter(Setup("ocw", "base", seats, seed))
    assert isinstance(adapter, OneCardWonder)
    return adapter


def _views(adapter: SevenWonders | OneCardWonder) -> str:
    seats = range(adapter.setup.seats)
    return json.dumps([adapter.view(None), *(adapter.view(s) for s in seats)], sort_keys=True)


def _advance(adapter: SevenWonders | OneCardWonder, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        for s in range(adapter.setup.seats):
            legal = adapter.legal(s)
            if legal and not adapter.over:
                adapter.apply(s, rng.choice(legal))


@pytest.mark.parametrize("engine", ["auto", "python"])
def test_the_scratch_copy_shares_the_game_until_it_steps_and_never_changes_the_original(
    engine: str,
) -> None:
    rng = random.Random(7)
    for seed in range(6):
        game = _sw(f"scratch-{seed}", 3 + seed % 3, engine)
        _advance(game, rng, seed * 3)
        before = _views(game)
        copy, reference = game.scratch(), game.snapshot()
        assert copy.game is game.game and copy.core is game.core  # nothing copied yet
        # every seat but the last chooses: the copy still shares the game
        seats = [s for s in range(game.setup.seats) if copy.legal(s)]
        for s in seats[:-1]:
            action = rng.choice(copy.legal(s))
            copy.apply(s, action)
            reference.apply(s, action)
        assert copy.game is game.game
        last = rng.choice(copy.legal(seats[-1]))
        copy.apply(seats[-1], last)  # the turn resolves: the copy steps a game of its own
        reference.apply(seats[-1], last)
        assert copy.game is not game.game
        assert engine == "python" or copy.core is not game.core
        assert _views(game) == before  # the original is untouched
        assert _views(copy) == _views(reference)  # and the copy is the independent copy's game
        for s in range(game.setup.seats):
            assert copy.legal(s) == reference.legal(s)


def test_bots_on_the_scratch_copy_choose_as_on_the_independent_copy() -> None:
    bots = {1: "heuristic", 2: "heuristic"}
    rng = random.Random(3)
    for seed in range(4):
        game = _sw(f"bots-{seed}")
        while not game.over:
            before = _views(game)
            counts = [game.game.turn] * 3
            on_scratch = decide(game.scratch(), bots, counts)
            assert on_scratch == decide(game.snapshot(), bots, counts)
            assert _views(game) == before
            for s, action, _n in on_scratch:
                game.apply(s, action)
            if game.legal(0):
                game.apply(0, rng.choice(game.legal(0)))


@needs_core
def test_the_cores_heuristic_picks_the_python_heuristics_action() -> None:
    """The bots' 7 Wonders heuristic answers from the compiled core kept beside the game: the
    very action ``HeuristicBot`` picks with the bot's seed, at every decision of whole games."""
    decisions = 0
    for seed in range(8):
        game = _sw(f"heuristic-{seed}", 3 + seed % 5)
        assert game.core is not None
        rng = random.Random(seed)
        while not game.over:
            for s in range(game.setup.seats):
                if not game.legal(s):
                    continue
                pick = bot_seed(game.setup.seed, s, decisions)
                legal = game.game.legal_actions(s)
                python = str(HeuristicBot(pick).act_among(game.game, s, legal))
                assert game.bot_action(s, "heuristic", pick) == python
                decisions += 1
                game.apply(s, rng.choice(game.legal(s)))
    assert decisions > 300


def test_one_card_wonder_lists_a_decisions_legal_actions_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The state's list, the check of the action, a heuristic or random bot's choice and the
    engine's step share one list per decision (before: three)."""
    calls = 0
    listed = ocw_engine.Game.legal_actions

    def counting(self: ocw_engine.Game) -> list[ocw_engine.Action]:
        nonlocal calls
        calls += 1
        return listed(self)

    monkeypatch.setattr(ocw_engine.Game, "legal_actions", counting)
    game = _ocw("once", 3)
    decisions = 0
    while not game.over and decisions < 60:
        seat = game.waiting_for()[0]
        calls = 0
        assert game.legal(seat)
        action = game.bot_action(seat, "heuristic" if decisions % 2 else "random", decisions)
        assert action in game.legal(seat)
        game.apply(seat, action)
        assert calls == 1
        decisions += 1
    assert decisions == 60


def test_one_card_wonder_bots_choose_as_before() -> None:
    """``choose_among`` with the adapter's list: the bot's choice on the engine's own list."""
    from agon.games.one_card_wonder.bots import HeuristicBot as OcwHeuristic
    from agon.games.one_card_wonder.bots import RandomBot as OcwRandom

    for seed in range(6):
        game = _ocw(f"choose-{seed}", 2 + seed % 3)
        n = 0
        while not game.over:
            seat = game.waiting_for()[0]
            for bot in (OcwHeuristic, OcwRandom):
                kind = "heuristic" if bot is OcwHeuristic else "random"
                expected = str(bot(n).choose(game.game.clone()))
                assert game.bot_action(seat, kind, n) == expected
            game.apply(seat, game.bot_action(seat, "heuristic", n))
            n += 1


def test_a_listed_action_is_not_parsed_and_the_refusals_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed = 0
    parse = SwAction.parse.__func__  # type: ignore[attr-defined]

    def counting(cls: type[SwAction], text: str) -> SwAction:
        nonlocal parsed
        parsed += 1
        result: SwAction = parse(cls, text)
        return result

    monkeypatch.setattr(SwAction, "parse", classmethod(counting))
    game = _sw("listed")
    game.apply(0, game.legal(0)[0])
    assert parsed == 0
    with pytest.raises(IllegalAction, match="does not act now"):
        game.apply(0, game.legal(1)[0])  # seat 0 chose already
    with pytest.raises(InvalidInput):
        game.apply(1, "build nothing at all")
    legal = set(game.legal(1))
    other = next(
        str(SwAction(kind, c, 0, 0))
        for c in range(80)
        for kind in ("build", "wonder")
        if str(SwAction(kind, c, 0, 0)) not in legal
    )
    with pytest.raises(IllegalAction, match="is not legal now"):
        game.apply(1, other)

    ocw = _ocw("listed")
    seat = ocw.waiting_for()[0]
    ocw.apply(seat, ocw.legal(seat)[0])
    with pytest.raises(IllegalAction):
        ocw.apply(1 - ocw.waiting_for()[0], ocw.legal(ocw.waiting_for()[0])[0])
    with pytest.raises(InvalidInput):
        ocw.apply(ocw.waiting_for()[0], "no such verb ever")


@needs_core
def test_the_bots_7_wonders_heuristic_runs_in_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the core beside the game the Python heuristic is not asked (it is, without it)."""
    from agon.games.seven_wonders.bots import heuristic

    def refuse(*_args: object) -> SwAction:
        raise AssertionError("the Python heuristic was asked")

    monkeypatch.setattr(heuristic.HeuristicBot, "act_among", refuse)
    game = _sw("in-core")
    assert game.bot_action(1, "heuristic", 5) in game.legal(1)
    with pytest.raises(AssertionError, match="Python heuristic"):
        _sw("in-core", engine="python").bot_action(1, "heuristic", 5)
