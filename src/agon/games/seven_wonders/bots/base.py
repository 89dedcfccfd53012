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
        # each card's actions in legal end with its discard: card j's run is starts[j]..ends[j]
        ends = [i for i, a in enumerate(legal) if a.kind == "discard"]
        nst = 0  # the wonder stage's payments: the wonder actions before the first discard
        while nst < ends[0] and legal[ends[0] - 1 - nst].kind == "wonder":
            nst += 1
        starts = [0, *(e + 1 for e in ends[:-1])]
        free = [
            int(legal[e - 1 - nst].kind == "free") if e - nst > s0 else 0
            for s0, e in zip(starts, ends, strict=True)
        ]
        counts = [e - s0 - nst - f for s0, e, f in zip(starts, ends, free, strict=True)]
        builds = [c if b is None else b for b, c in zip(bounds, counts, strict=True)]
        wonder = nst if stage is None else stage
        total = n + sum(builds) - sum(counts) + len(ends) * (wonder - nst)
        while True:
            t = self.rng.below(total)
            for j, end in enumerate(ends):
                b = builds[j]
                if t < b:
                    if t < counts[j]:
                        return starts[j] + t
                    total -= b - counts[j]  # a bound beyond the count: the count from now on
                    builds[j] = counts[j]
                    break
                t -= b
                if t < free[j]:
                    return starts[j] + counts[j]
                t -= free[j]
                if t < wonder:
                    if t < nst:
                        return starts[j] + counts[j] + free[j] + t
                    total -= len(ends) * (wonder - nst)
                    wonder = nst
                    break
                t -= wonder
                if t == 0:
                    return end
                t -= 1
