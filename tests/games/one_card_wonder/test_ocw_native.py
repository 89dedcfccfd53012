"""The compiled core (agon.cores.one_card_wonder) plays exactly the Python engine's games.

Parity is the proof behind the speed claim of ``bench/one_card_wonder.py``: for the same
seed and the same random choices the core must offer the same legal actions (their text
forms, in order) at every decision, hold the same components everywhere and keep the same
stack of frames after every step, and end with the same winner and final state.  The core
reproduces CPython's Mersenne Twister, so no action sequence needs to be fed to it: both
engines draw and choose by themselves from the same seeds.
"""

from __future__ import annotations

import dataclasses
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.cli_runner import run_agon

from agon.errors import InvalidInput
from agon.games.one_card_wonder import native
from agon.games.one_card_wonder.bots import Bot, RandomBot, SearchBot, make_bot
from agon.games.one_card_wonder.content import Content, default_content, load_content
from agon.games.one_card_wonder.effects import REGISTRY, EffectSpec
from agon.games.one_card_wonder.engine import Game, Variant
from agon.games.one_card_wonder.sim import simulate

DATA = Path(native.__file__).parent / "data"


def lockstep(
    n: int, seed: int, variant: Variant, policy_seed: int, content: Content | None = None
) -> int:
    """Play one game on both engines side by side, comparing everything at every step."""
    g = Game.new(n, seed, variant, content)
    ng = native.new_game(n, seed, variant, content)
    rng = random.Random(policy_seed)
    steps = 0
    while True:
        assert ng.state() == native.py_state(g), f"state differs after {steps} steps"
        assert ng.stack() == native.py_stack(g), f"stack differs after {steps} steps"
        assert ng.current_player() == g.current_player()
        if g.over:
            break
        legal = g.legal_actions()
        assert ng.legal() == [str(a) for a in legal], f"legal actions differ at step {steps}"
        i = rng.randrange(len(legal))
        g.apply_unchecked(legal[i])
        ng.apply_index(i)
        steps += 1
    assert ng.over and ng.winner == g.winner and ng.turn == g.turn
    return steps


def test_core_is_installed() -> None:
    """`make test` builds it; the parity and the speed claim need it."""
    assert native.available()
    assert native.core() is not None


@pytest.mark.parametrize("seed", [0, 1, 5, 12345, 2**31 - 1, 2**32, 2**40 + 3, 10**20])
def test_mersenne_twister_matches_cpython(seed: int) -> None:
    from agon.cores.one_card_wonder import _core

    for bound in (1, 2, 3, 7, 60, 1000, 2**30 + 1):
        py = random.Random(seed)
        assert _core._mt_check(seed, bound, 40) == [py._randbelow(bound) for _ in range(40)]


VARIANTS = st.sampled_from(["base", "leaders", "two_card", "two_card+leaders", "trade+leaders"])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 6),
    seed=st.integers(0, 2**40),
    policy=st.integers(0, 2**31),
    kind=VARIANTS,
)
def test_lockstep_parity_property(n: int, seed: int, policy: int, kind: str) -> None:
    two_card = "two_card" in kind and n <= 4
    trade = "trade" in kind and n >= 4
    variant = Variant(trade=trade, two_card=two_card, leaders="leaders" in kind, max_turns=700)
    assert lockstep(n, seed, variant, policy) > 0


@pytest.mark.parametrize(
    ("n", "variant"),
    [
        (2, Variant(leaders=True, max_turns=900)),
        (3, Variant(two_card=True, leaders=True, max_turns=900)),
        (4, Variant(max_turns=900)),
        (6, Variant(leaders=True, max_turns=900)),
    ],
)
def test_lockstep_parity_fixed_seeds(n: int, variant: Variant) -> None:
    for seed in range(6):
        lockstep(n, seed, variant, seed * 100)


CASES = [
    (4, Variant(max_turns=3000), 100),
    (2, Variant(leaders=True, max_turns=3000), 60),
    (3, Variant(two_card=True, leaders=True, max_turns=3000), 50),
    (5, Variant(max_turns=3000), 40),
    (6, Variant(leaders=True, max_turns=3000), 40),
    (4, Variant(two_card=True, trade=True, max_turns=3000), 30),
]


