"""Parity of the compiled core (agon.cores.seven_wonders) with the Python engine.

The core must play the same game from the same seed: the same deal, the same legal actions in
the same order at every decision, the same state after every step and the same score
breakdown.  ``make test`` builds the core, so these tests require it (no skip).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from agon.commands.seven_wonders import group
from agon.cores.seven_wonders import NativeGame
from agon.errors import InvalidInput
from agon.games.seven_wonders import core as sw_core
from agon.games.seven_wonders import fast
from agon.games.seven_wonders.bots import HeuristicBot, MctsBot, RandomBot, action_value
from agon.games.seven_wonders.bots.base import SplitMix64
from agon.games.seven_wonders.bots.heuristic import _cheapest
from agon.games.seven_wonders.data import (
    HeuristicWeights,
    guilds,
    heuristic_weights,
    wonders,
)
from agon.games.seven_wonders.engine import GENERATORS, Game, Generator, SplitMixRandom
from agon.games.seven_wonders.payments import payment_options

from .helpers import core_and_python_alike

core = fast.native()
assert core is not None, "the compiled core is not installed: run make"


def lockstep(game: Game, ng: NativeGame, seed: int, seen: Counter[str] | None = None) -> int:
    """Play ``game`` with random bots, ``ng`` with the same actions, comparing everything."""
    bots = [RandomBot(seed * 1000 + p) for p in range(game.n)]
    assert fast.state_of(game) == ng.state()
    decisions = 0
    while not game.over:
        assert game.to_act() == ng.to_act()
        joint = {}
        for p in game.to_act():
            legal = [fast.encode(a) for a in game.legal_actions(p)]
            assert ng.legal(p) == legal, (game.age, game.turn, game.phase, p)
            joint[p] = bots[p].act(game, p)
            decisions += 1
            if seen is not None:
                seen[joint[p].kind] += 1
                seen[f"phase {game.phase}"] += 1
        game.step_unchecked(joint)
        ng.step({p: fast.encode(a) for p, a in joint.items()})
        assert fast.state_of(game) == ng.state(), (game.age, game.turn, game.phase)
    assert ng.over and ng.phase == "over"
    rows = [fast.score_row(s) for s in game.scores()]
    assert ng.scores() == rows
    if seen is not None:
        seen["copied guild"] += sum(r[-1] >= 0 for r in rows)
    return decisions


def test_mersenne_twister_matches_cpython() -> None:
    for seed in (0, 1, -1, 7, 2**32 - 1, 2**32, 2**49 + 12345, -(2**45)):
        assert core.mt_state_of(seed) == random.Random(seed).getstate()[1]
        r = random.Random(seed)
        assert core.mt_draws(seed, 700) == [r.random() for _ in range(700)]
        for n in (1, 2, 3, 7, 100, 2**20 + 1):
            r = random.Random(seed)
            assert core.mt_draws(seed, 700, n) == [r.randrange(n) for _ in range(700)]


def test_the_searches_mersenne_twister_seeding_matches_cpython() -> None:
    # mt_seed_u64 (the searches' generators: their deals, the future decks) unrolls
    # init_by_array: a key of one 32-bit word and of two, both wraps of its index
    seeds = [0, 1, 7, 2**32 - 1, 2**32, 2**32 + 1, 2**49 + 12345, 2**63, 2**64 - 1]
    rng = random.Random(5)
    seeds += [rng.getrandbits(64) for _ in range(40)] + [rng.getrandbits(32) for _ in range(20)]
    for seed in seeds:
        assert core.mt_state_u64(seed) == random.Random(seed).getstate()[1], seed
    # two seeded in lockstep (MctsBot's rounds: the next round's deal beside the future decks)
    for a, b in zip(seeds, seeds[1:] + seeds[:1], strict=True):
        both = (random.Random(a).getstate()[1], random.Random(b).getstate()[1])
        assert core.mt_state_u64(a, b) == both, (a, b)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(-(2**63), 2**63 - 1), n=st.integers(1, 2**31 - 1))
def test_random_bot_generator_matches_the_python_one(seed: int, n: int) -> None:
    # the random bot's SplitMix64: the same words and the same bounded draws in both engines
    r = SplitMix64(seed)
    assert core.sm_draws(seed, 50) == [r.next64() for _ in range(50)]
    r = SplitMix64(seed)
    assert core.sm_draws(seed, 300, n) == [r.below(n) for _ in range(300)]
    r = SplitMix64(seed)  # the search policy's noise (bots.ismcts._SearchPolicy)
    drawn = core.sm_draws(seed, 50, floats=True)
    assert drawn == [r.random() for _ in range(50)]
    assert all(0.0 <= x < 1.0 for x in drawn)


def test_random_bot_generator_is_splitmix64_and_uniform() -> None:
    # the published reference words of SplitMix64 (seed 1234567), and below() exact: over a
    # bound that does not divide 2**32 every value is drawn, none outside [0, n)
    assert core.sm_draws(1234567, 3) == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]
    drawn = Counter(core.sm_draws(11, 60_000, 6))
    assert sorted(drawn) == list(range(6))
    assert all(9_000 < c < 11_000 for c in drawn.values()), drawn


def test_lazily_twisted_generator_matches_cpython() -> None:
    # the generators seeded per game (mt_seed_many) twist their first 624 words one by one as
    # they are drawn: the same words as CPython, across the first generation and beyond
    for seed in (0, 1, -1, 2**32 - 1, 2**32, 2**49 + 12345, 5000 * 1000 + 4):
        r = random.Random(seed)
        assert core.mt_draws(seed, 700, lockstep=True) == [r.random() for _ in range(700)]
        for count in (1, 226, 227, 228, 623, 624, 625, 1300):
            r = random.Random(seed)
            drawn = core.mt_draws(seed, count, 2**31 - 1, lockstep=True)
            assert drawn == [r.randrange(2**31 - 1) for _ in range(count)]


@pytest.mark.parametrize(
    "seeds",
    [
        list(range(8)),  # eight keys of one word: seeded side by side (mt_seed_lanes)
        [2**32 + i for i in range(8)],  # eight keys of two words
        [-(2**40) - 3 * i for i in range(8)],
        [2**32 - 4 + i for i in range(8)],  # one and two words mixed: one by one in lockstep
        [5, 2**49, -7],
    ],
)
def test_generators_seeded_together_match_cpython(seeds: list[int]) -> None:
    drawn = core.mt_batch_draws(seeds, 700)
    assert drawn == [[r.random() for _ in range(700)] for r in map(random.Random, seeds)]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(-(2**40), 2**40),
    players=st.integers(3, 7),
    generator=st.sampled_from(GENERATORS),
)
def test_lockstep_parity_over_seeds(seed: int, players: int, generator: Generator) -> None:
    game = Game(players, seed, generator=generator)
    lockstep(game, fast.native_game(players, seed, generator=generator), seed)


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    players=st.integers(3, 7),
    seed=st.integers(0, 2**32),
    generator=st.sampled_from(GENERATORS),
)
def test_lockstep_parity_over_wonders_sides_and_guilds(
    data: st.DataObject, players: int, seed: int, generator: Generator
) -> None:
    boards = data.draw(st.permutations([w.en for w in wonders()]))[:players]
    sides = "".join(data.draw(st.lists(st.sampled_from("AB"), min_size=players, max_size=players)))
    draw = data.draw(st.permutations([g.en for g in guilds()]))[: players + 2]
    game = Game(players, seed, wonders=boards, sides=sides, guilds=draw, generator=generator)
    ng = fast.native_game(
        players, seed, wonders=boards, sides=sides, guilds=draw, generator=generator
    )
    lockstep(game, ng, seed)


@pytest.mark.parametrize("seed", [0, 1, -1, 7, 2**32 + 5, -(2**45) + 3])
def test_splitmix_game_generator_is_the_random_bots_splitmix64(seed: int) -> None:
    # a simulated game's generator: SplitMix64's words and Lemire's draw (the random bot's),
    # behind random.Random's shuffle, sample and choice; its state is one word
    r, ref = SplitMixRandom(seed), SplitMix64(seed)
    assert [r._randbelow(n) for n in range(1, 60)] == [ref.below(n) for n in range(1, 60)]
    assert r.random() == ref.random()
    deck, expected = list(range(49)), list(range(49))
    r.shuffle(deck)
    for i in range(48, 0, -1):  # CPython's shuffle, over the same draws
        j = ref.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert deck == expected
    assert r.getstate() == ("splitmix", (ref.state,), None)
    copy = SplitMixRandom()
    copy.setstate(r.getstate())
    assert [copy.getrandbits(70) for _ in range(3)] == [r.getrandbits(70) for _ in range(3)]


def test_game_generators_kept_games_deal_from_the_mersenne_twister() -> None:
    # stored, online and published games (Game(n, seed)) keep CPython's generator and deal;
    # agon 7w simulate deals from SplitMix64 (other deals for the same seed)
    game = Game(5, 42)
    assert type(game.rng) is random.Random
    assert game.rng.getstate() != random.Random(42).getstate()  # the deal drew from it
    assert fast.SIMULATE_GENERATOR == "splitmix"
    sm = Game(5, 42, generator="splitmix")
    assert isinstance(sm.rng, SplitMixRandom)
    assert isinstance(sm.clone().rng, SplitMixRandom)
    assert sm.clone().rng.getstate() == sm.rng.getstate()
    assert sm.hands != game.hands
    with pytest.raises(InvalidInput):
        Game(5, 42, generator="xorshift")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        fast.simulate_random(5, 1, 0, generator="xorshift")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="generator"):
        core.simulate_random(5, 1, 0, 2)


@pytest.mark.parametrize("generator", GENERATORS)
def test_imported_game_keeps_its_generator(generator: Generator) -> None:
    # fast.to_native carries the generator's state: the imported game deals the next ages
    # as the Python game does
    game = Game(4, 9, generator=generator)
    bots = [RandomBot(9000 + p) for p in range(4)]
    for _ in range(3):
        game.step_unchecked({p: bots[p].act(game, p) for p in game.to_act()})
    ng = fast.to_native(game)
    assert ng is not None
    lockstep(game, ng, 9)


def test_lockstep_parity_fixed_seeds_exercise_every_power() -> None:
    """300 fixed games, 3-7 players, every wonder side; the special rules are really played."""
    seen: Counter[str] = Counter()
    names = [w.en for w in wonders()]
    for seed in range(300):
        players = 3 + seed % 5
        boards = [names[(seed + k) % 7] for k in range(players)]
        sides = "".join("AB"[(seed // 7 + k) % 2] for k in range(players))
        game = Game(players, seed, wonders=boards, sides=sides)
        lockstep(game, fast.native_game(players, seed, wonders=boards, sides=sides), seed, seen)
    for what in ("build", "wonder", "discard", "free", "revive", "pass"):
        assert seen[what] > 0, what
    for what in ("phase seventh", "phase revive", "copied guild"):
        assert seen[what] > 0, what


@pytest.mark.parametrize("generator", GENERATORS)
def test_whole_games_match_engine(generator: Generator) -> None:
    for seed in range(100, 160):
        players = 3 + seed % 5
        decisions, rows = fast.play_random_native(players, seed, generator)
        made, scores = fast.play_random_python(players, seed, generator)
        assert decisions == made
        assert rows == [fast.score_row(s) for s in scores]


@pytest.mark.parametrize("generator", GENERATORS)
@pytest.mark.parametrize(("players", "seed"), [(3, 0), (5, 17), (7, -40)])
def test_simulate_random_statistics_match(players: int, seed: int, generator: Generator) -> None:
    a = fast.simulate_random(players, 25, seed, engine="python", generator=generator)
    b = fast.simulate_random(players, 25, seed, engine="native", generator=generator)
    assert (a.decisions, a.score_sums, a.wins) == (b.decisions, b.score_sums, b.wins)
    # the core's simulate_random (its own loop, game generators seeded eight at a time)
    decisions, sums, wins = core.simulate_random(players, 25, seed, fast.generator_code(generator))
    assert (decisions, tuple(sums), tuple(wins)) == (b.decisions, b.score_sums, b.wins)
    assert (a.engine, b.engine) == ("python", "native")
    assert (a.decisions, a.score_sums, a.wins) == (b.decisions, b.score_sums, b.wins)
    assert sum(b.wins) == pytest.approx(25)
    assert b.mean_scores == tuple(s / 25 for s in b.score_sums)


small = st.lists(st.integers(0, 2), min_size=7, max_size=7).map(tuple)
choices = st.lists(st.integers(1, 127), max_size=4).map(tuple)
prices = st.lists(st.sampled_from([1, 2]), min_size=7, max_size=7).map(tuple)


@settings(max_examples=300, deadline=None)
@given(
    cost=st.lists(st.integers(0, 6), max_size=7).map(
        lambda rs: tuple(rs.count(r) for r in range(7))
    ),
    own=small,
    oc=choices,
    lf=small,
    lc=choices,
    rf=small,
    rc=choices,
    pl=prices,
    pr=prices,
)
def test_payments_match_engine_search(
    cost: tuple[int, ...],
    own: tuple[int, ...],
    oc: tuple[int, ...],
    lf: tuple[int, ...],
    lc: tuple[int, ...],
    rf: tuple[int, ...],
    rc: tuple[int, ...],
    pl: tuple[int, ...],
    pr: tuple[int, ...],
) -> None:
    """The core's closed-form payments (Hall's condition) equal the engine's search."""
    expected = payment_options(cost, own, oc, lf, lc, rf, rc, pl, pr)
    assert core.payment_options(cost, own, oc, lf, lc, rf, rc, pl, pr) == expected
    # the random bot counts them without listing (test_fast_pick.py): the same number
    assert core.payment_options(cost, own, oc, lf, lc, rf, rc, pl, pr, count=True) == len(expected)


