"""Table sizes for a round: how a room of players is split into tables.

BONN-SPIELT 2018 ("Tische mit fünf Spielern. Bei nicht passender Teilnehmerzahl werden Tische mit
vier oder drei Spielern gebildet") and Ludolimpico 2015 play at tables of five, with fours and threes
only where the count does not divide. agon reads that as: as few tables below four as possible, then
as many tables of the ruleset's preferred size as possible, then as few tables as possible.
"""

from __future__ import annotations

from functools import cache

from agon.errors import N_, InvalidInput
from agon.tournament.ruleset import Ruleset

#: Tables with fewer players than this are "small" and avoided first.
SMALL_TABLE = 4


def table_sizes(n_players: int, ruleset: Ruleset) -> tuple[int, ...]:
    """Split ``n_players`` into tables of the ruleset's allowed sizes, largest first.

    Fewest tables below four, then as many tables of the preferred size as possible, then fewest
    tables (Bonn 2018, "Spieler"; Ludolimpico 2015, 1.):

    >>> from agon.tournament.ruleset import load_ruleset
    >>> bonn = load_ruleset("bonn-2018")
    >>> table_sizes(13, bonn), table_sizes(11, bonn), table_sizes(6, bonn)
    ((5, 4, 4), (4, 4, 3), (3, 3))

    Raises:
        InvalidInput: when ``n_players`` cannot be split into the allowed sizes.
    """
    return split_players(
        n_players,
        tuple(sorted(set(ruleset.table_sizes), reverse=True)),
        ruleset.preferred_table_size,
        ruleset.name,
    )


def split_players(
    n_players: int, sizes: tuple[int, ...], preferred: int, name: str = "ruleset"
) -> tuple[int, ...]:
    """:func:`table_sizes` on explicit ``sizes`` (largest first) and ``preferred`` size."""
    if n_players < 1:
        raise InvalidInput(
            f"{name}: cannot seat {n_players} players",
            msgid=N_("Nobody can be seated: no player is checked in."),
        )
    best = _best(n_players, sizes, preferred)
    if best is None:
        allowed = ", ".join(str(s) for s in sizes)
        raise InvalidInput(
            f"{name}: {n_players} players cannot be split into tables of {allowed} players",
            msgid=N_("%(count)d players cannot be split into tables of %(sizes)s players."),
            params={"count": n_players, "sizes": allowed},
        )
    return best[1]


@cache
def _best(
    n: int, sizes: tuple[int, ...], preferred: int
) -> tuple[tuple[int, int, int], tuple[int, ...]] | None:
    """Lexicographically best (small tables, -preferred tables, tables) split of ``n``.

    The key is a sum over tables, so the best split of ``n`` extends a best split of ``n - s``.
    """
    if n == 0:
        return (0, 0, 0), ()
    found: tuple[tuple[int, int, int], tuple[int, ...]] | None = None
    for size in sizes:  # largest first: ties go to larger tables
        if size > n:
            continue
        rest = _best_iter(n - size, sizes, preferred)
        if rest is None:
            continue
        (small, pref, count), split = rest
        key = (
            small + (size < SMALL_TABLE),
            pref - (size == preferred),
            count + 1,
        )
        candidate = (key, tuple(sorted((size, *split), reverse=True)))
        if found is None or candidate[0] < found[0]:
            found = candidate
    return found


def _best_iter(
    n: int, sizes: tuple[int, ...], preferred: int
) -> tuple[tuple[int, int, int], tuple[int, ...]] | None:
    """:func:`_best` filled bottom-up, so large ``n`` does not hit the recursion limit."""
    for m in range(0, n, 64):
        _best(m, sizes, preferred)
    return _best(n, sizes, preferred)
