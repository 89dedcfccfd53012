"""What a bot is (:class:`Bot`), the uniformly random one, and its generator (:class:`SplitMix64`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from agon.games.seven_wonders.engine import Action, Game
from agon.games.seven_wonders.generators import SplitMix64 as SplitMix64


class Bot(Protocol):
    """Chooses an action for ``player`` (who must be in ``game.to_act()``)."""

    name: str

    def act(self, game: Game, player: int) -> Action: ...


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
