"""The rating-history plot of a player page as plain geometry (an SVG is drawn from it).

The x axis counts the player's rated games (1, 2, …); the y axis is the rating. Two lines: the
mean ``mu`` and the conservative ``ordinal`` (``mu − 3σ``, what rating lists are ordered by).
Each event's first game gets a tick, so the plot reads event by event. Everything is computed
here, with no drawing library: the template only writes the numbers into ``<polyline>``\\ s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 320
HEIGHT = 180
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 10, 24


@dataclass(frozen=True, slots=True)
class PlotPoint:
    """One rated game: the event it belongs to, and the rating after it."""

    event: str
    mu: float
    ordinal: float


@dataclass(frozen=True, slots=True)
class Plot:
    """What the SVG draws: its size, the two lines as ``"x,y x,y …"``, the y ticks and the
    events' first games on the x axis."""

    width: int
    height: int
    mu_points: str
    ordinal_points: str
    y_ticks: tuple[tuple[str, float], ...]
    x_ticks: tuple[tuple[str, float], ...]
    left: int
    right: int
    top: int
    bottom: int


def _step(span: float) -> float:
    """A round tick step giving 3–6 ticks over ``span``."""
    raw = span / 4
    power = 10.0 ** math.floor(math.log10(raw))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def rating_plot(points: Sequence[PlotPoint]) -> Plot | None:
    """The plot of ``points`` in game order; ``None`` when there is no game.

    >>> p = rating_plot([PlotPoint("A", 27.0, 3.0), PlotPoint("A", 28.0, 5.0)])
    >>> p.mu_points.count(","), p.x_ticks[0][0]
    (2, 'A')
    """
    if not points:
        return None
    values = [v for p in points for v in (p.mu, p.ordinal)]
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    step = _step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(
            LEFT + (inner_w / 2 if len(points) == 1 else i * inner_w / (len(points) - 1)), 1
        )

    def y(v: float) -> float:
        return round(TOP + (high - v) / (high - low) * inner_h, 1)

    ticks = []
    n = 0
    while low + n * step <= high + step / 1000:
        value = low + n * step
        ticks.append((f"{value:g}", y(value)))
        n += 1
    firsts = []
    for i, p in enumerate(points):
        if i == 0 or points[i - 1].event != p.event:
            firsts.append((p.event, x(i)))
    return Plot(
        WIDTH,
        HEIGHT,
        " ".join(f"{x(i)},{y(p.mu)}" for i, p in enumerate(points)),
        " ".join(f"{x(i)},{y(p.ordinal)}" for i, p in enumerate(points)),
        tuple(ticks),
        tuple(firsts),
        LEFT,
        WIDTH - RIGHT,
        TOP,
        HEIGHT - BOTTOM,
    )
