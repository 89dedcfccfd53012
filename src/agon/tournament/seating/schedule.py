"""Schedule search: :func:`plan_schedule` and its strategies (grouping first, seat numbers
first, types first in large rooms of equal tables), with restarts and budgets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agon.errors import InvalidInput
from agon.tournament.draws import (
    WONDERS,
    draw_guilds,
    draw_sides,
    draw_wonders,
    rng,
)
from agon.tournament.exact_grouping import (
    cyclic_grouping,
    cyclic_start,
    known_grouping,
    wonder_seat_types,
    wonder_start_seat_numbers,
    wonder_start_seat_orders,
    zero_repeat_grouping,
)
from agon.tournament.ruleset import Ruleset
from agon.tournament.seating.bounds import (
    repeat_lower_bound,
    start_bands,
    wonder_conflict_note,
    wonder_repeat_lower_bound,
)
from agon.tournament.seating.grouping import _Grouping, _SeatNumbers
from agon.tournament.seating.model import (
    WEIGHTS,
    RoundPlan,
    Schedule,
    ScheduleReport,
    SeatedTable,
    _excess,
    _Past,
)
from agon.tournament.seating.search import _Search
from agon.tournament.tables import table_sizes


def _grouping_first(
    n: int,
    sizes: tuple[int, ...],
    wonders: list[list[int]] | None,
    rounds: int,
    seed: str,
    bound: int,
    max_iterations: int,
    wonder_bound: int = 0,
    past: _Past | None = None,
    progress: Callable[[float], None] | None = None,
) -> _Search:
    """Strategy 1: group players against repeats, then anneal seat orders for the other rules.

    Up to :data:`ATTEMPTS` independent attempts (seeds ``seed|attempt i``) for rooms of up to
    100 players, each grouping with ``max_iterations``. A grouping is seated only if it has fewer
    repeats than the best schedule so far, or no schedule so far keeps the start and wonder rules
    (down to their bound). The best by :func:`_quality` is kept; the attempts end when it meets
    every bound, or when repeats are forced, the rules are kept and a grouping brings no progress.

    Where no wonder repeat is forced, each grouping is first checked exactly
    (:func:`~agon.tournament.exact_grouping.wonder_start_seat_orders`): a grouping whose seat
    orders cannot keep the wonder and start rules is set aside for the next attempt's, and only
    the best set-aside one is repaired (players change tables) if no attempt allows the rules.
    ``progress(fraction)`` is told how many attempts are done.
    """
    attempts = ATTEMPTS if n <= FALLBACK_MAX_PLAYERS else 1
    before = past or _Past.empty(n, max(sizes))
    # the exact check asks for no new wonder repeat: where the draws force none (wonder
    # repeats of the played rounds stay what they are)
    forced = wonder_bound - _excess(before.wc)
    exact = wonders is not None and n <= FALLBACK_MAX_PLAYERS
    band = start_bands(before.sc, rounds, len(sizes))
    best: _Search | None = None
    #: the grouping with the fewest repeats whose seat orders cannot keep the rules (exact check)
    deferred: tuple[_Grouping, str] | None = None
    tried = 0
    for attempt in range(attempts):
        tried = attempt + 1
        sub = seed if attempt == 0 else f"{seed}|attempt {attempt}"
        share = _share(progress, attempt / attempts, (attempt + 0.8) / attempts)
        grouping = _restarted_grouping(
            n, sizes, rounds, sub, bound, max_iterations, past, progress=share,
            construct=attempt == 0,
        )  # fmt: skip
        no_progress = best is not None and grouping.repeats >= _quality(best)[2]
        if best is not None and no_progress and _hard_ok(best, wonder_bound):
            if bound > 0 or grouping.repeats > 0:
                # repeats forced (or a zero bound that neither the annealing nor the exact
                # model reached), rules kept, no better grouping: likely the optimum
                break
            continue
        if (
            deferred is not None
            and bound > 0
            and grouping.repeats >= deferred[0].repeats
            and grouping.repeats > bound  # at the bound, its seat orders may keep the rules
            and (best is None or grouping.repeats >= _quality(best)[2])
        ):
            break  # forced repeats and no better grouping: seat the deferred one below
        tables = grouping.tab
        if exact:
            assert wonders is not None
            orders = wonder_start_seat_orders(
                tables, wonders, before.wc, before.sc, band, wonder_repeats=forced > 0
            )
            if orders is None:
                # no seat order keeps the wonder and start rules: try the next grouping first
                if deferred is None or grouping.repeats < deferred[0].repeats:
                    deferred = (grouping, sub)
                continue
            tables = [
                [sorted(t, key=orders[r].__getitem__) for t in tables[r]] for r in range(rounds)
            ]
        search = _seat_grouping(n, sizes, wonders, rounds, sub, tables, bound, max_iterations,
                                wonder_bound, past)  # fmt: skip
        if progress is not None:
            progress((attempt + 1) / attempts)
        if best is None or _quality(search) < _quality(best):
            best = search
        if _hard_ok(best, wonder_bound) and _quality(best)[2] <= bound:
            break
    if deferred is not None and (best is None or not _hard_ok(best, wonder_bound)):
        grouping, sub = deferred
        search = _seat_grouping(n, sizes, wonders, rounds, sub, grouping.tab, bound,
                                max_iterations, wonder_bound, past)  # fmt: skip
        if best is None or _quality(search) < _quality(best):
            best = search
    assert best is not None
    best.attempts = tried
    return best


def _seat_grouping(
    n: int,
    sizes: tuple[int, ...],
    wonders: list[list[int]] | None,
    rounds: int,
    seed: str,
    tables: Sequence[Sequence[Sequence[int]]],
    bound: int,
    max_iterations: int,
    wonder_bound: int,
    past: _Past | None,
) -> _Search:
    """Seat a grouping (tables in a first seat order), anneal seat orders; if that breaks the
    wonder or start rule, let players change tables too and win repeats back."""
    search = _Search(n, sizes, wonders, rounds, seed, WEIGHTS, past)
    search.load_groups(tables)
    search.arrange(20_000 + 10 * n * rounds, wonder_bound)
    if not _hard_ok(search, wonder_bound) and n <= FALLBACK_MAX_PLAYERS:
        # the grouping leaves no seat order that keeps the wonder or start rule: let players
        # change tables too, then win back repeats with moves that keep seat numbers
        search.arrange(20_000 + 10 * n * rounds, wonder_bound, cross_share=0.3)
        search.run(max_iterations // 2, WEIGHTS.pair * bound, class_share=1.0)
    search.polish(2 if n <= 100 else 1)
    return search


def _luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, …"""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1