# the masks of the loaded cards (a city's kept), and two of none (a city with one is not kept)
kept_choices = st.lists(st.sampled_from([*core.kept_masks(), 1, 127]), max_size=3).map(tuple)
question = st.tuples(small, kept_choices, small, kept_choices, small, kept_choices, prices, prices)


@settings(max_examples=300, deadline=None)
@given(
    cost=st.lists(st.integers(0, 6), min_size=2, max_size=7).map(
        lambda rs: tuple(rs.count(r) for r in range(7))
    ),
    first=question,
    changes=st.lists(st.tuples(st.integers(0, 7), question), min_size=1, max_size=6),
    budgets=st.lists(st.integers(0, 12), min_size=7, max_size=7),
)
def test_kept_payments_match_engine_search(
    cost: tuple[int, ...],
    first: tuple[tuple[int, ...], ...],
    changes: list[tuple[int, tuple[tuple[int, ...], ...]]],
    budgets: list[int],
) -> None:
    """The searches' payments kept between their steps (a table keyed by what a search reads:
    the units missing, the either/or cards, the neighbours' tradable units of those resources,
    the prices) answer as the engine's search within the coins, asked once and again, whatever
    the table held from the question before (the same cost, one thing of the cities changed:
    own units or either/or cards, a neighbour's, a price)."""
    assert core.kept_masks(), "no either/or mask of the loaded cards is kept"
    questions = [first]
    for field, other in changes:
        changed = list(questions[-1])
        changed[field] = other[field]
        questions.append(tuple(changed))
    for entries in (1, 1024):  # 1: every question meets the answer of the one before
        before = core.kept_entries(entries)
        try:
            for (own, oc, lf, lc, rf, rc, pl, pr), budget in zip(questions, budgets, strict=False):
                expected = tuple(
                    (left, right)
                    for left, right in payment_options(cost, own, oc, lf, lc, rf, rc, pl, pr)
                    if left + right <= budget
                )
                kept = core.payment_options_kept(cost, own, oc, lf, lc, rf, rc, pl, pr, budget)
                assert kept == (expected, expected)
        finally:
            core.kept_entries(before)


