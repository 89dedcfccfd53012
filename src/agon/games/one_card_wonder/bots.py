"""Bots for One Card Wonder: random, heuristic, determinized Monte-Carlo search and ISMCTS.

Every bot answers :meth:`Bot.choose` with one of ``game.legal_actions()`` and draws its own
randomness from its own seeded generator.  Bots read the public state and their own leader;
the search bot never sees hidden information: before each simulation it redeals the hidden
leaders of the opponents from the leaders it has not seen and reseeds the bag draws
(determinization over the bag and the leaders).
"""

from __future__ import annotations

import math
import random
import time
from typing import Protocol

from agon.errors import InvalidInput
from agon.games.one_card_wonder.content import COIN, RESOURCES, Wonder
from agon.games.one_card_wonder.engine import Action, Game, parse_offer


class Bot(Protocol):
    name: str

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self.choose_among(game, game.legal_actions())

    def choose_among(self, game: Game, legal: list[Action]) -> Action:
        """:meth:`choose` given ``game.legal_actions()`` (the same choice, listed once)."""
        return self.rng.choice(legal)


# ---------------------------------------------------------------- evaluation


def needs(game: Game, seat: int) -> list[float]:
    """How much the player still wants each resource and coins (index 5): open stages count
    fully, later ones half (the wonder is built bottom to top)."""
    p = game.players[seat]
    need = [0.0] * 6
    for slot, w in enumerate(p.wonders):
        built = p.built[slot]
        for i, st in enumerate(w.stages):
            if built >> i & 1:
                continue
            req = w.prereq[i]
            weight = 1.0 if built & req == req else 0.5
            for r in range(5):
                need[r] += st.cost.res[r] * weight
            need[COIN] += st.cost.coin * weight
    return need


def _wonder_total(w: Wonder) -> int:
    return sum(s.cost.total for s in w.stages)


def progress(game: Game, seat: int) -> float:
    """Share of the wonder's cost already built (0..1; Two Card Wonder: both cards)."""
    p = game.players[seat]
    done = total = 0
    for slot, w in enumerate(p.wonders):
        total += _wonder_total(w)
        done += sum(s.cost.total for i, s in enumerate(w.stages) if p.built[slot] >> i & 1)
    return done / total if total else 0.0


def distance(game: Game, seat: int) -> float:
    """Cost units still missing to finish: unbuilt stage costs minus the holdings that pay
    them (coins count as wildcards), plus a little for stages still locked behind others."""
    p = game.players[seat]
    rem = 0
    full = [0] * 6
    for slot, w in enumerate(p.wonders):
        for i, st in enumerate(w.stages):
            if not p.built[slot] >> i & 1:
                rem += st.cost.total
                for r in range(5):
                    full[r] += st.cost.res[r]
                full[COIN] += st.cost.coin
    covered = sum(min(p.store[r], full[r]) for r in range(5))
    covered += min(p.store[COIN], max(0, rem - covered))
    return rem - 0.3 * covered


def value(game: Game, seat: int) -> float:
    """Heuristic value of a position for ``seat``: the race — how much closer to a finished
    wonder than the best opponent (a win is 1000)."""
    if game.over:
        if game.winner == seat:
            return 1000.0
        if game.winner is not None:
            return -1000.0
    mine = distance(game, seat)
    others = [distance(game, s) for s in range(game.n) if s != seat]
    return (min(others) if others else 0.0) - mine + 0.2 * min(game.players[seat].tokens, 4)


def _gain(game: Game, seat: int, receive: int, lose: int) -> float:
    """How much ``seat`` wants to receive one ``receive`` and give one ``lose`` (-1: nothing):
    the lack of the one minus the lack of the other after giving it."""
    need = needs(game, seat)
    store = game.players[seat].store
    got = need[receive] - store[receive] if receive >= 0 else 0.0
    lost = need[lose] - (store[lose] - 1) if lose >= 0 else 0.0
    return max(0.0, got) - max(0.0, lost)


