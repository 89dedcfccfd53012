"""The table's story (issue 28): what happened at an online table, turn by turn, from its log.

Pure: :func:`story` takes a game's setup and its stored log of ``(seq, seat, action)`` and
replays it with the engines, no I/O. What it tells is public only — what a player sitting at the
table sees once a turn is revealed:

- 7 Wonders: per resolved turn, what every seat did — a card built (named), a wonder stage built
  or a card discarded (*which* card went under the wonder or onto the discard pile is never
  said: it is face down), the coins each paid to the left and right neighbour and for what, the
  wonder powers (Olympia's free build, Halikarnassos' build from the discard pile, Babylon's
  seventh card); at each age's end the military results (who beat whom, the tokens); the sides
  chosen once all have chosen; the round clock's stop; a seat whose turn clock ran out (its
  move, the bot's, is marked :attr:`Deed.timed_out`).
- One Card Wonder: every decision (its actions are public: a leader is dealt, and named only
  once its player uses it).

The faces render the :class:`Turn` records in the reader's language
(:mod:`agon.web.storyview`); a seat's submitted but unrevealed choice is never in them, because a
7 Wonders turn enters the story only when the engine resolves it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from agon.games.seven_wonders.data import cards
from agon.games.seven_wonders.engine import Action, Game
from agon.games.seven_wonders.state import MILITARY_WIN
from agon.play.adapters import TABLE, OneCardWonder, Setup, SevenWonders, new_adapter
from agon.play.clocks import timed_out_seat

#: Deed kinds of 7 Wonders (``build``, ``wonder``, ``discard``, ``free``: Olympia's free build,
#: ``revive``: Halikarnassos' build from the discard pile, ``pass``: Halikarnassos took nothing,
#: ``side``: the wonder's side chosen, ``stop``: the round clock ended the game early) and of
#: One Card Wonder (``move``: a decision, all of them public).
DEED_KINDS = ("build", "wonder", "discard", "free", "revive", "pass", "side", "stop", "move")


@dataclass(frozen=True, slots=True)
class Deed:
    """One seat's public act in a turn."""

    seat: int
    kind: str
    #: the card built (its id) — only for ``build``, ``free`` and ``revive``: a card that went
    #: under the wonder or onto the discard pile is face down, never named
    card: str | None = None
    #: the wonder stage built (1-based), for ``wonder``
    stage: int | None = None
    #: coins paid to the left / right neighbour (and their seats), for resources bought
    paid_left: int = 0
    paid_right: int = 0
    left: int | None = None
    right: int | None = None
    #: the wonder power used: ``olympia``, ``halikarnassos`` or ``babylon``
    power: str | None = None
    #: ``side``: ``A`` or ``B``; ``stop``: the last age; One Card Wonder: the action text
    detail: str | None = None
    #: the seat's clock ran out and the heuristic bot made this move for it (the table's
    #: ``timeout N`` entry before the move, :mod:`agon.play.clocks`)
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class Battle:
    """One military conflict at an age's end: ``seat`` against its neighbour ``against``."""

    seat: int
    against: int
    #: ``win``, ``loss`` or ``tie``
    result: str
    #: the military points the conflict gave ``seat`` (+1/+3/+5 for a win, -1 for a loss)
    points: int
    shields: int
    their_shields: int


@dataclass(frozen=True, slots=True)
class Turn:
    """A step of the story: the deeds revealed together, and the battles of an age that ended."""

    #: the log entry that revealed the turn (its last action)
    seq: int
    age: int
    turn: int
    #: ``main``, ``seventh``, ``revive``, ``sides``, ``stop``, ``ocw``
    phase: str
    deeds: tuple[Deed, ...]
    #: the age whose military conflicts were resolved with this turn (else ``None``)
    age_end: int | None = None
    battles: tuple[Battle, ...] = field(default=())


def story(setup: Setup, log: Iterable[tuple[int, int, str]]) -> tuple[Turn, ...]:
    """The story of a game from its setup and log (``(seq, seat, action)``, from seq 1 on).

    Raises:
        AgonError: the setup makes no game, or the log does not replay (an action that is not
            the game's).
    """
    teller = Teller(setup)
    teller.feed(log)
    return teller.turns


