"""A game host for tests: real 7 Wonders games (the engine) kept in memory, played by bots on
demand. It stands in for the online game service behind :class:`agon.services.online.GameHost`."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from agon.games.seven_wonders.bots import RandomBot
from agon.games.seven_wonders.engine import Game
from agon.services.online import CreatedTable, GameOrder, SeatScore
from agon.services.schemas import wonder_names
from agon.tournament.score_pad import SCORE_PAD_CATEGORIES


@dataclass
class _Game:
    order: GameOrder
    game: Game
    bots: set[int]
    idle: dict[int, float] = field(default_factory=dict)


class EngineHost:
    """Games of the 7 Wonders engine; :meth:`play_out` lets random bots play a game to its end
    (or to the end of an age: a table stopped by the round clock)."""

    def __init__(self) -> None:
        self.games: dict[str, _Game] = {}
        self.created = 0
        self.outcome_calls = 0
        #: the sides the seats choose where the players choose (seat k: ``choices[k % len]``)
        self.choices = ("B", "A")

    def create(self, session: Session, order: GameOrder) -> CreatedTable:
        seed = int.from_bytes(hashlib.sha256(order.seed.encode()).digest()[:6], "big")
        n = len(order.seats)
        sides = order.sides
        if order.choose_sides:
            assert sides is None
            sides = tuple(self.choices[k % len(self.choices)] for k in range(n))
        game = Game(n, seed, wonders=order.wonders, sides=sides, guilds=order.guilds)
        game_id = f"g{len(self.games) + 1}"
        bots = {k for k, s in enumerate(order.seats) if s.kind == "bot"}
        self.games[game_id] = _Game(order, game, bots)
        self.created += 1
        links = tuple(
            None if k in bots else f"/play/{game_id}?token=secret-{game_id}-{k}"
            for k in range(len(order.seats))
        )
        return CreatedTable(game_id, links)

    def play_out(self, game_id: str, *, until_age: int = 3) -> None:
        """Random bots play the game to its end, or until age ``until_age`` is over."""
        g = self.games[game_id]
        bot = RandomBot(7)
        while not g.game.over and g.game.age <= until_age:
            g.game.step({p: bot.act(g.game, p) for p in g.game.to_act()})

    def outcome(self, session: Session, game_id: str) -> tuple[SeatScore, ...] | None:
        self.outcome_calls += 1
        if not self.games[game_id].game.over:
            return None
        return self._scores(game_id)

    def _scores(self, game_id: str) -> tuple[SeatScore, ...]:
        g = self.games[game_id]
        out = []
        for s, city in zip(g.game.scores(), g.game.cities, strict=True):
            breakdown = {
                "military": s.military,
                "treasury": s.coins,
                "wonder": s.wonder,
                "civilian": s.civilian,
                "commercial": s.commercial,
                "guilds": s.guilds,
                "science": s.science,
            }
            assert set(breakdown) == set(SCORE_PAD_CATEGORIES)
            out.append(
                SeatScore(
                    vp=s.total,
                    coins=city.coins,
                    wonder=wonder_names()[city.wonder.en.lower()],
                    side=city.side,
                    breakdown=breakdown,
                )
            )
        return tuple(out)

    def idle_seconds(self, session: Session, game_id: str, seat: int, now: datetime) -> float:
        return self.games[game_id].idle.get(seat, 0.0)

    def hand_to_bot(self, session: Session, game_id: str, seat: int, bot: str) -> None:
        self.games[game_id].bots.add(seat)

    def current_age(self, session: Session, game_id: str) -> int:
        return self.games[game_id].game.age

    def score_now(self, session: Session, game_id: str) -> tuple[SeatScore, ...]:
        return self._scores(game_id)

    def stop_after_age(self, session: Session, game_id: str) -> int | None:
        game = self.games[game_id].game
        if game.over:
            return None
        if game.last_age == 3:
            game.finish_after_age(game.age)
        return game.last_age