# ---------------------------------------------------------------- heuristic


class HeuristicBot:
    """Greedy rules: build whenever a stage can be built (the dearest first, using discounts),
    otherwise gather what the open stages need; pay and discard what is needed least."""

    name = "heuristic"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self.choose_among(game, game.legal_actions())

    def choose_among(self, game: Game, legal: list[Action]) -> Action:
        """:meth:`choose` given ``game.legal_actions()`` (the same choice, listed once)."""
        if len(legal) == 1:
            return legal[0]
        seat = game.current_player()
        kind = game.stack[-1][0]
        need = needs(game, seat)
        p = game.players[seat]
        surplus = [p.store[r] - need[r] for r in range(5)]

        def by(a: Action) -> int:
            return RESOURCES.index(a.args[0]) if a.args and a.args[0] in RESOURCES else COIN

        if kind == "wonder":
            return min(legal, key=lambda a: (_wonder_total(game.content.wonder(a.args[0])), a.args))
        if kind == "board":
            return legal[self.rng.randrange(len(legal))]
        if kind in ("turn", "sappho"):
            return self._turn(game, seat, legal, need)
        if kind == "build":
            stages = [a for a in legal if a.verb == "stage"]
            if stages:
                return max(stages, key=lambda a: (self._stage_cost(game, seat, a), len(a.args)))
            blds = [a for a in legal if a.verb == "building"]
            if blds and (p.tokens < 2 or self.rng.random() < 0.5):
                return blds[0]
            return legal[-1]
        if kind in ("pay", "discard", "supply", "return"):
            # give away what is needed least; coins are kept (they pay anything)
            return max(legal, key=lambda a: (surplus[by(a)] if by(a) < COIN else -1.5, -by(a)))
        if kind == "take":
            return max(legal, key=lambda a: need[by(a)] - p.store[by(a)])
        if kind == "kind":
            return max(legal, key=lambda a: game.supply[by(a)] * (1 + need[by(a)]))
        if kind == "sell":
            sells = [a for a in legal if a.verb == "sell" and surplus[by(a)] >= 2]
            if not sells and game.stack[-1][2] == 0:
                sells = [a for a in legal if a.verb == "sell"]  # at least one sale
            if sells:
                return max(sells, key=lambda a: surplus[by(a)])
            return legal[-1] if legal[-1].verb == "done" else legal[0]
        if kind == "ask":
            return Action("reveal") if progress(game, seat) > 0.2 else Action("pass")
        if kind == "respond":
            return Action("reveal")
        if kind == "tribute":
            return self._tribute(game, seat, legal, surplus)
        if kind in ("ramses", "place"):
            return self._target(game, seat, legal)
        if kind == "trade":
            return self._offer(game, seat, legal)
        if kind == "answer":
            f = game.stack[-1]
            return legal[0] if _gain(game, seat, f[6], f[7]) > 0 else legal[1]
        return legal[0]

    @staticmethod
    def _offer(game: Game, seat: int, legal: list[Action]) -> Action:
        """Offer the 1-for-1 swap that helps both sides most (each gets what it lacks for what
        it has to spare), else pass."""
        best, best_gain = legal[0], 0.0
        for a in legal[1:]:
            partner, give, get = parse_offer(a)
            if give < 0 or get < 0:
                continue
            mine, theirs = _gain(game, seat, get, give), _gain(game, partner, give, get)
            if mine > 0 and theirs > 0 and mine + theirs > best_gain:
                best, best_gain = a, mine + theirs
        return best

    @staticmethod
    def _stage_cost(game: Game, seat: int, a: Action) -> int:
        p = game.players[seat]
        wid, sid = a.args[0].split(":")
        for w in p.wonders:
            if w.id == wid:
                return w.stages[w.stage_index(sid)].cost.total
        return 0

    def _turn(self, game: Game, seat: int, legal: list[Action], need: list[float]) -> Action:
        verbs = {a.verb: a for a in legal}
        p = game.players[seat]
        if "build" in verbs:
            # the options the build phase would offer (the engine's own generator)
            options = game._build_options(seat, 0)
            if any(a.verb == "stage" for a in options) or p.tokens < 2:
                return verbs["build"]
        deficit = [max(0.0, need[r] - p.store[r]) for r in range(5)]
        subs = [a for a in legal if a.verb == "subsidy"]
        best_sub = max(
            subs,
            key=lambda a: min(
                game.supply[RESOURCES.index(a.args[0])], deficit[RESOURCES.index(a.args[0])]
            ),
            default=None,
        )
        low_bag = sum(game.bag) < 6  # production yields little: take singles too
        if best_sub is not None:
            r = RESOURCES.index(best_sub.args[0])
            if min(game.supply[r], deficit[r]) >= (1 if low_bag else 2):
                return best_sub
        news = [a for a in legal if a.verb == "new"]
        if news:
            return news[0]
        coin_short = need[COIN] >= 1 and p.store[COIN] < 1
        if "sell" in verbs and (sum(p.store) >= 7 or coin_short):
            return verbs["sell"]
        if coin_short:  # no pair to sell: collect one
            pairs = [
                a
                for a in subs
                if p.store[RESOURCES.index(a.args[0])] + game.supply[RESOURCES.index(a.args[0])]
                >= 2
            ]
            if pairs:
                return max(pairs, key=lambda a: game.supply[RESOURCES.index(a.args[0])])
        if "produce" in verbs:
            return verbs["produce"]
        if best_sub is not None:
            return best_sub
        return legal[0]

    def _tribute(self, game: Game, seat: int, legal: list[Action], surplus: list[float]) -> Action:
        pays = [a for a in legal if a.verb == "tribute"]
        free = [a for a in pays if len(a.args) > 1]  # the globe: pay from the supply board
        if free:
            return free[0]
        spare = [
            a for a in pays if a.args[0] in RESOURCES and surplus[RESOURCES.index(a.args[0])] >= 1
        ]
        if spare and self.rng.random() < 0.7:
            return spare[0]
        return Action("stop")

    @staticmethod
    def _target(game: Game, seat: int, legal: list[Action]) -> Action:
        if legal[0].verb == "destroy":
            leader = max({int(a.args[0]) for a in legal}, key=lambda s: progress(game, s))
            mine = [a for a in legal if int(a.args[0]) == leader]
            return mine[0]  # the lowest stage blocks the most
        return max(legal, key=lambda a: HeuristicBot._stage_cost(game, seat, a))


