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

#: What ``engine="auto"`` says (once, on stderr) when agon was built without its compiled cores.
FALLBACK_NOTE = (
    "note: this agon was built without its compiled cores (no C compiler at build time); "
    "playing on the Python engine: the same games, slower"
)
