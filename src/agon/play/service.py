"""The online game service (issue 12): games in memory, rebuilt from the database, with bots.

stays whole: :class:`PlayService` is one object whose methods share each game's lock, its copy in
memory and the log writer; split, one locking protocol would be spread over several files.

:class:`PlayService` is what a server process holds. Each game it has seen lives in memory as an
:class:`~agon.play.adapters.Adapter` plus its *version* (the number of actions in its log). The
game in memory is current as long as no other process stores actions of it: it reads the log's
new entries (one query) only when another worker process announced a newer version
(LISTEN/NOTIFY, :meth:`PlayService.announced`) or a client names one it has not seen; an action
that races an announcement still under way loses on the log's unique key, and the game is then
rebuilt from the log and the action checked again. An action is checked (seat token, version,
legality), applied to the game, and appended to the log in the database **before** it is
acknowledged (:class:`~agon.play.writer.GroupWriter`); then the game's watchers are told
(:class:`Broadcaster`; across processes PostgreSQL's LISTEN/NOTIFY, :mod:`agon.play.live`). A
seat's state is serialized to JSON once per version (:meth:`PlayService.seat_json`): the act's
answer, ``GET`` and every push of that seat share the text.

Bots think off the event loop, in a thread pool — a search bot in a process pool when the
service has one (:data:`PROCESS_BOTS`) — each decision on a copy of the game taken under the
game's lock and from a seed derived from the game's seed, the seat and the version — so a
restarted server makes the same decisions. Quick bots (no search, no ``bot_delay``) answer a
person's move inside it: decided and applied under the lock right after the move, and stored
in the move's own transaction (one commit and one push instead of two, no hand-over to the pool;
the same actions from the same seeds).

Versions and simultaneous play: a seat's action names the version of the state it was chosen in.
It is accepted if no decision of that seat's current turn is older than it: in 7 Wonders the other
seats' choices of the same turn do not make it stale (they change nothing the seat sees but who has
chosen); any resolved turn does. Too old or ahead of the game: :class:`StaleVersion` (409).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool as BrokenExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from agon.errors import AgonError, Conflict, IllegalAction, InvalidInput
from agon.games import levels
from agon.play import clocks, store
from agon.play.adapters import TABLE, Adapter, Setup, new_adapter, stop_action
from agon.play.bots import BOT_BATCH, bot_seed, decide, think
from agon.play.seeds import seed_sha256
from agon.play.store import CreatedGame, SeatSpec
from agon.play.writer import GroupWriter
from agon.store.db import database_fault

try:  # the web extra's fast JSON serializers: see _json_text
    import orjson as _orjson
    from pydantic_core import to_json as _to_json
except ImportError:  # pragma: no cover - agon without the web extra
    _orjson = None  # type: ignore[assignment]
    _to_json = None  # type: ignore[assignment]

log_ = logging.getLogger(__name__)
_T = TypeVar("_T")
# Bots that search (:attr:`agon.games.levels.BotSpec.searches`) think in the process pool when
# the service has one. The others decide in well under a millisecond (a 7 Wonders heuristic
# decision: about 0.03 ms), far less than handing the game to another process costs, so they
# decide in the bot threads.
#: Seconds before the bots of a game try again when the database was away.
BOT_RETRY_SECONDS = 1.0


class Forbidden(AgonError):
    """A wrong or missing seat token (HTTP 403)."""


class StaleVersion(Conflict):
    """The action was chosen in a state that has changed since (HTTP 409)."""


class NotYourTurn(Conflict):
    """The seat has nothing to decide now, or the game is over (HTTP 409)."""


class NotLegal(InvalidInput):
    """The action is not among the seat's legal actions (HTTP 422)."""


class _LostRace(StaleVersion):
    """Another process stored the same version first (the log's unique key): the game in memory
    was behind the log; it is rebuilt and the action checked again."""