# ---------------------------------------------------------------- search


class SearchBot:
    """Determinized flat Monte-Carlo search with common random numbers.

    At the main decisions (the turn, the build phase, Sappho's turn) every root action is
    tried in the same ``worlds`` determinized worlds — a fresh seed for the bag draws and the
    opponents' hidden leaders redealt from those the bot has not seen — and played on by the
    heuristic policy for ``depth`` rounds; positions are scored with :func:`value` and the
    action with the best mean wins.  Using the same worlds for every action removes most of
    the luck from the comparison.  Other decisions use the heuristic directly.
    """

    name = "search"

    def __init__(self, seed: int, worlds: int = 8, depth: int = 3) -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.depth = depth
        self.policy = HeuristicBot(seed + 1)

    def _determinize(self, game: Game, seat: int, seed: int) -> Game:
        return determinize(game, seat, seed)

    def _rollout(self, g: Game, seat: int, seed: int) -> float:
        policy = HeuristicBot(seed)
        stop = g.turn + self.depth * g.n
        while not g.over and g.turn < stop:
            g.apply_unchecked(policy.choose(g))
        return value(g, seat)

    def choose(self, game: Game) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1 or game.stack[-1][0] not in ("turn", "build", "sappho"):
            return self.policy.choose(game)
        seat = game.current_player()
        total = [0.0] * len(legal)
        for _ in range(self.worlds):
            seed = self.rng.getrandbits(32)
            for i, action in enumerate(legal):
                g = self._determinize(game, seat, seed)
                g.apply_unchecked(action)
                total[i] += self._rollout(g, seat, seed)
        best = max(range(len(legal)), key=lambda j: total[j])
        return legal[best]