def test_tables_come_from_the_data_files() -> None:
    card_rows, wonder_rows, decks, guild_list = fast.tables()
    assert len(card_rows) == 78 and len(wonder_rows) == 7 and len(guild_list) == 10
    assert all(len(r) == 13 + 55 for r in card_rows)
    assert [len(d) for d in decks[10:]] == [k * 7 - k - 2 for k in range(3, 8)]


def test_auto_falls_back_to_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sw_core, "native", lambda: None)
    assert not fast.native_available()
    assert fast.simulate_random(3, 2, 5).engine == "python"
    with pytest.raises(InvalidInput, match="not installed"):
        fast.simulate_random(3, 2, 5, engine="native")


def test_bad_input() -> None:
    with pytest.raises(InvalidInput, match="players"):
        fast.simulate_random(8, 1, 0)
    with pytest.raises(InvalidInput, match="games"):
        fast.simulate_random(5, 0, 0)
    with pytest.raises(InvalidInput, match="seed"):
        fast.simulate_random(5, 1, 2**60, engine="native")
    assert fast.simulate_random(3, 1, 2**60).engine == "python"


@pytest.mark.parametrize("generator", [None, *GENERATORS])
def test_cli_simulate_random_same_with_either_engine(generator: str | None) -> None:
    runner = CliRunner()
    out = {}
    for engine in ("python", "native"):
        args = ["simulate", "--players", "4", "--games", "12", "--seed", "3", "--json"]
        if generator is not None:
            args += ["--generator", generator]
        res = runner.invoke(group, [*args, "--engine", engine])
        assert res.exit_code == 0, res.output
        data = json.loads(res.output)
        assert data.pop("engine") == engine
        del data["seconds"], data["games_per_second"]
        out[engine] = data
    assert out["python"] == out["native"]
    assert out["native"]["games"] == 12
    assert out["native"]["generator"] == (generator or fast.SIMULATE_GENERATOR)
    expected = fast.simulate_random(4, 12, 3, engine="python", generator=generator or "splitmix")
    assert [s["mean_score"] for s in out["native"]["seats"]] == [
        round(x, 2) for x in expected.mean_scores
    ]