class GameRunning(Conflict):
    """The result of a game that is not over yet (HTTP 409)."""


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game's end: scores (``{"player", <categories>, "total"}`` per seat), per-seat details
    (7 Wonders: wonder, side, treasury), and the ``meta`` its creator gave."""

    game_id: str
    game: str
    scores: list[dict[str, Any]]
    seats: list[dict[str, Any]]
    meta: dict[str, Any] | None
    #: the game's seed, revealed now that it is over (docs/online-play.md, "Seeds")
    seed: str = ""


@dataclass(slots=True)
class _Live:
    game_id: str
    adapter: Adapter
    seats: list[dict[str, Any]]
    meta: dict[str, Any] | None
    version: int = 0
    #: the version at which the current turn began (see the module docstring)
    turn_version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    finished: bool = False
    #: the log as applied: (seat, action) per version
    log: list[tuple[int, str]] = field(default_factory=list)
    #: actions of each seat so far (a bot's seed for its next decision depends on it)
    counts: list[int] = field(default_factory=list)
    #: per seat (``None``: the spectator) the state as JSON text and the version it shows: one
    #: serialization per version, however many answers and pushes use it
    texts: dict[int | None, tuple[int, str]] = field(default_factory=dict)
    #: the log's hash chain up to ``version`` (:func:`agon.play.store.chain_hash`)
    chain: str | None = None
    #: this copy holds an action whose store failed, or its seats changed in another process:
    #: nobody may read or extend it (every holder of ``lock`` checks this first, and takes the
    #: game afresh from the database)
    dead: bool = False
    #: the per-turn clock (:mod:`agon.play.clocks`): its name, seconds, and the turn's deadline
    clock: str | None = None
    turn_seconds: float | None = None
    deadline: datetime | None = None
    #: times each seat's clock ran out (the table's ``timeout N`` entries)
    timeouts: list[int] = field(default_factory=list)
    #: seconds a bot's move waits after the last change (``bot_delay``), and when that was
    bot_delay: float = 0.0
    changed_at: float = field(default_factory=time.monotonic)

    @property
    def names(self) -> list[str]:
        return [str(s["name"]) for s in self.seats]

    def apply(self, seat: int, action: str) -> None:
        self.changed_at = time.monotonic()
        timed_out = clocks.timed_out_seat(action) if seat == TABLE else None
        if timed_out is not None:
            self.timeouts = self.timeouts or [0] * len(self.seats)
            self.timeouts[timed_out] += 1
        if self.adapter.apply(seat, action):
            self.turn_version = self.version + 1
        self.version += 1
        self.chain = store.chain_hash(self.chain, self.version, seat, action)
        self.log.append((seat, action))
        if not self.counts:
            self.counts = [0] * len(self.seats)
        if seat != TABLE:  # the table's own actions (the round clock) are no seat's
            self.counts[seat] += 1


class Broadcaster:
    """Per game, the latest version, pushed to every watcher in this process (thread-safe).

    Watchers are asyncio queues on their own event loop; :meth:`publish` may be called from any
    thread.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watchers: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]]] = {}

    def publish(self, game_id: str, version: int) -> None:
        """Hand ``version`` to the game's watchers: on their loop's own thread (a move made on
        the loop) straight into their queues, else through their loop (a wake-up each)."""
        with self._lock:
            watchers = list(self._watchers.get(game_id, ()))
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # not on a loop: a thread
            here = None
        for loop, queue in watchers:
            if loop is here:  # no callback and no write to wake the loop it runs on
                queue.put_nowait(version)
                continue
            with contextlib.suppress(RuntimeError):  # RuntimeError: the loop has closed
                loop.call_soon_threadsafe(queue.put_nowait, version)

    def add(self, game_id: str) -> tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]:
        entry = (asyncio.get_running_loop(), asyncio.Queue[int]())
        with self._lock:
            self._watchers.setdefault(game_id, set()).add(entry)
        return entry

    def remove(
        self, game_id: str, entry: tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]
    ) -> None:
        with self._lock:
            watchers = self._watchers.get(game_id)
            if watchers is not None:
                watchers.discard(entry)
                if not watchers:
                    del self._watchers[game_id]

    def watching(self) -> int:
        with self._lock:
            return sum(len(w) for w in self._watchers.values())


def _seat_of_token(live: _Live, token: str | None) -> int | None:
    """The seat ``token`` opens in ``live`` (``None`` for no token: the spectator).

    Raises:
        Forbidden: a token that is no seat's.
    """
    if token is None:
        return None
    seat = store.seat_of(live.seats, token)
    if seat is None:
        raise Forbidden(f"game {live.game_id}: wrong seat token")
    return seat


