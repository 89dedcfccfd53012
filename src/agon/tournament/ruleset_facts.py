"""The built-in rulesets as the compiled one pass reads them: for each, what
:func:`agon.tournament.bulk.pass_rules` gives (:data:`PassRules`).

Written from the ruleset files (``rulesets/*.toml``) so that ``agon standings FILE``
(:mod:`agon.tournament.quick_table`) needs neither :mod:`tomllib` nor the ruleset reader;
``tests/tournament/test_quick_table.py`` fails when a ruleset file changes and these facts do
not, and prints the new ``BUILTIN``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it as True)
if TYPE_CHECKING:
    from typing import TypeAlias

    #: What the one pass needs of a ruleset: its English title, whether the placing score is VP
    #: minus the bid, the in-game tie-breakers, rank points per table size (times the scale),
    #: the scale, the table sizes, VP min/max, coins max, bid max, the standings chain (the
    #: points first, the lot last) and the tie-breakers shown as columns.
    PassRules: TypeAlias = tuple[
        str,
        bool,
        tuple[str, ...],
        dict[int, tuple[int, ...]],
        int,
        tuple[int, ...],
        int,
        int,
        int,
        int,
        tuple[str, ...],
        tuple[str, ...],
    ]


BUILTIN: dict[str, PassRules] = {
    "bonn-2018": (
        "BONN-SPIELT 2018 (German championship qualifier)",
        False,
        (),
        {5: (6, 4, 3, 2, 1)},
        60,
        (5, 4, 3),
        -100,
        500,
        500,
        100,
        ("points", "share", "vp", "coins", "lot"),
        ("share", "vp", "coins"),
    ),
    "ludolimpico-2015": (
        "Ludolimpico 2015 (Swiss rounds, wonder auction)",
        True,
        ("bid-asc",),
        {5: (10, 7, 5, 3, 1)},
        60,
        (5, 4, 3),
        -100,
        500,
        500,
        100,
        ("points", "pp", "lot"),
        ("pp",),
    ),
    "de-championship": (
        "German 7 Wonders championship",
        False,
        ("coins-desc",),
        {4: (5, 3, 2, 1)},
        12,
        (4, 3),
        -100,
        500,
        500,
        100,
        ("points", "share", "vp", "lot"),
        ("share", "vp"),
    ),
}

#: SHA-256 of each ruleset file these facts were written from: where the file differs (a user
#: edited a built-in ruleset: rules are data), :mod:`agon.tournament.quick_table` leaves the
#: event to the usual way, which reads the file itself.
DIGESTS: dict[str, str] = {
    "bonn-2018": "f3f2f58ac733421c75c32befdcf9f2641816ea459f937b3c0fadf1d21f094968",
    "ludolimpico-2015": "9c5cf9e919155de3bf3060d1f605578f3f21f951dfe69bff32b916b8ebf2299b",
    "de-championship": "6e9fc02fb98acd4734769292689f85ce18c139a6a8ef7990964a1c7dd890fcbc",
}