# ---------------------------------------------------------------- heuristic bot and search rollouts
def test_heuristic_values_and_choices_match_engine() -> None:
    """At every decision of random games: the same action values, float for float, and the
    same pick by a seeded HeuristicBot; the imported state equals the engine's."""
    for seed in range(12):
        players = 3 + seed % 5
        game = Game(players, seed)
        bots = [RandomBot(seed * 1000 + p) for p in range(players)]
        while not game.over:
            ng = fast.to_native(game)
            assert ng is not None and ng.state() == fast.state_of(game)
            for p in game.to_act():
                values, pick = core.heuristic_values(ng, p, seed + p)
                assert values == [action_value(game, p, a) for a in game.legal_actions(p)]
                assert pick == fast.encode(HeuristicBot(seed + p).act(game, p))
            game.step_unchecked({p: bots[p].act(game, p) for p in game.to_act()})


def test_weighted_heuristic_values_and_choices_match_engine() -> None:
    """The tuned weights, and the default ones passed explicitly: the same values and picks in
    the core and in Python; the default weights passed explicitly play as no weights at all."""
    tuned = heuristic_weights("tuned")
    default = heuristic_weights("default").vector()
    assert tuned.vector() != default
    differs = 0
    for seed in range(4):
        players = 3 + 2 * (seed % 3)
        game = Game(players, seed)
        bots = [RandomBot(seed * 1000 + p) for p in range(players)]
        while not game.over:
            ng = fast.to_native(game)
            assert ng is not None
            for p in game.to_act():
                legal = game.legal_actions(p)
                values, pick = core.heuristic_values(ng, p, seed + p, tuned.vector())
                assert values == [action_value(game, p, a, tuned) for a in legal]
                assert pick == fast.encode(HeuristicBot(seed + p, weights=tuned).act(game, p))
                plain = core.heuristic_values(ng, p, seed + p)
                assert core.heuristic_values(ng, p, seed + p, default) == plain
                differs += values != plain[0]
            game.step_unchecked({p: bots[p].act(game, p) for p in game.to_act()})
    assert differs > 10


