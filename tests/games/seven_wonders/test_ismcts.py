"""The information-set search bot (``IsmctsBot``): legal, seeded, re-deals consistent with what
it has seen, and stronger than chance."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from agon.errors import InvalidInput
from agon.games.seven_wonders import core
from agon.games.seven_wonders.bots import (
    BOTS,
    Bot,
    HeuristicBot,
    IsmctsBot,
    Knowledge,
    RandomBot,
    make_bot,
    play_game,
)
from agon.games.seven_wonders.data import age_deck, guilds
from agon.games.seven_wonders.engine import Game

from .helpers import core_and_python_alike

needs_core = pytest.mark.skipif(not core.native_available(), reason="compiled core not built")


@pytest.mark.parametrize("engine", ["auto", "python"])
def test_ismcts_plays_only_legal_actions_in_every_phase(engine: str) -> None:
    # Babylon B plays a seventh card, Halikarnassos revives from the discard pile
    # (game 6: the bots' default play reaches both there)
    g = Game(3, 6, wonders=["Babylon", "Halikarnassos", "Olympia"], sides="BAA")
    bots = [IsmctsBot(p, iterations=3, width=3, engine=engine) for p in range(3)]
    phases = set()
    steps = 0
    while not g.over and (engine == "auto" or steps < 4):
        joint = {p: bots[p].act(g, p) for p in g.to_act()}
        for p, a in joint.items():
            assert g.is_legal(p, a), (p, a)
        phases.add(g.phase)
        g.step(joint)
        steps += 1
    if engine == "auto":
        assert g.over and {"main", "seventh"} <= phases


def test_ismcts_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    logs = []
    for _ in range(2):
        g = Game(4, 21)
        bots = [IsmctsBot(5, iterations=12), HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)]
        play_game(g, list(bots))
        logs.append(g.log)
    assert logs[0] == logs[1]
    g = Game(4, 21)
    play_game(g, [IsmctsBot(6, iterations=12), HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)])
    assert g.log != logs[0]  # another seed searches differently


def _deal_check(game: Game, player: int, bot: IsmctsBot, rng: random.Random) -> None:
    """Every re-deal keeps what ``player`` knows and the true hands are possible ones."""
    n, age, turn = game.n, game.age, game.turn
    step = -1 if age == 2 else 1
    cons = bot.knowledge.constraints(game, player)
    assert cons is not None
    seen, pool, unseen = cons
    # the truth is one of the possible deals
    for s, cards in seen.items():
        assert not Counter(game.hands[s]) - Counter(cards)
    truth_unseen = Counter(c for q in unseen for c in game.hands[q])
    assert not truth_unseen - Counter(pool)
    # the hand passed on last turn is known to its holder's seat: only those cards can be there
    if turn > 1:
        nb = (player + step) % n
        assert nb in seen
        last = Counter(bot.knowledge.seen[(age, turn - 1)])
        mine = dict(next(j for a, t, ph, j in game.log if (a, t, ph) == (age, turn - 1, "main")))
        last[mine[player].card] -= 1
        assert not Counter(seen[nb]) - last
    deck = Counter(c.index for c in age_deck(age, n))
    if age == 3:
        deck.update(g.index for g in guilds())
    for _ in range(20):
        hands, guild_draw = bot.redeal(game, player, rng)
        assert hands[player] is None
        total = Counter(game.hands[player])
        for q in range(n):
            if q == player:
                continue
            h = hands[q]
            assert h is not None and len(h) == len(game.hands[q])
            # never a card the player has seen elsewhere
            allowed = Counter(seen[q]) if q in seen else Counter(pool)
            assert not Counter(h) - allowed, (q, h, allowed)
            total.update(h)
        # with the cards it saw played this age (its own, and every card built), no card more
        # often than the age has it
        for a, _, ph, joint in game.log:
            if a == age and ph == "main":
                total.update(x.card for q, x in joint if q == player or x.kind in ("build", "free"))
        assert not total - deck
        if age < 3:  # the guilds of age III are not known yet: drawn afresh
            assert len(guild_draw) == len(game.guild_draw)
            assert set(guild_draw) <= {g.index for g in guilds()}


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (5, 2), (7, 3)])
def test_redeals_keep_what_the_bot_has_seen(players: int, seed: int) -> None:
    g = Game(players, seed)
    bot = IsmctsBot(1, iterations=1)
    others = [HeuristicBot(p) for p in range(players)]
    rng = random.Random(seed)
    checked = 0
    while not g.over:
        joint = {p: others[p].act(g, p) for p in g.to_act() if p != 0}
        if 0 in g.to_act():
            bot.knowledge.observe(g, 0)
            if g.phase == "main":
                _deal_check(g, 0, bot, rng)
                checked += 1
            joint[0] = others[0].act(g, 0)
        g.step(joint)
    assert checked >= 18


def test_knowledge_narrows_the_hand_passed_on() -> None:
    # 3 players, turn 2: the left neighbour holds the hand the bot passed, less one card
    g = Game(3, 8)
    k = Knowledge()
    k.observe(g, 0)
    first = list(g.hands[0])
    heur = [HeuristicBot(p) for p in range(3)]
    g.step({p: heur[p].act(g, p) for p in range(3)})
    k.observe(g, 0)
    cons = k.constraints(g, 0)
    assert cons is not None
    seen, _pool, unseen = cons
    assert set(seen) == {1} and unseen == [2]
    assert len(seen[1]) == 6 and not Counter(seen[1]) - Counter(first)
    # a bot that saw nothing before (created now) knows only the pool
    fresh = Knowledge()
    fresh.observe(g, 0)
    cons2 = fresh.constraints(g, 0)
    assert cons2 is not None and cons2[0] == {} and cons2[2] == [1, 2]


def test_a_new_game_forgets_the_old_one() -> None:
    k = Knowledge()
    g = Game(3, 8)
    heur = [HeuristicBot(p) for p in range(3)]
    for _ in range(3):
        k.observe(g, 0)
        g.step({p: heur[p].act(g, p) for p in range(3)})
    fresh = Game(3, 9)
    k.observe(fresh, 0)
    assert list(k.seen) == [(1, 1)]


@needs_core
def test_ismcts_beats_random_players() -> None:
    # a random bot in seat 0 wins about 1 game in 3: 5 of 6 happens by chance 1.8% of the time
    wins = 0
    for s in range(6):
        bots = [IsmctsBot(s, iterations=40)] + [RandomBot(10 * s + p) for p in (1, 2)]
        g = play_game(Game(3, 300 + s), list(bots))
        wins += 0 in g.winners()
    assert wins >= 5


def test_ismcts_is_a_registered_bot_kind() -> None:
    assert "ismcts" in BOTS
    bot = make_bot("ismcts", 3, seconds=0.01)
    assert isinstance(bot, IsmctsBot) and bot.seconds == 0.01
    with pytest.raises(InvalidInput, match="seconds > 0"):
        IsmctsBot(1, seconds=0)
    with pytest.raises(InvalidInput, match="engine"):
        IsmctsBot(1, engine="gpu")
    for bad in ({"opp_width": -1}, {"opp_width": 33}, {"opp_depth": 0}, {"opp_depth": 33}):
        with pytest.raises(InvalidInput, match=next(iter(bad))):
            IsmctsBot(1, **bad)  # type: ignore[arg-type]


def _positions(players: int, seed: int, **setup: object) -> list[Game]:
    """Copies of a heuristic game at every decision of seat 0, with a knowing bot beside."""
    g = Game(players, seed, **setup)  # type: ignore[arg-type]
    heur = [HeuristicBot(p) for p in range(players)]
    out = []
    while not g.over:
        if 0 in g.to_act():
            out.append(g.clone())
        g.step({p: heur[p].act(g, p) for p in g.to_act()})
    return out


@needs_core
@pytest.mark.parametrize(
    ("players", "seed", "setup"),
    [
        (3, 1, {}),
        (5, 2, {}),
        (7, 3, {}),
        # a seventh card (Babylon B) and a revival from the discard pile (Halikarnassos)
        (3, 4, {"wonders": ["Babylon", "Halikarnassos", "Olympia"], "sides": "BAB"}),
    ],
)
def test_the_compiled_search_and_the_python_fallback_choose_alike(
    players: int, seed: int, setup: dict[str, object]
) -> None:
    positions = _positions(players, seed, **setup)
    native = IsmctsBot(9, iterations=18, engine="native")
    python = IsmctsBot(9, iterations=18, engine="python")
    searched = 0
    for g in positions[::3] + positions[-2:]:
        a = native.act(g, 0)
        b = python.act(g, 0)
        assert a == b
        # the same rewards, to the last bit: the same deals, tree and play-outs
        assert native.last_totals == python.last_totals
        if native.last_engine:
            assert (native.last_engine, python.last_engine) == ("native", "python")
            assert native.last_iterations == python.last_iterations >= 18
            searched += 1
    assert searched >= 4


@needs_core
def test_the_compiled_search_grows_a_tree_below_the_root() -> None:
    g = _positions(5, 6)[1]
    bot = IsmctsBot(2, iterations=60)
    bot.knowledge.observe(g, 0)
    search = bot.search(g, 0)
    n = len(search.candidates)
    assert 2 <= n <= bot.width
    search.run(10)
    assert search.rounds == 10 and len(search.totals) == n
    nodes = search.nodes  # type: ignore[attr-defined]
    # one root node per candidate, one node more per play-out that reached a later decision
    assert n < nodes <= n + 10 * n
    with pytest.raises(InvalidInput, match="width"):
        IsmctsBot(1, width=40)


@needs_core
@pytest.mark.parametrize(
    "knobs",
    [
        {"margin_scale": 40.0},
        {"noise": 1.5},
        {"widen": 2, "exploration": 0.3},
        {"distinct": False},
        {"own_heuristic": "tuned"},
        {"own_heuristic": "tuned", "opp_heuristic": "tuned"},
        {"opp_noise": 2.0, "opp_width": 0, "opp_depth": 1},  # only where they play the heuristic
        {"opp_width": 0, "opp_depth": 1},  # the others play the heuristic (before 27 November)
        {"opp_width": 5, "opp_depth": 1},
        {"opp_width": 5, "opp_depth": 6},
        {"opp_width": 3, "opp_distinct": True, "opp_exploration": 0.3, "opp_depth": 30},
        {"opp_split": True},
        {"opp_split": True, "width": 4, "opp_depth": 3},
    ],
)
def test_the_search_knobs_change_the_search_alike_in_both_engines(
    knobs: dict[str, float],
) -> None:
    positions = _positions(5, 2)
    native = IsmctsBot(9, iterations=18, engine="native", **knobs)  # type: ignore[arg-type]
    python = IsmctsBot(9, iterations=18, engine="python", **knobs)  # type: ignore[arg-type]
    plain = IsmctsBot(9, iterations=18, engine="native")
    differs = 0
    for g in positions[::3]:
        a, b, c = native.act(g, 0), python.act(g, 0), plain.act(g, 0)
        assert a == b
        assert native.last_totals == python.last_totals
        differs += native.last_totals != plain.last_totals
        del c
    # the knob is used: it changes the rewards somewhere
    assert differs >= 1


def test_distinct_keeps_one_wonder_stage_and_one_discard_the_card_the_next_holder_wants() -> None:
    from agon.games.seven_wonders.bots.heuristic import _cheapest
    from agon.games.seven_wonders.bots.ismcts import _denial, _distinct

    checked = 0
    for g in _positions(5, 2):
        legal = _cheapest(g.legal_actions(0))
        kept = _distinct(g, 0, legal)
        for kind in ("wonder", "discard"):
            mine = [a for a in legal if a.kind == kind]
            chosen = [a for a in kept if a.kind == kind]
            assert len(chosen) == min(1, len(mine))
            if len(mine) > 1:
                best = max(_denial(g, 0, a.card) for a in mine)
                assert _denial(g, 0, chosen[0].card) == best
                checked += 1
        # every build is kept, in the same order
        assert [a for a in kept if a.kind not in ("wonder", "discard")] == [
            a for a in legal if a.kind not in ("wonder", "discard")
        ]
    assert checked >= 10


def _flags(bot: IsmctsBot, others: list[Bot], seed: int) -> list[bool]:
    """Play a game with ``bot`` in seat 0; whether each of its searches modelled the others by
    the heuristic."""
    g = Game(1 + len(others), seed)
    bots = [bot, *others]
    flags = []
    while not g.over:
        joint = {p: bots[p].act(g, p) for p in g.to_act()}
        if 0 in joint and bot.last_iterations:
            flags.append(bot.last_heuristic_others)
        g.step_unchecked(joint)
    return flags


def test_the_others_are_modelled_by_the_heuristic_once_they_play_like_it() -> None:
    """``opp_adapt``: heuristic bots are predicted move by move, so once 4 of their moves are
    seen (the third decision, with three of them) the search models them by the heuristic;
    random players are not; 1 never adapts; a new game starts counting again."""
    bot = IsmctsBot(1, iterations=24)
    flags = _flags(bot, [HeuristicBot(s) for s in range(2, 5)], 31)
    assert not any(flags[:2]) and all(flags[2:])
    assert bot.predicted[0] == bot.predicted[1] > 0
    assert not any(_flags(bot, [RandomBot(s) for s in range(2, 5)], 32))  # the same bot, anew
    assert bot.predicted[0] < 0.9 * bot.predicted[1]
    never = IsmctsBot(1, iterations=24, opp_adapt=1.0)
    assert not any(_flags(never, [HeuristicBot(s) for s in range(2, 5)], 31))
    with pytest.raises(InvalidInput, match="opp_adapt"):
        IsmctsBot(1, opp_adapt=1.5)


@pytest.mark.parametrize("opp", ["default", "tuned"])
def test_the_predicted_moves_are_the_same_from_the_core_and_in_python(opp: str) -> None:
    """``opp_adapt``'s prediction (the heuristic's near-best moves of another seat at the last
    decision) reads the values from the search's copy of the game in the compiled core when
    there is one, else from a clone in Python: the same moves, at every decision of random
    games (every phase), with the default and the tuned weights."""
    checked = 0
    for seed in range(6):
        game = Game(3 + seed % 5, seed)
        bots = [RandomBot(seed * 100 + p) for p in range(game.n)]
        native = IsmctsBot(1, opp_heuristic=opp)
        python = IsmctsBot(1, opp_heuristic=opp)
        while not game.over:
            native._remember(game, core.to_native(game))
            python._remember(game, None)
            assert native._seen_native is not None and python._seen_at is not None
            for q in game.to_act():
                assert native._heuristic_best(q) == python._heuristic_best(q)
                checked += 1
            game.step_unchecked({p: bots[p].act(game, p) for p in game.to_act()})
    assert checked > 500


def test_a_single_choice_is_told_by_the_core_as_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot tells a single choice from the core's candidates when the core has them: the
    same moves, searches (none for a single choice) and draws of its generator as from the
    legal actions in Python (the path of a core without them), at every decision of games
    with heuristic and random players (every phase)."""
    decisions, single = core_and_python_alike(
        monkeypatch, lambda p: IsmctsBot(p, iterations=6), lambda bot: bot.last_iterations, 2
    )
    assert decisions > 80 and single > 0
