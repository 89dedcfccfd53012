"""A 7 Wonders game's random generator: the seed drives the deal, the wonders, the sides and the
guilds through it (``Game(..., generator=...)``).

``"mt"`` is CPython's Mersenne Twister (``random.Random(seed)``), the default: every stored,
online and published game deals from it and replays from its seed.  ``"splitmix"`` is
:class:`SplitMixRandom`, for games that are not kept (``agon 7w simulate``): the compiled core
seeds it in one store where a Mersenne Twister takes some 1,250 dependent steps.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any, Literal

from agon.errors import InvalidInput

#: A game's generator (``Game(..., generator=...)``), by the code the compiled core uses for it:
#: ``"mt"`` CPython's Mersenne Twister (the default: stored, online and published games replay
#: from it), ``"splitmix"`` :class:`SplitMixRandom` (``agon 7w simulate``, which keeps no game).
GENERATORS = ("mt", "splitmix")
Generator = Literal["mt", "splitmix"]
_M64 = (1 << 64) - 1


class SplitMix64:
    """The generator of the random bot, of the search bots' play-out policies and, behind
    :class:`SplitMixRandom`, of simulated games: SplitMix64 (Steele, Lea and Flood 2014), 64 bits
    of state.

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


class SplitMixRandom(random.Random):
    """A game's generator cheaper than CPython's Mersenne Twister: SplitMix64 (Steele, Lea and
    Flood 2014), seeded in one store where ``random.Random(seed)`` fills 624 words.

    The deal's shuffles, the draw of the wonders (``sample``), the sides (``choice``) and the
    guilds (``sample``) are ``random.Random``'s own loops over :meth:`_randbelow`, which here is
    Lemire's bounded draw with its rejection (exactly uniform), :meth:`SplitMix64.below`; the
    compiled core draws the same numbers (``g_shuffle``, ``g_sample``, ``g_below`` in
    ``_core.pyx``).  Only games that are
    not kept use it (``agon 7w simulate``): every stored game deals from the Mersenne Twister.

    >>> r = SplitMixRandom(7)
    >>> [r._randbelow(6) for _ in range(8)]
    [2, 0, 5, 3, 2, 1, 2, 1]
    """

    words: SplitMix64

    def seed(self, a: Any = None, version: int = 2) -> None:
        """The state is the seed as a 64-bit two's complement (an int; 0 for None)."""
        self.words = SplitMix64(a or 0)
        self.gauss_next = None

    @property
    def state(self) -> int:
        """The 64-bit state (its :class:`SplitMix64`'s)."""
        return self.words.state

    def _randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` for ``0 < n < 2**32`` (:meth:`SplitMix64.below`)."""
        return self.words.below(n)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """``random.Random.shuffle``'s loop with :meth:`_randbelow` inlined (the deal: a third
        less time than calling it per card)."""
        s = self.words.state
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            while True:
                s = (s + 0x9E3779B97F4A7C15) & _M64
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _M64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
                m = ((z ^ (z >> 31)) >> 32) * n
                low = m & 0xFFFFFFFF
                if low >= n or low >= (0x100000000 - n) % n:
                    break
            j = m >> 32
            x[i], x[j] = x[j], x[i]
        self.words.state = s

    def random(self) -> float:
        """A float in ``[0, 1)`` (:meth:`SplitMix64.random`)."""
        return self.words.random()

    def getrandbits(self, k: int) -> int:
        """``k`` random bits: the top bits of as many words as needed, the first the lowest."""
        out = shift = 0
        while k > 0:
            take = min(k, 64)
            out |= (self.words.next64() >> (64 - take)) << shift
            shift += take
            k -= take
        return out

    def getstate(self) -> tuple[Any, ...]:
        """``("splitmix", (state,), None)``: ``getstate()[1]`` is what the compiled core imports
        (one word; a Mersenne Twister's is 625)."""
        return ("splitmix", (self.state,), None)

    def setstate(self, state: tuple[Any, ...]) -> None:
        if state[0] != "splitmix":
            raise ValueError("SplitMixRandom.setstate: not a SplitMixRandom state")
        self.words = SplitMix64(state[1][0])
        self.gauss_next = None


def check_generator(generator: str) -> int:
    """The code of a game generator (its index in :data:`GENERATORS`, the compiled core's code).

    Raises:
        InvalidInput: for a generator not in :data:`GENERATORS`.
    """
    if generator not in GENERATORS:
        raise InvalidInput(f"generator: one of {', '.join(GENERATORS)}, got {generator!r}")
    return GENERATORS.index(generator)


def game_generator(seed: int, generator: Generator = "mt") -> random.Random:
    """A game's generator for ``seed``: ``random.Random(seed)`` or :class:`SplitMixRandom`.

    Raises:
        InvalidInput: for a generator not in :data:`GENERATORS`.
    """
    if generator == "mt":
        return random.Random(seed)
    if generator != "splitmix":
        check_generator(generator)  # raises: not in GENERATORS
    return SplitMixRandom(seed)
