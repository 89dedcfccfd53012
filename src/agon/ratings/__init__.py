"""Multiplayer ratings with uncertainty from whole table results (pure domain, no I/O).

Every table of every round is one free-for-all game. Its seats are ranked by the event's ruleset
(placing score, then the in-game tie-breakers; equal seats share a rank), and the players' ratings
are updated with openskill's Plackett–Luce model (Weng & Lin 2011, "A Bayesian Approximation
Method for Online Ranking"). A rating is a mean ``mu`` and an uncertainty ``sigma``; ``ordinal`` is
the conservative ``mu − 3σ`` that rating lists are ordered by. Virtual seats (Bonn's fifth player)
are not people and are left out of the game.

Players are matched across events by their player profile when the director linked them to one
(the entry's ``profile`` field, :mod:`agon.profiles`): two entries with the same profile are one
person whatever their names. Unlinked players are matched by their name and distinguishing tag:
``"Jan Müller (Köln)"`` with tag ``Köln`` in one event and the same pair in another are one person,
while a plain ``"Jan Müller"`` is somebody else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from agon.errors import InvalidInput
from agon.tournament.event import Event
from agon.tournament.ruleset import Ruleset
from agon.tournament.scoring import score_table

#: The model's defaults (openskill's): a new player starts at mu 25, sigma 25/3.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


@dataclass(frozen=True, slots=True, eq=False)
class PlayerKey:
    """A person across events: the name without its tag, the tag ("" when there is none) and the
    player profile's id ("" when the entry is not linked to one).

    Two keys with a profile are equal when their profiles are, whatever their names; keys without
    one are equal when name and tag are. Keys sort by name, tag and profile.
    """

    name: str
    tag: str = ""
    profile: str = ""

    def _identity(self) -> tuple[int, str, str]:
        return (1, self.profile, "") if self.profile else (0, self.name, self.tag)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerKey):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __lt__(self, other: PlayerKey) -> bool:
        if self == other:
            return False
        return (self.name, self.tag, self.profile) < (other.name, other.tag, other.profile)

    def __gt__(self, other: PlayerKey) -> bool:
        return other < self

    def __le__(self, other: PlayerKey) -> bool:
        return self == other or self < other

    def __ge__(self, other: PlayerKey) -> bool:
        return self == other or other < self

    def __str__(self) -> str:
        return f"{self.name} ({self.tag})" if self.tag else self.name


def player_key(name: str, extra: Mapping[str, Any] | None = None) -> PlayerKey:
    """The person behind an event's player entry.

    >>> str(player_key("Jan Müller (Köln)", {"tag": "Köln"}))
    'Jan Müller (Köln)'
    >>> player_key("Jan Müller (Köln)", {"tag": "Köln"}).name
    'Jan Müller'
    >>> player_key("Anna")
    PlayerKey(name='Anna', tag='', profile='')
    >>> linked = {"profile": "jan-muller"}
    >>> player_key("J. Müller", linked) == player_key("Jan Müller", linked)
    True
    """
    extra = extra or {}
    profile = extra.get("profile")
    profile = profile.strip() if isinstance(profile, str) else ""
    tag = extra.get("tag")
    if isinstance(tag, str) and tag.strip():
        tag = tag.strip()
        base = name[: -len(tag) - 3] if name.endswith(f" ({tag})") else name
        return PlayerKey(base.strip(), tag, profile)
    return PlayerKey(name.strip(), "", profile)


@dataclass(frozen=True, slots=True)
class Game:
    """One table's outcome: the players in the order of their ranks (1 = best; ties share)."""

    event: str
    round: int
    table: int
    final: bool
    ranks: tuple[tuple[PlayerKey, int], ...]


