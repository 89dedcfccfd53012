"""Helpers of the online-play tests: waiting for bots, and the hidden-information checker."""

from __future__ import annotations

import contextlib
import faulthandler
import json
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from agon.games.seven_wonders.data import card_by_id, cards
from agon.play.adapters import Adapter, SevenWonders, engine_seed, new_adapter
from agon.play.store import actions_after, load_game


def wait_until(condition: Callable[[], bool], *, seconds: float = 60.0) -> None:
    """Poll ``condition`` until it holds (bots think in threads); fail after ``seconds``, with
    every thread's stack on stderr (a game that stopped moving shows where its bots wait)."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            faulthandler.dump_traceback(all_threads=True)
            raise AssertionError(f"timed out waiting ({seconds:g} s); the threads' stacks: stderr")
        time.sleep(0.01)


def hidden_from(game: SevenWonders, seat: int) -> set[str]:
    """Card ids in other seats' hands that ``seat`` cannot know from anything public or its own:
    not in its hand, not built in any city."""
    g = game.game
    cards = g.hands  # indices
    from agon.games.seven_wonders.data import cards as all_cards

    ids = all_cards()
    own = {ids[i].id for i in cards[seat]}
    public = {ids[i].id for c in g.cities for i in c.cards}
    others = {ids[i].id for q, hand in enumerate(cards) if q != seat for i in hand}
    return others - own - public


def _values(payload: Any) -> list[str]:
    """Every string value and number of a JSON document (dict keys are field names such as
    resource names, some of which are also card ids: ``loom``)."""
    if isinstance(payload, dict):
        return [v for x in payload.values() for v in _values(x)]
    if isinstance(payload, list):
        return [v for x in payload for v in _values(x)]
    if isinstance(payload, bool) or payload is None:
        return []
    return [str(payload)]


def leaks(payload: Any, secrets: Iterable[str]) -> list[str]:
    """The secrets (card ids, with their English names, and seed texts) found in any value of
    the JSON document ``payload`` (a parsed document, or its text); a card id counts as a whole
    word (``loom`` is not in ``loom_2``)."""
    values = _values(json.loads(payload) if isinstance(payload, str) else payload)
    found = []
    for s in secrets:
        words = [s]
        with contextlib.suppress(ValueError):
            words.append(card_by_id(s).en)
        for w in words:
            pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(w)}(?![A-Za-z0-9_])")
            if any(pattern.search(v) for v in values):
                found.append(w)
    return found


def seed_secrets(seed: str) -> list[str]:
    """The seed as text and as the engine's number."""
    return [seed, str(engine_seed(seed))]


def adapter_at(sessions: sessionmaker[Session], game_id: str, version: int) -> Adapter:
    """The game as it was at ``version``, rebuilt from the database (the test's own replay)."""
    with sessions() as s:
        record = load_game(s, game_id)
        log = actions_after(s, game_id, 0)[:version]
    adapter = new_adapter(record.setup)
    for _seq, seat, action in log:
        adapter.apply(seat, action)
    return adapter


def secrets_of(
    sessions: sessionmaker[Session], game_id: str, version: int, seat: int | None
) -> set[str]:
    """What ``seat`` (``None``: the spectator) must not see at ``version``: the card ids of the
    other hands it cannot know (7 Wonders), and the seed as text and number until the game is
    over (then it is revealed)."""
    adapter = adapter_at(sessions, game_id, version)
    with sessions() as s:
        seed = load_game(s, game_id).setup.seed
    out = set() if adapter.over else set(seed_secrets(seed))
    if isinstance(adapter, SevenWonders):
        if seat is None:
            hands = {cards()[i].id for h in adapter.game.hands for i in h}
            public = {cards()[i].id for c in adapter.game.cities for i in c.cards}
            out |= hands - public
        else:
            out |= hidden_from(adapter, seat)
    return out