@pytest.mark.parametrize(("n", "variant", "games"), CASES)
def test_whole_games_end_identically(n: int, variant: Variant, games: int) -> None:
    """320 fixed seeds: random bots seeded as in ``agon ocw simulate``, every game played to
    the end by each engine on its own; same decisions count and same final state (storages,
    stages, buildings, leaders, bag, supply, winner)."""
    for seed in range(games):
        g = Game.new(n, seed, variant)
        bots = [RandomBot(seed * 100 + s) for s in range(n)]
        decisions = 0
        while not g.over:
            g.apply_unchecked(bots[g.current_player()].choose(g))
            decisions += 1
        ng = native.new_game(n, seed, variant)
        assert ng.play_random([seed * 100 + s for s in range(n)]) == decisions
        assert ng.state() == native.py_state(g), f"seed {seed}"


def test_simulate_gives_the_same_records_on_both_engines() -> None:
    v = Variant(leaders=True, max_turns=3000)
    py = simulate(3, 12, ["random"], 99, v, engine="python")
    assert simulate(3, 12, ["random"], 99, v, engine="native") == py
    assert simulate(3, 12, ["random"], 99, v, engine="auto") == py  # the core: same records


def test_unknown_engine() -> None:
    with pytest.raises(InvalidInput, match="engine 'fast': unknown"):
        simulate(2, 1, ["random"], 1, Variant(max_turns=50), engine="fast")


def bot_trace(
    n: int,
    seed: int,
    variant: Variant,
    names: list[str],
    worlds: int | list[int],
    depth: int | list[int],
) -> tuple[list[int], Game]:
    """Play with the Python bots, seeded as ``sim.play_game``; the index of every choice
    (``worlds`` and ``depth``: one for every search bot, or one per seat)."""
    g = Game.new(n, seed, variant)
    per_seat = [worlds] * n if isinstance(worlds, int) else worlds
    depths = [depth] * n if isinstance(depth, int) else depth
    bots: list[Bot] = [
        SearchBot(seed * 100 + s, per_seat[s], depths[s])
        if name == "search"
        else make_bot(name, seed * 100 + s)
        for s, name in enumerate(names)
    ]
    trace = []
    while not g.over:
        legal = g.legal_actions()
        i = legal.index(bots[g.current_player()].choose(g))
        trace.append(i)
        g.apply_unchecked(legal[i])
    return trace, g


BOT_CASES = [
    (4, Variant(max_turns=3000), ["heuristic"] * 4, 8, 3, 4),
    (3, Variant(leaders=True, max_turns=3000), ["heuristic", "random", "heuristic"], 8, 3, 4),
    (2, Variant(two_card=True, leaders=True, max_turns=3000), ["heuristic"] * 2, 8, 3, 4),
    (6, Variant(leaders=True, max_turns=3000), ["heuristic", "random"] * 3, 8, 3, 3),
    (2, Variant(leaders=True, max_turns=80), ["search", "heuristic"], 2, 1, 2),
    (3, Variant(leaders=True, max_turns=24), ["search", "heuristic", "random"], 8, 3, 1),
    (4, Variant(two_card=True, max_turns=20), ["search", "search", "random", "heuristic"], 8, 3, 1),
]


@pytest.mark.parametrize(("n", "variant", "names", "worlds", "depth", "games"), BOT_CASES)
def test_bots_choose_the_same_on_the_core(
    n: int, variant: Variant, names: list[str], worlds: int, depth: int, games: int
) -> None:
    """The heuristic and search bots ported to the core pick the same action at every
    decision (the search bot: same determinized worlds, same rollouts, same values)."""
    for seed in range(games):
        trace, g = bot_trace(n, seed, variant, names, worlds, depth)
        ng = native.new_game(n, seed, variant)
        assert ng.play_bots(names, [seed * 100 + s for s in range(n)], worlds, depth) == trace
        assert ng.state() == native.py_state(g)


