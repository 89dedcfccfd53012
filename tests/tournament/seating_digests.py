"""Digests of planned schedules, to prove that a faster search plans the very same schedules.

``agon verify`` recomputes the schedules of stored events, so the optimiser's results must not
change unless :data:`~agon.tournament.seating.PLAN_VERSION` does. :data:`CASES` lists inputs
(Bonn and Ludolimpico, 10–45 players, 1–8 rounds, default and small budgets, re-plans after a
drop or a late entry, one room of more than 100 players); ``seating_digests.json`` holds the
SHA-256 of each case's ``repr(Schedule)`` (every table, seat order, draw and report field) as the
code computed it when the file was written.

Run ``.venv/bin/python -m tests.tournament.seating_digests --write`` to write the file (only with
a new ``PLAN_VERSION``), ``--check`` to recompute every case and compare (a few minutes of CPU);
``tests/tournament/test_seating_digests.py`` recomputes a sample of them in the suite.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from agon.tournament.ruleset import load_ruleset
from agon.tournament.seating import PLAN_VERSION, RoundPlan, Schedule, plan_schedule

DATA = Path(__file__).with_name("seating_digests.json")


@dataclass(frozen=True)
class Case:
    """One input of :func:`plan_schedule`; a re-plan when ``played`` > 0: the first ``played``
    rounds of the plan for ``players`` (``rounds`` in all), then the rest for those players
    without ``drop`` and with ``late`` added."""

    ruleset: str
    players: int
    rounds: int
    seed: str
    max_iterations: int | None = None
    played: int = 0
    drop: int = 0
    late: int = 0

    @property
    def key(self) -> str:
        return (
            f"{self.ruleset}/{self.players}x{self.rounds}/{self.seed}/{self.max_iterations}"
            f"/{self.played}-{self.drop}+{self.late}"
        )


def names(n: int, prefix: str = "P") -> list[str]:
    return [f"{prefix}{i:02d}" for i in range(1, n + 1)]


def _cases() -> list[Case]:
    out: list[Case] = []
    for n in range(10, 46):
        # two numbers of rounds per size, spread over 1-8
        for rounds in sorted({1 + (3 * n) % 8, 1 + (5 * n + 2) % 8}):
            budget = None if (n + rounds) % 3 == 0 else 20_000
            out.append(Case("bonn-2018", n, rounds, f"d{n}", budget))
    for n in (13, 16, 18, 19, 22, 27, 33, 40):
        out.append(Case("bonn-2018", n, 4, "bench"))
    out.append(Case("bonn-2018", 40, 7, "big"))
    for n in range(10, 46, 3):
        out.append(Case("ludolimpico-2015", n, 1 + n % 6, f"l{n}", None if n % 2 else 20_000))
    # re-plans: a drop or a late entry after one to three played rounds
    for n, rounds, played, drop, late in (
        (12, 4, 1, 1, 0),
        (13, 5, 2, 0, 1),
        (16, 4, 1, 2, 0),
        (18, 4, 2, 0, 1),
        (21, 5, 3, 1, 1),
        (24, 6, 2, 1, 0),
        (30, 5, 1, 0, 2),
        (35, 7, 3, 2, 0),
        (44, 8, 4, 1, 0),
    ):
        out.append(Case("bonn-2018", n, rounds, f"r{n}", 20_000, played, drop, late))
    out.append(Case("ludolimpico-2015", 20, 5, "lr", 20_000, 2, 1, 0))
    # a large room of equal tables (seat numbers by player types)
    out.append(Case("bonn-2018", 105, 2, "t", 20_000))
    return out


CASES = _cases()


def plan(case: Case) -> Schedule:
    ruleset = load_ruleset(case.ruleset)
    players = names(case.players)
    if not case.played:
        return plan_schedule(
            players,
            rounds=case.rounds,
            seed=case.seed,
            ruleset=ruleset,
            max_iterations=case.max_iterations,
        )
    first = plan_schedule(
        players,
        rounds=case.rounds,
        seed=case.seed,
        ruleset=ruleset,
        max_iterations=case.max_iterations,
    )
    history: list[RoundPlan] = list(first.rounds[: case.played])
    rest = players[case.drop :] + names(case.late, "L")
    return plan_schedule(
        rest,
        rounds=case.rounds - case.played,
        seed=case.seed,
        ruleset=ruleset,
        max_iterations=case.max_iterations,
        history=history,
    )


def digest(schedule: Schedule) -> str:
    return hashlib.sha256(repr(schedule).encode()).hexdigest()


def stored() -> dict[str, str]:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    assert data["plan_version"] == PLAN_VERSION, "the digests are for another PLAN_VERSION"
    return dict(data["digests"])


def main(argv: list[str]) -> int:
    if argv not in (["--write"], ["--check"]):
        print(__doc__)
        return 2
    digests: dict[str, str] = {}
    cpu: dict[str, float] = {}
    for case in CASES:
        start = time.process_time()
        digests[case.key] = digest(plan(case))
        cpu[case.key] = round(time.process_time() - start, 3)
        print(f"{case.key}: {cpu[case.key]:.3f} s CPU", flush=True)
    print(f"{len(CASES)} cases, {sum(cpu.values()):.1f} s CPU")
    if argv == ["--write"]:
        DATA.write_text(
            json.dumps({"plan_version": PLAN_VERSION, "digests": digests}, indent=1) + "\n",
            encoding="utf-8",
        )
        return 0
    old = stored()
    wrong = [key for key in digests if old.get(key) != digests[key]]
    for key in wrong:
        print(f"different: {key}")
    print("all the same" if not wrong and old.keys() == digests.keys() else "NOT the same")
    return 1 if wrong or old.keys() != digests.keys() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
