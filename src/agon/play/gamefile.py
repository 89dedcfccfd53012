"""A finished online game as a file anyone can check (issue 26; docs/online-play.md).

:func:`export_game` writes what a game was: its setup, its seats, its revealed seed and the
seed's SHA-256 (published while it ran), its log of ``(seq, seat, action)`` and its final scores —
only once the game is over (before that the seed is nobody's to know). ``agon play export`` and
``GET /api/play/{id}/log`` give it; ``agon verify FILE`` checks it with :func:`verify_game`:
the seed is the one committed to, every action in turn is legal when it is applied (the engines
replay the game from the seed), the log ends the game, and the final scores are the replay's.
The first divergent step is named.

The file (JSON, ``"format": "agon-game/1"``)::

    {"format": "agon-game/1", "game_id": "…", "game": "7w", "variant": "base",
     "seed": "…", "seed_sha256": "…",
     "setup": {"wonders": […] | null, "sides": […] | null, "guilds": […] | null,
               "choose_sides": false},
     "seats": [{"name": "Ann", "kind": "human", "bot": null}, …],
     "tournament": {"tournament": "slug", "round": 1, "table": 2} | null,
     "log": [[1, 0, "build Lumber Yard"], …],
     "scores": [{"player": "Ann", …, "total": 41}, …]}

``seat`` -1 in the log is the table's own action (the round clock's ``stop after age N``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agon.errors import AgonError, Conflict, InvalidInput
from agon.play.adapters import Setup, new_adapter
from agon.play.replay import replay
from agon.play.seeds import seed_sha256

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

FORMAT = "agon-game/1"
#: The most log entries a file may hold (a 7-seat 7 Wonders game has about 130).
MAX_LOG = 100_000


class GameNotOver(Conflict):
    """The game runs: its seed and log are not given out yet (HTTP 409)."""


def is_game_file(doc: object) -> bool:
    """Whether a parsed JSON document is a game file (rather than a schedule or event file)."""
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def export_game(session: Session, game_id: str) -> dict[str, Any]:
    """The game file of a finished game (see the module docstring).

    Raises:
        NotFound: no such game.  GameNotOver: the game is not over.
    """
    from agon.play import store

    record = store.load_game(session, game_id)
    log = store.actions_after(session, game_id, 0)
    names = [str(s.get("name")) for s in record.seats]
    scores = record.scores
    if not record.over:  # the log may have ended it while the row missed it (a crash)
        adapter = new_adapter(record.setup)
        for _seq, seat, action in log:
            adapter.apply(seat, action)
        if not adapter.over:
            raise GameNotOver(f"game {game_id}: still running; its seed and log come at its end")
        scores = adapter.scores(names)
    setup = record.setup
    meta = record.meta or {}
    tournament = (
        {"tournament": meta["tournament"], "round": meta.get("round"), "table": meta.get("table")}
        if isinstance(meta.get("tournament"), str)
        else None
    )
    return {
        "format": FORMAT,
        "game_id": record.game_id,
        "game": setup.game,
        "variant": setup.variant,
        "seed": setup.seed,
        "seed_sha256": seed_sha256(setup.seed),
        "setup": {
            "wonders": None if setup.wonders is None else list(setup.wonders),
            "sides": None if setup.sides is None else list(setup.sides),
            "guilds": None if setup.guilds is None else list(setup.guilds),
            "choose_sides": setup.choose_sides,
        },
        "seats": [
            {"name": str(s.get("name")), "kind": s.get("kind"), "bot": s.get("bot")}
            for s in record.seats
        ],
        "tournament": tournament,
        "log": [[seq, seat, action] for seq, seat, action in log],
        "scores": scores,
    }


# ------------------------------------------------------------------------- verification


@dataclass(frozen=True, slots=True)
class GameCheck:
    """What :func:`verify_game` found: mismatches (empty: the game verifies), one line each; and
    a one-line summary of what was checked."""

    problems: tuple[str, ...]
    summary: str


def _field(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = doc.get(key)
    if not isinstance(value, kind):
        raise InvalidInput(f"game file: field {key!r}: missing or of the wrong type")
    return value


def _names(value: Any, key: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(f"game file: field 'setup.{key}': expected a list of names or null")
    return tuple(value)


def setup_of(doc: Mapping[str, Any], seed: str) -> Setup:
    """The game's setup from a game file, with ``seed``.

    Raises:
        InvalidInput: a field missing or malformed.
    """
    extra = _field(doc, "setup", dict)
    seats = _field(doc, "seats", list)
    return Setup(
        game=_field(doc, "game", str),
        variant=_field(doc, "variant", str),
        seats=len(seats),
        seed=seed,
        wonders=_names(extra.get("wonders"), "wonders"),
        sides=_names(extra.get("sides"), "sides"),
        guilds=_names(extra.get("guilds"), "guilds"),
        choose_sides=extra.get("choose_sides") is True,
    )


def _log(doc: Mapping[str, Any]) -> list[tuple[int, int, str]]:
    raw = _field(doc, "log", list)
    if len(raw) > MAX_LOG:
        raise InvalidInput(f"game file: the log has more than {MAX_LOG} entries")
    out = []
    for i, entry in enumerate(raw, start=1):
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in entry[:2])
            or not isinstance(entry[2], str)
        ):
            raise InvalidInput(f"game file: log entry {i}: expected [seq, seat, action]")
        out.append((entry[0], entry[1], entry[2]))
    return out


def _seat_names(doc: Mapping[str, Any]) -> list[str]:
    names = []
    for i, s in enumerate(_field(doc, "seats", list)):
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            raise InvalidInput(f"game file: seat {i}: expected an object with a 'name'")
        names.append(s["name"])
    return names


def _score_problem(got: Any, want: Sequence[Mapping[str, Any]]) -> str | None:
    if got == want:
        return None
    if not isinstance(got, list) or len(got) != len(want):
        return f"scores differ: the file has {str(got)[:80]!r}, the replay scores {len(want)} seats"
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        if g != w:
            keys = sorted(set(g) | set(w)) if isinstance(g, dict) else ["total"]
            key = next(
                (c for c in keys if not isinstance(g, dict) or g.get(c) != w.get(c)), "total"
            )
            shown = g.get(key) if isinstance(g, dict) else g
            return (
                f"scores differ: seat {k} ({w.get('player')}) {key}: the file has {shown!r}, "
                f"the replay gives {w.get(key)!r}"
            )
    return None  # pragma: no cover - equal lists are caught above


def verify_game(doc: Mapping[str, Any], *, tournament_seed: str | None = None) -> GameCheck:
    """Check a game file: its seed against the published SHA-256, then replay its log from the
    seed, each action checked legal when it is applied; then the final scores. Stops at the first
    divergent step (a later step of a diverged game says nothing). With ``tournament_seed`` (a
    tournament table's game, the tournament's seed revealed after the event) the game's seed must
    also be the one derived from it.

    Raises:
        InvalidInput: not a game file, or a field missing or malformed (exit code 2).
    """
    from agon.tournament.draws import online_game_seed

    if not is_game_file(doc):
        raise InvalidInput(f'not a game file (expected "format": {FORMAT!r})')
    seed = _field(doc, "seed", str)
    published = _field(doc, "seed_sha256", str)
    names = _seat_names(doc)
    log = _log(doc)
    setup = setup_of(doc, seed)
    if seed_sha256(seed) != published.strip().lower():
        return GameCheck(
            (
                "the seed is not the one committed to: its SHA-256 is "
                f"{seed_sha256(seed)}, the game published {published[:64]}",
            ),
            "",
        )
    problems: list[str] = []
    table = doc.get("tournament")
    if tournament_seed is not None:
        if not isinstance(table, dict):
            raise InvalidInput("game file: this game is no tournament table's (no 'tournament')")
        try:
            derived = online_game_seed(tournament_seed, int(table["round"]), int(table["table"]))
        except (KeyError, TypeError, ValueError):
            raise InvalidInput("game file: field 'tournament': expected round and table") from None
        if derived != seed:
            problems.append(
                f"the seed is not the one the tournament seed gives round {table['round']}, "
                f"table {table['table']}"
            )
    try:
        adapter, divergence = replay(setup, log)
    except AgonError as exc:
        raise InvalidInput(f"game file: the setup does not make a game: {exc}") from None
    if divergence is not None:
        return GameCheck((*problems, str(divergence)), "")
    if not adapter.over:
        return GameCheck(
            (*problems, f"the log ends after step {len(log)}, before the game is over"), ""
        )
    problem = _score_problem(doc.get("scores"), adapter.scores(names))
    if problem is not None:
        problems.append(problem)
    summary = (
        f"{doc['game']} game {str(doc.get('game_id', ''))[:40]}: the seed matches its SHA-256, "
        f"all {len(log)} steps are legal and the final scores match"
        + (" (the seed derives from the tournament seed)" if tournament_seed is not None else "")
    )
    return GameCheck(tuple(problems), summary)
