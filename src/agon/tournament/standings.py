"""Tournament standings: totals over all games, the ruleset's tie-break chain, and the reasons.

Tournament points are the sum of rank points over the games a player played (Bonn 2018: "Die
Punkte aus den ... Spielen werden addiert"; Ludolimpico 4: "in base al maggior numero di Punti
Torneo"). Equal points go through the ruleset's chain: Bonn — sum of shares, sum of VP, sum of coins,
lot; Ludolimpico — sum of Punti Partita, lot; German championship — sum of shares, sum of VP, lot.
The lot is a draw from the event's seed *and a digest of every qualifying result*
(:func:`lot_input`): the same file always gives the same standings, and a director who chooses the
seed before the event cannot steer the lot, because its input is fixed only by the last result
(docs/standings.md, "The lot"). Every row records the criterion that separated it from the row above.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from math import lcm
from operator import attrgetter, floordiv, itemgetter, mul
from typing import Any

from agon.errors import N_, InvalidInput
from agon.tournament.event import Event, Round
from agon.tournament.ruleset import STANDINGS_TIE_BREAKERS, Ruleset
from agon.tournament.scoring import (
    SeatKey,
    TableScore,
    full_table_contributions,
    rank_points_scale,
    score_rows,
    score_table,
)

#: Human names of every criterion, for the readable table and the explanations.
CRITERION_LABELS: dict[str, str] = {"points": "tournament points", **STANDINGS_TIE_BREAKERS}


@dataclass(frozen=True, slots=True)
class Totals:
    """A player's sums over the games played."""

    player: str
    points: Fraction
    share: Fraction
    vp: int
    coins: int
    pp: int
    games: int
    #: the seeding rating the event was given (0 without one), a tie-break before the lot
    rating: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class LeftGame:
    """A game a player left during play (Ludolimpico 2.5): round ``round`` (1-based, in the
    event's order), table ``table``; ``final`` when it was the final."""

    round: int
    table: int
    final: bool = False


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One row of the standings; ``decided_by`` is ``None`` for the first row."""

    rank: int
    player: str
    totals: Totals
    tiebreaks: Mapping[str, Fraction | int]
    decided_by: str | None
    #: what else explains the row, e.g. a game left during play (Ludolimpico 2.5)
    notes: tuple[str, ...] = ()
    #: the games the player left during play (Ludolimpico 2.5), for the notes in other languages
    left: tuple[LeftGame, ...] = ()


@dataclass(frozen=True, slots=True)
class Standings:
    """The ordered standings of an event under a ruleset."""

    ruleset: Ruleset
    rows: tuple[StandingRow, ...]
    #: the lot's input: the event's seed and the digest of the results (:func:`lot_input`)
    seed: str
    #: the event has seeding ratings: they decide before the lot (:func:`chain_of`)
    rated: bool = False

    def row_of(self, player: str) -> StandingRow:
        for row in self.rows:
            if row.player == player:
                return row
        raise InvalidInput(
            f"unknown player {player!r}",
            msgid=N_("%(player)s is not in the standings."),
            params={"player": player},
        )

    def explain(self, a: str, b: str) -> str:
        """One sentence on why ``a`` and ``b`` stand in the order they do."""
        return explain(self, a, b)


def lot_key(seed: str, player: str) -> int:
    """The player's lot: a number drawn from the lot's input; the smaller lot is placed first.

    ``seed`` is the lot's input (:func:`lot_input`). The lot depends only on it and the player's
    name, so neither the order of the file's players nor other players change it.
    """
    digest = hashlib.sha256(f"agon-lot\x00{seed}\x00{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def results_digest(rounds: Iterable[Round]) -> str:
    """SHA-256 (hex) of every qualifying result: per round, each player's VP, coins and bid.

    Within a round the results are taken in the order of the players' names, so the digest (like
    the standings) does not depend on the order of tables or seats. Finals are left out: the
    qualifying standings (and so the finalists) must not change when the final is played. A
    change to any result changes the digest.
    """
    return digest_seats(
        (
            rnd.final,
            [
                (res.player, res.vp, res.coins, res.bid, res.left)
                for table in rnd.tables
                for res in table.results
            ],
        )
        for rnd in rounds
    )


def digest_seats(
    rounds: Iterable[tuple[bool, list[tuple[str, int, int, int, bool]]]],
    *,
    native: bool | None = None,
    presorted: bool = False,
) -> str:
    """:func:`results_digest` of rounds given as (final, every seat's (player, VP, coins, bid,
    left)); the list of seats is sorted in place, unless ``presorted`` says it is sorted already
    (each player once, in name order). ``native``: as for :func:`sum_tables` (the compiled core
    writes the same bytes)."""
    core = _core(native)
    h = hashlib.sha256(b"agon-results-v1")
    for r, (final, entries) in enumerate(rounds, start=1):
        if final:
            continue
        if not presorted:
            entries.sort()
        if core is not None:
            h.update(core.digest_bytes(r, entries))
            continue
        # one update per round: the same bytes, so the same digest, as one update per result;
        # each seat is "\0{round}\0{player}\0{vp}\0{coins}\0{bid}\0{left as 0/1}"
        line = f"\x00{r}\x00%s\x00%d\x00%d\x00%d\x00%d"
        h.update("".join(map(line.__mod__, entries)).encode())
    return h.hexdigest()


def lot_input(event: Event) -> str:
    """The lot's input: ``"{seed}|results:{digest}"`` (:func:`results_digest`).

    The seed alone would let a director who picks it in advance search for one whose lot favours
    a player; the digest of the results is fixed only once the last game is scored, so no seed
    chosen before the event can steer the lot. Anyone can recompute it from the exported event.
    """
    return f"{event.seed}|results:{results_digest(event.rounds)}"


def score_rounds(ruleset: Ruleset, rounds: Iterable[Round]) -> list[list[TableScore]]:
    """Score every table of every round."""
    return [[score_table(ruleset, table.results) for table in rnd.tables] for rnd in rounds]


def compute_totals(event: Event, ruleset: Ruleset, *, include_finals: bool = False) -> list[Totals]:
    """Sum every player's rank points, shares, VP, coins and game points over the games played.

    A player absent from a round scores nothing in it. Rounds marked ``final`` are left out unless
    ``include_finals`` (the final's own ranking decides the podium, Ludolimpico 1). A player who
    left during a game (Ludolimpico 2.5) has no seat in its scoring.
    """
    return sum_tables(
        ruleset,
        event.player_names,
        (
            [(r.player, r.vp, r.coins, r.bid, False) for r in table.results if not r.left]
            for rnd in event.rounds
            if include_finals or not rnd.final
            for table in rnd.tables
        ),
        event.seed_ratings,
    )


_SEAT = itemgetter(0)
_SECOND = itemgetter(1)
_THIRD = itemgetter(2)
_FOURTH = itemgetter(3)


def sum_tables(
    ruleset: Ruleset,
    names: Iterable[str],
    tables: Iterable[list[SeatKey]],
    seed_ratings: Mapping[str, float] | None = None,
    *,
    native: bool | None = None,
) -> list[Totals]:
    """The players' :class:`Totals` over ``tables``, each given as its real seats in seat order:
    (player, VP, coins, bid, False). ``names`` gives the players and the order of the totals.

    With the compiled standings core (:mod:`agon.cores.standings`) the tables without virtual
    seats are scored and summed in C; the totals are the same (a property test compares them
    with the Python sums). ``native``: ``None`` uses the core when agon has it, ``False`` never,
    ``True`` always (an :class:`ImportError` without it).
    """
    core = _core(native)
    if core is None:
        return _sum_tables_python(ruleset, names, tables, seed_ratings)
    return _sum_tables_native(core, ruleset, names, tables, seed_ratings)


_CORE: list[Any] = []


def standings_core() -> Any:
    """The compiled standings core (:mod:`agon.cores.standings`), or ``None`` when agon was
    built without it (no C compiler): the Python code then gives the same standings."""
    if not _CORE:
        try:
            import agon.cores.standings as core
        except ImportError:
            _CORE.append(None)
        else:
            _CORE.append(core)
    return _CORE[0]


def _core(native: bool | None) -> Any:
    """The core to use: ``native`` ``None`` — the core if agon has it; ``False`` — none;
    ``True`` — the core, or :class:`ImportError` without it."""
    if native is False:
        return None
    core = standings_core()
    if native and core is None:
        raise ImportError("agon was built without its compiled standings core")
    return core


def _sum_tables_native(
    core: Any,
    ruleset: Ruleset,
    names: Iterable[str],
    tables: Iterable[list[SeatKey]],
    seed_ratings: Mapping[str, float] | None,
) -> list[Totals]:
    """:func:`sum_tables` with the compiled core: full tables in C, the rest scored in Python
    (virtual seats, rare table sizes) and added to the same sums."""
    breakers = tuple(b for b in ruleset.game_tie_breakers if b != "real-before-virtual")
    if len(breakers) > 2 or not set(breakers) <= set(core.BREAKERS):
        return _sum_tables_python(ruleset, names, tables, seed_ratings)
    order = list(dict.fromkeys(names))
    index = {name: i for i, name in enumerate(order)}
    scale = rank_points_scale(ruleset)
    fill_to = ruleset.virtual_fill_to
    by_bid = ruleset.placing_score == "vp-minus-bid"
    points_by_k: dict[int, tuple[int, ...]] = {}
    for k in ruleset.table_sizes:
        if k >= fill_to:
            with suppress(InvalidInput):  # then scored in Python, which names the problem
                points_by_k[k] = ruleset.rank_points(k)
    sums = core.Sums(index, by_bid, breakers, points_by_k, scale)
    # the core scores the tables of a size in points_by_k and hands back the others
    for seats in sums.add_tables(tables):
        if len(seats) >= fill_to:
            contributions = full_table_contributions(ruleset, seats, scale)
        else:
            contributions = [
                (seat, pts, num, den)
                for seat, _, _, _, pts, num, den in score_rows(
                    ruleset, [(s, s[1], s[2], s[3]) for s in seats], scale
                )[0]
                if seat is not None
            ]
        for seat, pts, num, den in contributions:
            sums.add(index[seat[0]], pts, seat[1], seat[2], seat[3], num, den)
    ratings = seed_ratings or {}
    zero = Fraction(0)
    points_cache: dict[int, Fraction] = {}
    out = []
    for name, (pts, num, den, vp, coins, bids, games) in zip(order, sums.result(), strict=True):
        points = points_cache.get(pts)
        if points is None:
            points = points_cache[pts] = Fraction(pts, scale)
        rating = ratings.get(name)
        out.append(
            Totals(
                player=name,
                points=points,
                share=Fraction(num, den) if games else zero,
                vp=vp,
                coins=coins,
                pp=vp - bids if by_bid else vp,
                games=games,
                rating=zero if rating is None else Fraction(rating),
            )
        )
    return out


def _sum_tables_python(
    ruleset: Ruleset,
    names: Iterable[str],
    tables: Iterable[list[SeatKey]],
    seed_ratings: Mapping[str, float] | None = None,
) -> list[Totals]:
    """:func:`sum_tables` in Python (the reference the compiled core is compared with)."""
    played: dict[str, list[tuple[SeatKey, int, int, int]]] = {name: [] for name in names}
    scale = rank_points_scale(ruleset)
    fill_to = ruleset.virtual_fill_to
    for seats in tables:
        if not seats:
            continue
        if len(seats) >= fill_to:  # no virtual seat: the plain rules, fast
            core = full_table_contributions(ruleset, seats, scale)
        else:
            core = [
                (seat, pts, num, den)
                for seat, _, _, _, pts, num, den in score_rows(
                    ruleset, [(s, s[1], s[2], s[3]) for s in seats], scale
                )[0]
                if seat is not None
            ]
        for contribution in core:
            played[contribution[0][0]].append(contribution)
    by_bid = ruleset.placing_score == "vp-minus-bid"
    ratings = seed_ratings or {}
    zero = Fraction(0)
    points_cache: dict[int, Fraction] = {}
    out = []
    for name, games in played.items():
        # sums in C (map, sum): rank points, VP, coins, bids, and the shares over a common
        # denominator (exact; Fraction reduces it)
        seats = list(map(_SEAT, games))
        points_scaled = sum(map(_SECOND, games))
        points = points_cache.get(points_scaled)
        if points is None:
            points = points_cache[points_scaled] = Fraction(points_scaled, scale)
        vp = sum(map(_SECOND, seats))
        share = zero
        if games:
            dens = list(map(_FOURTH, games))
            common = lcm(*dens)
            share = Fraction(
                sum(map(mul, map(_THIRD, games), map(floordiv, repeat(common), dens))), common
            )
        rating = ratings.get(name)
        out.append(
            Totals(
                player=name,
                points=points,
                share=share,
                vp=vp,
                coins=sum(map(_THIRD, seats)),
                pp=vp - sum(map(_FOURTH, seats)) if by_bid else vp,
                games=len(games),
                rating=zero if rating is None else Fraction(rating),
            )
        )
    return out


def _criterion_value(totals: Totals, criterion: str, seed: str) -> Fraction | int:
    if criterion == "points":
        return totals.points
    if criterion == "share":
        return totals.share
    if criterion == "vp":
        return totals.vp
    if criterion == "coins":
        return totals.coins
    if criterion == "pp":
        return totals.pp
    if criterion == "rating":
        return totals.rating
    if criterion == "lot":
        return lot_key(seed, totals.player)
    raise InvalidInput(f"unknown standings criterion {criterion!r}")


def _sort_value(totals: Totals, criterion: str, seed: str) -> Fraction | int:
    """Higher is better for every criterion but the lot, where the smaller draw comes first."""
    value = _criterion_value(totals, criterion, seed)
    return value if criterion == "lot" else -value


def _chain(ruleset: Ruleset, rated: bool = False) -> tuple[str, ...]:
    """Points, the ruleset's tie-breaks, the lot last; with seeding ratings (``rated``) the
    rating decides where the ruleset's chain would reach the lot, unless the ruleset places it."""
    chain = ("points", *ruleset.standings_tie_breakers)
    if "lot" not in chain:
        chain = (*chain, "lot")
    if rated and "rating" not in chain:
        at = chain.index("lot")
        chain = (*chain[:at], "rating", *chain[at:])
    return chain


def criteria_chain(standings: Standings) -> tuple[str, ...]:
    """The criteria that ordered ``standings``, points first, the lot last."""
    return _chain(standings.ruleset, standings.rated)


_GETTERS: dict[str, Callable[[Totals], Fraction | int]] = {
    "points": attrgetter("points"),
    "share": attrgetter("share"),
    "vp": attrgetter("vp"),
    "coins": attrgetter("coins"),
    "pp": attrgetter("pp"),
    "rating": attrgetter("rating"),
}


def _values(totals: list[Totals], criterion: str, seed: str) -> list[Fraction | int]:
    """Every player's value of ``criterion`` (as :func:`_criterion_value`), in one sweep."""
    if criterion == "lot":
        return [lot_key(seed, t.player) for t in totals]
    getter = _GETTERS.get(criterion)
    if getter is None:
        raise InvalidInput(f"unknown standings criterion {criterion!r}")
    return list(map(getter, totals))


def _sort_column(values: list[Fraction | int], lot: bool) -> list[float | int]:
    """The fast sort key of one criterion: higher first (negated) but the lot, floats in place of
    fractions (one conversion per fraction object: :func:`sum_tables` shares equal points)."""
    sign = 1 if lot else -1
    floats: dict[int, float] = {}  # by id: hashing a Fraction costs a modular inverse
    out: list[float | int] = []
    for v in values:
        if isinstance(v, int):
            out.append(sign * v)
            continue
        f = floats.get(id(v))
        if f is None:
            # float(Fraction) is numerator / denominator, correctly rounded (and slower)
            f = floats[id(v)] = sign * (v.numerator / v.denominator)
        out.append(f)
    return out


def _order(
    totals: list[Totals],
    chain: tuple[str, ...],
    columns: list[list[Fraction | int]],
    fast_columns: list[list[float | int]] | None = None,
) -> list[int]:
    """The players' order (indices into ``totals``) by the exact keys, fast: sort by float keys,
    then re-sort exactly every run of rows whose float keys are so close that rounding could have
    swapped them. ``columns`` holds each criterion's exact values, ``fast_columns`` their sort
    keys (:func:`_sort_column`; computed here if not given)."""
    if fast_columns is None:
        fast_columns = _fast_columns(chain, columns)
    keys: list[tuple[float | int, ...]] = (
        list(zip(*fast_columns, strict=True)) if fast_columns else [() for _ in totals]
    )
    order = sorted(range(len(totals)), key=keys.__getitem__)
    core = standings_core()
    runs = core.close_runs(keys, order) if core is not None else _close_runs(keys, order)
    for i, j in runs:
        order[i:j] = sorted(
            order[i:j],
            key=lambda n: (
                tuple(
                    col[n] if c == "lot" else -col[n] for col, c in zip(columns, chain, strict=True)
                ),
                totals[n].player,
            ),
        )
    return order


def _close_runs(keys: list[tuple[float | int, ...]], order: list[int]) -> list[tuple[int, int]]:
    """The runs ``order[i:j]`` (two rows or more) whose neighbours' keys are :func:`_close`: the
    rows whose order the float keys do not prove (the compiled core finds the same runs)."""
    runs = []
    i = 0
    while i < len(order):
        j = i + 1
        while j < len(order) and _close(keys[order[j - 1]], keys[order[j]]):
            j += 1
        if j - i > 1:
            runs.append((i, j))
        i = j
    return runs


def _fast_columns(
    chain: tuple[str, ...], columns: list[list[Fraction | int]]
) -> list[list[float | int]]:
    return [_sort_column(col, c == "lot") for col, c in zip(columns, chain, strict=True)]


def _close(a: tuple[float | int, ...], b: tuple[float | int, ...]) -> bool:
    """True unless the float keys prove the exact order: equal up to a value more than a rounding
    error apart, whose difference then decides."""
    for x, y in zip(a, b, strict=True):
        if x == y:
            continue
        if isinstance(x, float) or isinstance(y, float):
            return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))
        return False
    return True


