"""``--bots`` of both games' ``simulate``, ``balance`` and ``play``: one syntax, one meaning, one
error.

``NAME[,NAME…]`` names the bots of the seats in seat order: one name plays every seat, one per
seat names each, and a shorter list repeats evenly (``random,heuristic`` for 4 players: random,
heuristic, random, heuristic).  A name the game does not know, an empty list or a count that
does not divide the seats is refused with one line naming what is known.
"""

from __future__ import annotations

from collections.abc import Sequence

from agon.errors import InvalidInput


def bot_names(spec: str, known: Sequence[str], *, option: str = "--bots") -> list[str]:
    """The names in ``spec`` (comma-separated, blanks ignored), each checked against ``known``.

    >>> bot_names("random, heuristic", ("random", "heuristic", "mcts"))
    ['random', 'heuristic']
    >>> bot_names("rando", ("random", "heuristic"))
    Traceback (most recent call last):
    ...
    agon.errors.InvalidInput: --bots: unknown bot 'rando' (known: random, heuristic)

    Raises:
        InvalidInput: no name at all, or a name not in ``known``.
    """
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise InvalidInput(f"{option}: name at least one bot (known: {', '.join(known)})")
    for name in names:
        if name not in known:
            raise InvalidInput(f"{option}: unknown bot {name!r} (known: {', '.join(known)})")
    return names


def seat_bots(
    spec: str, players: int, known: Sequence[str], *, option: str = "--bots"
) -> list[str]:
    """The bot of each of ``players`` seats from ``spec`` (see the module's docstring).

    >>> seat_bots("random,heuristic", 4, ("random", "heuristic"))
    ['random', 'heuristic', 'random', 'heuristic']
    >>> seat_bots("heuristic", 3, ("random", "heuristic"))
    ['heuristic', 'heuristic', 'heuristic']
    >>> seat_bots("random,heuristic", 5, ("random", "heuristic"))
    Traceback (most recent call last):
    ...
    agon.errors.InvalidInput: --bots: 2 bots for 5 seats (give 1, 5, or a count that divides 5)

    Raises:
        InvalidInput: an unknown name (see :func:`bot_names`), or more names than seats or a
            count that does not divide them.
    """
    names = bot_names(spec, known, option=option)
    if len(names) > players or players % len(names):
        raise InvalidInput(
            f"{option}: {len(names)} bots for {players} seats "
            f"(give 1, {players}, or a count that divides {players})"
        )
    return names * (players // len(names))