class Teller:
    """A story told as the log grows: :meth:`feed` the new entries, read :attr:`turns`.

    The log is a stored one (every action was legal when it was accepted): 7 Wonders turns are
    resolved with the engine's fast path, without asking for the legal actions again.
    """

    def __init__(self, setup: Setup) -> None:
        self.adapter = new_adapter(setup)
        self.turns: tuple[Turn, ...] = ()
        #: how many log entries were fed
        self.fed = 0
        self._sides: dict[int, str] = {}
        self._pending: dict[int, Action] = {}
        #: seats whose clock ran out: their next move is the bot's
        self._timed_out: set[int] = set()

    def feed(self, entries: Iterable[tuple[int, int, str]]) -> None:
        """Tell the entries that follow the ones fed so far."""
        new: list[Turn] = []
        for seq, seat, action in entries:
            late = timed_out_seat(action) if seat == TABLE else None
            if late is not None:  # the seat's move follows: the bot's, told with it
                self.adapter.apply(seat, action)
                self._timed_out.add(late)
                self.fed += 1
                continue
            if isinstance(self.adapter, SevenWonders):
                turn = self._seven(self.adapter, seq, seat, action)
            else:
                assert isinstance(self.adapter, OneCardWonder)
                turn = self._ocw(self.adapter, seq, seat, action)
            self.fed += 1
            if turn is not None:
                new.append(self._mark_timeouts(turn))
        self.turns = (*self.turns, *new)

    def _mark_timeouts(self, turn: Turn) -> Turn:
        """The turn with the deeds of timed-out seats marked (their moves were the bot's)."""
        if not self._timed_out:
            return turn
        late = self._timed_out & {d.seat for d in turn.deeds}
        if not late:
            return turn
        self._timed_out -= late
        deeds = tuple(replace(d, timed_out=True) if d.seat in late else d for d in turn.deeds)
        return replace(turn, deeds=deeds)

    def _seven(self, adapter: SevenWonders, seq: int, seat: int, action: str) -> Turn | None:
        if seat == TABLE:
            adapter.apply(seat, action)
            deed = Deed(TABLE, "stop", detail=action.rsplit(" ", 1)[-1])
            return Turn(seq, adapter.game.age, adapter.game.turn, "stop", (deed,))
        if adapter.sides is not None:
            self._sides[seat] = action[-1]
            if not adapter.apply(seat, action):
                return None
            sides = tuple(Deed(p, "side", detail=self._sides[p]) for p in sorted(self._sides))
            return Turn(seq, 0, 0, "sides", sides)
        g = adapter.game
        self._pending[seat] = Action.parse(action)
        if sorted(self._pending) != g.to_act():
            return None
        age, turn, phase = g.age, g.turn, g.phase
        left, right = list(g.left), list(g.right)
        logged = len(g.log)
        actions, self._pending = self._pending, {}
        g.step_unchecked(actions)
        deeds = []
        for _age, _turn, step_phase, acts in g.log[logged:]:
            for p, a in acts:
                deeds.append(_deed(g, p, a, step_phase, left[p], right[p]))
        ended = age if (g.age != age or g.over) else None
        battles = _battles(g, left, right, ended) if ended is not None else ()
        return Turn(seq, age, turn, phase, tuple(deeds), ended, battles)

    def _ocw(self, adapter: OneCardWonder, seq: int, seat: int, action: str) -> Turn:
        turn = int(adapter.game.turn)
        adapter.apply(seat, action)
        return Turn(seq, 0, turn, "ocw", (Deed(seat, "move", detail=action),))


def _deed(g: Game, p: int, a: Action, phase: str, left: int, right: int) -> Deed:
    power = "babylon" if phase == "seventh" else None
    if a.kind in ("build", "free", "revive"):
        if a.kind == "free":
            power = "olympia"
        elif a.kind == "revive":
            power = "halikarnassos"
        card = cards()[a.card].id
        return Deed(p, a.kind, card, None, a.left, a.right, left, right, power)
    if a.kind == "wonder":
        stage = g.cities[p].stages_built
        return Deed(p, "wonder", None, stage, a.left, a.right, left, right, power)
    if a.kind == "pass":
        return Deed(p, "pass", power="halikarnassos")
    return Deed(p, "discard", power=power)  # discard, or an illegal play forfeited: face down


def _battles(g: Game, left: list[int], right: list[int], age: int) -> tuple[Battle, ...]:
    win = MILITARY_WIN[age - 1]
    shields = [c.shields for c in g.cities]
    out = []
    for p in range(g.n):
        if g.withdrawn[p]:
            continue
        for q in (left[p], right[p]):
            if q == p:
                continue
            if shields[p] > shields[q]:
                result, points = "win", win
            elif shields[p] < shields[q]:
                result, points = "loss", -1
            else:
                result, points = "tie", 0
            out.append(Battle(p, q, result, points, shields[p], shields[q]))
    return tuple(out)