def rank_totals(
    ruleset: Ruleset,
    totals: Iterable[Totals],
    seed: str,
    notes: Mapping[str, tuple[str, ...]] | None = None,
    left: Mapping[str, tuple[LeftGame, ...]] | None = None,
    *,
    rated: bool = False,
) -> Standings:
    """Order totals by points and the ruleset's tie-break chain; ranks run 1..n without gaps.

    ``notes``: per player, sentences shown with the player's row (see :func:`left_notes`);
    ``left``: the games the player left during play (see :func:`left_games`). ``rated``: the totals carry seeding
    ratings, which decide before the lot.
    """
    notes = notes or {}
    left = left or {}
    totals = list(totals)
    chain = _chain(ruleset, rated)
    columns = [_values(totals, c, seed) for c in chain]
    column_of = dict(zip(chain, columns, strict=True))
    shown = [(c, column_of[c]) for c in ruleset.standings_tie_breakers if c != "lot"]
    fast = _fast_columns(chain, columns)
    # a criterion decides between two rows where their exact values differ: surely where the
    # float keys differ (a cheap test), else only if the exact values do
    criteria = list(zip(chain, columns, fast, strict=True))
    rows = []
    previous: int | None = None
    for rank, n in enumerate(_order(totals, chain, columns, fast), start=1):
        total = totals[n]
        decided_by = None
        if previous is not None:
            p = previous
            decided_by = next(
                (
                    c
                    for c, col, keys in criteria
                    if keys[p] != keys[n] or (col[p] is not col[n] and col[p] != col[n])
                ),
                "lot",
            )
        rows.append(
            StandingRow(
                rank=rank,
                player=total.player,
                totals=total,
                tiebreaks={c: col[n] for c, col in shown},
                decided_by=decided_by,
                notes=notes.get(total.player, ()),
                left=left.get(total.player, ()),
            )
        )
        previous = n
    return Standings(ruleset=ruleset, rows=tuple(rows), seed=seed, rated=rated)


