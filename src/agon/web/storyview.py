"""The table's story in words (issue 28): :mod:`agon.play.story`'s turns as sentences in the
reader's language, for the seat page, the watch page and the replay page.

Pure, like :mod:`agon.web.playview`: it sees only the story's public facts (a card is named only
when it was built). :class:`StoryCache` keeps each game's story by the length of its log, so a
push that re-renders the board does not replay the whole game again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from agon.errors import InvalidInput
from agon.games.seven_wonders import data as sw
from agon.games.seven_wonders.engine import Action as SwAction
from agon.i18n import N_, translator
from agon.play.adapters import TABLE, Setup
from agon.play.story import Battle, Deed, Teller, Turn
from agon.web.playview import _payment_label, ocw_move

ROMAN = {0: "", 1: "I", 2: "II", 3: "III"}
#: The most turns a page lists (the newest; the replay page has every one, step by step).
SHOWN_TURNS = 60
#: How many games' stories a process keeps (one per game whose board was drawn lately).
CACHE_GAMES = 256


def _coins(lang: str, n: int) -> str:
    t = translator(lang).gettext
    return t(N_("1 coin")) if n == 1 else t(N_("%(n)d coins")) % {"n": n}


def _card(card_id: str, lang: str) -> str:
    c = sw.card_by_id(card_id)
    return str(getattr(c, lang, None) or c.en)


def _seat_name(names: Sequence[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return names[seat]


def deed_lines(deed: Deed, names: Sequence[str], lang: str) -> list[str]:
    """One seat's deed in words: what it did, then whom it paid (joined into one sentence by
    :func:`deed_text`)."""
    t = translator(lang).gettext
    who = {"player": _seat_name(names, deed.seat)}
    what = ""
    if deed.kind == "build":
        what = t(N_("%(player)s builds %(card)s")) % {**who, "card": _card(str(deed.card), lang)}
    elif deed.kind == "free":
        what = t(N_("%(player)s builds %(card)s for free (Olympia)")) % {
            **who,
            "card": _card(str(deed.card), lang),
        }
    elif deed.kind == "revive":
        what = t(N_("%(player)s builds %(card)s from the discard pile (Halikarnassos)")) % {
            **who,
            "card": _card(str(deed.card), lang),
        }
    elif deed.kind == "pass":
        what = t(N_("%(player)s takes nothing from the discard pile (Halikarnassos)")) % who
    elif deed.kind == "wonder":
        what = t(N_("%(player)s builds wonder stage %(stage)d")) % {**who, "stage": deed.stage}
    elif deed.kind == "discard":
        what = t(N_("%(player)s discards a card for 3 coins")) % who
    elif deed.kind == "side":
        what = t(N_("%(player)s plays side %(side)s of the wonder")) % {
            **who,
            "side": deed.detail,
        }
    elif deed.kind == "stop":
        what = t(N_("The round’s time is up: this game ends with age %(age)s.")) % {
            "age": ROMAN.get(int(deed.detail or 0), deed.detail)
        }
    elif deed.kind == "move":
        label = ocw_move(str(deed.detail), lang, names).label
        what = t(N_("%(player)s: %(move)s")) % {**who, "move": label}
    if deed.power == "babylon":
        what = t(N_("%(deed)s (Babylon: the seventh card)")) % {"deed": what}
    if deed.timed_out:
        what = t(N_("%(player)s ran out of time; the bot played: %(deed)s")) % {
            **who,
            "deed": what,
        }
    lines = [what]
    target = _card(deed.card, lang) if deed.card else t(N_("a wonder stage"))
    for coins, other, side in (
        (deed.paid_left, deed.left, N_("left neighbour")),
        (deed.paid_right, deed.right, N_("right neighbour")),
    ):
        if coins:
            lines.append(
                t(N_("pays %(coins)s to %(other)s (%(side)s) for %(what)s"))
                % {
                    "coins": _coins(lang, coins),
                    "other": _seat_name(names, other),
                    "side": t(side),
                    "what": target,
                }
            )
    return lines


def deed_text(deed: Deed, names: Sequence[str], lang: str) -> str:
    """One seat's deed as one sentence: *Ann builds Baths, pays 2 coins to Bo (left neighbour)
    for Baths*."""
    return ", ".join(deed_lines(deed, names, lang))


def battle_line(b: Battle, names: Sequence[str], lang: str) -> str:
    """A military conflict, told from the side of the stronger city."""
    t = translator(lang).gettext
    if b.result == "tie":
        return t(N_("%(player)s and %(other)s: %(mine)d shields each, no tokens")) % {
            "player": _seat_name(names, b.seat),
            "other": _seat_name(names, b.against),
            "mine": b.shields,
        }
    return t(
        N_(
            "%(player)s beats %(other)s, %(mine)d shields to %(theirs)d: "
            "%(player)s +%(points)d, %(other)s −1"
        )
    ) % {
        "player": _seat_name(names, b.seat),
        "other": _seat_name(names, b.against),
        "mine": b.shields,
        "theirs": b.their_shields,
        "points": b.points,
    }


def turn_title(turn: Turn, lang: str) -> str:
    t = translator(lang).gettext
    if turn.phase == "sides":
        return t(N_("The wonders' sides"))
    if turn.phase == "stop":
        return t(N_("The round clock"))
    if turn.phase == "ocw":
        return t(N_("Turn %(turn)d")) % {"turn": turn.turn}
    title = t(N_("Age %(age)s, turn %(turn)d")) % {"age": ROMAN.get(turn.age), "turn": turn.turn}
    if turn.phase == "seventh":
        title += " · " + t(N_("Babylon"))
    elif turn.phase == "revive":
        title += " · " + t(N_("Halikarnassos"))
    return title


def turn_record(turn: Turn, names: Sequence[str], lang: str, number: int) -> dict[str, Any]:
    """A turn of the story for the templates: its title, its sentences, and the military results
    when it ended an age (each pair of neighbours once)."""
    t = translator(lang).gettext
    lines = [deed_text(d, names, lang) for d in turn.deeds]
    seen: set[frozenset[int]] = set()
    battles = []
    for b in turn.battles:
        pair = frozenset((b.seat, b.against))
        if pair in seen or b.result == "loss":
            continue
        seen.add(pair)
        battles.append(battle_line(b, names, lang))
    return {
        "number": number,
        "seq": turn.seq,
        "title": turn_title(turn, lang),
        "lines": lines,
        "seats": sorted({d.seat for d in turn.deeds if d.seat != TABLE}),
        "age_end": (t(N_("End of age %(age)s: military conflicts")) % {"age": ROMAN[turn.age_end]})
        if turn.age_end
        else None,
        "battles": battles,
    }


#: A 7 Wonders action's words on the replay page (the table page's own button labels).
SW_KINDS = {
    "build": N_("Build"),
    "wonder": N_("Wonder stage"),
    "discard": N_("Discard for 3 coins"),
    "free": N_("Build for free (Olympia)"),
    "revive": N_("Build for free (Halikarnassos)"),
}


def action_label(game: str, action: str, lang: str, names: Sequence[str] = ()) -> str:
    """One log entry's action in words (the replay page: the game is over, so the card under a
    wonder stage or on the discard pile may be named); the action text itself when it has none.
    """
    t = translator(lang).gettext
    if game == "ocw":
        return ocw_move(action, lang, names).label
    try:
        a = SwAction.parse(action)
    except InvalidInput:
        return action
    if a.kind == "pass":
        return t(N_("Pass: build nothing from the discard pile"))
    label = t(SW_KINDS.get(a.kind, a.kind))
    if a.kind in ("build", "wonder") and (a.left or a.right):
        label += " · " + _payment_label(lang, a.left, a.right)
    return f"{_card(sw.cards()[a.card].id, lang)}: {label}"


def story_context(
    turns: Sequence[Turn],
    names: Sequence[str],
    lang: str,
    *,
    upto: int | None = None,
    limit: int = SHOWN_TURNS,
) -> dict[str, Any]:
    """The story for a page: the turns (newest first, at most ``limit`` of them: a One Card
    Wonder game has hundreds) and the last one apart (highlighted on the table). ``upto``: only
    the turns revealed by log entry ``upto`` (a replay's step)."""
    shown = [x for x in turns if upto is None or x.seq <= upto]
    first = max(0, len(shown) - limit)
    records = [turn_record(x, names, lang, first + i + 1) for i, x in enumerate(shown[first:])]
    return {
        "last": records[-1] if records else None,
        "turns": records[::-1],
        "count": len(shown),
        "left_out": first,
    }


class StoryCache:
    """Each game's story as told so far (a :class:`~agon.play.story.Teller`), extended only by
    the entries its log gained since (the log only grows), for at most :data:`CACHE_GAMES`
    games; thread-safe."""

    def __init__(self, size: int = CACHE_GAMES) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._tellers: OrderedDict[str, Teller] = OrderedDict()

    def get(
        self, game_id: str, load: Callable[[], tuple[Setup, list[tuple[int, int, str]]]]
    ) -> tuple[Turn, ...]:
        setup, log = load()
        with self._lock:
            teller = self._tellers.get(game_id)
            if teller is None or teller.fed > len(log) or teller.adapter.setup != setup:
                teller = Teller(setup)
            teller.feed(log[teller.fed :])
            self._tellers[game_id] = teller
            self._tellers.move_to_end(game_id)
            while len(self._tellers) > self._size:
                self._tellers.popitem(last=False)
            return teller.turns
