"""Integer action codes and observation vectors for learning libraries (PettingZoo, OpenSpiel).

``C`` is the number of distinct cards; an action code is ``kind * C + card`` for kind 0 build,
1 wonder, 2 discard, 3 free (Olympia A), 4 revive (Halikarnassos), and ``PASS = 5 * C``. A build or
stage that needs trading pays the cheapest way (fewest coins, then less to the left). An
observation is a vector of ints: age, turn, phase one-hot (3), a zero, the player's hand counts,
then each city from the player's seat clockwise.
"""

from __future__ import annotations

from agon.games.seven_wonders.data import cards
from agon.games.seven_wonders.engine import Action, Game

C = len(cards())
KINDS = ("build", "wonder", "discard", "free", "revive")
PASS = len(KINDS) * C
N_ACTIONS = PASS + 1
CITY_FIELDS = 7 + 7 + 3 + 6  # colours, fixed production, science, scalars
OBS_HEAD = 3 + 3 + C  # age, turn, phase one-hot (3), a zero, hand counts
PHASES = ("main", "seventh", "revive")


def code_of(action: Action) -> int:
    """The integer code of an action (its payment is not part of the code)."""
    return PASS if action.kind == "pass" else KINDS.index(action.kind) * C + action.card


def legal_codes(game: Game, player: int) -> dict[int, Action]:
    """Every legal code of ``player`` with the cheapest action behind it (empty: must pass)."""
    best: dict[int, Action] = {}
    for a in game.legal_actions(player):
        code = code_of(a)
        b = best.get(code)
        if b is None or (a.left + a.right, a.left) < (b.left + b.right, b.left):
            best[code] = a
    return best


def table_action(legal: dict[int, Action], code: int) -> tuple[int, bool]:
    """The code actually played for ``code``: itself when legal, else as at a tournament table a
    discard (Bonn 2018: a play that is not possible by the rules is discarded) of the named card
    if it is in the hand, else of the hand's first card in code order, else (no discard in this
    phase) the first legal code. The flag tells whether ``code`` was replaced."""
    if code in legal:
        return code, False
    card = code % C if code < PASS else -1
    discards = sorted(c for c in legal if legal[c].kind == "discard")
    named = [c for c in discards if legal[c].card == card]
    return (named or discards or sorted(legal))[0], True


def city_vector(game: Game, player: int) -> list[int]:
    c = game.cities[player]
    return [
        *c.colors,
        *c.fixed,
        *c.science,
        c.coins,
        c.shields,
        c.military,
        c.defeats,
        c.stages_built,
        c.wild,
    ]


def head_vector(game: Game) -> list[int]:
    return [game.age, game.turn, *(int(game.phase == ph) for ph in PHASES), 0]


def hand_counts(game: Game, player: int) -> list[int]:
    counts = [0] * C
    for i in game.hands[player]:
        counts[i] += 1
    return counts


def observation_vector(game: Game, player: int) -> list[int]:
    """What ``player`` may see: the table's phase, the own hand, every city (own first)."""
    n = len(game.cities)
    body: list[int] = []
    for k in range(n):
        body += city_vector(game, (player + k) % n)
    return [*head_vector(game), *hand_counts(game, player), *body]


def state_vector(game: Game) -> list[int]:
    """Everything: the table's phase, every hand in seat order, every city in seat order."""
    n = len(game.cities)
    hands: list[int] = []
    cities: list[int] = []
    for p in range(n):
        hands += hand_counts(game, p)
        cities += city_vector(game, p)
    return [*head_vector(game), *hands, *cities]
