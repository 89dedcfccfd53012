"""A bot ladder: many seeded games between bot kinds, rated like players (pure, no I/O).

Each game seats one bot of each of ``players`` entries drawn from the ladder's entries, seats
shuffled, all from the ladder's seed, so the same arguments always give the same games. Results
are rated with the same Plackett–Luce code as tournament players (:mod:`agon.ratings`), and each
entry's win rate is reported with a 95% Wilson score interval.

An entry is a bot name with an optional budget: ``mcts@200`` (200 determinizations per move: the
same games on every machine) or ``mcts@0.5s`` (half a second per move: stronger on a faster
machine, so not reproducible move for move).  A copy number ``#2`` seats the same bot twice
(``ismcts@0.5s,mcts@0.5s#1,mcts@0.5s#2,...``: one bot against a field of another).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import overload

from agon.errors import InvalidInput
from agon.ratings import Game, PlayerKey, rate

_ENTRY = re.compile(
    r"^(?P<kind>[a-z]+)(?:@(?P<budget>\d+(?:\.\d+)?)(?P<unit>s?))?(?:#(?P<copy>[1-9]\d?))?$"
)
#: The widest ladder a command accepts (entries) and the most games it plays.
MAX_ENTRIES = 16
MAX_GAMES = 1_000_000


@dataclass(frozen=True, slots=True)
class Entry:
    """A ladder entry: bot kind and budget (``rounds`` per move, or ``seconds`` per move)."""

    text: str
    kind: str
    rounds: int | None = None
    seconds: float | None = None


def parse_entries(spec: str, known: Sequence[str]) -> list[Entry]:
    """``random,heuristic,mcts@200`` → entries.

    Raises:
        InvalidInput: an unknown bot, a malformed budget, or an entry named twice.
    """
    entries = []
    for text in (part.strip() for part in spec.split(",")):
        match = _ENTRY.match(text)
        if match is None:
            raise InvalidInput(
                f"--bots: {text!r} is not a bot entry (e.g. heuristic, mcts@200, mcts@0.5s, "
                "mcts@0.5s#2)"
            )
        kind, budget, unit = match["kind"], match["budget"], match["unit"]
        if kind not in known:
            raise InvalidInput(f"--bots: unknown bot {kind!r} (known: {', '.join(known)})")
        rounds = seconds = None
        if budget is not None:
            if unit == "s":
                seconds = float(budget)
                if not 0 < seconds <= 60:
                    raise InvalidInput(f"--bots: {text!r}: seconds per move must be in (0, 60]")
            elif "." in budget or not 1 <= int(budget) <= 100_000:
                raise InvalidInput(
                    f"--bots: {text!r}: rounds per move must be a whole number 1…100000"
                )
            else:
                rounds = int(budget)
        entries.append(Entry(text, kind, rounds, seconds))
    if len({e.text for e in entries}) != len(entries):
        raise InvalidInput("--bots: an entry is named twice (give each a different budget)")
    if len(entries) > MAX_ENTRIES:
        raise InvalidInput(f"--bots: at most {MAX_ENTRIES} entries")
    return entries


#: Plays one game: the entries by seat and the game's seed → each seat's ranking key (higher is
#: better; equal keys tie).
PlayFn = Callable[[Sequence[Entry], int], Sequence[tuple[int, ...]]]


@dataclass(frozen=True, slots=True)
class LadderRow:
    """One entry's line: rating, games, wins (ties split), mean rank, and the win rate's CI."""

    entry: str
    mu: float
    sigma: float
    games: int
    wins: float
    mean_rank: float
    win_low: float
    win_high: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson(45, 50)]
    [0.786, 0.957]
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class _LazyResults(Sequence[Sequence[tuple[int, ...]]]):
    """The games' results played one by one as they are read (one process: progress per game)."""

    def __init__(self, play: PlayFn, tables: list[tuple[list[Entry], int]]) -> None:
        self.play, self.tables = play, tables

    def __len__(self) -> int:
        return len(self.tables)

    @overload
    def __getitem__(self, i: int) -> Sequence[tuple[int, ...]]: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Sequence[tuple[int, ...]]]: ...
    def __getitem__(
        self, i: int | slice
    ) -> Sequence[tuple[int, ...]] | Sequence[Sequence[tuple[int, ...]]]:
        if isinstance(i, slice):
            return [self.play(*t) for t in self.tables[i]]
        return self.play(*self.tables[i])


