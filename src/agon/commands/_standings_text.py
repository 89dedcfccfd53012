"""The standings as ``agon standings FILE`` prints them, without click: the one pass of the
compiled core (:func:`agon.tournament.bulk.standings_columns`), laid out by
:func:`agon.commands._read_text.layout` as the director's reads lay out theirs. :mod:`agon.launch`
runs the plain ``agon standings FILE`` through :func:`table_of_file` before click or the Python
standings are imported (issue 30: the command's start is most of its time).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agon.commands._read_text import layout
from agon.tournament.bulk import (
    EventStandings,
    StandingsColumns,
    standings_columns,
    standings_columns_of_bytes,
)
from agon.tournament.event import read_event_data
from agon.tournament.safeload import MAX_BYTES, is_yaml_path


@contextmanager
def paused_gc() -> Iterator[None]:
    """The garbage collector off for the block (on again after it, if it was on)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def table_of_file(path: Path) -> str | None:
    """The printed standings of the event file ``path`` by the compiled core's one pass, read
    from the file's bytes (:func:`agon.tournament.bulk.standings_columns_of_bytes`) or else from
    the decoded document (:func:`agon.tournament.bulk.standings_columns`); ``None`` where
    neither applies.

    Raises:
        InvalidInput: the file cannot be read, or its header is wrong (named as the full reader
            names it).
    """
    columns = None
    if not is_yaml_path(path):
        try:
            with path.open("rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
        except (OSError, ValueError):
            raw = None  # read_event_data names the problem
        if raw is not None:
            columns = standings_columns_of_bytes(raw, origin=str(path), base_dir=path.parent)
    if columns is None:
        data = read_event_data(path)
        columns = standings_columns(data, origin=str(path), base_dir=path.parent)
    return None if columns is None else columns_table(columns)


def columns_table(columns: StandingsColumns) -> str:
    """:func:`standings_table` of the standings the compiled core ordered
    (:func:`agon.tournament.bulk.standings_columns`), with the same title as ``agon standings``
    prints: the same text, from the columns (a property test compares the two)."""
    criteria = list(columns.tiebreaks)
    scale = columns.scale
    texts = [
        [str(rank) for rank in range(1, len(columns.players) + 1)],
        columns.players,
        _point_texts(columns.points, scale),
        *(
            _point_texts(values, scale)  # type: ignore[arg-type]
            if c == "points"
            else list(map("{:.4f}".format, values))
            if c == "share"
            else list(map(str, values))
            for c, values in columns.tiebreaks.items()
        ),
        list(map(str, columns.games)),
        [d or "" for d in columns.decided_by],
    ]
    return layout(title_of(columns), criteria, texts, [])


def title_of(result: StandingsColumns | EventStandings) -> str:
    return f"{result.name} — {result.ruleset.title_in('en')}, {result.rounds} round(s)"


def _point_texts(scaled: list[int], scale: int) -> list[str]:
    """Rank points kept times ``scale`` as :func:`format_value` writes ``Fraction(p, scale)``."""
    shown: dict[int, str] = {}
    out = []
    for p in scaled:
        text = shown.get(p)
        if text is None:
            # p / scale is float(Fraction(p, scale)): both round the exact quotient
            exact = p % scale == 0
            text = str(p // scale) if exact else f"{p / scale:.2f}".rstrip("0").rstrip(".")
            shown[p] = text
        out.append(text)
    return out
