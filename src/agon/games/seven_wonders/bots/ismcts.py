"""Information-set Monte Carlo tree search: the search on the compiled core or in Python, and
:class:`IsmctsBot` (what the player knows of the hidden cards is
:mod:`~agon.games.seven_wonders.bots.knowledge`).
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Protocol

from agon.errors import InvalidInput
from agon.games.seven_wonders import core
from agon.games.seven_wonders.bots.base import SplitMix64
from agon.games.seven_wonders.bots.heuristic import _best_action, _cheapest, action_value
from agon.games.seven_wonders.bots.knowledge import (
    Constraints,
    Knowledge,
    _blind,
    _deal,
    _guild_indices,
)
from agon.games.seven_wonders.data import (
    HeuristicWeights,
    heuristic_weights,
)
from agon.games.seven_wonders.engine import KINDS, Action, Game

if TYPE_CHECKING:
    from agon.cores.seven_wonders import NativeGame

LogEntry = tuple[int, int, str, tuple[tuple[int, Action], ...]]

# ---------------------------------------------------------------------- information-set MCTS


def _denial(game: Game, player: int, card: int, w: HeuristicWeights | None = None) -> float:
    """What ``card`` would be worth (the heuristic's value with the weights ``w``, built free)
    to the seat the player's hand goes to next."""
    return action_value(game, game.next_holder(player), Action("build", card, 0, 0), w)


def _distinct(
    game: Game, player: int, legal: list[Action], w: HeuristicWeights | None = None
) -> list[Action]:
    """``legal`` with one wonder stage and one discard at most: the one whose card is worth
    most to the next holder of the hand (:func:`_denial`; ties: the first)."""
    keep: dict[str, tuple[float, int]] = {}
    for i, a in enumerate(legal):
        if a.kind in ("wonder", "discard"):
            d = _denial(game, player, a.card, w)
            if a.kind not in keep or d > keep[a.kind][0]:
                keep[a.kind] = (d, i)
    chosen = {i for _, i in keep.values()}
    return [a for i, a in enumerate(legal) if a.kind not in ("wonder", "discard") or i in chosen]


class _Node:
    """A node of the player's information-set tree: statistics per own action (kind, card)."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits: dict[tuple[int, int], int] = {}
        self.total: dict[tuple[int, int], float] = {}
        self.avail: dict[tuple[int, int], int] = {}
        self.children: dict[tuple[int, int], _Node] = {}


class _Search(Protocol):
    """One decision's search: the compiled core's ``IsmctsSearch`` or :class:`_PythonIsmcts`."""

    @property
    def candidates(self) -> list[core.ActionCode]: ...
    @property
    def totals(self) -> list[float]: ...
    @property
    def rounds(self) -> int: ...
    def run(self, rounds: int) -> None: ...


class _SearchPolicy:
    """The heuristic inside a search: one generator (``rng.random()`` per legal action, as
    :class:`HeuristicBot`, from a :class:`SplitMix64`: one is seeded per step of every round);
    seat ``own`` values actions with ``own_w`` and ``noise``, the others with ``opp_w`` (None:
    the default weights) and ``opp_noise``."""

    def __init__(
        self,
        seed: int,
        noise: float,
        own: int,
        own_w: HeuristicWeights | None,
        opp_w: HeuristicWeights | None,
        opp_noise: float,
    ) -> None:
        self.rng = SplitMix64(seed)
        self.noise = noise
        self.opp_noise = opp_noise
        self.own = own
        self.own_w = own_w
        self.opp_w = opp_w

    def act(self, game: Game, player: int) -> Action:
        if player == self.own:
            return _best_action(game, player, self.own_w, self.rng, self.noise)
        return _best_action(game, player, self.opp_w, self.rng, self.opp_noise)


class _PythonIsmcts:
    """The search of :class:`IsmctsBot` on the Python engine (the fallback when the compiled
    core is missing or cannot take the game, e.g. after a withdrawal).  A mirror of the core's
    ``IsmctsSearch``: the same random draws in the same order, the same tree and the same
    rewards, so both choose the same move for a seed and an iteration budget (parity tests)."""

    def __init__(
        self,
        game: Game,
        player: int,
        cons: Constraints,
        guild_pop: list[int],
        guild_k: int,
        seed: int,
        width: int,
        exploration: float,
        bias: float,
        margin_scale: float = 10.0,
        noise: float = 1e-3,
        widen: int = 8,
        distinct: bool = False,
        own_weights: list[float] | None = None,
        opp_weights: list[float] | None = None,
        opp_noise: float | None = None,
        opp_width: int = 0,
        opp_exploration: float | None = None,
        opp_distinct: bool = False,
        opp_depth: int = 1,
        opp_split: bool = False,
    ) -> None:
        self.game = game
        self.player = player
        self.cons = cons
        self.guild_pop = guild_pop
        self.guild_k = guild_k
        self.rng = random.Random(seed)
        self.width = width
        self.exploration = exploration
        self.bias = bias
        self.margin_scale = margin_scale
        self.noise = noise
        self.widen = widen
        self.distinct = distinct
        self.opp_noise = noise if opp_noise is None else opp_noise
        self.own_w = None if own_weights is None else HeuristicWeights.from_vector(own_weights)
        self.opp_w = None if opp_weights is None else HeuristicWeights.from_vector(opp_weights)
        self.opp_width = opp_width
        self.opp_exploration = exploration if opp_exploration is None else opp_exploration
        self.opp_distinct = opp_distinct
        self.opp_depth = opp_depth
        self.opp_split = opp_split
        # the other players' bandits (``opp_width``), by (set, seat, kind, card): the set is
        # the step from the root, or with ``opp_split`` below the first step the root
        # candidate's own set of steps (the core's layout)
        self.arm_visits: dict[tuple[int, int, int, int], int] = {}
        self.arm_avail: dict[tuple[int, int, int, int], int] = {}
        self.arm_total: dict[tuple[int, int, int, int], float] = {}
        self._root = 0
        # a play-out's steps from the root, the others' forced moves in the first step, and
        # the bandits' moves below it: (arm, seat)
        self._step = 0
        self._forced0: dict[int, core.ActionCode] = {}
        self._pending: list[tuple[tuple[int, int, int, int], int]] = []
        self.candidates = self._candidates(game, player, width, distinct, self.own_w, self.opp_w)
        self.totals = [0.0] * len(self.candidates)
        self.children = [_Node() for _ in self.candidates]
        self.rounds = 0

    @staticmethod
    def _candidates(
        sim: Game,
        player: int,
        width: int,
        distinct: bool = False,
        own_w: HeuristicWeights | None = None,
        opp_w: HeuristicWeights | None = None,
    ) -> list[core.ActionCode]:
        legal = _cheapest(sim.legal_actions(player))
        if distinct:
            legal = _distinct(sim, player, legal, opp_w)
        values = [action_value(sim, player, a, own_w) for a in legal]
        order = sorted(range(len(legal)), key=lambda i: (-values[i], i))
        return [core.encode(legal[i]) for i in order[:width]]

    def _arm_set(self, step: int) -> int:
        """The set of bandits of ``step`` from the root in the play-out under way."""
        if self.opp_split and step > 0:
            return 1 + self._root * (self.opp_depth - 1) + step - 1
        return step

    def _opp_select(self, step: int, q: int, cands: list[core.ActionCode]) -> core.ActionCode:
        """The other player ``q``'s move at ``step`` from the root by its bandit (the core's
        ``opp_select``): UCB1 with availability counts plus ``bias / visits`` towards the
        heuristic's best."""
        at = self._arm_set(step)
        keys = [(at, q, a[0], a[1]) for a in cands]
        pick = None
        for a, key in zip(cands, keys, strict=True):
            self.arm_avail[key] = self.arm_avail.get(key, 0) + 1
            if pick is None and key not in self.arm_visits:
                pick = a
        if pick is not None:
            return pick
        best = -math.inf
        for j, (a, key) in enumerate(zip(cands, keys, strict=True)):
            v = self.arm_visits[key]
            u = self.arm_total[key] / v + self.opp_exploration * math.sqrt(
                math.log(self.arm_avail[key]) / v
            )
            if j == 0:
                u += self.bias / v
            if u > best:
                best, pick = u, a
        assert pick is not None
        return pick

    def _opp_moves(self, sim: Game, step: int) -> dict[int, core.ActionCode]:
        """The other players' moves at ``step`` by their bandits (the player's own excepted)."""
        forced: dict[int, core.ActionCode] = {}
        for q in sim.to_act():
            if q == self.player:
                continue
            cands = self._candidates(
                sim, q, self.opp_width, self.opp_distinct, self.opp_w, self.opp_w
            )
            if cands:
                forced[q] = self._opp_select(step, q, cands)
        return forced

    def _joint(
        self, sim: Game, me: int, action: core.ActionCode | None, policy: _SearchPolicy
    ) -> dict[int, Action]:
        """One step's moves (the core's ``sstep``): ``me`` (-1: nobody) plays ``action``; the
        other players their forced or bandit moves in the first ``opp_depth`` steps from the
        root, else everybody the heuristic."""
        step = self._step
        forced: dict[int, core.ActionCode] = {}
        if step == 0:
            forced = self._forced0
        elif self.opp_width and step < self.opp_depth:
            forced = self._opp_moves(sim, step)
            for q, a in forced.items():
                self._pending.append(((self._arm_set(step), q, a[0], a[1]), q))
        self._step += 1
        joint = {}
        for q in sim.to_act():
            if q != me and q in forced:
                joint[q] = core.decode(forced[q])
            elif q == me:
                assert action is not None
                joint[q] = core.decode(action)
            else:
                joint[q] = policy.act(sim, q)
        return joint

    def _advance(
        self, sim: Game, action: core.ActionCode | None, seed: int
    ) -> list[core.ActionCode]:
        """``player`` plays ``action`` (None: not to act), the others the heuristic; then the
        heuristic plays on until ``player`` decides again.  The player's next candidates."""
        player = self.player
        policy = _SearchPolicy(seed, self.noise, player, self.own_w, self.opp_w, self.opp_noise)
        first = True
        while not sim.over and ((first and action is not None) or player not in sim.to_act()):
            sim.step_unchecked(self._joint(sim, player, action, policy))
            first = False
        if sim.over:
            return []
        return self._candidates(sim, player, self.width, self.distinct, self.own_w, self.opp_w)

    def _finish(self, sim: Game, seed: int) -> list[float]:
        """Plays out; every seat's reward (margin to the best other seat / margin scale, plus
        1 for a win alone, 1/2 for a shared one)."""
        policy = _SearchPolicy(
            seed, self.noise, self.player, self.own_w, self.opp_w, self.opp_noise
        )
        while not sim.over:
            sim.step_unchecked(self._joint(sim, -1, None, policy))
        keys = {s.player: (s.total, s.treasury) for s in sim.scores()}
        top = max(keys.values())
        nwin = sum(1 for v in keys.values() if v == top)
        out = []
        for q in range(sim.n):
            best = max(v[0] for p, v in keys.items() if p != q)
            win = 0.0 if keys[q] != top else 1.0 if nwin == 1 else 0.5
            out.append((keys[q][0] - best) / self.margin_scale + win)
        return out

    def _select(self, node: _Node, cands: list[core.ActionCode]) -> tuple[core.ActionCode, bool]:
        """The action to play at a node below the root, and whether it is new to the tree."""
        n = sum(node.visits.values())
        allowed = cands[: 1 + math.isqrt(n // self.widen)]
        best_key = (allowed[0][0], allowed[0][1])
        pick = None
        for a in allowed:
            key = (a[0], a[1])
            node.avail[key] = node.avail.get(key, 0) + 1
            if pick is None and key not in node.visits:
                pick = a
        if pick is not None:
            return pick, True
        best = -math.inf
        for a in allowed:
            key = (a[0], a[1])
            v = node.visits[key]
            u = node.total[key] / v + self.exploration * math.sqrt(math.log(node.avail[key]) / v)
            if key == best_key:
                u += self.bias / v
            if u > best:
                best, pick = u, a
        assert pick is not None
        return pick, False

    def run(self, rounds: int) -> None:
        game, rng = self.game, self.rng
        sizes = [len(h) for h in game.hands]
        for _ in range(rounds):
            hands, guild_draw = _deal(rng, sizes, self.cons, self.guild_pop, self.guild_k)
            deal_seed = rng.getrandbits(64)
            step_seeds = [rng.getrandbits(64) for _ in range(20)]
            finish_seed = rng.getrandbits(64)
            self._forced0 = {}
            if self.opp_width:
                sim = self._dealt(hands, guild_draw, deal_seed)
                self._forced0 = self._opp_moves(sim, 0)
            acc = dict.fromkeys(self._forced0, 0.0)
            for i, cand in enumerate(self.candidates):
                sim = self._dealt(hands, guild_draw, deal_seed)
                self._step = 0
                self._root = i
                self._pending = []
                cands = self._advance(sim, cand, step_seeds[0])
                node = self.children[i]
                path: list[tuple[_Node, tuple[int, int]]] = []
                depth = 1
                while cands:
                    pick, new = self._select(node, cands)
                    key = (pick[0], pick[1])
                    path.append((node, key))
                    cands = self._advance(sim, pick, step_seeds[depth % 20])
                    depth += 1
                    if new:
                        node.children[key] = _Node()
                        break
                    node = node.children[key]
                rq = self._finish(sim, finish_seed)
                r = rq[self.player]
                self.totals[i] += r
                for n_, key in path:
                    n_.visits[key] = n_.visits.get(key, 0) + 1
                    n_.total[key] = n_.total.get(key, 0.0) + r
                for q in acc:
                    acc[q] += rq[q]
                for arm, q in self._pending:
                    self.arm_visits[arm] = self.arm_visits.get(arm, 0) + 1
                    self.arm_total[arm] = self.arm_total.get(arm, 0.0) + rq[q]
            for q, a in self._forced0.items():
                arm = (0, q, a[0], a[1])
                self.arm_visits[arm] = self.arm_visits.get(arm, 0) + 1
                self.arm_total[arm] = self.arm_total.get(arm, 0.0) + acc[q] / len(self.candidates)
            self.rounds += 1

    def _dealt(self, hands: list[list[int] | None], guild_draw: list[int], deal_seed: int) -> Game:
        """The game now with a round's deal (hands, guild draw, future decks)."""
        sim = self.game.clone()
        for q, h in enumerate(hands):
            if h is not None:
                sim.hands[q] = list(h)
        if guild_draw:
            sim.guild_draw[: len(guild_draw)] = guild_draw
        sim.rng = random.Random(deal_seed)
        return sim


def _weight_vector(name: str) -> list[float] | None:
    """The weights of the set ``name`` for a search (None for the default heuristic).

    Raises:
        InvalidInput: for an unknown set.
    """
    if name == "default":
        return None
    return heuristic_weights(name).vector()


class IsmctsBot:
    """Information-set Monte Carlo tree search with common random deals at the root.

    Every *round* re-deals the hands the player cannot see, consistently with what it has seen
    (:class:`Knowledge`), reseeds the future decks and redraws the guilds still in the box; on
    that one deal each root candidate (the ``width`` best actions by the heuristic, cheapest
    payment each; with ``distinct``, of the wonder stages and of the discards only the one
    whose card is worth most to the next holder of the hand) is played and followed down its
    own tree of the player's later decisions, so the candidates are compared on the same deals (common random numbers) like
    :class:`MctsBot`, and below the root the tree learns the player's own follow-ups.  At a
    node below the root the actions this deal allows are ranked by the heuristic and widened
    progressively (the heuristic's best alone at first, one more as the node's visits reach
    8, 32, 72, ...: ``1 + sqrt(visits / 8)``), chosen by UCB1 with availability counts (an
    action counts as tried only in deals that offer it — single-observer ISMCTS) plus a bias
    towards the heuristic's best (``bias / visits``).  One node is added per playout; then
    the player plays the heuristic to the end.  The other players are modelled as searching
    players (``opp_width``/``opp_depth``, on by default since 27 November 2026): at every step
    of a play-out each of them chooses among its ``opp_width`` best moves by the heuristic by
    its own bandit (decoupled UCB1, kept per step from the root and seat, rewarded with its
    own margin), so they play like a move-averaging search, not the heuristic.  The reward is
    the margin to the best opponent in tens of points plus 1 for a win (1/2 for a tie); the
    move is the root candidate with the best mean.

    The whole search (re-deal, selection, expansion, play-out, back-propagation) runs in the
    compiled core (``IsmctsSearch``) when it is installed and can take the game; else the same
    search runs in Python (:class:`_PythonIsmcts`, much slower), drawing the same random numbers
    in the same order: both choose the same move.  Each decision's search is seeded from the
    bot's own generator.

    Deterministic for a seed and an ``iterations`` budget (playouts: rounds times candidates);
    with a ``seconds`` budget it plays rounds until the time is used (at least one), which is
    not reproducible.

    Args:
        seed: the bot's own randomness.
        seconds: thinking time per decision (ignored when ``iterations`` is given).
        iterations: fixed number of playouts per decision (reproducible).
        width: candidate actions per decision (1..32).
        exploration: the UCB1 constant below the root.
        bias: the pull towards the heuristic's best below the root.
        margin_scale: the reward is the margin to the best opponent divided by this, plus 1
            for a win (a larger scale weighs the win more).
        noise: the most the heuristic adds at random to an action's value inside the search
            (VP; the default only breaks ties, a larger one varies the play-outs).
        widen: progressive widening below the root, ``1 + sqrt(visits / widen)`` actions.
        distinct: at every decision of the search, one wonder stage and one discard at most
            (the card the next holder of the hand would value most, :func:`_distinct`), so
            the candidates are not crowded out by the same move with other cards.
        own_heuristic: the set of heuristic weights (``data/heuristic.toml``) that ranks the
            player's candidates and plays its own moves in the play-outs.
        opp_heuristic: the set the other players are modelled by (their moves in the
            play-outs, and the next holder's values of :func:`_distinct`).
        opp_noise: the ``noise`` of the other players' heuristic in the search (None: ``noise``;
            it matters only where they play the heuristic: with ``opp_width`` 0, or past
            ``opp_depth``).
        opp_width: > 0: in every play-out the other players' moves *now* are each one's own
            bandit's (decoupled UCT at the root) among its ``opp_width`` best moves by the
            heuristic, rewarded with its own margin (see the core's ``IsmctsSearch``); 0: the
            heuristic's (the bot before 27 November 2026, with ``opp_depth`` 1).
        opp_exploration: the UCB1 constant of those bandits (None: ``exploration``).
        opp_distinct: those moves with one wonder stage and one discard at most.
        opp_depth: the same in the first ``opp_depth`` steps of every play-out (bandits per
            step from the root and seat; 1: the moves now only; 32, the default: the whole game).
        opp_adapt: once the heuristic has predicted at least this share of the others' moves
            seen in the game (kind and card, 4 moves or more), they are modelled by the
            heuristic again (``opp_width`` 0) — they play like it, as the heuristic bots do;
            against searching players it predicts about half (1: never).
        opp_split: the bandits of the steps after the first kept per root candidate (the
            others answer the player's move now); else shared by all candidates.
        engine: ``auto`` (the compiled core when installed), ``python`` or ``native``.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int,
        seconds: float = 0.5,
        iterations: int | None = None,
        width: int = 6,
        exploration: float = 0.7,
        bias: float = 1.0,
        margin_scale: float = 10.0,
        noise: float = 1e-3,
        widen: int = 8,
        distinct: bool = True,
        own_heuristic: str = "default",
        opp_heuristic: str = "default",
        opp_noise: float | None = None,
        opp_width: int = 5,
        opp_exploration: float | None = None,
        opp_distinct: bool = False,
        opp_depth: int = 32,
        opp_adapt: float = 0.9,
        opp_split: bool = False,
        engine: str = "auto",
    ) -> None:
        if iterations is None and seconds <= 0:
            raise InvalidInput("ismcts: needs seconds > 0 or a number of iterations")
        if iterations is not None and iterations < 1:
            raise InvalidInput("ismcts: iterations must be at least 1")
        if not 1 <= width <= 32:
            raise InvalidInput(f"ismcts: width must be 1..32, got {width}")
        if not 0 <= opp_width <= 32:
            raise InvalidInput(f"ismcts: opp_width must be 0..32, got {opp_width}")
        if not 1 <= opp_depth <= 32:  # the compiled core keeps the bandits of 32 steps at most
            raise InvalidInput(f"ismcts: opp_depth must be 1..32, got {opp_depth}")
        if not 0 <= opp_adapt <= 1:
            raise InvalidInput(f"ismcts: opp_adapt must be 0..1, got {opp_adapt}")
        if engine not in ("auto", "python", "native"):
            raise InvalidInput(f"ismcts: engine must be auto, python or native, got {engine!r}")
        self.rng = random.Random(seed)
        self.seconds = seconds
        self.iterations = iterations
        self.width = width
        self.exploration = exploration
        self.bias = bias
        self.margin_scale = margin_scale
        self.noise = noise
        self.widen = widen
        self.distinct = distinct
        self.own_heuristic = own_heuristic
        self.opp_heuristic = opp_heuristic
        self.opp_noise = opp_noise
        self.opp_width = opp_width
        self.opp_exploration = opp_exploration
        self.opp_distinct = opp_distinct
        self.opp_depth = opp_depth
        self.opp_adapt = opp_adapt
        self.opp_split = opp_split
        # the weight sets by name (``data/heuristic.toml``); None: the default heuristic
        self._own_w = _weight_vector(own_heuristic)
        self._opp_weights = None if opp_heuristic == "default" else heuristic_weights(opp_heuristic)
        self._opp_w = None if self._opp_weights is None else self._opp_weights.vector()
        #: the position of the last decision (the others decided there too): its log, and the
        #: game copied into the compiled core by its search or else a clone of it; and how many
        #: of the others' moves seen since the game began the heuristic predicted, of how many
        self._seen_log: list[LogEntry] | None = None
        self._seen_native: NativeGame | None = None
        self._seen_at: Game | None = None
        self._last_base: NativeGame | None = None
        self.predicted = [0, 0]
        #: whether the last search modelled the others by the heuristic (``opp_adapt``)
        self.last_heuristic_others = False
        self.engine = engine
        self.knowledge = Knowledge()
        #: playouts of the last :meth:`act` (0 when there was one choice)
        self.last_iterations = 0
        #: whether the last :meth:`act` re-dealt blind (it could not explain the log)
        self.last_blind = False
        #: the engine of the last search: ``native`` or ``python`` ("" when there was one choice)
        self.last_engine = ""
        #: the root candidates and their summed rewards in the last search (for tests)
        self.last_totals: list[tuple[core.ActionCode, float]] = []

    def redeal(
        self, game: Game, player: int, rng: random.Random, known: Constraints | None = None
    ) -> tuple[list[list[int] | None], list[int]]:
        """One re-deal: a hand per seat (None: the player's own) and a guild draw ([]: kept)."""
        cons = known if known is not None else self.knowledge.constraints(game, player)
        if cons is None:
            cons = _blind(game, player)
        guild_k = len(game.guild_draw) if game.age < 3 else 0
        sizes = [len(h) for h in game.hands]
        return _deal(rng, sizes, cons, list(_guild_indices()), guild_k)

    def search(self, game: Game, player: int, base: NativeGame | None = None) -> _Search:
        """A search of ``player``'s decision now (seeded from the bot's generator), not run yet
        (``base``: the game already copied into the compiled core, else copied here)."""
        cons = self.knowledge.constraints(game, player)
        self.last_blind = cons is None
        if cons is None:
            cons = _blind(game, player)
        guild_pop = list(_guild_indices())
        guild_k = len(game.guild_draw) if game.age < 3 else 0
        seed = self.rng.getrandbits(64)
        if self.engine == "python":
            base = None
        elif base is None:
            base = core.to_native(game)
            if base is None and self.engine == "native":
                raise InvalidInput("ismcts: the compiled core is not installed or cannot take game")
        self._last_base = base
        # the others play like the heuristic (every bot's default play): model them so
        hits, moves = self.predicted
        self.last_heuristic_others = moves >= 4 and hits >= self.opp_adapt * moves
        opp_width = 0 if self.last_heuristic_others else self.opp_width
        args = (
            guild_pop,
            guild_k,
            seed,
            self.width,
            self.exploration,
            self.bias,
            self.margin_scale,
            self.noise,
            self.widen,
            self.distinct,
            self._own_w,
            self._opp_w,
            self.opp_noise,
            opp_width,
            self.opp_exploration,
            self.opp_distinct,
            self.opp_depth,
            self.opp_split,
        )
        if base is None:
            self.last_engine = "python"
            return _PythonIsmcts(game, player, cons, *args)
        self.last_engine = "native"
        seen, pool, unseen = cons
        search: _Search = core.require_native().IsmctsSearch(
            base, player, seen, pool, unseen, *args
        )
        return search

    def _observe_others(self, game: Game, player: int) -> None:
        """Count how many of the others' moves at the last decision the heuristic predicted
        (kind and card; any of its near-equal best counts, as the heuristic bot breaks ties at
        random), for ``opp_adapt``."""
        log = self._seen_log
        if log is None or game.log[: len(log)] != log:
            self.predicted = [0, 0]  # a new game (or another one)
        elif len(game.log) > len(log):
            for q, a in game.log[len(log)][3]:
                if q == player or a.kind not in ("build", "wonder", "discard", "free"):
                    continue
                self.predicted[0] += (a.kind, a.card) in self._heuristic_best(q)
                self.predicted[1] += 1

    def _heuristic_best(self, q: int) -> set[tuple[str, int]]:
        """The moves (kind, card) the heuristic (the others' weights) values within 2e-3 of
        its best for seat ``q`` at the last decision: by the compiled core on the search's copy
        of the game when there was one (the same values, float for float), else in Python."""
        ng = self._seen_native
        if ng is not None:
            values, _ = core.require_native().heuristic_values(ng, q, 0, self._opp_w)
            codes = ng.legal(q)
        else:
            before = self._seen_at
            assert before is not None
            legal = before.legal_actions(q)
            values = [action_value(before, q, b, self._opp_weights) for b in legal]
            codes = [core.encode(b) for b in legal]
        top = max(values)
        return {(KINDS[c[0]], c[1]) for v, c in zip(values, codes, strict=True) if v >= top - 2e-3}

    def _remember(self, game: Game, base: NativeGame | None) -> None:
        """Keep the position of this decision for the next one's :meth:`_observe_others`: the
        log, and the core's copy of the game ``base`` (the search's) or else a clone."""
        self._seen_log = game.log[:]
        self._seen_native = base
        self._seen_at = game.clone() if base is None else None

    def act(self, game: Game, player: int) -> Action:
        self.knowledge.observe(game, player)
        observing = self.opp_adapt < 1 and self.opp_width > 0
        if observing:
            self._observe_others(game, player)
        self.last_iterations = 0
        self.last_engine = ""
        self.last_totals = []
        base = core.to_native(game) if self.engine != "python" else None
        # a single choice (told by the core's candidates when it has them, else in Python)
        found = None if base is None else core.candidates(base, player, 2)
        single = None
        if found is None:
            legal = _cheapest(game.legal_actions(player))
            single = legal[0] if len(legal) == 1 else None
        elif len(found) == 1:
            single = core.decode(found[0])
        if single is not None:
            if observing:
                self._remember(game, base)
            return single
        deadline = time.perf_counter() + self.seconds
        search = self.search(game, player, base)
        if observing:
            self._remember(game, self._last_base)
        cands = search.candidates
        if self.iterations is not None:
            search.run(max(1, -(-self.iterations // len(cands))))
        else:
            search.run(1)
            while time.perf_counter() <= deadline:
                search.run(1)
        rounds = search.rounds
        totals = search.totals
        self.last_iterations = rounds * len(cands)
        self.last_totals = list(zip(cands, totals, strict=True))
        # The heuristic's favourite wins ties (a small prior, in tens of VP per round).
        best = max(range(len(cands)), key=lambda i: totals[i] / rounds + 0.02 * (i == 0))
        return core.decode(cands[best])