@dataclass(frozen=True, slots=True)
class HistoryStep:
    """One game in a player's history: where, the rank taken, and the rating before and after."""

    game: Game
    rank: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's current rating."""

    player: PlayerKey
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu − 3σ`` (openskill's ``ordinal()``)."""
        return self.mu - 3 * self.sigma

    def as_json(self) -> dict[str, Any]:
        """``player`` (the name as last seen), ``mu``, ``sigma``, ``ordinal``, ``games``, and
        ``profile`` for a player linked to a profile."""
        out: dict[str, Any] = {
            "player": str(self.player),
            "mu": round(self.mu, 6),
            "sigma": round(self.sigma, 6),
            "ordinal": round(self.ordinal, 6),
            "games": self.games,
        }
        if self.player.profile:
            out["profile"] = self.player.profile
        return out


@dataclass(frozen=True, slots=True)
class RatingList:
    """Everybody's rating, best ordinal first (ties by name), and every player's history."""

    ratings: tuple[Rating, ...]
    history: Mapping[PlayerKey, tuple[HistoryStep, ...]]

    def find(self, text: str) -> PlayerKey:
        """The player named ``text`` (with or without the ``" (tag)"``), or whose profile's id is
        ``text``.

        Raises:
            InvalidInput: no such player, or the name fits several tagged players.
        """
        linked = [r.player for r in self.ratings if r.player.profile and r.player.profile == text]
        if linked:
            return linked[0]
        exact = [r.player for r in self.ratings if str(r.player) == text]
        if exact:
            return exact[0]
        by_name = [r.player for r in self.ratings if r.player.name == text]
        if len(by_name) == 1:
            return by_name[0]
        if by_name:
            names = ", ".join(repr(str(p)) for p in by_name)
            raise InvalidInput(f"player {text!r} is ambiguous: {names}; give the tag too")
        raise InvalidInput(f"no rated player {text!r}")


def games_of(event: Event, ruleset: Ruleset) -> list[Game]:
    """The event's tables as rated games, in round and table order (finals included)."""
    keys = {p.name: player_key(p.name, p.extra) for p in event.players}
    games = []
    for r, rnd in enumerate(event.rounds, start=1):
        for t, table in enumerate(rnd.tables, start=1):
            if len(table.results) < 2:
                continue  # a game needs opponents
            scored = score_table(ruleset, table.results)
            ranks = tuple(
                (keys[seat.player], int(seat.place or 0))
                for seat in scored.seats
                if seat.player is not None
            )
            games.append(Game(event.name, r, t, rnd.final, ranks))
    return games


def rate(games: Iterable[Game], *, model: PlackettLuce | None = None) -> RatingList:
    """Rate the games in the order given (a rating depends on the order of the games).

    Each game updates its players' ratings with the Plackett–Luce model; equal ranks are ties.
    A player linked to a profile is listed under the name of the last game played.
    """
    model = model or PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)
    current: dict[PlayerKey, PlackettLuceRating] = {}
    latest: dict[PlayerKey, PlayerKey] = {}
    played: dict[PlayerKey, int] = {}
    history: dict[PlayerKey, list[HistoryStep]] = {}
    for game in games:
        players = [key for key, _rank in game.ranks]
        if len(set(players)) != len(players):
            raise InvalidInput(
                f"{game.event}: round {game.round}, table {game.table}: a player sits twice"
            )
        before = [current.get(key) or model.rating(name=str(key)) for key in players]
        after = model.rate([[r] for r in before], ranks=[float(rank) for _k, rank in game.ranks])
        for key, old, (new,), (_key, rank) in zip(players, before, after, game.ranks, strict=True):
            current[key] = new
            latest[key] = key
            played[key] = played.get(key, 0) + 1
            history.setdefault(key, []).append(
                HistoryStep(game, rank, old.mu, old.sigma, new.mu, new.sigma)
            )
    ratings = sorted(
        (Rating(latest[key], r.mu, r.sigma, played[key]) for key, r in current.items()),
        key=lambda x: (-x.ordinal, x.player),
    )
    return RatingList(tuple(ratings), {k: tuple(v) for k, v in history.items()})


def rate_events(events: Sequence[tuple[Event, Ruleset]]) -> RatingList:
    """Rate every table of the events, event by event in the order given."""
    return rate(game for event, ruleset in events for game in games_of(event, ruleset))
