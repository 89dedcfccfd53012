"""The compiled core of One Card Wonder behind the engine's seeded API.

The compiled core (``agon.cores.one_card_wonder``, Cython, compiled when agon is built) is a
port of :mod:`agon.games.one_card_wonder.engine` and of the bots: the same frames, the
same order of legal actions and the same Mersenne Twister as :class:`random.Random`, so a
seed plays the same game in both (``tests/games/one_card_wonder/test_ocw_native.py`` checks
every decision).  The Python engine stays the reference; this module

* compiles the loaded content (the TOML data) into the plain tables the core reads
  (:func:`tables`) — components are data there too, effects are found by registry name;
* runs whole simulations for the random, heuristic and search bots (:func:`simulate`: the
  bots are ported too — the heuristic policy, and the search bot's determinized worlds and
  heuristic rollouts);
* answers ``None`` where the core cannot serve (not installed, or content using an effect
  the core does not implement), so callers fall back to the Python engine;
* gives the canonical state and stack of a Python :class:`Game` (:func:`py_state`,
  :func:`py_stack`) in the form the core reports, for the parity tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agon.errors import InvalidInput
from agon.games.one_card_wonder.content import Content, Cost, EffectRef, default_content
from agon.games.one_card_wonder.engine import Game, GameRecord, Variant, check_setup

if TYPE_CHECKING:
    from agon.cores.one_card_wonder import Core, NGame

try:
    import agon.cores.one_card_wonder as _native
except ImportError:  # not built: the Python engine serves alone
    _native = None  # type: ignore[assignment]

_CORES: dict[int, tuple[Content, Core | None]] = {}


def available() -> bool:
    """Is the compiled core installed?"""
    return _native is not None


def _cost(c: Cost) -> tuple[tuple[int, ...], int, int]:
    return (c.res, c.joker, c.coin)


def _effect(e: EffectRef) -> tuple[str, str, dict[str, Any]]:
    return (e.name, e.trigger, dict(e.params))


def tables(content: Content) -> dict[str, Any]:
    """The content as plain tables of the compiled core (ids, costs as (resources, jokers,
    coins), stage prerequisites as bit masks, buildings by index, effects by registry name)."""
    buildings: list[Any] = []
    index: dict[str, int] = {}
    owners: list[tuple[tuple[Any, ...], int]] = [(b.buildings, -1) for b in content.boards]
    owners += [(w.buildings, k) for k, w in enumerate(content.wonders)]
    for blds, _ in owners:
        for b in blds:
            index[b.id] = len(index)
    for blds, wonder in owners:
        for b in blds:
            after = -1 if b.after is None else index[b.after]
            buildings.append(
                (b.id, _cost(b.cost), _effect(b.effect), after, b.shares_token, wonder)
            )
    rules = content.rules
    return {
        "rules": (rules.storage, rules.tokens, rules.coins, dict(rules.bag)),
        "wonders": [
            (
                w.id,
                [(st.id, _cost(st.cost), w.prereq[i]) for i, st in enumerate(w.stages)],
                [index[b.id] for b in w.buildings],
            )
            for w in content.wonders
        ],
        "boards": [(b.id, [index[x.id] for x in b.buildings]) for b in content.boards],
        "buildings": buildings,
        "leaders": [(x.id, _effect(x.effect), _cost(x.defeat), x.globe) for x in content.leaders],
    }


def core(content: Content | None = None) -> Core | None:
    """The compiled tables of ``content`` (cached), or None when the core is not installed or
    cannot serve this content (an effect it does not implement, sizes beyond its limits)."""
    if _native is None:
        return None
    content = content or default_content()
    hit = _CORES.get(id(content))
    if hit is not None and hit[0] is content:
        return hit[1]
    compiled: Core | None
    try:
        compiled = _native.Core(tables(content))
    except ValueError:
        compiled = None
    _CORES[id(content)] = (content, compiled)
    return compiled


def new_game(
    players: int, seed: int, variant: Variant | None = None, content: Content | None = None
) -> NGame:
    """A game on the compiled core, the twin of ``Game.new(players, seed, variant, content)``.

    Raises:
        InvalidInput: as :meth:`Game.new`, or the compiled core is not available for this
            content.
    """
    variant = variant or Variant()
    content = content or default_content()
    check_setup(players, variant, content)
    c = core(content)
    if c is None or _native is None:
        raise InvalidInput("the compiled One Card Wonder core is not available for this content")
    if variant.random_wonders or variant.random_boards:
        raise InvalidInput("the compiled One Card Wonder core deals no random wonders or boards")
    cap = -1 if variant.max_turns is None else variant.max_turns
    return _native.NGame(c, players, seed, variant.two_card, variant.leaders, cap, variant.trade)


def simulate(
    players: int,
    games: int,
    bots: list[str],
    seed: int,
    variant: Variant,
    content: Content | None = None,
) -> list[GameRecord] | None:
    """``sim.simulate(players, games, bots, seed, variant)`` on the compiled core (``bots``:
    one name per seat, random/heuristic/search with their default settings): the same games,
    the same records; None when the core cannot serve.

    Raises:
        InvalidInput: as :meth:`Game.new`.
    """
    content = content or default_content()
    check_setup(players, variant, content)
    c = core(content)
    if c is None or _native is None or any(b not in _native.BOT_NAMES for b in bots):
        return None
    if variant.random_wonders or variant.random_boards:
        return None  # agon's balance modes are played by the Python engine only
    cap = -1 if variant.max_turns is None else variant.max_turns
    raw = _native.simulate(
        c, players, games, seed, bots, variant.two_card, variant.leaders, cap, trade=variant.trade
    )
    return [
        GameRecord(
            seed=game_seed,
            winner=None if winner < 0 else winner,
            turns=turns,
            bots=order,
            wonders=tuple(tuple(c.wonder_ids[w] for w in ws) for ws in wonders),
            boards=tuple(c.board_ids[b] for b in boards),
            leaders=tuple(None if x < 0 else c.leader_ids[x] for x in leaders),
        )
        for game_seed, winner, turns, _decisions, wonders, boards, leaders, order in raw
    ]


def can_play(players: int, bots: list[str], variant: Variant, content: Content) -> bool:
    """Can the compiled core play these games (installed, the content compiles, the bots are
    ported, not one of agon's random-setup modes)?"""
    if _native is None or variant.random_wonders or variant.random_boards:
        return False
    return core(content) is not None and all(b in _native.BOT_NAMES for b in bots)


def play_game(
    players: int, bots: list[str], seed: int, variant: Variant, content: Content
) -> GameRecord:
    """``sim.play_game`` on the compiled core: the same game, the same record."""
    g = new_game(players, seed, variant, content)
    g.play_bots(bots, [seed * 100 + s for s in range(players)])
    seats = g.state()[9]
    return GameRecord(
        seed=seed,
        winner=g.winner,
        turns=g.turn,
        bots=tuple(bots),
        wonders=tuple(tuple(p[1]) for p in seats),
        boards=tuple(p[4] or "" for p in seats),
        leaders=tuple(p[8] for p in seats),
        stages=tuple(sum(int(b).bit_count() for b in p[2]) for p in seats),
    )


def py_stack(game: Game) -> list[tuple[Any, ...]]:
    """The Python engine's frame stack (bottom first), comparable with ``NGame.stack()``."""
    return list(game.stack)


def py_state(game: Game) -> tuple[Any, ...]:
    """Every component's place in a Python game, in the form of ``NGame.state()``."""
    players = []
    for p in game.players:
        by_trigger = {k: [b.id for b in v] for k, v in p.by_trigger.items()}
        players.append(
            (
                tuple(p.store),
                tuple(w.id for w in p.wonders),
                tuple(p.built),
                tuple(p.rebuild),
                None if p.board is None else p.board.id,
                tuple(b.id for b in p.board_options),
                tuple(sorted(p.built_ids)),
                p.tokens,
                None if p.leader is None else p.leader.id,
                p.leader_state,
                tuple(sorted(p.used)),
                p.got_coin,
                p.zeus,
                p.active,
                p.archimedes,
                by_trigger,
            )
        )
    display = tuple((d[0].id, tuple(d[1]), d[2]) for d in game.display)
    return (
        game.n,
        tuple(game.bag),
        tuple(game.supply),
        game.coins,
        game.turn,
        game.current,
        game.winner,
        game.first_done,
        display,
        tuple(players),
    )
