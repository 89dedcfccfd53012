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


def wonder_and_start_rules_feasible(sizes: Sequence[int], draws: Sequence[Sequence[str]]) -> bool:
    """Whether some seating of ``sizes`` tables over these rounds' draws keeps both rules."""
    n = sum(sizes)
    rounds = len(draws)
    s_max = max(sizes)
    total = rounds * len(sizes)
    lo, hi = total // n, -(-total // n)
    seats_per_number = [sum(1 for s in sizes if s > k) for k in range(s_max)]
    trajectories = []
    for tau in product(range(s_max), repeat=rounds):
        played = [draws[r][k] for r, k in enumerate(tau)]
        starts = sum(1 for k in tau if k == 0)
        if len(set(played)) == rounds and lo <= starts <= hi:
            trajectories.append(tau)
    if not trajectories:
        return False
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    inf = highspy.kHighsInf
    for _ in trajectories:
        h.addCol(0.0, 0.0, float(n), 0, [], [])
    h.changeColsIntegrality(
        len(trajectories),
        list(range(len(trajectories))),
        [highspy.HighsVarType.kInteger] * len(trajectories),
    )
    for r in range(rounds):
        for k in range(s_max):
            cols = [i for i, tau in enumerate(trajectories) if tau[r] == k]
            need = float(seats_per_number[k])
            if not cols:
                if need > 0:
                    return False
                continue
            h.addRow(need, need, len(cols), cols, [1.0] * len(cols))
    del inf
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kOptimal:
        return True
    assert status == highspy.HighsModelStatus.kInfeasible, status
    return False
