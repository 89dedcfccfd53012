"""Benchmark: PDF printouts of a 40-player round (8 tables) in German, as the web app will serve them.

No goal is set by the issue; this prints what it measured so regressions show: for each printout,
CPU seconds of this process and wall-clock seconds for the HTML (Jinja2) and the PDF (WeasyPrint),
and the PDF's size. The first PDF also pays WeasyPrint's one-time font set-up, reported apart.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from agon.printing import (
    links_for,
    score_sheets_html,
    seating_by_name_html,
    seating_by_table_html,
    standings_html,
    table_cards_html,
    to_pdf,
)
from agon.tournament.event import Event, Player, Result, Round, Table
from agon.tournament.ruleset import load_ruleset
from agon.tournament.standings import compute_standings

PLAYERS = 40
GUILDS = ("workers", "craftsmens", "traders", "philosophers", "spies", "strategists",
          "shipowners", "scientists", "magistrates", "builders")  # fmt: skip


@dataclass(frozen=True, slots=True)
class SeatedTable:
    seats: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundPlan:
    number: int
    tables: tuple[SeatedTable, ...]
    wonders: tuple[str, ...]
    guilds: tuple[str, ...]
    sides: Mapping[str, str] | None


def main() -> None:
    rng = random.Random(2026)
    names = [f"Spielerin Größe {i:02d}" for i in range(PLAYERS)]
    ruleset = load_ruleset("bonn-2018")
    rounds = []
    for _ in range(4):
        rng.shuffle(names)
        tables = tuple(
            Table(
                tuple(Result(p, rng.randint(30, 70), rng.randint(0, 12)) for p in names[i : i + 5])
            )
            for i in range(0, PLAYERS, 5)
        )
        rounds.append(Round(tables=tables))
    event = Event("Bench Cup", "bonn-2018", "bench", tuple(Player(n) for n in names), tuple(rounds))
    plan = RoundPlan(
        number=5,
        tables=tuple(SeatedTable(tuple(names[i : i + 5])) for i in range(0, PLAYERS, 5)),
        wonders=("rhodos", "gizah", "babylon", "olympia", "ephesos"),
        guilds=GUILDS,
        sides={"rhodos": "A", "gizah": "B", "babylon": "A", "olympia": "B", "ephesos": "A"},
    )
    standings = compute_standings(event, ruleset)
    links = links_for(plan, url_base="https://cup.example/t", seed="bench")
    printouts: dict[str, Callable[[], str]] = {
        "standings": lambda: standings_html(event, standings, lang="de"),
        "seating by name": lambda: seating_by_name_html(event, ruleset, plan, lang="de"),
        "seating by table": lambda: seating_by_table_html(event, ruleset, plan, lang="de"),
        "table cards (8 pages)": lambda: table_cards_html(event, ruleset, plan, lang="de"),
        "score sheets + QR (8 pages)": lambda: score_sheets_html(
            event, ruleset, plan, lang="de", links=links
        ),
    }
    cpu, wall = time.process_time(), time.perf_counter()
    to_pdf(standings_html(event, standings, lang="de"))
    print(
        f"first PDF (one-time set-up included): cpu {time.process_time() - cpu:.2f} s, "
        f"wall {time.perf_counter() - wall:.2f} s"
    )
    print(f"{'printout':30} {'html cpu':>9} {'pdf cpu':>8} {'pdf wall':>9} {'size':>9}")
    for name, make in printouts.items():
        c0 = time.process_time()
        html = make()
        c1, w1 = time.process_time(), time.perf_counter()
        pdf = to_pdf(html)
        c2, w2 = time.process_time(), time.perf_counter()
        print(f"{name:30} {c1 - c0:8.3f}s {c2 - c1:7.2f}s {w2 - w1:8.2f}s {len(pdf):8,d}B")


if __name__ == "__main__":
    main()