def _restarted_grouping(
    n: int,
    sizes: tuple[int, ...],
    rounds: int,
    seed: str,
    bound: int,
    max_iterations: int,
    past: _Past | None = None,
    *,
    progress: Callable[[float], None] | None = None,
    construct: bool = False,
) -> _Grouping:
    """Group players against repeats with restarts of Luby-sequence lengths (units of
    :data:`RESTART_UNIT` moves) until ``bound`` is met or ``max_iterations`` moves are spent;
    where the bound is zero and the restarts miss it, ask the exact SAT model
    (:func:`agon.tournament.exact_grouping.zero_repeat_grouping`).

    Measured here: for 22 players x 4 rounds one 20,000-move run reaches the zero-repeat bound about
    one time in twelve, one 400,000-move run almost never; for 18 and 19 players long runs are what
    reaches the bound. Luby restarts give both (Luby, Sinclair and Zuckerman 1993). Rooms of more
    than :data:`FALLBACK_MAX_PLAYERS` get one run with the whole budget.

    With ``construct`` (a plan's first attempt, nothing played) a zero-repeat grouping is first
    built from a grid where the table sizes allow it
    (:func:`~agon.tournament.exact_grouping.cyclic_grouping`): no search at all. Where the grid
    gives fewer rounds than asked, each restart starts from them
    (:func:`~agon.tournament.exact_grouping.cyclic_start`) instead of a random grouping. Where
    the bound is above zero, a grouping known to reach it is taken the same way
    (:func:`~agon.tournament.exact_grouping.known_grouping`: 18 and 19 players x 4 rounds).
    """
    if construct and past is None:
        if bound == 0:
            built = cyclic_grouping(n, sizes, rounds, seed)
        else:
            built = known_grouping(n, sizes, rounds, seed)
        if built is not None:
            grouping = _Grouping(n, sizes, rounds, seed)
            grouping.load(built)
            grouping.iterations = 0
            if grouping.repeats <= bound:
                return grouping
    if n > FALLBACK_MAX_PLAYERS:
        grouping = _Grouping(n, sizes, rounds, seed, past)
        grouping.progress = progress
        grouping.run(max_iterations, bound)
        return grouping
    best: _Grouping | None = None
    spent, restart = 0, 0
    warm = False
    while spent < max_iterations:
        restart += 1
        budget = min(RESTART_UNIT * _luby(restart), max_iterations - spent)
        sub = seed if restart == 1 else f"{seed}|restart {restart}"
        grouping = _Grouping(n, sizes, rounds, sub, past)
        start = cyclic_start(n, sizes, rounds, sub) if bound == 0 and past is None else None
        if start is not None:
            grouping.load(start)
            warm = True
        grouping.run(budget, bound)
        spent += max(grouping.iterations, 1)
        if progress is not None:
            progress(spent / max_iterations)
        if best is None or grouping.repeats < best.repeats:
            best = grouping
        if best.repeats <= bound:
            break
    assert best is not None
    if bound == 0 and best.repeats > 0 and past is None and not warm:
        # (where the grid gave a start, 6 rounds of 21-30 players, the exact model found no
        # zero-repeat grouping within 70,000 conflicts: it is not asked)
        exact = zero_repeat_grouping(n, sizes, rounds, seed)
        if exact is not None:
            best.load(exact)
    return best


