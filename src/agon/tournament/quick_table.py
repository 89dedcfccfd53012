"""The printed standings of a plain event file with the fewest imports (issue 30): what
``agon standings FILE`` prints, for the common file, in a process that imports nothing but this
module, the compiled standings core, :mod:`hashlib` and the built-in rulesets' facts.

:func:`table_bytes` reads the file's bytes with the core's JSON reader
(:func:`agon.tournament.bulk.standings_columns_of_bytes`'s way, but taking the rounds to be the
file's last field where it ends so, instead of walking them twice: ``JsonScan.head``'s
``rounds_last``; read again the usual way where they are not), checks the header — a name,
a built-in ruleset, the players as plain names or objects with one
(``agon.cores.standings.plain_names``), nothing else but a seed and the date, location and
director — runs the core's one pass over the rounds,
orders the players and has the core write the table (``EventPass.table_text``). Whatever it is
not sure of — a ruleset file, a name the name rule would look at twice, ratings,
a field the header reader would refuse, anything the one pass declines — gives ``None`` and the
usual way (:func:`agon.commands._standings_text.table_of_file`, then the click command) reads
the file and prints the same table or names the problem: this module decides nothing and names
no error. A property test compares its tables with the usual way's byte for byte.

No :mod:`pathlib`, :mod:`dataclasses`, :mod:`typing`, :mod:`tomllib` or :mod:`re` here: each
costs a command's start more CPU than the core takes to read a round of 10,000 players. The
built-in rulesets come as the facts the one pass needs (:mod:`agon.tournament.ruleset_facts`,
written from the rulesets by :func:`agon.tournament.bulk.pass_rules`; a test keeps the two
equal).
"""

from __future__ import annotations

import hashlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it as True)
if TYPE_CHECKING:
    from typing import Any

    from agon.tournament.ruleset_facts import PassRules

#: The safe loader's caps (:data:`agon.tournament.safeload.MAX_BYTES`, ``MAX_NODES``,
#: ``MAX_DEPTH``) and the most rounds or tables (:data:`agon.tournament.limits.NUMBER_MAX`):
#: copied, not imported (those modules import what this one avoids); a test keeps them equal.
MAX_BYTES = 16 * 1024 * 1024
MAX_NODES = 1_000_000
MAX_DEPTH = 32
NUMBER_MAX = 10_000
#: The event file's top-level fields this reader reads (every other one: the usual way).
_PLAIN_KEYS = frozenset(("name", "ruleset", "seed", "players", "date", "location", "director"))


def table_bytes(path: str) -> bytes | None:
    """The standings table of the event file ``path`` as ``agon standings`` prints it (UTF-8,
    no final newline), or ``None`` where the usual way should read the file (see the module's
    docstring). Never raises for a file's content or an unreadable file."""
    core = _core()
    if core is None or path.lower().endswith((".yaml", ".yml")):
        return None
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except (OSError, ValueError):
        return None
    if len(raw) > MAX_BYTES:
        return None
    scan = core.JsonScan(raw, MAX_NODES, MAX_DEPTH)
    text = _table(core, scan, scan.head(True))
    if text is None and scan.guessed:  # perhaps the rounds were not the last field
        scan = core.JsonScan(raw, MAX_NODES, MAX_DEPTH)
        text = _table(core, scan, scan.head())
    return text


def _table(core: Any, scan: Any, data: dict[str, Any] | None) -> bytes | None:
    """The table of the document whose head ``scan`` read (``data``), or ``None``."""
    if data is None:
        return None
    head = _plain_head(data, core)
    if head is None:
        return None
    name, seed, names, rules = head
    one = new_pass(core, names, rules)
    if one is None:
        return None
    one.max_tables = NUMBER_MAX
    digests = one.read_rounds(scan)
    if digests is None or len(digests) > NUMBER_MAX or not one.exact():
        return None
    h = hashlib.sha256(b"agon-results-v1")
    for got in digests:
        h.update(got)
    chain, shown = rules[10], rules[11]
    lot = f"agon-lot\x00{seed}|results:{h.hexdigest()}\x00".encode()
    ranked, decided = one.order(chain, lot)
    title = f"{name} — {rules[0]}, {len(digests)} round(s)"
    text: bytes | None = one.table_text(title, chain, shown, ranked, decided)
    return text


def _core() -> Any:
    """The compiled standings core, or ``None`` (agon built without a C compiler)."""
    try:
        import agon.cores.standings as core
    except ImportError:
        return None
    return core


def _plain_head(data: dict[str, Any], core: Any) -> tuple[str, str, list[str], PassRules] | None:
    """The event's name, lot seed, players' names and built-in ruleset's facts where the header
    is one the header reader takes as it is (:meth:`agon.tournament.event._EventReader.header`:
    the same checks, each one narrower), else ``None``."""
    from agon.tournament.ruleset_facts import BUILTIN

    if not data.keys() <= _PLAIN_KEYS:
        return None  # seed_ratings, rounds given twice, a wrong field: the usual way
    name, ruleset, players = data.get("name"), data.get("ruleset"), data.get("players")
    if type(name) is not str or not core.plain_names([name]):
        return None
    rules = BUILTIN.get(ruleset) if type(ruleset) is str else None
    if rules is None or not _as_written(str(ruleset)):
        return None  # a ruleset file, no such ruleset, or a built-in one edited since
    for key in ("seed", "date", "location", "director"):
        if key in data and type(data[key]) is not str:
            return None
    if type(players) is not list or not players:
        return None
    names = players
    if not core.plain_names(names):
        names = [p if type(p) is not dict else p.get("name") for p in players]  # {"name", ...}
        if not core.plain_names(names):
            return None  # not text (or no name in an object), or a name the rule looks at twice
    seed = data.get("seed")
    if seed is None:  # the default seed (agon.tournament.event.default_seed)
        seed = "agon-lot:" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
    return name, seed, names, rules


def _as_written(ruleset: str) -> bool:
    """Is the built-in ruleset's file the one its facts were written from (its SHA-256 in
    :data:`agon.tournament.ruleset_facts.DIGESTS`)? A user may edit it — rules are data — and the
    facts must never stand in for the file: then (or where the file cannot be read as a file) the
    usual way reads the ruleset itself."""
    import os  # imported by the interpreter's start already

    from agon.tournament.ruleset_facts import DIGESTS

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rulesets", ruleset + ".toml")
    try:
        with open(path, "rb") as fh:
            text = fh.read()
    except OSError:
        return False
    return hashlib.sha256(text).hexdigest() == DIGESTS.get(ruleset)


def new_pass(core: Any, names: list[str], rules: PassRules) -> Any:
    """A new ``EventPass`` of the compiled core for the players ``names`` (each once: else
    ``None``) under a ruleset's facts ``rules``; ``None`` where the core does not order by the
    ruleset's chain or score by its in-game tie-breakers."""
    _, by_bid, breakers, points_by_k, scale, sizes, vp_min, vp_max, coins_max, bid_max = rules[:10]
    chain = rules[10]
    if chain[-1] != "lot" or not set(chain) <= set(core.PASS_CRITERIA):
        return None
    if len(breakers) > 2 or not set(breakers) <= set(core.BREAKERS):
        return None
    index = {name: i for i, name in enumerate(names)}
    if len(index) != len(names):
        return None  # a name twice: the header reader names it
    return core.EventPass(
        index,
        by_bid,
        breakers,
        points_by_k,
        scale,
        names,
        sorted(range(len(names)), key=names.__getitem__),
        sizes,
        vp_min,
        vp_max,
        coins_max,
        bid_max,
    )
