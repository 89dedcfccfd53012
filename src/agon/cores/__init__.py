"""agon's compiled cores (Cython), built into agon's own wheel by ``hatch_build.py``.

* :mod:`agon.cores.seven_wonders` — random legal play, the heuristic bot and search rollouts of
  7 Wonders, proven to play the games of :mod:`agon.games.seven_wonders.engine`;
* :mod:`agon.cores.one_card_wonder` — the same for One Card Wonder;
* :mod:`agon.cores.standings` — the standings of a big event file: reading a round's seats,
  scoring tables without virtual seats, exact sums, the results' digest (the same standings as
  :mod:`agon.tournament.standings` computes in Python, which it falls back to).

Each holds no rules data of its own (the games load their tables into it, the standings take
the ruleset's numbers as arguments).  When agon was built
without a C compiler the modules are absent and the games play on their Python engines
(``engine="auto"``); importing a core then raises :class:`ImportError`.
"""

from __future__ import annotations

import os

#: What ``engine="auto"`` says (once, on stderr) when agon was built without its compiled cores.
FALLBACK_NOTE = (
    "note: this agon was built without its compiled cores (no C compiler at build time); "
    "playing on the Python engine: the same games, slower"
)


def build_of(module_file: str | os.PathLike[str]) -> str:
    """Which build the compiled module at ``module_file`` is: ``"profile-guided"`` when the file
    that ``hatch_build.py`` writes beside it (``_core.build.json``, with ``AGON_CORE_PGO=1``:
    ``make``'s installs) says so of this very file (its SHA-256), else ``"plain"`` (a wheel, a
    plain ``pip install``), with the reason when a profile-guided build was tried and failed."""
    import hashlib  # here: only the benches and tests ask, not every import of a core
    import json
    from pathlib import Path

    path = Path(module_file)
    try:
        note = json.loads((path.parent / "_core.build.json").read_text(encoding="utf-8"))
        if note.get("sha256") != hashlib.sha256(path.read_bytes()).hexdigest():
            return "plain"
    except (OSError, ValueError, AttributeError):
        return "plain"
    if note.get("build") == "profile-guided":
        return "profile-guided"
    why = note.get("why")
    return f"plain (the profile-guided build failed: {why})" if why else "plain"
