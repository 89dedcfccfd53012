"""Progress of long work (simulate, balance, ladder, large schedules) on stderr.

A bar shows only when stderr is a terminal and the command prints text: piped output, a log
file and ``--json`` stay silent, so the output can be read by a program as it is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click


def stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (a person is watching)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced by something without isatty
        return False


class Tick:
    """``tick(done)``: the number of items done so far (never moves the bar back).  ``shown``
    says whether a bar is drawn, so work can be cut into steps only then."""

    def __init__(self, bar: Any = None, total: int = 0) -> None:
        self.bar, self.total, self.done = bar, total, 0

    @property
    def shown(self) -> bool:
        return self.bar is not None

    def __call__(self, done: int) -> None:
        done = min(done, self.total)
        if self.bar is not None and done > self.done:
            self.bar.update(done - self.done)
            self.done = done

    def callback(self) -> Callable[[int], None] | None:
        """``self`` when a bar is drawn, else ``None`` (for ``on_progress`` parameters)."""
        return self if self.shown else None


@contextmanager
def progress(total: int, label: str, *, quiet: bool = False) -> Iterator[Tick]:
    """A :class:`Tick` drawing a bar on stderr, or doing nothing unless stderr is a terminal
    and not ``quiet`` (``--json``).  The bar ends with a newline."""
    if quiet or total < 1 or not stderr_is_terminal():
        yield Tick()
        return
    with click.progressbar(
        length=total, label=label, file=sys.stderr, show_pos=True, show_eta=True
    ) as bar:
        yield Tick(bar, total)
