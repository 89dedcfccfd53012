"""An exact oracle for the wonder and start rules, for tests only (HiGHS via ``highspy``).

The wonder rule (nobody plays a wonder twice) and the start rule (start counts within one of each
other) depend only on the seat number each player takes in each round: seat k plays the round's
k-th wonder and seat 0 starts. A round has ``T_k`` seats numbered k (tables with more than k seats).
So both rules can hold together iff there are non-negative integers ``x_τ``, one per *trajectory*
τ = (seat number in round 1, …, round R) that plays R distinct wonders and starts between
``floor(S/N)`` and ``ceil(S/N)`` times, with ``Σ_{τ: τ_r = k} x_τ = T_k`` for every round r and
seat k. That is a small integer program; HiGHS decides it exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import highspy


def wonder_and_start_rules_feasible(
    sizes: Sequence[int],
    draws: Sequence[Sequence[str]],
    past: Sequence[tuple[frozenset[str], int]] | None = None,
) -> bool:
    """Whether some seating of ``sizes`` tables over these rounds' draws keeps both rules.

    ``past`` (a re-plan): for each player seated now, the wonders already played and the starts
    already made; the band of start counts is then taken over the whole event. Players with the
    same past form a class whose members take trajectories that avoid its wonders.
    """
    n = sum(sizes)
    rounds = len(draws)
    s_max = max(sizes)
    if past is None:
        past = [(frozenset(), 0)] * n
    assert len(past) == n
    total = rounds * len(sizes) + sum(starts for _w, starts in past)
    lo, hi = total // n, -(-total // n)
    seats_per_number = [sum(1 for s in sizes if s > k) for k in range(s_max)]
    classes: dict[tuple[frozenset[str], int], int] = {}
    for key in past:
        classes[key] = classes.get(key, 0) + 1
    columns: list[tuple[tuple[frozenset[str], int], tuple[int, ...]]] = []
    for key in classes:
        done, before = key
        for tau in product(range(s_max), repeat=rounds):
            played = [draws[r][k] for r, k in enumerate(tau)]
            starts = before + sum(1 for k in tau if k == 0)
            if len(set(played)) == rounds and not set(played) & done and lo <= starts <= hi:
                columns.append((key, tau))
    if not columns:
        return False
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    for _ in columns:
        h.addCol(0.0, 0.0, float(n), 0, [], [])
    h.changeColsIntegrality(
        len(columns),
        list(range(len(columns))),
        [highspy.HighsVarType.kInteger] * len(columns),
    )
    for key, members in classes.items():
        cols = [i for i, (c, _tau) in enumerate(columns) if c == key]
        if not cols:
            return False
        h.addRow(float(members), float(members), len(cols), cols, [1.0] * len(cols))
    for r in range(rounds):
        for k in range(s_max):
            cols = [i for i, (_c, tau) in enumerate(columns) if tau[r] == k]
            need = float(seats_per_number[k])
            if not cols:
                if need > 0:
                    return False
                continue
            h.addRow(need, need, len(cols), cols, [1.0] * len(cols))
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kOptimal:
        return True
    assert status == highspy.HighsModelStatus.kInfeasible, status
    return False