def seatings(entries: Sequence[Entry], players: int, games: int, seed: str) -> list[list[Entry]]:
    """Who sits where in each game: ``players`` different entries, seats shuffled, from the seed."""
    if players > len(entries):
        raise InvalidInput(
            f"--bots: {players} seats need at least {players} different entries, got {len(entries)}"
        )
    rng = random.Random(f"agon-ladder\x00{seed}")
    return [rng.sample(list(entries), players) for _ in range(games)]


def ranks_of(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """1 + the number of seats with a strictly better key (equal keys share a rank)."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def _play_chunk(
    job: tuple[PlayFn, list[tuple[list[Entry], int]]], start: int, stop: int
) -> list[Sequence[tuple[int, ...]]]:
    """Games ``start..stop-1`` of a ladder: each seat's ranking key (picklable for workers)."""
    play, tables = job
    return [play(seated, seed) for seated, seed in tables[start:stop]]


def run_ladder(
    entries: Sequence[Entry],
    play: PlayFn,
    *,
    players: int,
    games: int,
    seed: str,
    on_game: Callable[[int], None] | None = None,
    workers: int = 1,
    cluster: str | None = None,
) -> list[LadderRow]:
    """Play the ladder's games and rate them, best ordinal first.

    Every game's seating and seed are drawn first (from ``seed``), so the games can be played
    on ``workers`` local processes or a Ray ``cluster`` (:mod:`agon.games.distribute`; ``play``
    must then be picklable, as :func:`seven_wonders_play` and :func:`one_card_wonder_play` are)
    and rated in game order: the same table for any number of workers.  ``on_game`` is called
    after each game on one process, after all games otherwise.
    """
    from agon.games.distribute import cpu_workers, run_chunks

    if not 1 <= games <= MAX_GAMES:
        raise InvalidInput(f"--games must be 1…{MAX_GAMES}")
    rated: list[Game] = []
    wins: dict[str, float] = {e.text: 0.0 for e in entries}
    rank_sum: dict[str, int] = {e.text: 0 for e in entries}
    played: dict[str, int] = {e.text: 0 for e in entries}
    game_seeds = random.Random(f"agon-ladder-games\x00{seed}")
    tables = [
        (seated, game_seeds.getrandbits(31)) for seated in seatings(entries, players, games, seed)
    ]
    results: Sequence[Sequence[tuple[int, ...]]]
    if cluster is None and cpu_workers(workers) == 1:
        results = _LazyResults(play, tables)
    else:
        results = run_chunks(_play_chunk, (play, tables), games, workers=workers, cluster=cluster)
    for g, ((seated, _), keys) in enumerate(zip(tables, results, strict=True), start=1):
        ranks = ranks_of(keys)
        firsts = ranks.count(1)
        for entry, rank in zip(seated, ranks, strict=True):
            played[entry.text] += 1
            rank_sum[entry.text] += rank
            if rank == 1:
                wins[entry.text] += 1 / firsts
        rated.append(
            Game(
                "ladder",
                g,
                1,
                False,
                tuple((PlayerKey(e.text), r) for e, r in zip(seated, ranks, strict=True)),
            )
        )
        if on_game is not None:
            on_game(g)
    ratings = {r.player.name: r for r in rate(rated).ratings}
    rows = []
    for e in entries:
        n = played[e.text]
        low, high = wilson(wins[e.text], n)
        r = ratings.get(e.text)
        rows.append(
            LadderRow(
                entry=e.text,
                mu=r.mu if r else 25.0,
                sigma=r.sigma if r else 25 / 3,
                games=n,
                wins=wins[e.text],
                mean_rank=rank_sum[e.text] / n if n else 0.0,
                win_low=low,
                win_high=high,
            )
        )
    rows.sort(key=lambda row: (-row.ordinal, row.entry))
    return rows


@dataclass(frozen=True, slots=True)
class SevenWondersPlay:
    """Plays one 7 Wonders game per call; a seat's key is (total, coins), the rulebook's order.
    (A picklable value, so ladder games can run on other processes.)"""

    engine: str = "auto"

    def __call__(self, seated: Sequence[Entry], seed: int) -> list[tuple[int, ...]]:
        from agon.games.seven_wonders.bots import Bot, IsmctsBot, MctsBot, make_bot
        from agon.games.seven_wonders.engine import Game as SevenWondersGame

        def bot(entry: Entry, seed: int) -> Bot:
            seconds = entry.seconds if entry.seconds is not None else 0.5
            if entry.kind == "mcts":
                return MctsBot(seed, seconds=seconds, rounds=entry.rounds, engine=self.engine)
            if entry.kind == "ismcts":
                return IsmctsBot(seed, seconds=seconds, iterations=entry.rounds, engine=self.engine)
            return make_bot(entry.kind, seed)

        game = SevenWondersGame(len(seated), seed)
        bots = [bot(e, seed * 1000 + p) for p, e in enumerate(seated)]
        while not game.over:
            game.step_unchecked({p: bots[p].act(game, p) for p in game.to_act()})
        keys = {s.player: (s.total, s.treasury) for s in game.scores()}
        return [keys[p] for p in range(len(seated))]


def seven_wonders_play(engine: str = "auto") -> PlayFn:
    """Play one 7 Wonders game per call; a seat's key is (total, coins), the rulebook's order."""
    return SevenWondersPlay(engine)


SEVEN_WONDERS_BOTS = ("random", "heuristic", "mcts", "ismcts")
ONE_CARD_WONDER_BOTS = ("random", "heuristic", "search", "ismcts", "ismctsh")


@dataclass(frozen=True, slots=True)
class OneCardWonderPlay:
    """Plays one One Card Wonder game per call: the winner's key is (1,), everyone else's
    (0,); a game capped without a winner is a tie of all.  (Picklable, like
    :class:`SevenWondersPlay`.)"""

    variant: object
    #: ``auto``: a game of only random, heuristic and search bots (any number of worlds each)
    #: runs on the compiled core when it is installed — the same game, decision by decision
    #: (tests/games/one_card_wonder/test_ocw_native.py), some hundred times faster; ``python``:
    #: always the Python engine.
    engine: str = "auto"

    def __call__(self, seated: Sequence[Entry], seed: int) -> list[tuple[int, ...]]:
        from agon.games.one_card_wonder import native
        from agon.games.one_card_wonder.bots import BOTS, Bot, IsmctsBot, SearchBot, make_bot
        from agon.games.one_card_wonder.content import default_content
        from agon.games.one_card_wonder.engine import Game as OcwGame
        from agon.games.one_card_wonder.engine import Variant

        assert isinstance(self.variant, Variant)
        kinds = [e.kind for e in seated]
        worlds = [e.rounds or 8 for e in seated]  # SearchBot's default: 8 worlds
        if self.engine == "auto" and native.can_play(
            len(seated), kinds, self.variant, default_content()
        ):
            ng = native.new_game(len(seated), seed, self.variant)
            ng.play_bots(kinds, [seed * 100 + s for s in range(len(seated))], worlds)
            return [(1,) if ng.winner == p else (0,) for p in range(len(seated))]

        def bot(e: Entry, seed: int) -> Bot:
            if e.kind == "search" and e.rounds is not None:
                return SearchBot(seed, worlds=e.rounds)
            if e.kind in ("ismcts", "ismctsh") and (e.rounds is not None or e.seconds is not None):
                cls = BOTS[e.kind]
                assert issubclass(cls, IsmctsBot)
                return cls(seed, iterations=e.rounds, seconds=e.seconds)
            return make_bot(e.kind, seed)

        game = OcwGame.new(len(seated), seed, self.variant)
        bots = [bot(e, seed * 100 + s) for s, e in enumerate(seated)]
        while not game.over:
            game.apply_unchecked(bots[game.current_player()].choose(game))
        return [(1,) if game.winner == p else (0,) for p in range(len(seated))]


def one_card_wonder_play(variant: object, engine: str = "auto") -> PlayFn:
    """Play one One Card Wonder game per call (see :class:`OneCardWonderPlay`)."""
    from agon.games.one_card_wonder.engine import Variant

    assert isinstance(variant, Variant)
    return OneCardWonderPlay(variant, engine)
