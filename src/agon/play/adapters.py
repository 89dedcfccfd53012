"""One interface over both engines for online play (issue 12).

An :class:`Adapter` holds one running game and answers, per seat, what the server may show and
accept: the legal actions as the engine's own action strings (they round-trip through the
engine's parser), :meth:`Adapter.apply`, whether the game is over, the final scores, and
:meth:`Adapter.view` — the JSON-able picture of the table that seat may see (``None``: the
spectator, public information only). The view shape is documented in docs/online-play.md.

7 Wonders is simultaneous: each seat of :meth:`Game.to_act` submits one action, the adapter keeps
the submitted actions aside (a seat sees *who* has chosen, never *what*) and resolves the turn
with :meth:`Game.step` when the last one arrives. One Card Wonder is sequential: only
:meth:`Game.current_player` has legal actions.

A game is rebuilt exactly by creating it again from its seed and applying its action log in
order (the engines draw only from their own seeded generators).

Two kinds of action are the adapter's own, not the engines': the choice of a wonder's side
(``side A``/``side B``) when the setup lets the players choose (:attr:`Setup.choose_sides`, Bonn
2018: "wählen die Teilnehmer eigenständig eine der beiden Seiten"), a simultaneous first step
whose choices stay hidden until every seat has chosen; the table's ``stop after age N`` (seat
:data:`TABLE`, no player's), which the round clock appends to the log when it runs out (Ludolimpico
2015, 1.: the age being played is finished, then the game ends); and the table's ``timeout N``
before the move a seat whose turn clock ran out plays (:mod:`agon.play.clocks`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from agon.errors import IllegalAction, InvalidInput
from agon.games import levels
from agon.games.one_card_wonder import engine as ocw
from agon.games.one_card_wonder.content import COIN, RESOURCES, Content, Cost, default_content
from agon.games.seven_wonders import engine as sw
from agon.games.seven_wonders.data import RESOURCES as SW_RESOURCES
from agon.games.seven_wonders.data import Stage, Wonder, cards
from agon.games.seven_wonders.scoresheet import FIELDS
from agon.play import lockstep
from agon.play.clocks import timed_out_seat

GAMES = ("7w", "ocw")
VARIANTS: dict[str, tuple[str, ...]] = {
    "7w": ("base",),
    "ocw": ("base", "trade", "two-card", "leaders"),
}
#: Seats per game (7 Wonders 3–7; One Card Wonder 2–6, Two Card Wonder at most 4, trade at least 4:
#: the engine checks the variant limits).
SEATS: dict[str, tuple[int, int]] = {"7w": (3, 7), "ocw": (2, 6)}
#: Engines take seeds below 2**50 (the compiled cores' limit).
SEED_LIMIT = 2**50
#: The "seat" of actions of the table itself, not of a player (the round clock's stop).
TABLE = -1
#: The actions of the side choice (:attr:`Setup.choose_sides`).
SIDE_ACTIONS = ("side A", "side B")
_STOP = "stop after age "


def stop_action(age: int) -> str:
    """The table's action that ends the game with the end of ``age`` (the round clock)."""
    return f"{_STOP}{age}"


def _timed_out(adapter: Adapter, action: str) -> bool:
    """Whether ``action`` is the table's ``timeout N`` (:mod:`agon.play.clocks`): it changes
    nothing (the seat's own move follows in the log), only for a seat that has to decide now.

    Raises:
        IllegalAction: a timeout of a seat that does not act now.
    """
    seat = timed_out_seat(action)
    if seat is None:
        return False
    if not 0 <= seat < adapter.setup.seats or not adapter.legal(seat):
        raise IllegalAction(f"seat {seat} does not act now: it cannot time out")
    return True


