"""Bots' thinking for online play, runnable in another process (issue 12).

:func:`think` takes only plain, picklable data — the game's setup and its action log — so a
process pool can run it: the server's threads then never wait for the interpreter lock a bot
holds while it searches. A worker process keeps the games it has seen (at the log's version) and
applies only the log's new actions next time.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence

from agon.play.adapters import Adapter, Setup, engine_seed, new_adapter

#: Bot actions thought out at once at most (then they are stored and the watchers hear of them).
BOT_BATCH = 40
#: Games a worker process keeps in memory.
CACHE_GAMES = 256

_cache: OrderedDict[str, tuple[int, Adapter]] = OrderedDict()


def bot_seed(seed: str, seat: int, made: int) -> int:
    """A bot's seed for one decision: from the game's seed, the seat, and the number of actions
    the seat has made so far — so its choice depends on the game, not on when it is asked."""
    return engine_seed(f"{seed}\x00bot\x00{seat}\x00{made}")


def decide(
    copy: Adapter,
    bots: Mapping[int, str],
    counts: Sequence[int],
    limit: int = BOT_BATCH,
    *,
    apply: Callable[[int, str], object] | None = None,
) -> list[tuple[int, str, int]]:
    """The bots' actions on ``copy`` (changed in place) up to the next human decision, at most
    ``limit``: ``(seat, action, the seat's action count it was chosen at)``. ``apply`` applies
    each chosen action to ``copy`` (default: ``copy.apply``; the service's quick answers apply
    them to the game itself, with its log, :meth:`agon.play.service.PlayService._quick_answers`)."""
    step = copy.apply if apply is None else apply
    made = list(counts)
    decided: list[tuple[int, str, int]] = []
    seed = copy.setup.seed
    while len(decided) < limit and not copy.over:
        todo = [s for s in bots if copy.legal(s)]
        if not todo:
            break
        for s in todo[: limit - len(decided)]:
            action = copy.bot_action(s, bots[s], bot_seed(seed, s, made[s]))
            decided.append((s, action, made[s]))
            step(s, action)
            made[s] += 1
    return decided


def think(
    game_id: str,
    setup: Setup,
    log: Sequence[tuple[int, str]],
    bots: Mapping[int, str],
    counts: Sequence[int],
    limit: int = BOT_BATCH,
) -> list[tuple[int, str, int]]:
    """:func:`decide` on the game rebuilt from ``setup`` and ``log`` (kept for next time)."""
    cached = _cache.pop(game_id, None)
    if cached is None or cached[0] > len(log) or cached[1].setup != setup:
        cached = (0, new_adapter(setup))
    version, adapter = cached
    for seat, action in log[version:]:
        adapter.apply(seat, action)
    _cache[game_id] = (len(log), adapter)
    while len(_cache) > CACHE_GAMES:
        _cache.popitem(last=False)
    return decide(adapter.snapshot(), bots, counts, limit)
