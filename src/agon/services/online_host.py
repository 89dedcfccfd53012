"""The online game service (:mod:`agon.play`) as the :class:`~agon.services.online.GameHost` of
tournament tables.

Games are created in the store (so ``agon round start --online`` works without a running server;
``agon serve`` resumes them and runs their bots). A game's end is read from the store; coins in
the treasury, wonder and side come from the game rebuilt from its log (the store keeps the score
pad only). With the server's :class:`~agon.play.service.PlayService` at hand, new games' bots
start at once and a seat handed to a bot takes effect in the running game.
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from agon.errors import Conflict, NotFound
from agon.play import presence, store
from agon.play.adapters import TABLE, Adapter, new_adapter, stop_action
from agon.play.clocks import timed_out_seat
from agon.play.service import PlayService
from agon.services.online_games import CreatedTable, GameOrder, SeatScore
from agon.services.schemas import wonder_names
from agon.store.models import PlayActionRow, PlayGameRow
from agon.tournament.score_pad import SCORE_PAD_CATEGORIES

#: Games kept replayed between sweeps (the oldest is dropped first).
MAX_KEPT = 512
#: The score pad's categories as the game's result names them (``coins``: VP from the treasury).
_PAD = {"treasury": "coins"}


def _scores(rows: Any, details: list[dict[str, Any]]) -> tuple[SeatScore, ...]:
    """Seat scores from the game's score pad rows and its per-seat details (coins, wonder)."""
    return tuple(
        SeatScore(
            vp=int(row["total"]),
            coins=int(detail["treasury"]),
            wonder=wonder_names().get(str(detail["wonder"]).lower()),
            side=str(detail["side"]),
            breakdown={c: int(row[_PAD.get(c, c)]) for c in SCORE_PAD_CATEGORIES},
        )
        for row, detail in zip(rows, details, strict=True)
    )


class PlayHost:
    """Tournament tables on :mod:`agon.play` (``service``: the server's, when there is one)."""

    def __init__(self, service: PlayService | None = None) -> None:
        self.service = service
        #: game id -> (log entries applied, the game): a sweep asks about every running game
        #: every few seconds; only the actions since the last look are applied.
        self._games: dict[str, tuple[int, Adapter]] = {}
        self._lock = threading.Lock()

    def create(self, session: Session, order: GameOrder) -> CreatedTable:
        created = store.create_game(
            session,
            game="7w",
            seats=[
                store.SeatSpec(
                    kind=s.kind, name=s.player[:60], bot=s.bot if s.kind == "bot" else None
                )
                for s in order.seats
            ],
            seed=order.seed,
            wonders=order.wonders,
            sides=order.sides,
            guilds=order.guilds,
            meta={
                "tournament_table": order.label,
                "tournament": order.tournament,
                "round": order.round,
                "table": order.table,
            },
            choose_sides=order.choose_sides,
        )
        if self.service is not None:
            self.service.kick(created.game_id)
        return CreatedTable(created.game_id, tuple(t.url for t in created.seats))

    def _replayed(self, session: Session, game_id: str) -> Adapter:
        """The game as its log stands now (kept between calls; a game is rebuilt exactly from
        its setup and log, see :mod:`agon.play.adapters`)."""
        with self._lock:
            seen, adapter = self._games.get(game_id, (0, None))
            if adapter is None:
                adapter = new_adapter(store.load_game(session, game_id).setup)
            for seq, seat, action in store.actions_after(session, game_id, seen):
                adapter.apply(seat, action)
                seen = seq
            self._games[game_id] = (seen, adapter)
            if len(self._games) > MAX_KEPT:
                self._games.pop(next(iter(self._games)))
            return adapter.snapshot()  # the kept one changes under the next caller

    def outcome(self, session: Session, game_id: str) -> tuple[SeatScore, ...] | None:
        record = store.load_game(session, game_id)
        if not record.over or not record.scores:
            return None
        return _scores(record.scores, self._replayed(session, game_id).details())

    def idle_seconds(self, session: Session, game_id: str, seat: int, now: datetime) -> float:
        """How long the seat's player has been away: 0 while a client of the seat is connected
        (:mod:`agon.play.presence`), else since the seat's last client went away, its last
        action, or the game's beginning — whichever is latest."""
        here = presence.seat_presence(session, game_id, seat, now)
        if here.connected:
            return 0.0
        begun = session.scalar(select(PlayGameRow.created_at).where(PlayGameRow.id == game_id))
        if begun is None:
            raise NotFound(f"no game {game_id!r}")
        acted = session.scalar(
            select(func.max(PlayActionRow.at)).where(
                PlayActionRow.game_id == game_id, PlayActionRow.seat == seat
            )
        )
        last = max(t for t in (begun, acted, here.since) if t is not None)
        return max(0.0, (now - last).total_seconds())

    def hand_to_bot(self, session: Session, game_id: str, seat: int, bot: str) -> None:
        if self.service is not None:
            self.service.replace_with_bot(game_id, seat, bot)
            return
        record = store.load_game(session, game_id)
        seats = [dict(s) for s in record.seats]
        seats[seat].update(kind="bot", bot=bot, token_hash=None)
        store.set_seats(session, game_id, seats)

    def current_age(self, session: Session, game_id: str) -> int:
        return self._replayed(session, game_id).current_age()

    def stop_after_age(self, session: Session, game_id: str) -> int | None:
        if self.service is not None:
            return self.service.stop_after_age(game_id)
        # no server here (the command line): append the table's stop to the log like the server
        # would; a server that runs meanwhile catches up with it (a lost race: try again)
        for _attempt in range(3):
            log = store.actions_after(session, game_id, 0)
            for _seq, seat, action in log:
                if seat == TABLE and timed_out_seat(action) is None:  # not a turn clock's timeout
                    return int(action.rsplit(" ", 1)[1])
            adapter = self._replayed(session, game_id)
            if adapter.over:
                return None
            age = max(1, adapter.current_age())
            try:
                store.append_actions(
                    session,
                    game_id,
                    len(log) + 1,
                    [(TABLE, stop_action(age))],
                    prev=store.log_chain(log),
                )
            except IntegrityError:
                session.rollback()
                continue
            return age
        raise Conflict(f"game {game_id}: too busy to stop; the next sweep tries again")

    def score_now(self, session: Session, game_id: str) -> tuple[SeatScore, ...]:
        record = store.load_game(session, game_id)
        adapter = self._replayed(session, game_id)
        names = [str(s.get("name", "")) for s in record.seats]
        return _scores(adapter.scores(names), adapter.details())