def determinize(game: Game, seat: int, seed: int) -> Game:
    """A copy of ``game`` as ``seat`` may imagine it: a fresh generator for the bag draws (the
    bag's order is hidden) and the opponents' hidden leaders redealt from the leaders ``seat``
    has not seen (its own, and those revealed)."""
    g = game.clone(seed=seed)
    rng = random.Random(seed)
    seen = {
        p.leader.id for s, p in enumerate(g.players) if p.leader and (s == seat or p.leader_state)
    }
    hidden = [s for s, p in enumerate(g.players) if s != seat and p.leader and not p.leader_state]
    pool = [x for x in g.content.leaders if x.id not in seen]
    rng.shuffle(pool)
    for s, lead in zip(hidden, pool, strict=False):
        g.players[s].leader = lead
    return g


#: The decisions the search bots search (the others follow the heuristic).
SEARCHED = ("turn", "build", "sappho")


class _Node:
    """A node of the information-set tree: per action (text) visits, reward and availability,
    the reward taken from the point of view of the player deciding here."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits: dict[str, int] = {}
        self.total: dict[str, float] = {}
        self.avail: dict[str, int] = {}
        self.children: dict[str, _Node] = {}


class IsmctsBot:
    """Information-set Monte Carlo tree search (multiple players in one tree).

    Every iteration determinizes the game as the bot may imagine it (:func:`determinize`: a
    fresh bag order, the hidden leaders redealt from those it has not seen) and walks one tree
    of the searched decisions (:data:`SEARCHED`) of *every* player, chosen by UCB1 with
    availability counts (in another deal an action may not be offered) plus a progressive bias
    towards the heuristic's choice (``bias / visits``: the search leaves the heuristic only
    for an action that does clearly better); each node counts the reward of the player deciding
    there, so the opponents search for themselves (``opponents="search"``; with
    ``"heuristic"`` the others play the heuristic's move and only the bot's own decisions are
    in the tree).  Other
    decisions follow the heuristic.  The first untried action — the heuristic's choice first —
    is added to the tree, the heuristic plays ``depth`` rounds on, and every seat's reward is
    1 for a win, 0 for a loss, else :func:`value` squashed into (0, 1), discounted towards 1/2
    by ``discount`` per round played since the decision (sooner is better).  The move is the
    root's most visited action.

    Deterministic for a seed and an ``iterations`` budget (the default: 150); with
    ``seconds`` it searches until the time is used instead.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int,
        iterations: int | None = 150,
        seconds: float | None = None,
        depth: int = 3,
        exploration: float = 0.7,
        discount: float = 0.9,
        bias: float = 1.0,
        opponents: str = "search",
    ) -> None:
        if opponents not in ("search", "heuristic"):
            raise InvalidInput("ismcts: opponents must be 'search' or 'heuristic'")
        if iterations is None and (seconds is None or seconds <= 0):
            raise InvalidInput("ismcts: needs iterations or seconds > 0")
        if iterations is not None and iterations < 1:
            raise InvalidInput("ismcts: iterations must be at least 1")
        self.rng = random.Random(seed)
        self.iterations = iterations if seconds is None else None
        self.seconds = seconds
        self.depth = depth
        self.exploration = exploration
        self.discount = discount
        self.bias = bias
        self.opponents = opponents
        self.policy = HeuristicBot(seed + 1)
        #: iterations of the last searched decision
        self.last_iterations = 0
        #: the seats whose decisions the tree of the last searched decision held
        self.last_actors: set[int] = set()

    def _rewards(self, g: Game, start: int) -> list[float]:
        """Every seat's reward, discounted towards 1/2 by ``discount`` per round since
        ``start`` (a win now beats the same win later; without it every move that still wins
        in a few rounds looks as good as winning now, and the bot would put it off)."""
        if g.over:
            raw = [
                1.0 if g.winner == s else 0.0 if g.winner is not None else 0.5 for s in range(g.n)
            ]
        else:
            raw = [0.5 + 0.45 * math.tanh(value(g, s) / 4) for s in range(g.n)]
        k = self.discount ** ((g.turn - start) / g.n)
        return [0.5 + (r - 0.5) * k for r in raw]

    def choose(self, game: Game) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1 or game.stack[-1][0] not in SEARCHED:
            return self.policy.choose(game)
        seat = game.current_player()
        root = _Node()
        c, bias = self.exploration, self.bias
        mine_only = self.opponents == "heuristic"
        actors: set[int] = set()
        deadline = time.perf_counter() + (self.seconds or 0.0)
        done = 0
        while True:
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif done >= len(legal) and time.perf_counter() > deadline:
                break
            seed = self.rng.getrandbits(32)
            g = determinize(game, seat, seed)
            policy = HeuristicBot(seed)
            node = root
            path: list[tuple[_Node, str, int]] = []
            while not g.over:
                options = g.legal_actions()
                if (
                    len(options) == 1
                    or g.stack[-1][0] not in SEARCHED
                    or (mine_only and g.current_player() != seat)
                ):
                    g.apply_unchecked(policy.choose(g))
                    continue
                actor = g.current_player()
                texts = [str(a) for a in options]
                for t in texts:
                    node.avail[t] = node.avail.get(t, 0) + 1
                fresh = [i for i, t in enumerate(texts) if t not in node.visits]
                preferred = str(policy.choose(g))
                if fresh:
                    i = next((j for j in fresh if texts[j] == preferred), fresh[0])
                else:
                    i = max(
                        range(len(texts)),
                        key=lambda j: (
                            node.total[texts[j]] / node.visits[texts[j]]
                            + c * math.sqrt(math.log(node.avail[texts[j]]) / node.visits[texts[j]])
                            + (bias / node.visits[texts[j]] if texts[j] == preferred else 0.0)
                        ),
                    )
                path.append((node, texts[i], actor))
                actors.add(actor)
                g.apply_unchecked(options[i])
                if fresh:
                    node.children[texts[i]] = _Node()
                    break
                node = node.children[texts[i]]
            stop = g.turn + self.depth * g.n
            while not g.over and g.turn < stop:
                g.apply_unchecked(policy.choose(g))
            rewards = self._rewards(g, game.turn)
            for n_, t, actor in path:
                n_.visits[t] = n_.visits.get(t, 0) + 1
                n_.total[t] = n_.total.get(t, 0.0) + rewards[actor]
            done += 1
        self.last_iterations = done
        self.last_actors = actors
        texts = [str(a) for a in legal]
        best = max(
            (i for i, t in enumerate(texts) if t in root.visits),
            key=lambda i: (root.visits[texts[i]], root.total[texts[i]] / root.visits[texts[i]], -i),
        )
        return legal[best]


class IsmctshBot(IsmctsBot):
    """:class:`IsmctsBot` whose tree holds only its own decisions: the other players play
    like the heuristic (``opponents="heuristic"``).  At four players the others, in the shared
    tree, try each of their moves once before UCB1 chooses, so the bot's moves were judged
    against opponents playing much of the time at random; modelled as the heuristic, they play
    as the table's bots mostly do (docs/bots.md, "Levels")."""

    name = "ismctsh"

    def __init__(
        self, seed: int, iterations: int | None = 150, seconds: float | None = None
    ) -> None:
        super().__init__(seed, iterations=iterations, seconds=seconds, opponents="heuristic")


BOTS: dict[str, type[RandomBot] | type[HeuristicBot] | type[SearchBot] | type[IsmctsBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "ismcts": IsmctsBot,
    "ismctsh": IsmctshBot,
}


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name.

    Raises:
        InvalidInput: unknown bot name.
    """
    try:
        cls = BOTS[name]
    except KeyError:
        raise InvalidInput(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
    bot: Bot = cls(seed)
    return bot