def compute_standings(event: Event, ruleset: Ruleset) -> Standings:
    """The standings of an event's (qualifying) rounds under its ruleset; with seeding ratings
    (``event.seed_ratings``) the rating decides before the lot."""
    return rank_totals(
        ruleset,
        compute_totals(event, ruleset),
        lot_input(event),
        left_notes(event, ruleset.left_rule),
        left_games(event),
        rated=bool(event.seed_ratings),
    )


def left_games(event: Event) -> dict[str, tuple[LeftGame, ...]]:
    """Per player, every game they left during play (Ludolimpico 2.5)."""
    out: dict[str, list[LeftGame]] = {}
    for number, rnd in enumerate(event.rounds, start=1):
        for t, table in enumerate(rnd.tables, start=1):
            for result in table.results:
                if result.left:
                    out.setdefault(result.player, []).append(LeftGame(number, t, rnd.final))
    return {player: tuple(games) for player, games in out.items()}


def left_notes(event: Event, rule: str = "") -> dict[str, tuple[str, ...]]:
    """Per player, a sentence for every game they left during play, naming the ruleset's rule
    for it (``rule``: :attr:`Ruleset.left_rule`, e.g. Ludolimpico 2015's 2.5).

    Ludolimpico removes the player's cards and seat and lets the others play on; it gives no
    score, so that game scores nothing and the table is scored without that seat (a table of
    four is filled to five with the virtual player, Ludolimpico 4).
    """
    cited = f" ({rule})" if rule else ""
    return {
        player: tuple(
            f"left during {'the final' if g.final else f'round {g.round}'} (table {g.table}): "
            f"no score for that game, the table was scored without them{cited}"
            for g in games
        )
        for player, games in left_games(event).items()
    }


