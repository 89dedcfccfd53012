"""The 7 Wonders engine: setup, simultaneous turns, trading, wonder powers, military, scoring.

Representation (for speed): a :class:`Game` holds mutable :class:`City` records of small ints
and lists; :meth:`Game.step` changes the game in place and :meth:`Game.clone` copies it, so a
caller who needs a persistent state clones first.  Everything a player may do comes from
:meth:`Game.legal_actions` (one source of legality); :meth:`Game.step` checks every action
against it, :meth:`Game.step_unchecked` is the named fast path for bots and benchmarks.

Seats are numbered clockwise; a city's *left* neighbour is the next seat (seat + 1), its
*right* neighbour the previous one.  Hands pass left in ages I and III and right in age II.

The pieces a game is made of (actions, cities, policies, observations) live in
:mod:`agon.games.seven_wonders.state`, the count of a city's points in
:mod:`agon.games.seven_wonders.scoring`; this module re-exports them as before.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from agon.errors import IllegalAction, InvalidInput
from agon.games.seven_wonders.data import (
    COLORS,
    Card,
    Wonder,
    age_deck,
    card_by_name,
    cards,
    guilds,
    wonder_by_name,
    wonders,
)
from agon.games.seven_wonders.generators import GENERATORS as GENERATORS
from agon.games.seven_wonders.generators import Generator as Generator
from agon.games.seven_wonders.generators import SplitMixRandom as SplitMixRandom
from agon.games.seven_wonders.generators import game_generator
from agon.games.seven_wonders.payments import missing_bound, missing_options
from agon.games.seven_wonders.rules import (
    DEFEAT,
    STAGE,
    Count,
    card_rules,
    stage_rule,
)
from agon.games.seven_wonders.scoring import Score as Score
from agon.games.seven_wonders.scoring import count_vp as count_vp
from agon.games.seven_wonders.scoring import score_city as score_city
from agon.games.seven_wonders.state import DISCARD_COINS as DISCARD_COINS
from agon.games.seven_wonders.state import KINDS as KINDS
from agon.games.seven_wonders.state import MILITARY_WIN as MILITARY_WIN
from agon.games.seven_wonders.state import RULESET_POLICIES as RULESET_POLICIES
from agon.games.seven_wonders.state import Action as Action
from agon.games.seven_wonders.state import City as City
from agon.games.seven_wonders.state import CityView as CityView
from agon.games.seven_wonders.state import Observation as Observation
from agon.games.seven_wonders.state import Policy as Policy


class Game:
    """A game of 7 Wonders for 3-7 players, from a seed.

    Args:
        players: 3..7.
        seed: the only source of randomness (deck shuffles, and the draw of wonders, sides
            and guilds when not given).
        wonders: wonder names in seat order (tournament draw), else drawn from the seed.
        sides: "A"/"B" per seat, else drawn from the seed.
        guilds: the tournament's central guild draw; a table of k players uses the first k+2
            (Bonn 2018, "Auslosung ... Gilden"), else k+2 guilds drawn from the seed.
        policy: what happens to an illegal play (:class:`Policy`).
        generator: the generator the seed drives (:data:`GENERATORS`): ``"mt"``, CPython's
            Mersenne Twister, for every game that is kept; ``"splitmix"`` (:class:`SplitMixRandom`,
            cheaper to seed) for games that are not, as ``agon 7w simulate`` plays them.

    Raises:
        InvalidInput: for a bad player count, unknown or repeated names, too few guilds.
    """

    def __init__(
        self,
        players: int,
        seed: int,
        *,
        wonders: Sequence[str] | None = None,
        sides: Sequence[str] | None = None,
        guilds: Sequence[str] | None = None,
        policy: Policy | str = Policy.CASUAL,
        generator: Generator = "mt",
    ) -> None:
        if not 3 <= players <= 7:
            raise InvalidInput(f"players must be 3..7, got {players}")
        self.n = players
        self.rng = game_generator(seed, generator)
        self.policy = Policy(policy)
        boards = _pick_wonders(players, wonders, self.rng)
        if sides is None:
            side_list = [self.rng.choice("AB") for _ in range(players)]
        else:
            side_list = [s.upper() for s in sides]
            if len(side_list) != players:
                raise InvalidInput(f"sides: need {players} entries, got {len(side_list)}")
        self.cities = [City(w, s) for w, s in zip(boards, side_list, strict=True)]
        self.guild_draw = _pick_guilds(players, guilds, self.rng)
        self.withdrawn = [False] * players
        self.ring = list(range(players))
        self.left = [0] * players
        self.right = [0] * players
        self._set_neighbours()
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.age = 0
        self.turn = 0
        self.phase = "main"
        self.revive_end_of_age = False
        #: the game ends with this age (3; earlier when a round clock ran out, see
        #: :meth:`finish_after_age`)
        self.last_age = 3
        #: the cities as they were before turn 6 and the coins received on turn 6, kept while
        #: Babylon B plays its seventh card as part of turn 6 (see :meth:`step_unchecked`).
        self.before6: list[City] = []
        self.income6: list[int] = []
        self.sevenths = any(stage_rule(s).play_seventh for c in self.cities for s in c.stages)
        #: every resolved step: (age, turn, phase, ((player, action), ...)); see :meth:`history`.
        self.log: list[tuple[int, int, str, tuple[tuple[int, Action], ...]]] = []
        self._deal(1)

    # ------------------------------------------------------------------ setup and flow
    def clone(self) -> Game:
        """An independent copy (cities, hands, discard pile and random state)."""
        g = Game.__new__(Game)
        g.n = self.n
        g.rng = type(self.rng)()
        g.rng.setstate(self.rng.getstate())
        g.policy = self.policy
        g.cities = [c.clone() for c in self.cities]
        g.guild_draw = self.guild_draw[:]
        g.withdrawn = self.withdrawn[:]
        g.ring = self.ring[:]
        g.left = self.left[:]
        g.right = self.right[:]
        g.discard = self.discard[:]
        g.hands = [h[:] for h in self.hands]
        g.age = self.age
        g.turn = self.turn
        g.phase = self.phase
        g.revive_end_of_age = self.revive_end_of_age
        g.last_age = self.last_age
        g.before6 = [c.clone() for c in self.before6]
        g.income6 = self.income6[:]
        g.sevenths = self.sevenths
        g.log = self.log[:]
        return g

    def _set_neighbours(self) -> None:
        m = len(self.ring)
        for k, p in enumerate(self.ring):
            self.left[p] = self.ring[(k + 1) % m]
            self.right[p] = self.ring[(k - 1) % m]

    def _deal(self, age: int) -> None:
        active = [p for p in self.ring if not self.withdrawn[p]]
        k = len(active)
        deck = [c.index for c in age_deck(age, k)]
        if age == 3:
            deck += self.guild_draw[: k + 2]
        self.rng.shuffle(deck)
        for i, p in enumerate(active):
            self.hands[p] = deck[7 * i : 7 * i + 7]
        self.age = age
        self.turn = 1
        self.phase = "main"

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def to_act(self) -> list[int]:
        """The players who must submit an action now."""
        if self.phase == "main":
            return [p for p in self.ring if not self.withdrawn[p]]
        if self.phase == "seventh":
            return [p for p in self.ring if self.cities[p].seventh and self.hands[p]]
        if self.phase == "revive":
            return [p for p in self.ring if self.cities[p].revive_pending]
        return []

    # ------------------------------------------------------------------ legality
    def payments(self, player: int, cost: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        """Every (coins to left, coins to right) that pays ``cost`` for ``player`` now."""
        pairs = _SPARSE.get(cost)
        if pairs is None:
            pairs = _SPARSE[cost] = tuple((r, n) for r, n in enumerate(cost) if n)
        me = self.cities[player]
        # Babylon B's seventh card belongs to turn 6: the neighbours' cards of turn 6 cannot
        # be bought from yet (Bonn 2018, "Handeln": only cards of earlier turns).
        nb = self.before6 if self.phase == "seventh" else self.cities
        fixed = me.fixed
        flat: list[int] = []
        need = 0
        lc = rc = None
        for r, c in pairs:
            n = c - fixed[r]
            if n > 0:
                if lc is None:
                    lc = nb[self.left[player]]
                    rc = nb[self.right[player]]
                assert rc is not None
                need |= 1 << r
                lf_r = lc.tfixed[r]
                rf_r = rc.tfixed[r]
                flat += (r, n, lf_r if lf_r < n else n, rf_r if rf_r < n else n)
                flat += (me.price_left[r], me.price_right[r])
        if not need:
            return _FREE
        assert lc is not None and rc is not None
        return missing_options(flat, need, me.choices, lc.tchoices, rc.tchoices)

    def payment_bound(self, player: int, cost: tuple[int, ...]) -> int | None:
        """:func:`~agon.games.seven_wonders.payments.payment_bound` of ``cost`` for ``player``
        now, with ``player``'s coins (the random bot's draw); None where it is the count."""
        pairs = _SPARSE.get(cost)
        if pairs is None:
            pairs = _SPARSE[cost] = tuple((r, n) for r, n in enumerate(cost) if n)
        me = self.cities[player]
        fixed = me.fixed
        missing = [r for r, c in pairs if c > fixed[r]]
        if len(missing) < 2:
            return None  # nothing or one resource missing: counted
        nb = self.before6 if self.phase == "seventh" else self.cities
        lc = nb[self.left[player]]
        rc = nb[self.right[player]]
        flat: list[int] = []
        need = 0
        for r in missing:
            n = cost[r] - fixed[r]
            need |= 1 << r
            lf_r = lc.tfixed[r]
            rf_r = rc.tfixed[r]
            flat += (r, n, lf_r if lf_r < n else n, rf_r if rf_r < n else n)
            flat += (me.price_left[r], me.price_right[r])
        return missing_bound(flat, need, me.choices, lc.tchoices, rc.tchoices, me.coins)

    def draw_bounds(self, player: int) -> tuple[int | None, list[int | None]] | None:
        """The bounds of the random bot's draw (:meth:`RandomBot.pick
        <agon.games.seven_wonders.bots.RandomBot.pick>`) in the main and seventh-card phases:
        the wonder stage's :meth:`payment_bound` and, per card of the hand (the first of two
        alike), that of its builds when they pay for resources (None: the count itself, or no
        payment); None where every bound is the count."""
        me = self.cities[player]
        stage = None
        if me.stages_built < len(me.stages):
            stage = self.payment_bound(player, me.stages[me.stages_built].cost)
        blds = me.buildings
        fixed = me.fixed
        bounds: list[int | None] = []
        exact = stage is None
        for index in dict.fromkeys(self.hands[player]):
            bound = None
            if _BUILDING[index] not in blds and not _COINS[index] and not _NO_COST[index]:
                chain = _CHAIN[index]
                if not chain or blds.isdisjoint(chain):
                    cost = _COST[index]
                    pairs = _SPARSE.get(cost)
                    if pairs is None:
                        pairs = _SPARSE[cost] = tuple((r, n) for r, n in enumerate(cost) if n)
                    missing = 0
                    for r, c in pairs:
                        if c > fixed[r]:
                            missing += 1
                    if missing > 1:
                        bound = self.payment_bound(player, cost)
                        exact = exact and bound is None
            bounds.append(bound)
        return None if exact else (stage, bounds)

    def _acting(self, player: int) -> bool:
        if not 0 <= player < self.n:
            return False
        if self.phase == "main":
            return not self.withdrawn[player] and bool(self.hands[player])
        if self.phase == "seventh":
            return self.cities[player].seventh and bool(self.hands[player])
        if self.phase == "revive":
            return bool(self.cities[player].revive_pending)
        return False

    def legal_actions(self, player: int) -> list[Action]:
        """Every legal action of ``player`` now (empty if the player need not act)."""
        if not self._acting(player):
            return []
        me = self.cities[player]
        blds = me.buildings
        if self.phase == "revive":
            seen: set[int] = set()
            out = []
            for index in self.discard:
                if index in seen or _BUILDING[index] in blds:
                    continue
                seen.add(index)
                out.append(_REVIVE[index])
            out.append(_PASS)
            return out
        out = []
        coins = me.coins
        stage_pays: tuple[tuple[int, int], ...] = ()
        if me.stages_built < len(me.stages):
            stage_pays = tuple(
                lr
                for lr in self.payments(player, me.stages[me.stages_built].cost)
                if lr[0] + lr[1] <= coins
            )
        free_ok = me.free_build and me.free_used_age != self.age and self.phase == "main"
        for index in dict.fromkeys(self.hands[player]):
            if _BUILDING[index] not in blds:
                chain = _CHAIN[index]
                if chain and not blds.isdisjoint(chain):
                    out.append(_BUILD[index])
                elif _COINS[index]:
                    if coins >= _COINS[index]:
                        out.append(_BUILD[index])
                elif _NO_COST[index]:
                    out.append(_BUILD[index])
                else:
                    for lr in self.payments(player, _COST[index]):
                        if lr[0] + lr[1] <= coins:
                            out.append(_paid("build", index, lr))
                if free_ok:
                    out.append(_FREE_BUILD[index])
            for lr in stage_pays:
                out.append(_paid("wonder", index, lr))
            out.append(_DISCARD[index])
        return out

    def is_legal(self, player: int, action: Action) -> bool:
        """Whether ``action`` is among :meth:`legal_actions` (ignoring its fallback)."""
        bare = Action(action.kind, action.card, action.left, action.right)
        return bare in self.legal_actions(player)

    def resolve(self, player: int, action: Action) -> Action | None:
        """The legal action that ``action`` stands for, or None if the play is impossible.

        Only a play that the rules do not allow is illegal (Bonn 2018, "Karte ins Spiel
        bringen": "nicht regelgerecht möglich"); a play submitted with a coin split that does not
        work (the wrong neighbour, too much or too little) is paid the cheapest legal way —
        among equally cheap splits the one nearest the submitted split, then less to the left.
        """
        bare = Action(action.kind, action.card, action.left, action.right)
        legal = self.legal_actions(player)
        if bare in legal:
            return bare
        same = [x for x in legal if x.kind == action.kind and x.card == action.card]
        if not same:
            return None
        return min(
            same,
            key=lambda x: (x.left + x.right, abs(x.left - action.left), x.left),
        )

    def why_illegal(self, player: int, action: Action) -> str:
        """A short reason why ``action`` is impossible now (for faces; '' if it is possible)."""
        if self.resolve(player, action) is not None:
            return ""
        if player not in self.to_act():
            return f"player {player} does not act now (phase {self.phase})"
        me = self.cities[player]
        if action.kind == "pass":
            return "pass is only for the choice from the discard pile"
        if action.card < 0 or action.card >= len(_CARDS):
            return "no such card"
        name = cards()[action.card].en
        if (action.kind == "revive") != (self.phase == "revive"):
            return "revive (a card from the discard pile) or pass is Halikarnassos' choice only"
        if self.phase == "revive" and action.card not in self.discard:
            return f"{name} is not in the discard pile"
        if self.phase != "revive" and action.card not in self.hands[player]:
            return f"{name} is not in your hand"
        if action.kind in ("build", "free", "revive") and _BUILDING[action.card] in me.buildings:
            return f"you already have {name} (no two identical buildings)"
        if action.kind == "free":
            if not me.free_build:
                return "no free build: your wonder does not give one"
            return "the free build of this age is used, or it is not a main turn"
        if action.kind == "wonder":
            if me.stages_built >= len(me.stages):
                return "your wonder is complete"
            cost = me.stages[me.stages_built].cost
        else:
            if _COINS[action.card] and me.coins < _COINS[action.card]:
                return f"{name} costs {_COINS[action.card]} coins, you have {me.coins}"
            cost = _COST[action.card]
        pays = self.payments(player, cost)
        if not pays:
            return "the resources cannot be produced or bought from the neighbours"
        cheapest = min(lr[0] + lr[1] for lr in pays)
        return f"buying the resources costs at least {cheapest} coins, you have {me.coins}"

    # ------------------------------------------------------------------ turns
    def step(self, actions: Mapping[int, Action]) -> None:
        """Resolve one simultaneous turn (or the Babylon / Halikarnassos extra choices).

        Every player in :meth:`to_act` gives one action.  A possible play with an unusable coin
        split is paid the cheapest legal way (:meth:`resolve`); under a tournament policy an
        impossible play of a card from the hand is replaced by its penalty instead of being
        refused.

        Raises:
            IllegalAction: for a missing or extra player, a card not in the hand, or an
                illegal action under the casual policy (or under ``choose-discard-or-wonder``
                without a usable fallback).
        """
        players = self.to_act()
        if sorted(actions) != players:
            raise IllegalAction(
                f"age {self.age}, turn {self.turn}, phase {self.phase}: actions expected for "
                f"players {sorted(players)}, got {sorted(actions)}"
            )
        fixed: dict[int, Action] = {}
        for p in players:
            a = actions[p]
            resolved = self.resolve(p, a)
            if resolved is not None:
                fixed[p] = resolved
                continue
            legal = self.legal_actions(p)
            where = f"age {self.age}, turn {self.turn}, player {p}"
            if self.phase == "revive" or a.kind == "pass" or a.card not in self.hands[p]:
                raise IllegalAction(f"{where}: {a} is not possible (card not available)")
            fixed[p] = self._penalty(p, a, legal, where)
        self.step_unchecked(fixed)

    def _penalty(self, p: int, a: Action, legal: list[Action], where: str) -> Action:
        if self.policy == Policy.CASUAL:
            raise IllegalAction(f"{where}: {a} is not legal: {self.why_illegal(p, a)}")
        if self.policy == Policy.DISCARD_3:
            return Action("discard", a.card)
        if self.policy == Policy.DISCARD_0:
            return Action("forfeit", a.card)
        if a.fallback == "discard":
            return Action("discard", a.card)
        if a.fallback == "wonder":
            stages = [x for x in legal if x.kind == "wonder" and x.card == a.card]
            if stages:
                return min(stages, key=lambda x: (x.left + x.right, x.left))
            raise IllegalAction(f"{where}: {a} is not legal and no wonder stage is possible")
        raise IllegalAction(
            f"{where}: {a} is not legal; under {self.policy} the player must choose "
            "'else discard' or 'else wonder'"
        )

    def step_unchecked(self, actions: Mapping[int, Action]) -> None:
        """Resolve a turn from actions known to be legal (fast path; no checks).

        Babylon B's seventh card is played as part of turn 6 (Ludolimpico 2015, 3.1: the sixth
        card and its resources help build the seventh), so the coins everybody received on
        turn 6 arrive only after it (Bonn 2018: "erhaltenes Geld wird getrennt ... gehalten, bis
        alle Spieler ihre Karte gespielt haben"), and the neighbours count as they were before
        turn 6 (for trading and for card income).
        """
        cities = self.cities
        income = [0] * self.n
        seventh = self.phase == "seventh"
        if self.sevenths and self.phase == "main" and self.turn == 6:
            self.before6 = [c.clone() for c in cities]
        # Effects that count cards see the other cities as they were before this turn
        # (Bonn 2018: "Die aktuell zu legenden Karten haben keinen Einfluss ...").
        before: list[list[int]] = []
        stages_before: list[int] = []
        defeats_before: list[int] = []
        if any(_COUNTS[a.card] for a in actions.values() if a.card >= 0):
            base = self.before6[:] if seventh else cities
            if seventh:
                for p in actions:
                    base[p] = cities[p]  # the own city with its sixth card
            before = [c.colors[:] for c in base]
            stages_before = [c.stages_built for c in base]
            defeats_before = [c.defeats for c in base]
        for p, a in actions.items():
            me = cities[p]
            kind = a.kind
            if kind == "pass":
                me.revive_pending = 0
                continue
            index = a.card
            if kind == "revive":
                self.discard.remove(index)
                me.revive_pending = 0
            else:
                self.hands[p].remove(index)
            if kind == "discard":
                self.discard.append(index)
                income[p] += DISCARD_COINS
                continue
            if kind == "forfeit":
                self.discard.append(index)
                continue
            if a.left or a.right:
                me.coins -= a.left + a.right
                income[self.left[p]] += a.left
                income[self.right[p]] += a.right
            if kind == "wonder":
                rule = me.add_stage()
                income[p] += rule.coins
                if rule.build_from_discard:
                    me.revive_pending += 1
                continue
            card = cards()[index]
            if kind == "build" and card.coins and me.buildings.isdisjoint(_CHAIN[index]):
                me.coins -= card.coins
            if kind == "free":
                me.free_used_age = self.age
            me.add_card(index)
            rule = card_rules()[index]
            income[p] += rule.coins
            if rule.coins_per:
                before_p = before[p]
                before[p] = me.colors  # own city with the card itself (Lighthouse, Bonn 2018)
                for count in rule.coins_per:
                    income[p] += _count_before(
                        count, p, self.left[p], self.right[p], before, stages_before, defeats_before
                    )
                before[p] = before_p
        if seventh:
            for p in range(self.n):
                income[p] += self.income6[p]
            self.before6 = []
        elif self.before6:  # turn 6 was played; do its coins wait for a seventh card?
            if any(cities[p].seventh and self.hands[p] for p in self.ring):
                self.income6 = income
                income = [0] * self.n
            else:
                self.before6 = []
        for p in range(self.n):
            cities[p].coins += income[p]
        self.log.append((self.age, self.turn, self.phase, tuple(sorted(actions.items()))))
        self._advance()

    def _advance(self) -> None:
        if self.phase == "main":
            if self.turn < 6:
                self._pass_hands()
                self.turn += 1
                if any(c.revive_pending for c in self.cities):
                    self.revive_end_of_age = False
                    self.phase = "revive"
                return
            if any(self.cities[p].seventh and self.hands[p] for p in self.ring):
                self.phase = "seventh"
                return
            self._end_of_age_cards()
        elif self.phase == "seventh":
            self._end_of_age_cards()
        elif self.phase == "revive":
            if self.revive_end_of_age:
                self._end_age()
            else:
                self.phase = "main"

    def _end_of_age_cards(self) -> None:
        for p in range(self.n):
            self.discard.extend(self.hands[p])
            self.hands[p] = []
        if any(c.revive_pending for c in self.cities):
            self.revive_end_of_age = True
            self.phase = "revive"
            return
        self._end_age()

    def next_holder(self, player: int) -> int:
        """The seat ``player``'s hand passes to this age (left in ages I and III, right in II;
        withdrawn players are skipped)."""
        active = [p for p in self.ring if not self.withdrawn[p]]
        step = -1 if self.age == 2 else 1
        return active[(active.index(player) + step) % len(active)]

    def _pass_hands(self) -> None:
        new = [h for h in self.hands]
        for p in self.ring:
            if not self.withdrawn[p]:
                new[self.next_holder(p)] = self.hands[p]
        self.hands = new

    def _end_age(self) -> None:
        win = MILITARY_WIN[self.age - 1]
        shields = [c.shields for c in self.cities]
        for p in self.ring:
            me = self.cities[p]
            for q in (self.left[p], self.right[p]):
                if shields[p] > shields[q]:
                    me.military += win
                elif shields[p] < shields[q]:
                    me.military -= 1
                    me.defeats += 1
        if self.age >= self.last_age:
            self.phase = "over"
            return
        # A withdrawn city stays for the age it left in, then goes to the box (Ludolimpico 2.5).
        self.ring = [p for p in self.ring if not self.withdrawn[p]]
        self._set_neighbours()
        self._deal(self.age + 1)

    def finish_after_age(self, age: int) -> None:
        """End the game with the end of ``age`` (the age being played or a later one): no
        further age is dealt (a round clock that ran out, Ludolimpico 2015, 1.: "continuano a
        giocare fino al termine dell'era in corso").

        Raises:
            IllegalAction: the game is over, or ``age`` is over already or not an age.
        """
        if self.over or not self.age <= age <= 3:
            raise IllegalAction(
                f"age {self.age}, phase {self.phase}: cannot finish the game after age {age}"
            )
        self.last_age = min(self.last_age, age)

    def withdraw(self, player: int) -> None:
        """A player withdraws between turns (Ludolimpico 2015, 2.5).

        The hand goes to the box; the city stays for the current age (tradable, at war) and is
        skipped when passing; from the next age it is gone and decks are sized for the rest.

        Raises:
            IllegalAction: outside the main phase, for a player already gone, or when fewer than
                three players would remain.
        """
        if self.phase != "main" or not 0 <= player < self.n or self.withdrawn[player]:
            raise IllegalAction(f"player {player} cannot withdraw now (phase {self.phase})")
        if sum(not w for w in self.withdrawn) <= 3:
            raise IllegalAction(f"player {player}: fewer than three players would remain")
        self.withdrawn[player] = True
        self.hands[player] = []
        self.log.append((self.age, self.turn, "withdraw", ((player, _PASS),)))

    def history(self) -> list[str]:
        """The log as text, one line per step: ``age.turn.phase: seat:action; ...``."""
        return [
            f"{age}.{turn}.{phase}: " + "; ".join(f"{p}:{a}" for p, a in acts)
            for age, turn, phase, acts in self.log
        ]

    # ------------------------------------------------------------------ views and scores
    def observation(self, player: int) -> Observation:
        """What ``player`` sees now (other hands hidden)."""
        views = tuple(
            CityView(
                wonder=c.wonder.en,
                side=c.side,
                stages_built=c.stages_built,
                coins=c.coins,
                cards=tuple(cards()[i].en for i in c.cards),
                shields=c.shields,
                military=c.military,
                defeats=c.defeats,
                withdrawn=self.withdrawn[p],
            )
            for p, c in enumerate(self.cities)
        )
        choosing = self.phase == "revive" and player in self.to_act()
        return Observation(
            player=player,
            age=self.age,
            turn=self.turn,
            phase=self.phase,
            hand=tuple(cards()[i].en for i in self.hands[player]),
            cities=views,
            discard_size=len(self.discard),
            discard=tuple(cards()[i].en for i in self.discard) if choosing else None,
            legal=tuple(str(a) for a in self.legal_actions(player)),
        )

    def scores(self) -> list[Score]:
        """The score breakdown of every player still in the game (any time; final when over)."""
        return [
            score_city(p, self.cities[p], self.cities[self.left[p]], self.cities[self.right[p]])
            for p in self.ring
            if not self.withdrawn[p]
        ]

    def winners(self) -> list[int]:
        """Players with the highest total; ties broken by coins (rulebook), else shared."""
        sc = self.scores()
        best = max((s.total, s.treasury) for s in sc)
        return [s.player for s in sc if (s.total, s.treasury) == best]


def _count_before(
    count: Count,
    p: int,
    left: int,
    right: int,
    before: list[list[int]],
    stages: list[int],
    defeats: list[int],
) -> int:
    """A ``coins_per`` count when the card is played: own city including the card just built
    (the Lighthouse counts itself, Bonn 2018), neighbours as they were before this turn."""
    total = 0
    seats = ([p] if count.self_ else []) + ([left, right] if count.neighbours else [])
    for s in seats:
        for w in count.what:
            if w == STAGE:
                total += stages[s]
            elif w == DEFEAT:
                total += defeats[s]
            else:
                total += before[s][w]
    return total * count.n


_BY_ID: dict[str, Card] = {}
_CARDS = cards()
_BUILDING = tuple(c.building for c in _CARDS)
_COINS = tuple(c.coins for c in _CARDS)
_COST = tuple(c.cost for c in _CARDS)
_NO_COST = tuple(not any(c.cost) and not c.coins for c in _CARDS)
_CHAIN = tuple(
    frozenset(_BUILDING[next(d.index for d in _CARDS if d.id == cid)] for cid in c.chain_from)
    for c in _CARDS
)
_COUNTS = tuple(bool(r.coins_per) for r in card_rules())
_BUILD = tuple(Action("build", i) for i in range(len(_CARDS)))
_FREE_BUILD = tuple(Action("free", i) for i in range(len(_CARDS)))
_REVIVE = tuple(Action("revive", i) for i in range(len(_CARDS)))
_DISCARD = tuple(Action("discard", i) for i in range(len(_CARDS)))
_PASS = Action("pass")
_PAID: dict[tuple[str, int, tuple[int, int]], Action] = {}


def _paid(kind: str, index: int, lr: tuple[int, int]) -> Action:
    key = (kind, index, lr)
    a = _PAID.get(key)
    if a is None:
        a = _PAID[key] = Action(kind, index, lr[0], lr[1])
    return a


_FREE: tuple[tuple[int, int], ...] = ((0, 0),)
_SPARSE: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}


def cards_by_id() -> dict[str, Card]:
    """Cards by data-file id."""
    if not _BY_ID:
        _BY_ID.update({c.id: c for c in cards()})
    return _BY_ID


def _pick_wonders(players: int, names: Sequence[str] | None, rng: random.Random) -> list[Wonder]:
    if names is None:
        return rng.sample(list(wonders()), players)
    if len(names) != players:
        raise InvalidInput(f"wonders: need {players} names, got {len(names)}")
    boards = [wonder_by_name(n) for n in names]
    if len({w.id for w in boards}) != players:
        raise InvalidInput(f"wonders: a wonder appears twice in {list(names)}")
    return boards


def _pick_guilds(players: int, names: Sequence[str] | None, rng: random.Random) -> list[int]:
    if names is None:
        return [g.index for g in rng.sample(list(guilds()), players + 2)]
    picked = [card_by_name(n) for n in names]
    for g in picked:
        if not g.is_guild:
            raise InvalidInput(f"guilds: {g.en!r} is not a guild")
    if len({g.id for g in picked}) != len(picked):
        raise InvalidInput("guilds: a guild appears twice")
    if len(picked) < players + 2:
        raise InvalidInput(f"guilds: {players} players need {players + 2}, got {len(picked)}")
    return [g.index for g in picked]


__all__ = [
    "COLORS",
    "GENERATORS",
    "RULESET_POLICIES",
    "Action",
    "City",
    "Game",
    "Generator",
    "Observation",
    "Policy",
    "Score",
    "SplitMixRandom",
    "game_generator",
    "score_city",
]
