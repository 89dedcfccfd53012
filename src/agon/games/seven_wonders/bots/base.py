"""What a bot is (:class:`Bot`), the uniformly random one, and its generator (:class:`SplitMix64`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from agon.games.seven_wonders.engine import Action, Game


class Bot(Protocol):
    """Chooses an action for ``player`` (who must be in ``game.to_act()``)."""

    name: str

    def act(self, game: Game, player: int) -> Action: ...


_M64 = (1 << 64) - 1


class SplitMix64:
    """The generator of the random bot and of the information-set search's play-out policy:
    SplitMix64 (Steele, Lea and Flood 2014), 64 bits of state.

    The compiled core draws the same numbers (``sm_next``, ``sm_below``, ``sm_random`` in
    ``_core.pyx``), so one seed picks the same actions in both engines.  A bot's draws are no
    part of a game's record (games store their actions; the deal comes from the game's own
    Mersenne Twister, which stays), so a bot may use a generator cheaper to seed than CPython's
    ``random.Random``: the core seeded five or six Mersenne Twisters per random game (a sixth of
    its time), and several per round of the search.

    >>> r = SplitMix64(1234567)  # the reference implementation's first words for this seed
    >>> [r.next64() for _ in range(3)]
    [6457827717110365317, 3203168211198807973, 9817491932198370423]
    >>> r = SplitMix64(7)
    >>> [r.below(6) for _ in range(8)]
    [2, 0, 5, 3, 2, 1, 2, 1]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _M64  # a negative seed as its 64-bit two's complement (C's cast)

    def next64(self) -> int:
        """The next 64-bit word."""
        s = self.state = (self.state + 0x9E3779B97F4A7C15) & _M64
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in ``[0, 1)``: the top 53 bits of a word over ``2**53``."""
        return (self.next64() >> 11) * 2.0**-53

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` for ``0 < n < 2**32``: the top 32 bits of a word times
        ``n`` (Lemire's method, with its rejection of the few products that would bias it)."""
        m = (self.next64() >> 32) * n
        if m & 0xFFFFFFFF < n:
            t = (0x100000000 - n) % n
            while m & 0xFFFFFFFF < t:
                m = (self.next64() >> 32) * n
        return m >> 32


class RandomBot:
    """Uniformly random legal action, drawn from a :class:`SplitMix64` seeded with ``seed``
    (:meth:`pick`)."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def act(self, game: Game, player: int) -> Action:
        legal = game.legal_actions(player)
        return legal[self.pick(game, player, legal)]

    def pick(self, game: Game, player: int, legal: Sequence[Action]) -> int:
        """The index in ``legal`` (``game.legal_actions(player)``) of the action drawn: uniform
        over them, drawn by rejection as the compiled core draws it (``random_pick`` in
        ``_core.pyx``), which does not count every card's payments.

        The actions are taken card by card in ``legal``'s order with an upper bound in place of
        each count that needs a payment search (:meth:`Game.payment_bound`: a card's builds, and
        the wonder stage's payments, shared by every card).  A draw below the total of the
        bounds that falls on an action is that action; one that falls within a bound beyond the
        true count replaces that bound by the count and draws again.  Every draw is uniform over
        a superset of the legal actions, so the one accepted is uniform over them; where every
        bound is exact the first draw is ``self.rng.below(len(legal))``.
        """
        n = len(legal)
        if not n or game.phase == "revive":
            return self.rng.below(n)
        drawn = game.draw_bounds(player)
        if drawn is None:
            return self.rng.below(n)  # every bound is the count
        stage, bounds = drawn
        cards = list(dict.fromkeys(game.hands[player]))
        # segments in legal's order: [start in legal, count, bound, the stage's (1) or not]
        segs: list[list[int]] = []
        pos = 0
        for index, bound in zip(cards, bounds, strict=True):
            for kind in ("build", "free", "wonder", "discard"):
                start = pos
                while pos < n and legal[pos].card == index and legal[pos].kind == kind:
                    pos += 1
                count = pos - start
                if kind == "build" and bound is not None:
                    segs.append([start, count, bound, 0])
                elif kind == "wonder" and stage is not None:
                    segs.append([start, count, stage, 1])
                else:
                    segs.append([start, count, count, 0])
        total = sum(seg[2] for seg in segs)
        while True:
            t = self.rng.below(total)
            for seg in segs:
                if t < seg[2]:
                    if t < seg[1]:
                        return seg[0] + t
                    for other in segs if seg[3] else (seg,):  # the count from now on
                        if other[3] == seg[3]:
                            total -= other[2] - other[1]
                            other[2] = other[1]
                    break
                t -= seg[2]