class PlayService:
    """Online games of one server process (see the module docstring).

    Args:
        sessions: the store's session factory.
        bot_threads: threads that run the bots' turns (off the event loop).
        bot_processes: processes the bots think in (0: in those threads; the server uses
            processes, so that no request waits for the interpreter lock of a thinking bot).
        clock_scale: the clocks' seconds are multiplied by this (``AGON_PLAY_CLOCK_SCALE``).
        commit_delay, commit_siblings: the group writer's commit delay (seconds; 0: none) and
            the games that must have stored entries in the last second for it to apply
            (:class:`~agon.play.writer.GroupWriter`, ``AGON_PLAY_COMMIT_DELAY_MS``).
    """

    def __init__(
        self,
        sessions: sessionmaker[Session],
        *,
        bot_threads: int = 4,
        bot_processes: int = 0,
        clock_scale: float = 1.0,
        commit_delay: float = 0.0,
        commit_siblings: int = 1,
    ) -> None:
        self.sessions = sessions
        self.clock_scale = clock_scale
        self.broadcaster = Broadcaster()
        self.writer = GroupWriter(
            sessions, commit_delay=commit_delay, commit_siblings=commit_siblings
        )
        self._games: dict[str, _Live] = {}
        self._games_lock = threading.Lock()
        self._bots = ThreadPoolExecutor(max_workers=bot_threads, thread_name_prefix="agon-bot")
        self._bots_busy: set[str] = set()
        #: games kicked while their bots were busy: the running turn looks once more before it
        #: stops (else a kick arriving as it stopped was lost, and the game waited forever)
        self._bots_again: set[str] = set()
        #: the bots' process pool, made by the first search that thinks in it (:meth:`_thinker_pool`)
        self._thinkers: Executor | None = None
        self._bot_processes = bot_processes
        self._thinkers_lock = threading.Lock()
        self._bots_lock = threading.Lock()
        self._finish_hooks: list[Callable[[FinishedGame], None]] = []
        #: the newest version other processes announced per game (LISTEN/NOTIFY)
        self._announced: dict[str, int] = {}
        #: games in memory that may have missed announcements (see :meth:`resync`)
        self._suspect: set[str] = set()
        self.closed = False

    # ------------------------------------------------------------------ entry points

    def create_game(
        self,
        *,
        game: str,
        seats: Sequence[SeatSpec],
        variant: str = "base",
        seed: str | None = None,
        wonders: Sequence[str] | None = None,
        sides: Sequence[str] | None = None,
        guilds: Sequence[str] | None = None,
        meta: Mapping[str, Any] | None = None,
        choose_sides: bool = False,
        clock: str | None = None,
        bot_delay: float = 0.0,
    ) -> CreatedGame:
        """Create a game (stored before this returns) and let its bots start (``choose_sides``:
        7 Wonders begins with each seat choosing its side; ``clock``: a per-turn clock of
        :func:`agon.play.clocks.clocks`; ``bot_delay``: seconds before a bot's move appears).

        Raises:
            InvalidInput: see :func:`agon.play.store.create_game`; an unknown clock.
        """
        turn_seconds = None if clock is None else clocks.seconds(clock, self.clock_scale)
        with self.sessions() as session:
            created = store.create_game(
                session,
                game=game,
                seats=seats,
                variant=variant,
                seed=seed,
                wonders=wonders,
                sides=sides,
                guilds=guilds,
                meta=meta,
                choose_sides=choose_sides,
                clock=clock,
                turn_seconds=turn_seconds,
                bot_delay=bot_delay,
            )
        self.kick(created.game_id)
        return created

    def on_finish(self, hook: Callable[[FinishedGame], None]) -> None:
        """Call ``hook`` (in a worker thread) when a game ends in this process — once per game,
        by the process that applied its last action. Games that ended while no process ran are
        found by :func:`agon.play.store.finished_games`."""
        self._finish_hooks.append(hook)

    def seat_for(self, game_id: str, token: str | None) -> int | None:
        """The seat of ``token`` (``None`` for no token: the spectator).

        Raises:
            NotFound: no such game.  Forbidden: a token that is no seat's.
        """
        return _seat_of_token(self._live(game_id), token)

    def try_seat_and_meta(
        self, game_id: str, token: str | None
    ) -> tuple[int | None, dict[str, Any] | None] | None:
        """:meth:`seat_for` and :meth:`meta` at once when the game is in memory, else ``None``
        (they would read it): an event stream opens without a hand-over to a thread. Never
        blocks: an event loop may call it.

        Raises:
            Forbidden: a token that is no seat's.
        """
        with self._games_lock:
            live = self._games.get(game_id)
        if live is None:
            return None
        return _seat_of_token(live, token), live.meta

    def holds_seat(self, game_id: str, token_hash: str, seat: int) -> bool | None:
        """Does the token whose :func:`~agon.play.store.token_hash` is ``token_hash`` still open
        ``seat`` in this process's copy of the game (a bot may have taken the seat since)?
        ``None`` when the game is not in memory. Never blocks."""
        with self._games_lock:
            live = self._games.get(game_id)
        return None if live is None else store.seat_of_hash(live.seats, token_hash) == seat

    def state(self, game_id: str, token: str | None) -> dict[str, Any]:
        """``GET /api/play/{id}``: the seat's state (no token: the spectator's).

        Raises:
            NotFound, Forbidden.
        """
        seat = self.seat_for(game_id, token)
        return self.seat_state(game_id, seat)

    def seat_state(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """The state of a seat already identified (``None``: spectator).

        Reads the log only when another process announced a newer version (:meth:`announced`):
        the game in memory is otherwise current, as every action of this process goes through it.
        """
        with self._hold(game_id) as live:
            if self._behind(live):
                self._catch_up(live)
            return self._state(live, seat)

    def try_seat_state(self, game_id: str, seat: int | None) -> dict[str, Any] | None:
        """:meth:`seat_state` if it can be answered at once — the game is in memory, current,
        and not locked by a writer — else ``None``. Never blocks: an event loop may call it."""
        with self._games_lock:
            live = self._games.get(game_id)
        if live is None or self._behind(live):
            return None
        if not live.lock.acquire(blocking=False):
            return None
        try:
            return None if live.dead else self._state(live, seat)
        finally:
            live.lock.release()

    def seat_json(self, game_id: str, seat: int | None) -> str:
        """:meth:`seat_state` as JSON text, serialized once per version and seat."""
        with self._hold(game_id) as live:
            if self._behind(live):
                self._catch_up(live)
            return self._state_json(live, seat)

    def try_seat_json(self, game_id: str, seat: int | None) -> str | None:
        """:meth:`try_seat_state` as JSON text (see :meth:`seat_json`); never blocks."""
        with self._games_lock:
            live = self._games.get(game_id)
        if live is None or self._behind(live):
            return None
        if not live.lock.acquire(blocking=False):
            return None
        try:
            return None if live.dead else self._state_json(live, seat)
        finally:
            live.lock.release()

    def resync(self) -> None:
        """Announcements may have been lost (the listening connection was down): every game in
        memory reads the log's new entries at its next use, and its watchers look again."""
        with self._games_lock:
            self._suspect.update(self._games)
            versions = {game_id: live.version for game_id, live in self._games.items()}
        for game_id, version in versions.items():
            self.broadcaster.publish(game_id, version)

    def reseated(self, game_id: str) -> None:
        """Another process changed the game's seats (a bot took one; LISTEN/NOTIFY): this
        process's copy is dropped, so the next use reads the seats afresh and a revoked token
        opens nothing here either; the watchers look again. Never blocks (an event loop calls
        it): a thread holding the copy's lock finishes with it, a stored action stays stored."""
        with self._games_lock:
            live = self._games.pop(game_id, None)
        if live is not None:
            live.dead = True
            self.broadcaster.publish(game_id, live.version)

    def announced(self, game_id: str, version: int) -> None:
        """Another process stored ``version`` of the game (from LISTEN/NOTIFY): tell watchers."""
        with self._games_lock:
            if version > self._announced.get(game_id, -1):
                self._announced[game_id] = version
        self.broadcaster.publish(game_id, version)

    def act(self, game_id: str, token: str | None, action: str, version: int) -> dict[str, Any]:
        """Accept a seat's action; stored before it returns the new state.

        Raises:
            NotFound; Forbidden (token); StaleVersion, NotYourTurn (409); NotLegal (422).
        """
        return self._act(game_id, token, action, version, self._state)

    def act_json(self, game_id: str, token: str | None, action: str, version: int) -> str:
        """:meth:`act`, answering the new state as JSON text (the text the seat's push carries).

        Raises:
            as :meth:`act`.
        """
        return self._act(game_id, token, action, version, self._state_json)

    def _act(
        self,
        game_id: str,
        token: str | None,
        action: str,
        version: int,
        render: Callable[[_Live, int], _T],
    ) -> _T:
        """Check and store the action (see :meth:`act`); ``render`` the new state of the seat.

        The game in memory is current unless another process stored actions since: it catches
        up with the log only when one announced a newer version (LISTEN/NOTIFY) or the client
        names a version this process has not seen. An announcement still under way when this
        process stores the same version loses the race on the log's unique key: the game is
        rebuilt from the log and the action checked again.
        """
        for attempt in range(3):
            with self._hold(game_id) as live:
                seat = store.seat_of(live.seats, token)
                if seat is None:
                    raise Forbidden(f"game {game_id}: wrong or missing seat token")
                if self._behind(live) or version > live.version:
                    self._catch_up(live)
                self._check_move(live, seat, action, version)
                try:
                    self._commit(live, [(seat, action)], with_bots=True)
                except _LostRace:
                    if attempt == 2:
                        raise
                    continue
                version_now = live.version
                answer = render(live, seat)
                bots_next = any(
                    live.adapter.legal(s)
                    for s, spec in enumerate(live.seats)
                    if spec["kind"] == "bot"
                )
            self._announce(live, version_now, kick=bots_next)
            return answer
        raise AssertionError("unreachable")  # pragma: no cover

    async def act_json_on_loop(
        self, game_id: str, token: str | None, action: str, version: int
    ) -> str:
        """:meth:`act_json` for an event loop, without handing the move to a thread: when the
        game is in memory, current and its lock free, the move is checked and applied on the
        loop, its entry queued for the group writer, and the loop awaits the commit (the
        writer's thread resolves it) while the game stays locked — one commit per move and no
        trace of a refused or failed one, as in :meth:`act_json`. Otherwise (the lock is
        taken, the log must be read, a lost race) the move goes to a thread as ever; nothing on
        the loop ever waits for a game's lock.

        Raises:
            as :meth:`act`.
        """
        with self._games_lock:
            live = self._games.get(game_id)
        if (
            live is None
            or self._behind(live)
            or version > live.version
            or not live.lock.acquire(blocking=False)
        ):
            return await asyncio.to_thread(self.act_json, game_id, token, action, version)
        held = True
        try:
            if live.dead:  # its store failed meanwhile: the thread takes the game afresh
                live.lock.release()
                held = False
                return await asyncio.to_thread(self.act_json, game_id, token, action, version)
            seat = store.seat_of(live.seats, token)
            if seat is None:
                raise Forbidden(f"game {game_id}: wrong or missing seat token")
            self._check_move(live, seat, action, version)
            entry, deadline = self._stage(live, [(seat, action)], with_bots=True)
            loop = asyncio.get_running_loop()
            stored: asyncio.Future[None] = loop.create_future()

            def settle(error: BaseException | None) -> None:  # on the loop
                if stored.cancelled():  # the request was cancelled meanwhile
                    self._stored_unheard(live, error, deadline)
                elif error is None:
                    stored.set_result(None)
                else:
                    stored.set_exception(error)

            def done(error: BaseException | None) -> None:  # in the writer's thread
                try:
                    loop.call_soon_threadsafe(settle, error)
                except RuntimeError:  # the loop has closed: the move ends here
                    self._stored_unheard(live, error, deadline)

            self.writer.submit(entry, done)
            try:
                await stored
            except asyncio.CancelledError:  # the commit goes on: its end releases the lock
                held = False
                if stored.done() and not stored.cancelled():  # it had ended already
                    self._stored_unheard(live, stored.exception(), deadline)
                raise
            except IntegrityError:  # another process stored this version first: as _act does
                self._kill(live)
                live.lock.release()
                held = False
                return await asyncio.to_thread(self.act_json, game_id, token, action, version)
            except BaseException:
                self._kill(live)  # the memory may be ahead of the log: rebuild it
                raise
            if deadline is not None:
                live.deadline = deadline
            version_now = live.version
            answer = self._state_json(live, seat)
            bots_next = any(
                live.adapter.legal(s) for s, spec in enumerate(live.seats) if spec["kind"] == "bot"
            )
        finally:
            if held:
                live.lock.release()
        if live.adapter.over:  # the finish hooks may read and write the database
            await asyncio.to_thread(self._announce, live, version_now, kick=bots_next)
        else:
            self._announce(live, version_now, kick=bots_next)
        return answer

    def _stored_unheard(
        self, live: _Live, error: BaseException | None, deadline: datetime | None
    ) -> None:
        """The end of a move whose request was cancelled while its commit was under way: the
        game's lock is released only now, and a stored move is announced as every other (its
        answer is never sent); a failed one kills the copy, as in :meth:`_commit`."""
        if error is not None:
            self._kill(live)
        elif deadline is not None:
            live.deadline = deadline
        version = live.version
        live.lock.release()
        if error is None:
            threading.Thread(target=self._announce, args=(live, version), daemon=True).start()

    def _check_move(self, live: _Live, seat: int, action: str, version: int) -> None:
        """Refuse a move the game does not take now (caller holds the lock; the game current).

        Raises:
            StaleVersion, NotYourTurn (409); NotLegal (422).
        """
        game_id = live.game_id
        if live.adapter.over:
            raise NotYourTurn(f"game {game_id} is over")
        if not live.turn_version <= version <= live.version:
            raise StaleVersion(f"game {game_id}: version {version} is stale (now {live.version})")
        legal = live.adapter.legal(seat)
        if not legal:
            raise NotYourTurn(f"game {game_id}: seat {seat} does not act now")
        if action not in legal:
            raise NotLegal(f"game {game_id}, seat {seat}: {action[:80]!r} is not legal now")

    def result(self, game_id: str) -> FinishedGame:
        """The end of a finished game.

        Raises:
            NotFound; GameRunning (409) while it runs.
        """
        with self._hold(game_id) as live:
            self._catch_up(live)
            if not live.adapter.over:
                raise GameRunning(f"game {game_id} is still running")
            return self._finished(live)

    def log_of(self, game_id: str) -> tuple[Setup, list[tuple[int, int, str]]]:
        """The game's setup and its log so far (``(seq, seat, action)``), current with the
        database: the table's story is told from it (:mod:`agon.play.story`).

        Raises:
            NotFound.
        """
        with self._hold(game_id) as live:
            if self._behind(live):
                self._catch_up(live)
            log = [(i + 1, seat, action) for i, (seat, action) in enumerate(live.log)]
            return live.adapter.setup, log

    def replace_with_bot(self, game_id: str, seat: int, bot: str = "heuristic") -> None:
        """A bot takes over a seat from now on (a player who left); its token stops working.

        Raises:
            NotFound; InvalidInput for a bad seat or bot.
        """
        if bot not in store.BOTS:
            raise InvalidInput(f"bot must be one of {', '.join(store.BOTS)}, got {bot!r}")
        with self._hold(game_id) as live:
            if not 0 <= seat < len(live.seats):
                raise InvalidInput(f"game {game_id}: no seat {seat}")
            seats = [dict(s) for s in live.seats]
            seats[seat].update(kind="bot", bot=bot, token_hash=None)
            with self.sessions() as session:
                store.set_seats(session, game_id, seats)
            live.seats = seats
            live.texts.clear()  # the views name the seats' kinds
        self.kick(game_id)

    def meta(self, game_id: str) -> dict[str, Any] | None:
        """The ``meta`` the game's creator gave (a tournament table's: where it is).

        Raises:
            NotFound.
        """
        return self._live(game_id).meta

    def stop_after_age(self, game_id: str) -> int | None:
        """The round clock ran out: the game ends with the end of the age being played (no
        further age is dealt). Appends the table's ``stop after age N`` to the log (once: a
        second call answers the same age); returns N, ``None`` if the game is over already.

        Raises:
            NotFound; InvalidInput: a game without ages (One Card Wonder).
        """
        for attempt in range(3):
            with self._hold(game_id) as live:
                self._catch_up(live)
                for seat, action in live.log:
                    if seat == TABLE and clocks.timed_out_seat(action) is None:  # not a timeout
                        return int(action.rsplit(" ", 1)[1])
                if live.adapter.over:
                    return None
                age = max(1, live.adapter.current_age())
                if live.adapter.setup.game != "7w":
                    raise InvalidInput(f"game {game_id}: only 7 Wonders has ages to finish")
                try:
                    self._commit(live, [(TABLE, stop_action(age))])
                except _LostRace:
                    if attempt == 2:
                        raise
                    continue
                version_now = live.version
            self._announce(live, version_now)
            return age
        raise AssertionError("unreachable")  # pragma: no cover

    def sweep_clocks(self, now: datetime | None = None) -> dict[str, list[int]]:
        """Every running game whose turn's deadline has passed (stored: any process may notice
        first): :meth:`time_out`. Returns the seats timed out here, by game."""
        at = now or store.now()
        with self.sessions() as session:
            due = store.games_past_deadline(session, at)
        out: dict[str, list[int]] = {}
        for game_id in due:
            try:
                seats = self.time_out(game_id, at)
            except (AgonError, DBAPIError) as exc:  # another process came first, or the database
                fault = database_fault(exc) if isinstance(exc, DBAPIError) else None
                log_.warning("the clock of game %s: not timed out now (%s)", game_id, fault or exc)
                continue
            if seats:
                out[game_id] = seats
        return out

    def time_out(self, game_id: str, now: datetime | None = None) -> list[int]:
        """The turn's clock ran out (its stored deadline is ``now`` or earlier): every human seat
        still to decide plays the heuristic bot's move, each after the table's ``timeout N`` in
        the log. The moves are thought out on a copy outside the game's lock and appended after
        the log as it was (its hash chain): when another process timed the seats out first, the
        append fails, the game is read again and nothing is done twice. Returns the seats.

        Raises:
            NotFound.
        """
        at = now or store.now()
        for _attempt in range(3):
            with self._hold(game_id) as live:
                self._catch_up(live)  # the deadline and log as stored now
                if live.adapter.over or live.deadline is None or live.deadline > at:
                    return []
                late = [
                    s
                    for s, spec in enumerate(live.seats)
                    if spec["kind"] == "human" and live.adapter.legal(s)
                ]
                if not late:
                    return []
                copy, seen = live.adapter.snapshot(), live.version
                counts = live.counts[:] or [0] * len(live.seats)
            actions: list[tuple[int, str]] = []
            for s in late:  # the heuristic's move, from the seat's own bot seed
                move = copy.bot_action(
                    s, clocks.TIMEOUT_BOT, bot_seed(copy.setup.seed, s, counts[s])
                )
                for entry in ((TABLE, clocks.timeout_action(s)), (s, move)):
                    copy.apply(*entry)
                    actions.append(entry)
            with self._hold(game_id) as live:
                if live.version != seen:
                    continue  # somebody moved meanwhile: look again
                try:
                    self._commit(live, actions)
                except _LostRace:
                    continue
                version_now = live.version
            self._announce(live, version_now)
            return late
        return []

    async def watch(self, game_id: str, *, idle: float = 15.0) -> AsyncIterator[int | None]:
        """Versions of the game as they change (first the current one), and ``None`` after
        ``idle`` seconds without a change (for keep-alives). Never ends by itself.

        Raises:
            NotFound: no such game.
        """
        with self._games_lock:  # in memory: no hand-over to a thread (a stream's opening)
            live = self._games.get(game_id)
        if live is None:
            live = await asyncio.to_thread(self._live, game_id)
        entry = self.broadcaster.add(game_id)
        queue = entry[1]
        try:
            yield live.version
            while True:
                if queue.empty():  # a timer, not a task per wait as with asyncio.wait_for
                    try:
                        async with asyncio.timeout(idle):
                            version = await queue.get()
                    except TimeoutError:
                        yield None
                        continue
                else:
                    version = queue.get_nowait()
                while not queue.empty():
                    version = max(version, queue.get_nowait())
                yield version
        finally:
            self.broadcaster.remove(game_id, entry)

    def resume_all(self) -> int:
        """Load every running game and let its bots go on (after a restart); returns how many."""
        with self.sessions() as session:
            ids = store.running_games(session)
        for game_id in ids:
            try:
                self._live(game_id)
            except AgonError:  # pragma: no cover - a game whose setup no longer loads
                log_.exception("online game %s cannot be resumed", game_id)
        return len(ids)

    def close(self) -> None:
        self.closed = True
        self._bots.shutdown(wait=True, cancel_futures=True)
        self.writer.close()
        with self._thinkers_lock:
            pool, self._thinkers, self._bot_processes = self._thinkers, None, 0
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _thinker_pool(self) -> Executor | None:
        """The bots' process pool (``None``: they think in threads). It is made by the first
        search that needs it, not with the service: making a ``spawn`` pool starts Python's
        resource tracker, a process of its own, and most servers (each ``agon serve`` and each
        of its workers) never see a searching bot."""
        with self._thinkers_lock:
            if self._thinkers is None and self._bot_processes > 0:
                import multiprocessing

                self._thinkers = ProcessPoolExecutor(
                    max_workers=self._bot_processes,
                    mp_context=multiprocessing.get_context("spawn"),
                )
            return self._thinkers

    # ------------------------------------------------------------------ internals

    def _live(self, game_id: str) -> _Live:
        with self._games_lock:
            live = self._games.get(game_id)
        if live is not None:
            return live
        with self.sessions() as session:
            record = store.load_game(session, game_id)
            actions = store.actions_after(session, game_id, 0)
        live = _Live(game_id, new_adapter(record.setup), list(record.seats), record.meta)
        live.clock, live.turn_seconds = record.clock, record.turn_seconds
        live.deadline, live.bot_delay = record.deadline, record.bot_delay
        for _seq, seat, action in actions:
            live.apply(seat, action)
        with self._games_lock:
            live = self._games.setdefault(game_id, live)
        if live.adapter.over and not record.over:  # the log ended it; the row missed it
            with self.sessions() as session:
                store.mark_over(session, game_id, live.adapter.scores(live.names))
        self.kick(game_id)
        return live

    @contextlib.contextmanager
    def _hold(self, game_id: str) -> Iterator[_Live]:
        """The game in memory, under its lock, never a dead copy (see :attr:`_Live.dead`): a
        thread that waited for the lock while the holder's store failed takes the game afresh.

        Raises:
            NotFound.
        """
        for _attempt in range(100):
            live = self._live(game_id)
            live.lock.acquire()
            if not live.dead:
                break
            live.lock.release()
        else:  # pragma: no cover - a hundred failed stores in a row while this thread waited
            raise Conflict(f"game {game_id} is too busy; try again")
        try:
            yield live
        finally:
            live.lock.release()

    def _behind(self, live: _Live) -> bool:
        """Whether other processes may have stored actions of the game since (announced, or
        announcements may have been lost)."""
        return self._announced.get(live.game_id, -1) > live.version or live.game_id in self._suspect

    def _catch_up(self, live: _Live) -> None:
        """Apply the actions other processes logged since (caller holds ``live.lock``)."""
        with self._games_lock:
            self._suspect.discard(live.game_id)
        with self.sessions() as session:
            new = store.actions_after(session, live.game_id, live.version)
            if live.turn_seconds is not None and new:
                live.deadline = store.deadline_of(session, live.game_id)
        for seq, seat, action in new:
            if seq != live.version + 1:  # pragma: no cover - a hole cannot happen (unique seq)
                raise RuntimeError(f"game {live.game_id}: log jumps to {seq}")
            try:
                live.apply(seat, action)
            except BaseException:  # pragma: no cover - the copy was not a prefix of the log
                self._kill(live)
                raise

    def _catch_up_if_announced(self, live: _Live) -> None:
        """:meth:`_catch_up` when another process announced a newer version (caller holds the
        lock); a race with an announcement still under way fails on the log's unique key."""
        if self._behind(live):
            self._catch_up(live)

    def _kill(self, live: _Live) -> None:
        """This copy is not the stored log (caller holds its lock): mark it dead and forget it,
        so that the next reader takes the game afresh from the log."""
        live.dead = True
        with self._games_lock:
            if self._games.get(live.game_id) is live:
                del self._games[live.game_id]

    def _commit(
        self, live: _Live, actions: Sequence[tuple[int, str]], *, with_bots: bool = False
    ) -> None:
        """Apply and store ``actions`` (caller holds the lock); on a lost race: StaleVersion.

        ``with_bots`` (a person's move): the quick bots' answers to it (:meth:`_quick_answers`)
        are applied after it and stored in the same transaction — one commit and one push where
        the bot pool's turn took a second commit, a second push and two thread hand-overs.

        The actions are applied to the game in memory under its lock, then stored; nothing but
        the holder of the lock sees the game meanwhile. When the store fails the copy is dead
        (:meth:`_kill`): no answer, push or later action is ever made from it. The store itself
        refuses entries that do not extend the stored log (its hash chain, see
        :class:`~agon.store.models.PlayActionRow`).
        """
        try:
            entry, deadline = self._stage(live, actions, with_bots=with_bots)
            self.writer.append(entry)
            if deadline is not None:
                live.deadline = deadline
        except IntegrityError:
            self._kill(live)
            raise _LostRace(f"game {live.game_id}: another action came first") from None
        except BaseException:
            self._kill(live)  # the memory may be ahead of the log: rebuild it
            raise

    def _stage(
        self, live: _Live, actions: Sequence[tuple[int, str]], *, with_bots: bool
    ) -> tuple[store.Append, datetime | None]:
        """Apply ``actions`` (and the quick bots' answers, ``with_bots``) to the game in memory
        and make their log entry, and the new turn's deadline if any, for :meth:`_commit`
        (caller holds the lock). A failure kills the copy, which may be ahead of the log."""
        first, prev, turn = live.version + 1, live.chain, live.turn_version
        try:
            for seat, action in actions:
                live.apply(seat, action)
            if with_bots:  # applied to the game as they are chosen
                actions = [*actions, *self._quick_answers(live)]
            scores = live.adapter.scores(live.names) if live.adapter.over else None
            deadline = None  # a new turn of a game with a clock: its deadline, stored with it
            if live.turn_seconds is not None and live.turn_version != turn:
                deadline = store.now() + timedelta(seconds=live.turn_seconds)
        except BaseException:
            self._kill(live)
            raise
        return store.Append(live.game_id, first, tuple(actions), scores, prev, deadline), deadline

    def _announce(self, live: _Live, version: int, *, kick: bool = True) -> None:
        """Tell the watchers; the bots' turn (``kick=False``: the caller saw under the lock that
        no bot can act now — only another action can change that, and it kicks them itself)."""
        self.broadcaster.publish(live.game_id, version)
        if live.adapter.over:
            self._finish(live)
        elif kick:
            self.kick(live.game_id)

    def _quick_answers(self, live: _Live) -> list[tuple[int, str]]:
        """The bots' actions up to the next person's decision, when they are quick to decide
        (no search, no ``bot_delay``): the same actions, from the same seeds, as the bot pool's
        turn would store (caller holds the lock). Each is applied to the game itself as it is
        chosen — no copy of the game to think on and no second application (the copy's clone
        and the replay were about a twentieth of a One Card Wonder move's CPU): a bot's choice
        depends only on the game's state and its seed, which a copy would share. A bot whose
        decision fails, or that chooses an action not legal now, leaves the rest to the pool
        (the actions applied so far are answered and stored with the move, as the pool would
        have stored them); a legal action the game fails to apply raises (the game may be half
        changed), and the caller kills the copy."""
        if live.bot_delay or live.adapter.over:
            return []
        bots = {s: str(spec["bot"]) for s, spec in enumerate(live.seats) if spec["kind"] == "bot"}
        game = live.adapter.setup.game
        if not any(live.adapter.legal(s) for s in bots) or any(
            levels.resolve(game, b).searches for b in bots.values()
        ):
            return []
        counts = live.counts[:] or [0] * len(live.seats)
        applied: list[tuple[int, str]] = []
        broken: list[BaseException] = []

        def step(seat: int, action: str) -> None:
            if action not in live.adapter.legal(seat):  # refused before anything changes
                raise IllegalAction(f"seat {seat}'s bot chose {action[:80]!r}, not legal now")
            try:
                live.apply(seat, action)
            except BaseException as exc:
                broken.append(exc)
                raise
            applied.append((seat, action))

        try:
            decide(live.adapter, bots, counts, BOT_BATCH, apply=step)
        except Exception:
            if broken:  # the game may be half changed: the caller kills the copy
                raise
            log_.exception("bots of game %s: a quick answer failed", live.game_id)
        return applied

    def _finish(self, live: _Live) -> None:
        with live.lock:
            if live.finished:
                return
            live.finished = True
            done = self._finished(live)
        for hook in self._finish_hooks:
            try:
                hook(done)
            except Exception:  # a hook's failure must not break the game's last move
                log_.exception("on_finish hook failed for game %s", live.game_id)

    def _finished(self, live: _Live) -> FinishedGame:
        adapter = live.adapter
        return FinishedGame(
            live.game_id,
            adapter.setup.game,
            adapter.scores(live.names),
            adapter.details(),
            live.meta,
            adapter.setup.seed,
        )

    def _state(self, live: _Live, seat: int | None) -> dict[str, Any]:
        adapter = live.adapter
        legal = adapter.legal(seat) if seat is not None else []
        return {
            "seat": seat,
            "version": live.version,
            "over": adapter.over,
            "to_act": bool(legal),
            "legal": legal,
            "view": adapter.view(seat) | {"names": live.names, "kinds": _kinds(live.seats)},
            "clock": _clock(live),
            "timeouts": live.timeouts or [0] * len(live.seats),
            "scores": adapter.scores(live.names) if adapter.over else None,
            # the seed's commitment from the start; the seed itself only once the game is over
            "seed_sha256": _commitment(adapter.setup.seed),
            "seed": adapter.setup.seed if adapter.over else None,
        }

    def _state_json(self, live: _Live, seat: int | None) -> str:
        """``_state`` as JSON text, made once per version and seat (caller holds the lock)."""
        hit = live.texts.get(seat)
        if hit is not None and hit[0] == live.version:
            return hit[1]
        text = _json_text(self._state(live, seat))
        live.texts[seat] = (live.version, text)
        return text

    # ------------------------------------------------------------------ bots

    def kick(self, game_id: str) -> None:
        """Let the bots of ``game_id`` act if any must (in the bot pool; returns at once)."""
        if self.closed:
            return
        with self._bots_lock:
            if game_id in self._bots_busy:
                self._bots_again.add(game_id)
                return
            self._bots_busy.add(game_id)
        try:
            self._bots.submit(self._run_bots, game_id)
        except RuntimeError:  # shut down
            with self._bots_lock:
                self._bots_busy.discard(game_id)

    def _run_bots(self, game_id: str) -> None:
        done = False
        try:
            while not done:
                while not self.closed and self._bot_turn(game_id):
                    pass
                with self._bots_lock:  # a kick that came meanwhile: look once more
                    done = self.closed or game_id not in self._bots_again
                    self._bots_again.discard(game_id)
                    if done:
                        self._bots_busy.discard(game_id)
        except DBAPIError as exc:  # the database is away: the bots go on once it is back
            log_.warning(
                "bots of game %s wait for the database (%s); trying again in %g s",
                game_id,
                type(exc.orig).__name__,
                BOT_RETRY_SECONDS,
            )
            self._kick_later(game_id)
        except Exception:
            log_.exception("bots of game %s stopped", game_id)
        finally:
            if not done:
                with self._bots_lock:
                    self._bots_busy.discard(game_id)
                    self._bots_again.discard(game_id)

    def _kick_later(self, game_id: str, seconds: float = BOT_RETRY_SECONDS) -> None:
        """:meth:`kick` after ``seconds`` (a timer thread; none once closed)."""
        if self.closed:
            return
        timer = threading.Timer(seconds, self.kick, args=(game_id,))
        timer.daemon = True
        timer.start()

    def _bot_turn(self, game_id: str) -> bool:
        """Bot decisions up to the next human decision (at most
        :data:`agon.play.bots.BOT_BATCH`), thought out
        on a copy outside the lock and stored in one transaction; ``True`` if there may be more.

        A bot's seed for a decision comes from the game's seed, its seat and how many actions
        that seat has made: its choice depends on the game and not on when it was asked. If a
        human acted meanwhile (7 Wonders: in the same turn) and the bots' actions are still legal
        in the same order, they are stored as they are; otherwise the bots think again.
        """
        with self._games_lock:
            live = self._games.get(game_id)
        if live is None:
            live = self._live(game_id)
        with live.lock:
            if live.dead:
                return True  # take the game afresh
            self._catch_up_if_announced(live)
            if live.adapter.over:
                return False
            counts = live.counts[:] or [0] * len(live.seats)
            bots = {
                s: str(spec["bot"]) for s, spec in enumerate(live.seats) if spec["kind"] == "bot"
            }
            if not any(live.adapter.legal(s) for s in bots):
                return False
            wait = live.bot_delay - (time.monotonic() - live.changed_at)
            if wait > 0:  # a natural delay: the move appears ``bot_delay`` after the last one
                self._kick_later(game_id, wait)
                return False
            limit = 1 if live.bot_delay else BOT_BATCH
            game = live.adapter.setup.game
            searching = any(levels.resolve(game, b).searches for b in bots.values())
            pool = self._thinker_pool() if searching else None
            if pool is None:
                copy: Adapter | None = live.adapter.snapshot()
                log: list[tuple[int, str]] = []
            else:
                copy, log = None, live.log[:]
            setup = live.adapter.setup
            seen = live.version
        if copy is not None:
            decided = decide(copy, bots, counts, limit)
        else:
            assert pool is not None
            try:
                decided = pool.submit(think, game_id, setup, log, bots, counts, limit).result()
            except BrokenExecutor:
                log_.warning("the bots' processes broke down; bots think in threads from now on")
                with self._thinkers_lock:
                    self._bot_processes, self._thinkers = 0, None
                return True
        if not decided:
            return False
        with live.lock:
            if live.dead:
                return True  # the copy the bots thought on is gone: think again
            self._catch_up_if_announced(live)
            # unchanged since the copy: the decisions hold; else check them on the game now
            if live.version != seen and not self._still_valid(live, decided):
                return True  # somebody moved meanwhile and changed the bots' game: think again
            try:
                self._commit(live, [(s, a) for s, a, _n in decided])
            except StaleVersion:
                return True
            version_now = live.version
        self.broadcaster.publish(game_id, version_now)
        if live.adapter.over:
            self._finish(live)
            return False
        return True

    @staticmethod
    def _still_valid(live: _Live, decided: Sequence[tuple[int, str, int]]) -> bool:
        """Whether the bots' actions, thought out on an older copy, still apply in order, each
        from the same count of its seat's actions (caller holds the lock)."""
        counts = live.counts[:] or [0] * len(live.seats)
        copy: Adapter | None = None
        for s, action, n in decided:
            if counts[s] != n:
                return False
            if copy is None:
                if action not in live.adapter.legal(s):
                    return False
                copy = live.adapter.scratch()  # dropped before the lock is released
            elif action not in copy.legal(s):
                return False
            copy.apply(s, action)
            counts[s] += 1
        return True


def _json_text(state: dict[str, Any]) -> str:
    """``state`` as compact JSON text, UTF-8 as it is: orjson's serializer, which the web extra
    brings (about four times faster than pydantic-core's on a seat's state, 5 against 19 µs on a
    7 Wonders one and 10 against 42 µs on a One Card Wonder one, and the same bytes: keys in
    their order, no spaces, the same numbers; issue 30); what orjson does not take (a key not a
    string, a set) pydantic-core's makes, as before. Without the web extra :func:`json.dumps`,
    non-ASCII escaped — the same document."""
    if _to_json is None:
        return json.dumps(state, separators=(",", ":"))
    try:
        return _orjson.dumps(state).decode()
    except TypeError:
        return _to_json(state).decode()


@functools.lru_cache(maxsize=4096)
def _commitment(seed: str) -> str:
    """:func:`seed_sha256`, once per game (every state shows it)."""
    return seed_sha256(seed)


def _clock(live: _Live) -> dict[str, Any] | None:
    """The game's clock as a state shows it: name, seconds per turn, the turn's deadline."""
    if live.clock is None:
        return None
    deadline = None if live.deadline is None or live.adapter.over else live.deadline.isoformat()
    return {"name": live.clock, "seconds": live.turn_seconds, "deadline": deadline}


def _kinds(seats: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(s["kind"]) for s in seats]