def test_heuristic_games_with_default_weights_are_the_heuristic_bots_games() -> None:
    default = heuristic_weights("default").vector()
    games = core.heuristic_games(5, 6, 21, [None, default, None, None, None])
    _, sums, _ = core.simulate_bots(5, 6, 21, [1] * 5)
    assert [sum(g[p][0] for g in games) for p in range(5)] == sums
    tuned = core.heuristic_games(5, 6, 21, [heuristic_weights("tuned").vector()] + [None] * 4)
    assert tuned != games
    with pytest.raises(ValueError, match="weights"):
        core.heuristic_games(5, 1, 21, [[1.0]] + [None] * 4)


def test_heuristic_weight_sets_are_checked() -> None:
    with pytest.raises(InvalidInput, match="no set"):
        heuristic_weights("nonesuch")
    w = heuristic_weights("default")
    assert HeuristicWeights.from_vector(w.vector()) == w
    with pytest.raises(InvalidInput, match="expected"):
        HeuristicWeights.from_vector([1.0])


@pytest.mark.parametrize(
    "kinds", [["heuristic"] * 5, ["random", "heuristic", "random", "heuristic", "heuristic"]]
)
@pytest.mark.parametrize("generator", GENERATORS)
def test_simulate_bots_statistics_match(kinds: list[str], generator: Generator) -> None:
    a = fast.simulate_bots(5, 8, 11, kinds, engine="python", generator=generator)
    b = fast.simulate_bots(5, 8, 11, kinds, engine="native", generator=generator)
    assert (a.decisions, a.score_sums, a.wins) == (b.decisions, b.score_sums, b.wins)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(3, 7),
    moves=st.integers(0, 16),
    generator=st.sampled_from(GENERATORS),
)
def test_search_rollouts_match_engine(
    seed: int, players: int, moves: int, generator: Generator
) -> None:
    """One MctsBot round: the same reward for every candidate in the core and in Python (the
    re-deals from a Mersenne Twister whatever the game's generator)."""
    game = Game(players, seed, generator=generator)
    heuristic = [HeuristicBot(seed + p) for p in range(players)]
    for _ in range(moves):
        game.step_unchecked({p: heuristic[p].act(game, p) for p in game.to_act()})
    player = game.to_act()[0]
    bot = MctsBot(seed, rounds=1, engine="python")
    cands = _cheapest(game.legal_actions(player))[:4]
    round_seed = random.Random(seed).getrandbits(64)
    base = fast.to_native(game)
    assert base is not None
    expected = bot.simulate_round(game, player, cands, round_seed)
    assert fast.rollouts(base, player, [fast.encode(c) for c in cands], round_seed) == expected


