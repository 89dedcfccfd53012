"""Balance statistics shared by the games' balance reports (pure: no I/O but the optional plot).

A game is reduced to one :class:`SeatOutcome` per seat: the seat's *factors* (``wonder``,
``side``, ``board``, ``leader``, ``seat``, ``bot`` … as name → level) and two numbers, ``win``
(1, 0, or 1/k for a win shared by k seats) and ``margin`` (the game's score difference to the
best opponent: 7 Wonders points; One Card Wonder stage progress, see that game's report).
For every level of every factor the report gives

* the **win rate** with its 95% Wilson score interval (:func:`agon.games.ladder.wilson`);
* the **mean margin** with its 95% Student-t interval (mean ± t₀.₉₇₅,ₙ₋₁ · s/√n; none for n < 2).

Games that stopped without a result (agon's turn cap, an aborted game) are counted and left out
of both statistics.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agon.errors import InvalidInput
from agon.games.ladder import wilson

#: Student's t, 97.5% quantile, for 1..30 degrees of freedom (standard tables).
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
Z975 = 1.959964


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom: the table up to 30,
    then the Cornish–Fisher expansion around the normal quantile (error < 0.001).

    >>> t975(10), round(t975(120), 3)
    (2.228, 1.98)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z975
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def mean_interval(values: Sequence[float]) -> tuple[float, float | None, float | None]:
    """Mean and its 95% t interval; the interval is (None, None) for fewer than two values.

    >>> [round(x, 3) for x in mean_interval([1.0, 2.0, 3.0, 4.0])]
    [2.5, 0.446, 4.554]
    """
    n = len(values)
    if n == 0:
        return (0.0, None, None)
    mean = statistics.fmean(values)
    if n < 2:
        return (mean, None, None)
    half = t975(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat of one finished game: its factor levels, its share of the win, its margin."""

    factors: tuple[tuple[str, str], ...]
    win: float
    margin: float


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game: its seats' outcomes, or ``finished=False`` for a capped or aborted game."""

    seats: tuple[SeatOutcome, ...]
    finished: bool = True


@dataclass(frozen=True, slots=True)
class Row:
    """One factor level's line of the report."""

    level: str
    played: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    margin: float
    margin_low: float | None
    margin_high: float | None

    def as_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {
            "level": self.level,
            "played": self.played,
            "wins": round(self.wins, 4),
            "win_rate": r(self.win_rate),
            "win_ci": [r(self.win_low), r(self.win_high)],
            "margin": r(self.margin),
            "margin_ci": [r(self.margin_low), r(self.margin_high)],
        }


@dataclass(frozen=True, slots=True)
class Report:
    """The balance report: rows per factor (in the order factors were asked for)."""

    games: int
    capped: int
    players: int
    factors: dict[str, list[Row]]

    @property
    def fair_rate(self) -> float:
        return 1 / self.players if self.players else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "capped": self.capped,
            "players": self.players,
            "fair_win_rate": round(self.fair_rate, 4),
            "by": {f: [row.as_json() for row in rows] for f, rows in self.factors.items()},
        }


def report(games: Iterable[GameOutcome], factors: Sequence[str]) -> Report:
    """Win rates and mean margins with 95% intervals per level of each factor, levels by
    win rate (best first, then by name)."""
    wins: dict[str, dict[str, list[float]]] = {f: {} for f in factors}
    margins: dict[str, dict[str, list[float]]] = {f: {} for f in factors}
    total = capped = players = 0
    for g in games:
        total += 1
        players = max(players, len(g.seats))
        if not g.finished:
            capped += 1
            continue
        for seat in g.seats:
            levels = dict(seat.factors)
            for f in factors:
                level = levels.get(f)
                if level is None:
                    continue
                wins[f].setdefault(level, []).append(seat.win)
                margins[f].setdefault(level, []).append(seat.margin)
    out: dict[str, list[Row]] = {}
    for f in factors:
        rows = []
        for level, ws in wins[f].items():
            n = len(ws)
            won = sum(ws)
            low, high = wilson(won, n)
            mean, m_low, m_high = mean_interval(margins[f][level])
            rows.append(Row(level, n, won, won / n, low, high, mean, m_low, m_high))
        rows.sort(key=lambda r: (-r.win_rate, r.level))
        if rows:
            out[f] = rows
    return Report(total, capped, players, out)


