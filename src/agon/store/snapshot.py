"""A read-only look at a SQLite database with Python's own ``sqlite3``, without SQLAlchemy.

Importing SQLAlchemy costs more CPU than the director's read commands need for everything else
(issue 30: ``import sqlalchemy`` alone 0.3 s, the whole ``agon tournament list`` can be 0.1 s).
:mod:`agon.commands.fast_reads` answers ``tournament list``, ``round show`` and ``tournament
standings`` from a :class:`Snapshot`; the rows it loads carry the attribute names of
:mod:`agon.store.models` (``t.rounds[k].tables[j].results``), so :mod:`agon.services.views`
computes from them exactly what the services compute from the ORM's rows.

Only a plain SQLite file URL (``sqlite:///path``, no query, no escapes) that exists, is private
to its owner and is migrated to this package's newest revision is read here; for anything else
:func:`sqlite_path` or :meth:`Snapshot.current` says no and the command takes its usual path.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

_MIGRATION_FILE = re.compile(r"^(\d{4})_\w+\.py$")
#: The settings key of the default tournament (:data:`agon.services.tournaments.DEFAULT_KEY`).
DEFAULT_KEY = "default_tournament"
#: Milliseconds to wait for a writer's lock (:class:`agon.store.db.Settings`).
BUSY_TIMEOUT_MS = 30_000


def sqlite_path(url: str) -> Path | None:
    """The file of a plain SQLite URL ``sqlite:///PATH`` (no driver, no query, no ``%``
    escapes, not in memory), else ``None``."""
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        return None
    database = url[len(prefix) :]
    if not database or database == ":memory:" or any(c in database for c in "?%#\x00"):
        return None
    return Path(database)


def package_head() -> str:
    """The newest migration shipped with the package (as :func:`agon.store.migrate.package_head`
    finds it: the highest number among the migration files' names)."""
    versions = Path(__file__).parent / "migrations" / "versions"
    found = [m.group(1) for f in versions.iterdir() if (m := _MIGRATION_FILE.match(f.name))]
    return max(found)


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


@dataclass(slots=True)
class ResultSnap:
    seat: int
    player: str
    vp: int
    coins: int
    bid: int
    wonder: str | None
    side: str | None
    breakdown: dict[str, int] | None
    confirmed: bool
    left: bool


@dataclass(slots=True)
class TableSnap:
    number: int
    seats: list[str]
    state: str
    version: int
    auction: list[str] | None
    results: list[ResultSnap] = field(default_factory=list)


@dataclass(slots=True)
class RoundSnap:
    number: int
    final: bool
    status: str
    wonders: list[str]
    guilds: list[str]
    sides: dict[str, str] | None
    info: dict[str, Any]
    tables: list[TableSnap] = field(default_factory=list)


@dataclass(slots=True)
class PlayerSnap:
    name: str
    extra: dict[str, Any]


@dataclass(slots=True)
class TournamentSnap:
    """A tournament's row with its players, rounds, tables and results, in the ORM's orders."""

    slug: str
    name: str
    ruleset_ref: str
    ruleset_toml: str | None
    seed: str
    info: dict[str, Any]
    players: list[PlayerSnap] = field(default_factory=list)
    rounds: list[RoundSnap] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TournamentCounts:
    """A line of the tournament list."""

    slug: str
    name: str
    ruleset_ref: str
    players: int
    rounds: int


class Snapshot:
    """One read transaction on the SQLite file ``path`` (a consistent view while writers work)."""

    def __init__(self, path: Path) -> None:
        self._conn = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
        )

    def __enter__(self) -> Snapshot:
        self._conn.execute("BEGIN")
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self._conn.execute("ROLLBACK")
        finally:
            self._conn.close()

    def current(self) -> bool:
        """Whether the database is at this package's newest migration (nothing to upgrade)."""
        try:
            rows = self._conn.execute("SELECT version_num FROM alembic_version").fetchall()
        except sqlite3.Error:
            return False
        return [r[0] for r in rows] == [package_head()]

    def default_tournament(self) -> str | None:
        """The remembered default tournament, else the only one, else ``None``."""
        row = self._conn.execute(
            "SELECT value FROM settings WHERE key = ?", (DEFAULT_KEY,)
        ).fetchone()
        if row is not None:
            return str(row[0])
        slugs = self._conn.execute("SELECT slug FROM tournaments").fetchall()
        return str(slugs[0][0]) if len(slugs) == 1 else None

    def tournament_list(self) -> list[TournamentCounts]:
        """Every tournament with its counts of players and rounds, in the order of creation."""
        rows = self._conn.execute(
            "SELECT t.slug, t.name, t.ruleset_ref,"
            " (SELECT count(*) FROM players p WHERE p.tournament_id = t.id),"
            " (SELECT count(*) FROM rounds r WHERE r.tournament_id = t.id)"
            " FROM tournaments t ORDER BY t.id"
        ).fetchall()
        return [TournamentCounts(*row) for row in rows]

    def tournament(self, slug: str) -> TournamentSnap | None:
        """The tournament ``slug`` with everything in it (``None``: no such tournament)."""
        conn = self._conn
        head = conn.execute(
            "SELECT id, slug, name, ruleset_ref, ruleset_toml, seed, info"
            " FROM tournaments WHERE slug = ?",
            (slug,),
        ).fetchone()
        if head is None:
            return None
        tid = head[0]
        t = TournamentSnap(
            slug=head[1],
            name=head[2],
            ruleset_ref=head[3],
            ruleset_toml=head[4],
            seed=head[5],
            info=_json(head[6]),
        )
        t.players = [
            PlayerSnap(name, _json(extra))
            for name, extra in conn.execute(
                "SELECT name, extra FROM players WHERE tournament_id = ? ORDER BY id", (tid,)
            )
        ]
        rounds: dict[int, RoundSnap] = {}
        for rid, number, final, status, wonders, guilds, sides, info in conn.execute(
            "SELECT id, number, final, status, wonders, guilds, sides, info"
            " FROM rounds WHERE tournament_id = ? ORDER BY number",
            (tid,),
        ):
            rounds[rid] = RoundSnap(
                number=number,
                final=bool(final),
                status=status,
                wonders=_json(wonders),
                guilds=_json(guilds),
                sides=_json(sides),
                info=_json(info),
            )
        t.rounds = list(rounds.values())
        tables: dict[int, TableSnap] = {}
        for gid, rid, number, seats, state, version, auction in conn.execute(
            "SELECT g.id, g.round_id, g.number, g.seats, g.state, g.version, g.auction"
            " FROM game_tables g JOIN rounds r ON r.id = g.round_id"
            " WHERE r.tournament_id = ? ORDER BY g.round_id, g.number",
            (tid,),
        ):
            table = TableSnap(
                number=number,
                seats=_json(seats),
                state=state,
                version=version,
                auction=_json(auction),
            )
            tables[gid] = table
            rounds[rid].tables.append(table)
        for row in conn.execute(
            "SELECT s.table_id, s.seat, s.player, s.vp, s.coins, s.bid, s.wonder, s.side,"
            ' s.breakdown, s.confirmed, s."left"'
            " FROM results s JOIN game_tables g ON g.id = s.table_id"
            " JOIN rounds r ON r.id = g.round_id"
            " WHERE r.tournament_id = ? ORDER BY s.table_id, s.seat",
            (tid,),
        ):
            tables[row[0]].results.append(
                ResultSnap(
                    seat=row[1],
                    player=row[2],
                    vp=row[3],
                    coins=row[4],
                    bid=row[5],
                    wonder=row[6],
                    side=row[7],
                    breakdown=_json(row[8]),
                    confirmed=bool(row[9]),
                    left=bool(row[10]),
                )
            )
        return t