def test_search_bots_of_different_budgets_choose_the_same_on_the_core() -> None:
    """``play_bots`` takes the worlds and depth per seat: each search bot of a table plays
    its own budget, as ``SearchBot(seed, worlds, depth)`` does in Python."""
    n, variant, names = 3, Variant(leaders=True, max_turns=40), ["search", "search", "heuristic"]
    worlds, depth = [2, 3, 8], [1, 2, 3]
    for seed in range(2):
        trace, g = bot_trace(n, seed, variant, names, worlds, depth)
        ng = native.new_game(n, seed, variant)
        assert ng.play_bots(names, [seed * 100 + s for s in range(n)], worlds, depth) == trace
        assert ng.state() == native.py_state(g)
    with pytest.raises(ValueError, match="one per seat"):
        native.new_game(n, 0, variant).play_bots(names, [0, 1, 2], [2, 3], 3)


def test_simulate_with_mixed_bots_gives_the_same_records() -> None:
    v = Variant(max_turns=3000)
    py = simulate(4, 8, ["heuristic", "random"], 3, v, engine="python")
    assert simulate(4, 8, ["heuristic", "random"], 3, v, engine="native") == py


def test_setup_errors_are_the_engines() -> None:
    with pytest.raises(InvalidInput, match="Two Card Wonder is for at most 4 players"):
        native.simulate(5, 1, ["random"] * 5, 1, Variant(two_card=True))
    with pytest.raises(InvalidInput, match="One Card Wonder is for 2 to 6 players"):
        native.new_game(7, 1)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_core_interprets_edited_content(tmp_path: Path) -> None:
    """Components are data for the core too: edited costs, effect parameters and arrows in
    the TOML files change both engines alike."""
    d = tmp_path / "content"
    shutil.copytree(DATA, d)
    _edit(d / "wonders.toml", 'cost = "WW"', 'cost = "KJ$"')
    _edit(d / "boards.toml", 'resource = "clay", amount = 1', 'resource = "clay", amount = 2')
    _edit(d / "boards.toml", "{ amount = 3 }", "{ amount = 5 }")
    content = load_content(d)
    assert content != default_content()
    c = native.core(content)
    assert c is not None and c is not native.core()
    for seed in range(4):
        for n, v in ((2, Variant(leaders=True, max_turns=500)), (4, Variant(max_turns=500))):
            lockstep(n, seed, v, seed, content)


def test_unknown_effect_falls_back_to_the_python_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """An effect added to the registry but not to the core: the core declines the content
    and ``simulate`` plays on the Python engine."""
    spec = EffectSpec("immediate_coins_twice", "immediate", "test", {"amount": "int"}, (),
                      lambda game, seat, ref, kind: game.gain_coins(seat, 2))  # fmt: skip
    monkeypatch.setitem(REGISTRY, spec.name, spec)
    base = default_content()
    k, b0, imm = next(
        (k, bd, b)
        for k, bd in enumerate(base.boards)
        for b in bd.buildings
        if b.effect.name == "immediate_coins"
    )
    eff = dataclasses.replace(imm.effect, name=spec.name)
    blds = tuple(dataclasses.replace(b, effect=eff) if b is imm else b for b in b0.buildings)
    boards = list(base.boards)
    boards[k] = dataclasses.replace(b0, buildings=blds)
    content = dataclasses.replace(base, boards=tuple(boards))
    Game.new(2, 1, Variant(), content)  # the Python engine plays it
    assert native.core(content) is None
    assert native.simulate(2, 1, ["random"] * 2, 1, Variant(), content) is None
    with pytest.raises(InvalidInput, match="not available"):
        native.new_game(2, 1, Variant(), content)


def test_cli_engines_print_the_same_summary() -> None:
    def run(engine: str) -> str:
        out = run_agon("ocw", "simulate", "--players", "3", "--games", "6", "--seed", "4",
                       "--variant", "leaders", "--engine", engine, "--json")  # fmt: skip
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert run("native") == run("python")


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_trade_windows_play_identically(bot: str) -> None:
    """The trade windows (offers, answers) are decisions of the core too: the same games."""
    v = Variant(trade=True, leaders=True, max_turns=600)
    for seed in range(4):
        lockstep(4 + seed % 3, seed, v, seed * 7)
    py = simulate(5, 6, [bot], 3, v, "python")
    assert simulate(5, 6, [bot], 3, v, "native") == py