#: Moves in one unit of the Luby restart sequence of the grouping search.
RESTART_UNIT = 20_000


def _hard_ok(search: _Search, wonder_bound: int) -> bool:
    """Whether the start rule holds and wonder repeats are down to their lower bound."""
    return search.hard_cost() <= WEIGHTS.wonder * wonder_bound


#: Rooms up to this size try strategy 2 when strategy 1 breaks the wonder or start rule.
FALLBACK_MAX_PLAYERS = 100
#: Independent grouping attempts for rooms of up to 100 players.
ATTEMPTS = 6


def _numbers_first(
    n: int,
    sizes: tuple[int, ...],
    wonders: list[list[int]] | None,
    rounds: int,
    seed: str,
    bound: int,
    max_iterations: int,
    past: _Past | None = None,
    progress: Callable[[float], None] | None = None,
    forced: int = 0,
) -> _Search:
    """Strategy 2 (when strategy 1 breaks the wonder or start rule): seat numbers first
    (:class:`_SeatNumbers`, or the exact model when the annealing leaves a rule broken), then
    tables that keep them. ``forced``: the new wonder repeats the draws force."""
    numbers = _SeatNumbers(n, sizes, wonders, rounds, seed, WEIGHTS, past)
    numbers.run(20_000 + 40 * n * rounds, forced)
    if wonders is not None and not numbers.rules_kept(forced):
        # the annealing left a rule broken: ask the exact model whether both rules can hold
        before = past or _Past.empty(n, max(sizes))
        exact = wonder_start_seat_numbers(
            sizes, wonders, before.wc, before.sc, (numbers.lo, numbers.hi), seed,
            wonder_repeats=forced > 0,
        )  # fmt: skip
        if exact is not None:
            numbers.idx = exact
    search = _Search(n, sizes, wonders, rounds, seed, WEIGHTS, past)
    search.initial(numbers.idx)
    search.progress = progress
    search.run(max_iterations // 2, WEIGHTS.pair * bound, class_share=1.0)
    search.polish()
    return search


def _types_first(
    n: int,
    sizes: tuple[int, ...],
    wonders: list[list[int]],
    rounds: int,
    seed: str,
    bound: int,
    max_iterations: int,
    progress: Callable[[float], None] | None = None,
) -> _Search | None:
    """Strategy 0 for large rooms of equal tables (no rounds played): seat numbers by player
    *types*, exact for the wonder and start rules, then tables that keep them.

    :func:`~agon.tournament.exact_grouping.wonder_seat_types` gives each of the ``size`` types
    its seat number in every round at the forced wonder repeats (docs/seating.md, section 3);
    the players, shuffled by the seed (purpose ``schedule-types``), are dealt to the types in
    turn. Any grouping with one player of each seat number per table keeps both rules, so the
    grouping is annealed with moves that keep seat numbers. ``None`` when the model has no
    solution (the start rule and the wonder bound conflict for these draws).
    """
    size = sizes[0]
    types = wonder_seat_types(size, wonders, seed)
    if types is None:
        return None
    order = list(range(n))
    rng(seed, "schedule-types").shuffle(order)
    kind = [0] * n
    for q, p in enumerate(order):
        kind[p] = q % size
    idx = [[types[r][kind[p]] for p in range(n)] for r in range(rounds)]
    search = _Search(n, sizes, wonders, rounds, seed, WEIGHTS)
    search.initial(idx)
    search.progress = _share(progress, 0.05, 0.95)
    search.run(max_iterations // 2, WEIGHTS.pair * bound, class_share=1.0)
    search.polish(1)
    return search


def _share(
    progress: Callable[[float], None] | None, low: float, high: float
) -> Callable[[float], None] | None:
    """``progress`` for a part of the work: its fractions 0…1 reported as ``low``…``high``."""
    if progress is None:
        return None
    report = progress

    def part(fraction: float) -> None:
        report(low + (high - low) * min(1.0, fraction))

    return part


class _Meter:
    """``on_progress(done)`` in thousandths of a plan, never backwards (or nothing)."""

    def __init__(self, on_progress: Callable[[int], None] | None) -> None:
        self.on_progress, self.done = on_progress, 0

    def at(self, fraction: float) -> None:
        if self.on_progress is None:
            return
        done = min(1000, int(1000 * fraction))
        if done > self.done:
            self.done = done
            self.on_progress(done)

    def part(self, low: float, high: float) -> Callable[[float], None] | None:
        """A ``progress(fraction)`` for the work between ``low`` and ``high`` (or ``None``)."""
        return _share(self.at, low, high) if self.on_progress is not None else None


def _quality(search: _Search) -> tuple[int, ...]:
    """Lexicographic quality: start rule, wonder rule, repeats, neighbours, seat numbers."""
    c = search.components()
    return (c["start"], c["wonder"], c["repeats"], c["neighbour"], c["seat"])


def _check_players(players: Sequence[str]) -> list[str]:
    names = list(players)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise InvalidInput(f"player names must be non-empty strings, got {name!r}")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise InvalidInput(f"player {name!r} is listed twice")
        seen.add(name)
    return sorted(names)


def _wonder_count(sizes: Sequence[int], ruleset: Ruleset) -> int:
    """Bonn: as many wonders as the largest table has seats; auction rulesets: one more."""
    return max(sizes) + (1 if ruleset.auction else 0)


def plan_schedule(
    players: Sequence[str],
    *,
    rounds: int,
    seed: str,
    ruleset: Ruleset,
    max_iterations: int | None = None,
    history: Sequence[RoundPlan] = (),
    on_progress: Callable[[int], None] | None = None,
) -> Schedule:
    """Pre-planned schedule (Bonn 2018, "vorher festgelegter Spielplan"): all rounds at once.

    Minimises repeat encounters, then repeated neighbours, with start counts differing by at most
    one and no player getting a wonder twice wherever the draws allow it (see :data:`WEIGHTS`).
    Players are handled in sorted order, so the result depends only on the set of names, the
    number of rounds, the seed and the ruleset. ``max_iterations`` bounds the search (default:
    scaled with the size of the problem); the search is deterministic.

    A *re-plan* (a drop or a late entry, docs/seating.md) passes the rounds already played as
    ``history`` and plans the ``rounds`` after them: their draws are the tournament's, by round
    number (:func:`~agon.tournament.draws.draw_wonders` with ``seed``, so a round keeps the draw
    committed to; a smaller largest table uses a prefix of it), and the meetings, neighbours,
    starts, wonders and seat numbers of the played rounds count, so the search minimises over the
    whole event. The search itself is seeded with ``"{seed}|from-round-{r}"``. The report then
    counts the whole event (played and planned rounds) for the players seated now. The result is
    a function of the seed, the played rounds, the set of players and ``rounds``, so ``agon
    verify`` can recompute it.

    ``on_progress(done)`` is told how far the search is, in thousandths (never backwards, 1000 at
    the end); it changes nothing about the result (``agon schedule``'s progress bar).

    Raises:
        InvalidInput: duplicate or empty names, ``rounds < 1``, a count the tables cannot seat.
    """
    names = _check_players(players)
    if rounds < 1:
        raise InvalidInput(f"rounds must be at least 1, got {rounds}")
    n = len(names)
    sizes = table_sizes(n, ruleset)
    count = _wonder_count(sizes, ruleset)
    first = history[-1].number + 1 if history else 1
    search_seed = seed if not history else f"{seed}|from-round-{first}"
    draws = [draw_wonders(seed, r, count) for r in range(first, first + rounds)]
    index = {w: i for i, w in enumerate(WONDERS)}
    use_wonders = not ruleset.auction
    wonders = [[index[w] for w in d] for d in draws] if use_wonders else None
    past = _Past.of(names, max(sizes), history, by_seat=use_wonders) if history else None
    bound, notes = repeat_lower_bound(sizes, rounds)
    if max_iterations is None:
        max_iterations = 100_000 + 50 * n * rounds
    wonder_note = wonder_conflict_note([d[: max(sizes)] for d in draws]) if use_wonders else None
    played = (
        {w: sum(1 for row in past.wc if row[i]) for i, w in enumerate(WONDERS)}
        if past is not None
        else None
    )
    wonder_bound, wonder_notes = (
        wonder_repeat_lower_bound(sizes, [d[: max(sizes)] for d in draws], played)
        if use_wonders
        else (0, ())
    )
    if past is not None:
        bound += past.repeats
        wonder_bound += _excess(past.wc)
    meter = _Meter(on_progress)
    search: _Search | None = None
    if wonders is not None and past is None and n > FALLBACK_MAX_PLAYERS and len(set(sizes)) == 1:
        search = _types_first(
            n, sizes, wonders, rounds, search_seed, bound, max_iterations, meter.part(0.0, 0.95)
        )
    if search is None:
        search = _grouping_first(
            n, sizes, wonders, rounds, search_seed, bound, max_iterations, wonder_bound, past,
            meter.part(0.0, 0.8),
        )  # fmt: skip
    if search.hard_cost() > WEIGHTS.wonder * wonder_bound and n <= FALLBACK_MAX_PLAYERS:
        other = _numbers_first(
            n, sizes, wonders, rounds, search_seed, bound, max_iterations, past,
            meter.part(0.8, 0.95), wonder_bound - (_excess(past.wc) if past else 0),
        )  # fmt: skip
        if _quality(other) < _quality(search):
            search = other
    comp = search.components()
    lows, highs = start_bands(past.sc if past else [0] * n, rounds, len(sizes))
    spread_bound = max(highs) - min(lows)
    all_notes = []
    if past is not None:
        all_notes.append(
            f"re-planned from round {first} for {n} players: the counts cover rounds 1–"
            f"{first + rounds - 1}, the {past.rounds} played and the {rounds} planned"
        )
    all_notes.extend(notes)
    if wonder_note is not None:
        all_notes.append(wonder_note)
    all_notes.extend(wonder_notes)
    if comp["wonder"] > wonder_bound and wonder_note is None:
        all_notes.append(
            f"{comp['wonder']} wonder repeats remain against a lower bound of {wonder_bound}: "
            "the search found no seating with fewer (the wonder and start rules together may "
            "not allow fewer)"
        )
    if comp["start"]:
        all_notes.append(
            f"start counts differ by {comp['spread']}: the search found no seating that keeps "
            "them as even as the rules allow"
        )
    elif spread_bound > 1:
        all_notes.append(
            f"start counts differ by {comp['spread']}: the rounds already played allow no less "
            "(every start left went to the players with the fewest)"
        )
    if comp["repeats"] > bound:
        all_notes.append(
            f"{comp['repeats']} repeat encounters against a lower bound of {bound}: "
            "the bound is not always reachable, and the search may have missed a better schedule"
        )
    plans = []
    for r in range(rounds):
        tables = tuple(
            SeatedTable(seats=tuple(names[p] for p in table if p is not None))
            for table in search.tab[r]
        )
        plans.append(
            RoundPlan(
                number=first + r,
                tables=tables,
                wonders=draws[r],
                guilds=draw_guilds(seed, first + r),
                sides=draw_sides(seed, ruleset, first + r),
            )
        )
    meter.at(1.0)
    report = ScheduleReport(
        repeats=comp["repeats"],
        lower_bound=bound,
        neighbour_repeats=comp["neighbour"],
        notes=tuple(all_notes),
        wonder_repeats=comp["wonder"],
        wonder_lower_bound=wonder_bound,
        start_spread=comp["spread"],
        seat_repeats=comp["seat"],
        start_spread_bound=spread_bound,
        search_attempts=search.attempts,
    )
    return Schedule(rounds=tuple(plans), report=report)