@pytest.mark.parametrize("moves", [0, 5, 6, 7, 12, 13, 17])
def test_search_rollouts_match_engine_with_a_seventh_card(moves: int) -> None:
    """MctsBot rounds with Babylon B (its seventh card reads the cities before turn 6, which
    a play-out's copy of the game leaves out while the main phase's turn 6 is still ahead):
    the same rewards in the core and in Python, from every age and around turn 6."""
    game = Game(3, 6, wonders=["Babylon", "Halikarnassos", "Olympia"], sides="BAB")
    heuristic = [HeuristicBot(p) for p in range(3)]
    for _ in range(moves):
        game.step_unchecked({p: heuristic[p].act(game, p) for p in game.to_act()})
    base = fast.to_native(game)
    assert base is not None
    for player in game.to_act():
        cands = _cheapest(game.legal_actions(player))[:4]
        bot = MctsBot(player, rounds=1, engine="python")
        for round_seed in (1, 2**40 + 7):
            expected = bot.simulate_round(game, player, cands, round_seed)
            got = fast.rollouts(base, player, [fast.encode(c) for c in cands], round_seed)
            assert got == expected


def test_search_bot_same_choice_with_either_engine() -> None:
    game = Game(4, 8)
    heuristic = [HeuristicBot(p) for p in range(4)]
    for _ in range(7):
        game.step_unchecked({p: heuristic[p].act(game, p) for p in game.to_act()})
    for player in game.to_act():
        py = MctsBot(player, rounds=2, engine="python").act(game, player)
        assert MctsBot(player, rounds=2, engine="native").act(game, player) == py


def test_summed_rollouts_are_the_rounds_summed_in_order() -> None:
    """``rollouts_summed``: per candidate, the rewards of ``rollouts`` seed after seed, summed
    in that order from 0.0 (float for float), from positions in every age; no seed: zeros."""
    game = Game(5, 12)
    heuristic = [HeuristicBot(p) for p in range(5)]
    rng = random.Random(5)
    checked = 0
    while not game.over:
        if game.turn % 3 == 1 and game.phase == "main":
            base = fast.to_native(game)
            assert base is not None
            player = game.to_act()[0]
            codes = [fast.encode(a) for a in _cheapest(game.legal_actions(player))[:6]]
            seeds = [rng.getrandbits(64) for _ in range(7)]
            expected = [0.0] * len(codes)
            for seed in seeds:
                for i, r in enumerate(fast.rollouts(base, player, codes, seed)):
                    expected[i] += r
            assert core.rollouts_summed(base, player, codes, seeds) == expected
            assert sw_core.rollouts_summed(base, player, codes, seeds) == expected
            assert core.rollouts_summed(base, player, codes, []) == [0.0] * len(codes)
            checked += 1
        game.step_unchecked({p: heuristic[p].act(game, p) for p in game.to_act()})
    assert checked >= 6


@pytest.mark.parametrize("width", [1, 2, 5])
def test_search_bot_candidates_from_the_core_as_in_python(
    width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MctsBot ranks its candidates in the core (``search_candidates``) when the core has the
    hook: the same moves, rounds (none for a single choice) and draws of its generator as
    with the ranking in Python (the path of a core without it), at every decision of games
    with heuristic and random players (every phase)."""
    decisions, single = core_and_python_alike(
        monkeypatch, lambda p: MctsBot(p, rounds=1, width=width), lambda bot: bot.last_rounds, 3
    )
    assert decisions > 150 and single > 0


def test_withdrawal_stays_in_python() -> None:
    game = Game(5, 3)
    game.withdraw(2)
    assert fast.to_native(game) is None
    assert MctsBot(1, rounds=1).act(game, 0) in game.legal_actions(0)
    with pytest.raises(InvalidInput, match="mcts"):
        MctsBot(1, rounds=1, engine="native").act(game, 0)