def text(rep: Report, title: str, margin_unit: str) -> list[str]:
    """The report as lines for a terminal."""
    lines = [
        f"{title}: {rep.games} games ({rep.capped} capped or aborted, left out), "
        f"{rep.players} players; a fair win rate is {rep.fair_rate:.1%}",
        f"win rate with 95% Wilson interval; mean margin ({margin_unit}) with 95% t interval",
    ]
    for f, rows in rep.factors.items():
        lines.append(f"by {f}:")
        for r in rows:
            m = (
                f"{r.margin:+7.2f} [{r.margin_low:+.2f}, {r.margin_high:+.2f}]"
                if r.margin_low is not None and r.margin_high is not None
                else f"{r.margin:+7.2f}"
            )
            lines.append(
                f"  {r.level:22} {r.win_rate:6.1%} [{r.win_low:5.1%}, {r.win_high:5.1%}]  "
                f"{m}  n={r.played}"
            )
    return lines


PLOT_SUFFIXES = (".svg", ".png")


def plot(rep: Report, path: Path, title: str, margin_unit: str) -> None:
    """Draw the report: per factor, win rates (with the fair rate as a line) and mean margins,
    each with its 95% interval as error bars.  SVG or PNG by the file's suffix.

    Raises:
        InvalidInput: another suffix, or matplotlib not installed (``agon-tournaments[plot]``).
    """
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise InvalidInput(f"--plot {path}: give a .svg or .png file")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidInput(
            "--plot needs matplotlib: pip install 'agon-tournaments[plot]'"
        ) from None
    factors = [(f, rows) for f, rows in rep.factors.items() if len(rows) > 1]
    if not factors:
        raise InvalidInput("--plot: nothing to draw (no factor with two or more levels)")
    heights = [max(1.6, 0.32 * len(rows) + 0.9) for _, rows in factors]
    fig, axes = plt.subplots(
        len(factors),
        2,
        figsize=(11, sum(heights)),
        gridspec_kw={"height_ratios": heights},
        squeeze=False,
    )
    for (f, rows), (ax_win, ax_margin) in zip(factors, axes, strict=True):
        rows = list(reversed(rows))  # best at the top
        ys = list(range(len(rows)))
        labels = [r.level for r in rows]
        rates = [r.win_rate for r in rows]
        ax_win.errorbar(
            rates,
            ys,
            xerr=[[r.win_rate - r.win_low for r in rows], [r.win_high - r.win_rate for r in rows]],
            fmt="o",
            capsize=3,
        )
        ax_win.axvline(rep.fair_rate, color="grey", linestyle="--", linewidth=1)
        ax_win.set_yticks(ys, labels)
        ax_win.set_title(f"win rate by {f} (95% Wilson)", fontsize=10)
        ax_win.set_xlim(0, min(1.0, max(r.win_high for r in rows) * 1.1 + 0.02))
        means = [r.margin for r in rows]
        lo = [r.margin - (r.margin_low if r.margin_low is not None else r.margin) for r in rows]
        hi = [(r.margin_high if r.margin_high is not None else r.margin) - r.margin for r in rows]
        ax_margin.errorbar(means, ys, xerr=[lo, hi], fmt="s", color="tab:orange", capsize=3)
        ax_margin.axvline(0, color="grey", linestyle=":", linewidth=1)
        ax_margin.set_yticks(ys, labels)
        ax_margin.set_title(f"mean margin by {f}, {margin_unit} (95% t)", fontsize=10)
    fig.suptitle(
        f"{title}: {rep.games} games, {rep.capped} capped; dashed line: fair rate "
        f"{rep.fair_rate:.1%}",
        fontsize=11,
    )
    fig.tight_layout()
    try:
        fig.savefig(path, metadata={"Date": None} if path.suffix.lower() == ".svg" else None)
    except OSError as exc:
        raise InvalidInput(f"--plot {path}: cannot write ({exc.strerror})") from None
    finally:
        plt.close(fig)