def engine_seed(seed: str) -> int:
    """The engine seed of a game's seed text (stable across processes and machines).

    >>> engine_seed("s") == engine_seed("s") != engine_seed("t")
    True
    """
    digest = hashlib.blake2b(seed.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % SEED_LIMIT


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything that creates a game: the game, its variant, the seat count, the seed text, and
    for tournament tables the drawn wonders and sides (7 Wonders) and central guild draw;
    ``choose_sides``: each seat chooses its wonder's side first (``sides`` is then ignored)."""

    game: str
    variant: str
    seats: int
    seed: str
    wonders: tuple[str, ...] | None = None
    sides: tuple[str, ...] | None = None
    guilds: tuple[str, ...] | None = None
    choose_sides: bool = False


class Adapter(Protocol):
    """A running game seen through the online-play interface."""

    setup: Setup

    def legal(self, seat: int) -> list[str]:
        """The seat's legal actions now (engine action strings; empty when it need not act)."""
        ...

    def apply(self, seat: int, action: str) -> bool:
        """Accept the seat's action (seat :data:`TABLE`: the table's own, see the module
        docstring); returns whether the engine state advanced (a 7 Wonders turn that waits for
        other seats does not).

        Raises:
            IllegalAction: not the seat's turn, or the action is not legal.
            InvalidInput: not an action of this game.
        """
        ...

    @property
    def over(self) -> bool: ...

    def scores(self, names: Sequence[str]) -> list[dict[str, Any]]:
        """Final scores: one row per seat, ``{"player", <categories>, "total"}``."""
        ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public spectator view)."""
        ...

    def waiting_for(self) -> list[int]:
        """Seats that must still act before the game can advance."""
        ...

    def details(self) -> list[dict[str, Any]]:
        """Per seat what a result records besides the scores (7 Wonders: wonder, side,
        treasury; One Card Wonder: wonder cards and board)."""
        ...

    def snapshot(self) -> Adapter:
        """An independent copy (for bots thinking outside the game's lock)."""
        ...

    def scratch(self) -> Adapter:
        """A copy to think on while this game does not change (its holder keeps the game's
        lock until it drops the copy): it may share with the game what it does not change
        itself — cheaper than :meth:`snapshot` (issue 30)."""
        ...

    def bot_action(self, seat: int, bot: str, seed: int) -> str:
        """The action bot ``bot`` chooses for ``seat``: a bot's name or a level of the game's
        ``data/levels.toml`` (:mod:`agon.games.levels`).

        Raises:
            InvalidInput: a name the game does not know.
        """
        ...

    def current_age(self) -> int:
        """The age being played (7 Wonders; 0 before the first age and for One Card Wonder)."""
        ...


def new_adapter(setup: Setup) -> Adapter:
    """A new game from its setup.

    Raises:
        InvalidInput: unknown game or variant, a seat count the game does not allow, unknown
            wonders or sides.
    """
    if setup.game not in GAMES:
        raise InvalidInput(f"game {setup.game!r}: expected one of {', '.join(GAMES)}")
    if setup.variant not in VARIANTS[setup.game]:
        raise InvalidInput(
            f"variant {setup.variant!r} of {setup.game}: expected one of "
            f"{', '.join(VARIANTS[setup.game])}"
        )
    low, high = SEATS[setup.game]
    if not low <= setup.seats <= high:
        raise InvalidInput(f"{setup.game}: {low} to {high} seats, got {setup.seats}")
    if setup.game == "7w":
        return SevenWonders(setup)
    return OneCardWonder(setup)


# ---------------------------------------------------------------------------- 7 Wonders


def _sw_cost(cost: tuple[int, ...]) -> dict[str, int]:
    return {SW_RESOURCES[r]: n for r, n in enumerate(cost) if n}


def _sw_stage(stage: Stage) -> dict[str, Any]:
    return {"cost": _sw_cost(stage.cost), "effects": [str(e) for e in stage.effects]}


#: a wonder side's stages as views show them, per (wonder, side): the same in every view
_SW_STAGES: dict[tuple[str, str], list[dict[str, Any]]] = {}


def _sw_stages(wonder: Wonder, side: str) -> list[dict[str, Any]]:
    hit = _SW_STAGES.get((wonder.id, side))
    if hit is None:
        hit = _SW_STAGES[wonder.id, side] = [_sw_stage(s) for s in wonder.side(side)]
    return hit


class SevenWonders:
    """7 Wonders: simultaneous turns, the submitted actions kept until every seat has chosen.

    ``engine``: ``"auto"`` answers the legal actions from the compiled core when it is built
    (:mod:`agon.play.lockstep`), ``"python"`` always from the Python engine (the same lists).
    """

    def __init__(self, setup: Setup, *, engine: str = "auto", _game: sw.Game | None = None) -> None:
        self.setup = setup
        self.engine = engine
        #: while the seats choose their sides: the choices so far (``None``: no choice, or done)
        self.sides: dict[int, str] | None = {} if setup.choose_sides and _game is None else None
        self.game = _game or self._new_game(
            ["A"] * setup.seats if setup.choose_sides else setup.sides
        )
        self.pending: dict[int, sw.Action] = {}
        #: the engine's legal actions per seat, until the next turn resolves (a state, a push
        #: and a bot's check each ask for them)
        self._legal: dict[int, tuple[list[sw.Action], list[str]]] = {}
        #: the round clock's stop, when it came while the sides were still being chosen
        self.stop_age: int | None = None
        #: the same game in the compiled core, for the legal actions (None: the engine's)
        self.core = (
            None
            if _game is not None or self.sides is not None  # a copy's, or after the sides
            else lockstep.start(self.game, engine=engine)
        )
        #: a :meth:`scratch` copy: ``game`` and ``core`` are the original's until it changes them
        self._shared = False

    def _new_game(self, sides: Sequence[str] | None) -> sw.Game:
        setup = self.setup
        # given sides draw nothing from the seed: the same wonders, guilds and deals on any side
        return sw.Game(
            setup.seats,
            engine_seed(setup.seed),
            wonders=setup.wonders,
            sides=sides,
            guilds=setup.guilds,
        )

    def snapshot(self) -> SevenWonders:
        copy = SevenWonders(self.setup, engine=self.engine, _game=self.game.clone())
        copy.core = None if self.core is None else self.core.clone()
        copy.pending = dict(self.pending)
        copy._legal = dict(self._legal)
        copy.sides = None if self.sides is None else dict(self.sides)
        copy.stop_age = self.stop_age
        return copy

    def scratch(self) -> SevenWonders:
        """:meth:`snapshot` sharing the game and the core with this one until the copy steps
        them (:meth:`_own`): a bot's choice of a turn's action changes neither, and most quick
        answers to a move end before the turn does — no copy of the game at all."""
        copy = SevenWonders(self.setup, engine=self.engine, _game=self.game)
        copy.core = self.core
        copy._shared = True
        copy.pending = dict(self.pending)
        copy._legal = dict(self._legal)
        copy.sides = None if self.sides is None else dict(self.sides)
        copy.stop_age = self.stop_age
        return copy

    def _own(self) -> None:
        """A :meth:`scratch` copy about to change its game: its own game and core first."""
        if self._shared:
            self._shared = False
            self.game = self.game.clone()
            self.core = None if self.core is None else self.core.clone()

    @property
    def over(self) -> bool:
        return self.game.over

    def current_age(self) -> int:
        return 0 if self.sides is not None else self.game.age

    def waiting_for(self) -> list[int]:
        if self.sides is not None:
            return [p for p in range(self.setup.seats) if p not in self.sides]
        return [p for p in self.game.to_act() if p not in self.pending]

    def _engine_legal(self, seat: int) -> tuple[list[sw.Action], list[str]]:
        hit = self._legal.get(seat)
        if hit is None:
            if self.core is not None:
                hit = self.core.legal(seat)
            else:
                actions = self.game.legal_actions(seat)
                hit = (actions, [str(a) for a in actions])
            self._legal[seat] = hit
        return hit

    def _listed(self, seat: int, action: str) -> sw.Action | None:
        """The legal action whose text :meth:`legal` lists as ``action`` (a state's, a bot's),
        without parsing it; ``None``: not one of them."""
        if seat in self.pending or self.game.over:
            return None
        actions, texts = self._engine_legal(seat)
        try:
            return actions[texts.index(action)]
        except ValueError:
            return None

    def _legal_actions(self, seat: int) -> list[sw.Action]:
        if seat in self.pending or self.game.over or self.sides is not None:
            return []
        return list(self._engine_legal(seat)[0])

    def legal(self, seat: int) -> list[str]:
        if self.sides is not None:
            return [] if seat in self.sides or not 0 <= seat < self.setup.seats else [*SIDE_ACTIONS]
        if seat in self.pending or self.game.over:
            return []
        return list(self._engine_legal(seat)[1])

    def _table_action(self, action: str) -> bool:
        if _timed_out(self, action):
            return False
        if not action.startswith(_STOP) or not action[len(_STOP) :].isdigit():
            raise InvalidInput(f"the table's action {action[:40]!r}: expected '{_STOP}N'")
        age = int(action[len(_STOP) :])
        self._own()
        if self.sides is not None:  # before age I: the game will end with age ``age``
            if not 1 <= age <= 3:
                raise IllegalAction(f"cannot finish the game after age {age}")
            self.stop_age = age
            return False
        self.game.finish_after_age(age)
        self.core = None  # the core knows no last age: the engine answers from now on
        return False

    def _choose_side(self, seat: int, action: str) -> bool:
        assert self.sides is not None
        if action not in SIDE_ACTIONS:
            raise IllegalAction(f"seat {seat}: choose the side first ({' or '.join(SIDE_ACTIONS)})")
        if not self.legal(seat):
            raise IllegalAction(f"seat {seat} does not act now")
        self.sides[seat] = action[-1]
        if self.waiting_for():
            return False
        chosen = [self.sides[p] for p in range(self.setup.seats)]
        self.sides = None
        self._shared = False  # a new game and core of its own
        self.game = self._new_game(chosen)
        self._legal = {}
        if self.stop_age is not None:
            self.game.finish_after_age(self.stop_age)
        self.core = lockstep.start(self.game, engine=self.engine)
        return True

    def apply(self, seat: int, action: str) -> bool:
        if seat == TABLE:
            return self._table_action(action)
        if self.sides is not None:
            return self._choose_side(seat, action)
        parsed = self._listed(seat, action)
        if parsed is None:  # not a text of the list: parsed and checked (or refused) in full
            parsed = sw.Action.parse(action)
            legal = self._legal_actions(seat)
            if not legal:
                raise IllegalAction(f"seat {seat} does not act now")
            if parsed not in legal:
                raise IllegalAction(f"seat {seat}: {action!r} is not legal now")
        self.pending[seat] = parsed
        if self.waiting_for():
            return False
        # in the seats' order, as the engine's checked step takes them (not in the order they
        # arrived: the discard pile's order would depend on who chose first)
        pending, self.pending = self.pending, {}
        actions = {p: pending[p] for p in self.game.to_act()}
        self._legal = {}
        self._own()
        # every seat that acts gave one of the engine's own legal actions of this very state
        # (checked above): the engine's step would only compute them all again (issue 30)
        self.game.step_unchecked(actions)
        if self.core is not None:
            self.core.step(actions)
        return True

    def scores(self, names: Sequence[str]) -> list[dict[str, Any]]:
        rows = []
        for s in self.game.scores():
            row: dict[str, Any] = {"player": names[s.player]}
            row.update({f: getattr(s, f) for f in FIELDS})
            row["total"] = s.total
            if s.copied_guild:
                row["copied_guild"] = s.copied_guild
            rows.append(row)
        return rows

    def details(self) -> list[dict[str, Any]]:
        """Per seat: wonder, side and coins in the treasury (the tie-break) — for results."""
        return [
            {"seat": p, "wonder": c.wonder.en, "side": c.side, "treasury": c.coins}
            for p, c in enumerate(self.game.cities)
        ]

    def bot_action(self, seat: int, bot: str, seed: int) -> str:
        from agon.games.seven_wonders.bots import HeuristicBot, IsmctsBot, MctsBot, RandomBot

        spec = levels.resolve("7w", bot)  # a fixed budget: deterministic from the seed
        if self.sides is not None:
            return self._bot_side(seat, spec, seed)
        player: Any
        if spec.kind == "random":  # RandomBot's choice among the list this adapter holds
            legal = self.legal(seat)
            return legal[RandomBot(seed).pick(self.game, seat, self._legal_actions(seat))]
        if spec.kind == "heuristic" and self.core is not None:  # the same choice, compiled
            return self.core.heuristic(seat, seed)
        if spec.kind == "heuristic":  # its choice is one of the legal actions: no resolve
            return str(HeuristicBot(seed).act_among(self.game, seat, self._legal_actions(seat)))
        self._own()  # a search may play on the game it is given
        if spec.kind == "mcts":
            player = MctsBot(seed, rounds=spec.rounds or 8, seconds=0)
        else:
            player = IsmctsBot(seed, iterations=spec.iterations or 1000)
        return str(self.game.resolve(seat, player.act(self.game, seat)))

    def _bot_side(self, seat: int, spec: levels.BotSpec, seed: int) -> str:
        """A bot's side: with no side playouts (``random``) a seeded coin; else it plays the
        table out with heuristic players on each side (its ``side_playouts`` games each, dealt
        from the bot's own seed — never the game's deck — the other seats on side A, their choice
        being hidden) and takes the side on which this seat scored more on average."""
        import random

        from agon.games.seven_wonders.bots import HeuristicBot, play_game

        if spec.side_playouts == 0:
            return SIDE_ACTIONS[random.Random(seed).randrange(2)]
        wonders = [c.wonder.en for c in self.game.cities]
        guilds = self.setup.guilds
        totals = []
        for side in ("A", "B"):
            sides = ["A"] * self.setup.seats
            sides[seat] = side
            total = 0
            for k in range(spec.side_playouts):
                deal = engine_seed(f"{seed}\x00sides\x00{k}")  # the same deals for both sides
                game = sw.Game(self.setup.seats, deal, wonders=wonders, sides=sides, guilds=guilds)
                bots = [HeuristicBot(deal + p) for p in range(self.setup.seats)]
                total += play_game(game, list(bots)).scores()[seat].total
            totals.append(total)
        return SIDE_ACTIONS[1] if totals[1] > totals[0] else SIDE_ACTIONS[0]

    def _city(self, p: int, seat: int | None) -> dict[str, Any]:
        g = self.game
        c = g.cities[p]
        choosing = self.sides is not None
        side: str | None = c.side
        if self.sides is not None:  # hidden until every seat has chosen; a seat sees its own
            side = self.sides.get(p) if p == seat else None
        out: dict[str, Any] = {
            "seat": p,
            "wonder": c.wonder.id,
            "wonder_name": {"en": c.wonder.en, "de": c.wonder.de, "it": c.wonder.it},
            "side": side,
            "stages_built": c.stages_built,
            "stages": [] if side is None else _sw_stages(c.wonder, side),
            "coins": c.coins,
            "cards": [cards()[i].id for i in c.cards],
            "shields": c.shields,
            "military": c.military,
            "defeats": c.defeats,
            "withdrawn": g.withdrawn[p],
            "left": g.left[p],
            "right": g.right[p],
            "chosen": p in (self.sides if self.sides is not None else self.pending),
            "to_act": p not in self.sides if self.sides is not None else p in g.to_act(),
        }
        if choosing:
            out["sides"] = {x: _sw_stages(c.wonder, x) for x in ("A", "B")}
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        sides_phase = self.sides is not None
        out: dict[str, Any] = {
            "game": "7w",
            "variant": self.setup.variant,
            "players": g.n,
            "age": g.age,
            "turn": g.turn,
            "phase": "sides" if sides_phase else g.phase,
            "pass": "right" if g.age == 2 else "left",
            "cities": [self._city(p, seat) for p in range(g.n)],
            "waiting_for": self.waiting_for(),
            "discard_size": len(g.discard),
            "hand_sizes": [0 if sides_phase else len(h) for h in g.hands],
            "over": g.over,
            "last_age": self.stop_age if sides_phase and self.stop_age else g.last_age,
        }
        if seat is None:
            return out
        out["seat"] = seat
        out["left"] = g.left[seat]
        out["right"] = g.right[seat]
        out["hand"] = [] if sides_phase else [cards()[i].id for i in g.hands[seat]]
        out["chosen"] = seat in (self.sides if self.sides is not None else self.pending)
        choosing = g.phase == "revive" and seat in g.to_act() and seat not in self.pending
        out["discard"] = [cards()[i].id for i in g.discard] if choosing else None
        out["moves"] = [
            {
                "action": str(a),
                "kind": a.kind,
                "card": cards()[a.card].id if a.card >= 0 else None,
                "pay_left": a.left,
                "pay_right": a.right,
            }
            for a in self._legal_actions(seat)
        ]
        if sides_phase:
            out["moves"] = [
                {"action": a, "kind": "side", "card": None, "pay_left": 0, "pay_right": 0}
                for a in self.legal(seat)
            ]
        return out


# ---------------------------------------------------------------------------- One Card Wonder

_OCW_VARIANTS = {
    "base": ocw.Variant(),
    "trade": ocw.Variant(trade=True),
    "two-card": ocw.Variant(two_card=True),
    "leaders": ocw.Variant(leaders=True),
}


def _ocw_buildings(buildings: Sequence[Any]) -> list[dict[str, Any]]:
    """The buildings of a wonder or a board as views show them."""
    return [
        {"id": b.id, "name": b.names.en, "cost": _ocw_cost(b.cost), "text": b.text}
        for b in buildings
    ]


def _ocw_cost(cost: Cost) -> dict[str, int]:
    out = {RESOURCES[i]: n for i, n in enumerate(cost.res) if n}
    if cost.joker:
        out["joker"] = cost.joker
    if cost.coin:
        out["coin"] = cost.coin
    return out


class OneCardWonder:
    """One Card Wonder (variants base, trade, two-card, leaders): one decision at a time."""

    def __init__(self, setup: Setup, *, _game: ocw.Game | None = None) -> None:
        self.setup = setup
        self.content: Content = default_content()
        self.game = _game or ocw.Game.new(
            setup.seats, engine_seed(setup.seed), _OCW_VARIANTS[setup.variant], self.content
        )
        #: the legal actions of the deciding seat and their texts, until the next action (a
        #: state, the move's check, a bot's choice and the engine's step each need them)
        self._legal: tuple[list[ocw.Action], list[str]] | None = None
        #: per wonder, per board: the unchanging parts of their views (built once per game)
        self._wonders: dict[str, tuple[dict[str, str], list[dict[str, Any]], list[Any]]] = {}
        self._boards: dict[str, list[dict[str, Any]]] = {}

    def snapshot(self) -> OneCardWonder:
        copy = OneCardWonder(self.setup, _game=self.game.clone())
        copy._legal = self._legal
        return copy

    def scratch(self) -> OneCardWonder:
        return self.snapshot()

    def _engine_legal(self) -> tuple[list[ocw.Action], list[str]]:
        if self._legal is None:
            actions = self.game.legal_actions()
            self._legal = (actions, [str(a) for a in actions])
        return self._legal

    @property
    def over(self) -> bool:
        return self.game.over

    def waiting_for(self) -> list[int]:
        p = self.game.current_player()
        return [] if p < 0 else [p]

    def legal(self, seat: int) -> list[str]:
        if self.game.over or self.game.current_player() != seat:
            return []
        return list(self._engine_legal()[1])

    def current_age(self) -> int:
        return 0

    def apply(self, seat: int, action: str) -> bool:
        if seat == TABLE:
            if _timed_out(self, action):
                return False
            raise InvalidInput("One Card Wonder's only table action is a seat's timeout")
        if not self.game.over and self.game.current_player() == seat:
            actions, texts = self._engine_legal()
            if action in texts:  # a text of the list (a state's, a bot's): no parse, no check
                self._legal = None
                self.game.apply_unchecked(actions[texts.index(action)])
                return True
        parsed = ocw.Action.parse(action)
        if self.game.over or self.game.current_player() != seat:
            raise IllegalAction(f"seat {seat} does not act now")
        listed = parsed in self._engine_legal()[0]
        self._legal = None
        if listed:
            # one of the engine's own legal actions of this state: its check would list them again
            self.game.apply_unchecked(parsed)
        else:
            self.game.apply(parsed)  # the engine's own check: it refuses, in its words
        return True

    def scores(self, names: Sequence[str]) -> list[dict[str, Any]]:
        """One Card Wonder has no points: ``stages`` completed, ``winner``; ``total`` is 1 for
        the winner (who completed a wonder first), else 0."""
        winner = self.game.winner
        return [
            {
                "player": names[s],
                "stages": self.game.completed(s),
                "buildings": len(self.game.players[s].built_ids),
                "coins": self.game.players[s].store[COIN],
                "winner": s == winner,
                "total": int(s == winner),
            }
            for s in range(self.game.n)
        ]

    def details(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": s,
                "wonders": [w.id for w in p.wonders],
                "board": p.board.id if p.board else None,
            }
            for s, p in enumerate(self.game.players)
        ]

    def bot_action(self, seat: int, bot: str, seed: int) -> str:
        from agon.games.one_card_wonder.bots import (
            HeuristicBot,
            IsmctsBot,
            IsmctshBot,
            RandomBot,
            SearchBot,
            make_bot,
        )

        spec = levels.resolve("ocw", bot)  # a fixed budget: deterministic from the seed
        if self.game.current_player() != seat:
            raise IllegalAction(f"seat {seat} does not act now")
        if spec.kind == "search":
            return str(SearchBot(seed, worlds=spec.worlds or 8).choose(self.game))
        if spec.kind == "ismcts":
            return str(IsmctsBot(seed, iterations=spec.iterations or 150).choose(self.game))
        if spec.kind == "ismctsh":
            return str(IsmctshBot(seed, iterations=spec.iterations or 150).choose(self.game))
        if spec.kind in ("heuristic", "random"):  # from the list this adapter holds
            quick = HeuristicBot(seed) if spec.kind == "heuristic" else RandomBot(seed)
            return str(quick.choose_among(self.game, self._engine_legal()[0]))
        return str(make_bot(spec.kind, seed).choose(self.game))

    def _wonder(self, wid: str, built: list[str], rebuild: str | None) -> dict[str, Any]:
        hit = self._wonders.get(wid)
        if hit is None:
            w = self.content.wonder(wid)
            hit = self._wonders[wid] = (
                {"en": w.names.en, "de": w.names.de, "it": w.names.it},
                [{"id": s.id, "cost": _ocw_cost(s.cost), "after": list(s.after)} for s in w.stages],
                _ocw_buildings(w.buildings),
            )
        name, stages, buildings = hit
        return {
            "id": wid,
            "name": dict(name),
            "stages": [{**stage, "built": stage["id"] in built} for stage in stages],
            "buildings": buildings,
            "rebuild_first": rebuild,
        }

    def _board_buildings(self, board: str) -> list[dict[str, Any]]:
        hit = self._boards.get(board)
        if hit is None:
            boards = {b.id: b for b in self.content.boards}
            hit = self._boards[board] = (
                _ocw_buildings(boards[board].buildings) if board in boards else []
            )
        return hit

    def view(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        obs = g.observation(0 if seat is None else seat)
        leaders = {ld.id: ld for ld in self.content.leaders}
        players = []
        for p in obs["players"]:
            mine = p["seat"] == seat
            lead = p["leader"]
            if not mine and p["leader_state"] == "hidden" and lead is not None:
                lead = "hidden"  # the spectator sees seat 0's observation: hide its leader too
            board = p["board"] if (mine or seat is not None or obs["display"] == []) else None
            entry: dict[str, Any] = {
                "seat": p["seat"],
                "storage": p["storage"],
                "storage_used": sum(p["storage"].values()),
                "wonders": [
                    self._wonder(w["id"], w["built"], w["rebuild_first"]) for w in p["wonders"]
                ],
                "board": board,
                "board_buildings": [] if board is None else self._board_buildings(board),
                "board_options": p["board_options"] if mine else None,
                "buildings": p["buildings"],
                "tokens_left": p["tokens_left"],
                "leader": None if lead is None else lead,
                "leader_state": p["leader_state"],
                "competition_ground": p["competition_ground"],
            }
            if lead not in (None, "hidden") and lead in leaders:
                ld = leaders[lead]
                entry["leader_card"] = {
                    "id": ld.id,
                    "name": ld.names.en,
                    "text": ld.text,
                    "defeat": _ocw_cost(ld.defeat),
                }
            players.append(entry)
        out: dict[str, Any] = {
            "game": "ocw",
            "variant": self.setup.variant,
            "players": players,
            "to_move": obs["to_move"],
            "on_turn": obs["on_turn"],
            "turn": obs["turn"],
            "bag": obs["bag"],
            "supply": obs["supply"],
            "coins": obs["coins"],
            "display": [
                {**d, "wonder_card": self._wonder(d["wonder"], [], None)} for d in obs["display"]
            ],
            "waiting_for": self.waiting_for(),
            "winner": obs["winner"],
            "over": obs["over"],
        }
        if seat is not None:
            out["seat"] = seat
            out["moves"] = [{"action": a} for a in self.legal(seat)]
        return out