def format_value(value: Fraction | int, criterion: str) -> str:
    """A criterion's value for people: points with up to two decimals, shares with four."""
    if isinstance(value, int):
        return str(value)
    if criterion == "share":
        return f"{float(value):.4f}"
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def explain(standings: Standings, a: str, b: str) -> str:
    """One sentence on why one of two players stands above the other.

    Raises:
        InvalidInput: a name that is not in the standings, or the same name twice.
    """
    if a == b:
        raise InvalidInput(f"--explain needs two different players, got {a!r} twice")
    row_a, row_b = standings.row_of(a), standings.row_of(b)
    upper, lower = (row_a, row_b) if row_a.rank < row_b.rank else (row_b, row_a)
    notes = "".join(f" {row.player} {note}." for row in (upper, lower) for note in row.notes)
    return _explain_order(standings, upper, lower) + notes


def _explain_order(standings: Standings, upper: StandingRow, lower: StandingRow) -> str:
    chain = _chain(standings.ruleset, standings.rated)
    equal: list[str] = []
    for criterion in chain:
        hi = _criterion_value(upper.totals, criterion, standings.seed)
        lo = _criterion_value(lower.totals, criterion, standings.seed)
        if hi != lo:
            label = CRITERION_LABELS[criterion]
            after = f", after equal {_join([CRITERION_LABELS[c] for c in equal])}" if equal else ""
            if criterion == "lot":
                return (
                    f"{upper.player} (rank {upper.rank}) is above {lower.player} "
                    f"(rank {lower.rank}) by the {label}{after}."
                )
            return (
                f"{upper.player} (rank {upper.rank}) is above {lower.player} (rank {lower.rank}) "
                f"on {label}: {format_value(hi, criterion)} against "
                f"{format_value(lo, criterion)}{after}."
            )
        equal.append(criterion)
    return f"{upper.player} and {lower.player} cannot be separated."  # pragma: no cover


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
