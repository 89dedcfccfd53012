"""What an information-set search's player knows of the hidden cards: :class:`Knowledge` (the
hands it has held and the public log, re-deals consistent with them), the constraints a
re-deal keeps and the re-deal itself (:func:`_deal`, which the compiled core draws alike)."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

from agon.games.seven_wonders.data import age_deck, guilds
from agon.games.seven_wonders.engine import Action, Game

_HIDDEN_KINDS = ("wonder", "discard", "forfeit")


class Knowledge:
    """What one player has seen of the hands in play, and re-deals consistent with it.

    The player remembers its own hand at every turn it was asked to act (:meth:`observe`).
    With the game's public log (which card each city built; a wonder stage or a discard hides
    its card) this tells, for every hand the player has held this age, which cards it can
    still hold now and how many: the hand it passed on lost its own card and then one card per
    later holder, known when built, unknown when used for a wonder stage or discarded.  Hands
    it has not seen are dealt from the cards of the age that are not accounted for (the age's
    deck, with every guild that is not known to be elsewhere in age III, less its own hand,
    its own plays, the cards that can be in seen hands and every card built this age).
    The guilds of age III are drawn afresh while they are still in the box (ages I-II).
    """

    def __init__(self) -> None:
        self.seen: dict[tuple[int, int], tuple[int, ...]] = {}
        self._wonders: tuple[str, ...] = ()

    def observe(self, game: Game, player: int) -> None:
        """Remember ``player``'s hand now (call at every decision)."""
        key = tuple(f"{c.wonder.id}{c.side}" for c in game.cities)
        if key != self._wonders or any(k > (game.age, game.turn) for k in self.seen):
            self.seen = {}  # a new game
            self._wonders = key
        if game.hands[player] and game.phase in ("main", "revive"):
            self.seen[(game.age, game.turn)] = tuple(game.hands[player])

    def constraints(
        self, game: Game, player: int
    ) -> tuple[dict[int, list[int]], list[int], list[int]] | None:
        """``(seen, pool, unseen)``: per seat whose hand the player has held this age, the cards
        that hand can still hold; the cards the other hands can hold; the seats with unseen
        hands.  None when it cannot tell (a withdrawal, or a log it cannot explain)."""
        if any(game.withdrawn) or game.phase == "over":
            return None
        n, age, turn = game.n, game.age, game.turn
        step = -1 if age == 2 else 1
        acts: dict[int, dict[int, Action]] = {}
        for a_age, a_turn, phase, joint in game.log:
            if a_age == age and phase == "main":
                acts[a_turn] = dict(joint)
        others = [q for q in range(n) if q != player and game.hands[q]]
        latest: dict[int, int] = {}
        for s_age, k in self.seen:
            if s_age == age and k < turn:
                s = (player + step * (turn - k)) % n
                if s != player and k > latest.get(s, 0):
                    latest[s] = k
        seen: dict[int, list[int]] = {}
        for s, k in latest.items():
            if s not in others or player not in acts.get(k, {}):
                continue
            left = Counter(self.seen[(age, k)])
            left[acts[k][player].card] -= 1
            hidden = 0
            for j in range(1, turn - k):
                a = acts.get(k + j, {}).get((player + step * j) % n)
                if a is None:
                    return None
                if a.kind not in _HIDDEN_KINDS and left[a.card] > 0:
                    left[a.card] -= 1
                else:
                    hidden += 1
            cards_left = sorted(left.elements())
            if len(cards_left) - hidden != len(game.hands[s]):
                return None
            seen[s] = cards_left
        deck = Counter(_deck_counts(age, n))
        deck.subtract(game.hands[player])
        for s_cards in seen.values():
            deck.subtract(s_cards)
        for played in acts.values():
            for q, a in played.items():
                if q == player or a.kind not in _HIDDEN_KINDS:
                    deck[a.card] -= 1
        pool = sorted(c for c, m in deck.items() for _ in range(max(m, 0)))
        unseen = [q for q in others if q not in seen]
        if len(pool) < sum(len(game.hands[q]) for q in unseen):
            return None
        return seen, pool, unseen


@cache
def _deck_counts(age: int, n: int) -> dict[int, int]:
    """The cards of ``age``'s deck for ``n`` players by index (with every guild in age III),
    how many of each (:meth:`Knowledge.constraints` copies it)."""
    deck = Counter(c.index for c in age_deck(age, n))
    if age == 3:
        deck.update(g.index for g in guilds())
    return dict(deck)


@cache
def _guild_indices() -> tuple[int, ...]:
    """The guilds' card indices (a re-deal's guild draw picks from them)."""
    return tuple(g.index for g in guilds())


#: What a re-deal keeps: per seat whose hand the player has held, the cards it can still hold;
#: the cards the other hands can hold; the seats dealt from them, in order.
Constraints = tuple[dict[int, list[int]], list[int], list[int]]


def _blind(game: Game, player: int) -> Constraints:
    """The constraints of a bot that cannot explain the log: the cards of the other hands,
    shuffled among them."""
    others = [q for q in range(game.n) if q != player and game.hands[q]]
    return {}, [c for q in others for c in game.hands[q]], others


def _deal(
    rng: random.Random,
    sizes: list[int],
    cons: Constraints,
    guild_pop: list[int],
    guild_k: int,
) -> tuple[list[list[int] | None], list[int]]:
    """One re-deal: a hand per seat (None: kept) and a guild draw ([]: kept).  The compiled
    core's ``IsmctsSearch`` draws the same way (the same calls on the same generator)."""
    seen, pool, unseen = cons
    hands: list[list[int] | None] = [None] * len(sizes)
    for s in sorted(seen):
        hands[s] = rng.sample(seen[s], sizes[s])
    deck = list(pool)
    rng.shuffle(deck)
    k = 0
    for q in unseen:
        hands[q] = deck[k : k + sizes[q]]
        k += sizes[q]
    return hands, (rng.sample(guild_pop, guild_k) if guild_k else [])
