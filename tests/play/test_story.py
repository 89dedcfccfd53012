"""The table's story (issue 28): told from the log, public facts only.

A property: no turn's story names a card that was not built in that turn — a card that went
under a wonder, onto the discard pile, or stayed in a hand is never named, whoever reads it. The
wonder powers (Olympia, Halikarnassos, Babylon) and the military results at each age's end are
told, and agree with the engine."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from collections.abc import Callable
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.games.seven_wonders.data import cards
from agon.play.adapters import TABLE, Adapter, Setup, SevenWonders, new_adapter
from agon.play.clocks import timeout_action
from agon.play.story import Teller, Turn, story
from agon.web.storyview import StoryCache, story_context, turn_record

POWERS = Setup(
    game="7w",
    variant="base",
    seats=3,
    seed="powers",
    wonders=("Olympia", "Halikarnassos", "Babylon"),
    sides=("A", "A", "B"),
)


def play(setup: Setup, pick: random.Random | None, seed: int = 0) -> list[tuple[int, int, str]]:
    """A whole game: random legal moves (``pick``), else the heuristic bot's."""
    a = new_adapter(setup)
    log: list[tuple[int, int, str]] = []
    while not a.over:
        seat = next(s for s in a.waiting_for() if a.legal(s))
        if pick is not None:
            action = pick.choice(a.legal(seat))
        else:
            action = a.bot_action(seat, "heuristic", seed * 1000 + len(log))
        a.apply(seat, action)
        log.append((len(log) + 1, seat, action))
    return log


@cache
def _card_names() -> dict[str, str]:
    return {c.id: c.en for c in cards()}


def named_cards(text: str) -> set[str]:
    """The English card names the text contains as whole words (the longest name at each place:
    "Siege Workshop" does not name a "Workshop")."""
    names = sorted(set(_card_names().values()), key=len, reverse=True)
    pattern = r"\b(?:" + "|".join(re.escape(n) for n in names) + r")\b"
    return {m.group(0) for m in re.finditer(pattern, text)}


def built_in(turn: Turn) -> set[str]:
    """The English names of the cards built in the turn."""
    kinds = ("build", "free", "revive")
    return {_card_names()[d.card] for d in turn.deeds if d.card is not None and d.kind in kinds}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(3, 7), seed=st.integers(0, 2**32), pick=st.integers(0, 2**32))
def test_no_turn_names_a_card_that_was_not_built(seats: int, seed: int, pick: int) -> None:
    setup = Setup(game="7w", variant="base", seats=seats, seed=str(seed))
    log = play(setup, random.Random(pick))
    names = [f"P{i}" for i in range(seats)]
    turns = story(setup, log)
    # the hands of every seat before each turn resolved: their unplayed cards are never named
    hidden_somewhere = set()
    a = new_adapter(setup)
    assert isinstance(a, SevenWonders)
    for _seq, seat, action in log:
        hidden_somewhere |= {cards()[i].id for h in a.game.hands for i in h}
        a.apply(seat, action)
    for turn in turns:
        record = turn_record(turn, names, "en", 1)
        text = " ".join(record["lines"] + record["battles"])
        assert named_cards(text) <= built_in(turn), (turn, text)
    assert hidden_somewhere  # there were hands to keep secret
    # every stored step is in the story once its turn resolved, and the story ends the game
    assert turns[-1].age_end == 3 and sum(len(t.deeds) for t in turns) >= seats * 18


def test_the_military_results_agree_with_the_engine() -> None:
    setup = Setup(game="7w", variant="base", seats=5, seed="war")
    log = play(setup, None, seed=7)
    a: Adapter = new_adapter(setup)
    assert isinstance(a, SevenWonders)
    ends = {t.seq: t for t in story(setup, log) if t.age_end}
    assert sorted(t.age_end for t in ends.values()) == [1, 2, 3]
    for seq, seat, action in log:
        before = [c.military for c in a.game.cities]
        a.apply(seat, action)
        if seq in ends:
            gained = Counter[int]()
            for b in ends[seq].battles:
                gained[b.seat] += b.points
            after = [c.military for c in a.game.cities]
            assert [after[p] - before[p] for p in range(5)] == [gained[p] for p in range(5)]


def test_the_wonder_powers_and_payments_are_told() -> None:
    told: Counter[tuple[str, str | None]] = Counter()
    lines: list[str] = []
    for seed in range(12):  # games of heuristic bots until each power was used
        powers = told[("free", "olympia")] and told[("revive", "halikarnassos")]
        if powers and any("(Babylon" in x for x in lines):
            break
        setup = dataclasses.replace(POWERS, seed=f"p{seed}")
        turns = story(setup, play(setup, None, seed))
        told.update((d.kind, d.power) for t in turns for d in t.deeds)
        ctx = story_context(turns, ["Ann", "Bo", "Cy"], "en")
        lines += [line for r in ctx["turns"] for line in r["lines"]]
    assert told[("free", "olympia")] >= 1
    assert told[("revive", "halikarnassos")] >= 1
    assert sum(n for (kind, power), n in told.items() if power == "babylon") >= 1
    assert any("for free (Olympia)" in x for x in lines)
    assert any("from the discard pile (Halikarnassos)" in x for x in lines)
    assert any("(Babylon: the seventh card)" in x for x in lines)
    assert any(
        re.search(r"pays \d+ coins? to (Ann|Bo|Cy) \((left|right) neighbour\) for", x)
        for x in lines
    )


def test_a_turn_enters_the_story_only_when_every_seat_has_chosen() -> None:
    setup = Setup(game="7w", variant="base", seats=3, seed="partial")
    log = play(setup, random.Random(1))
    teller = Teller(setup)
    teller.feed(log[:2])  # two of three seats chose: nothing is revealed yet
    assert teller.turns == ()
    teller.feed(log[2:3])
    assert len(teller.turns) == 1 and len(teller.turns[0].deeds) == 3
    teller.feed(log[3:])  # fed in parts, the story is the whole one
    assert teller.turns == story(setup, log)


def test_the_chosen_sides_are_told_once_all_have_chosen() -> None:
    setup = Setup(game="7w", variant="base", seats=3, seed="sides", choose_sides=True)
    log = [(1, 0, "side B"), (2, 1, "side A")]
    assert story(setup, log) == ()
    turns = story(setup, [*log, (3, 2, "side B")])
    assert [(d.seat, d.detail) for d in turns[0].deeds] == [(0, "B"), (1, "A"), (2, "B")]


def test_one_card_wonder_tells_every_move_in_three_languages() -> None:
    setup = Setup(game="ocw", variant="base", seats=2, seed="ocw-story")
    log = play(setup, random.Random(4))
    turns = story(setup, log)
    assert len(turns) == len(log)
    for lang in ("en", "de", "it"):
        ctx = story_context(turns, ["Ann", "Bo"], lang)
        assert ctx["last"]["lines"][0].startswith(("Ann", "Bo"))


def test_a_page_lists_the_newest_turns_only() -> None:
    setup = Setup(game="ocw", variant="base", seats=2, seed="ocw-long")
    turns = story(setup, play(setup, random.Random(5)))
    assert len(turns) > 60
    ctx = story_context(turns, ["Ann", "Bo"], "en", limit=60)
    assert len(ctx["turns"]) == 60 and ctx["count"] == len(turns)
    assert ctx["left_out"] == len(turns) - 60
    assert ctx["turns"][0] == ctx["last"] and ctx["last"]["number"] == len(turns)


def test_the_pages_cache_extends_a_story_by_the_new_entries_only() -> None:
    setup = Setup(game="7w", variant="base", seats=3, seed="cache")
    log = play(setup, random.Random(2))
    cache_ = StoryCache(size=1)

    def upto(n: int) -> Callable[[], tuple[Setup, list[tuple[int, int, str]]]]:
        def load() -> tuple[Setup, list[tuple[int, int, str]]]:
            return setup, log[:n]

        return load

    for n in (3, 10, 10, len(log)):
        assert cache_.get("g", upto(n)) == story(setup, log[:n])
    assert cache_.get("other", upto(5)) == story(setup, log[:5])  # the first game is dropped
    assert cache_.get("g", upto(7)) == story(setup, log[:7])  # told afresh


def test_a_seat_whose_clock_ran_out_is_told_with_the_bots_move() -> None:
    """The table's ``timeout N`` before a seat's move: the story says the seat ran out of time
    and what the bot played for it (before, it read as the round clock's stop)."""
    setup = Setup(game="7w", variant="base", seats=3, seed="late")
    log = play(setup, None)
    first_turn = story(setup, log[:3])[0]
    late = [(1, TABLE, timeout_action(1)), *[(seq + 1, s, a) for seq, s, a in log]]
    turns = story(setup, late)
    assert len(turns) == len(story(setup, log))
    assert [d.timed_out for d in turns[0].deeds] == [False, True, False]
    assert not any(d.timed_out for turn in turns[1:] for d in turn.deeds)
    assert [dataclasses.replace(d, timed_out=False) for d in turns[0].deeds] == list(
        first_turn.deeds
    )
    for lang, words in (("en", "ran out of time"), ("de", "Zeit"), ("it", "tempo")):
        lines = story_context(turns[:1], ["Ann", "Bo", "Cy"], lang)["last"]["lines"]
        told = [line for line in lines if words in line]
        assert len(told) == 1 and told[0].startswith("Bo"), lines


def test_a_one_card_wonder_timeout_marks_the_next_move_of_that_seat() -> None:
    setup = Setup(game="ocw", variant="base", seats=2, seed="ocw-late")
    log = play(setup, random.Random(6))
    seat = log[0][1]
    turns = story(setup, [(0, TABLE, timeout_action(seat)), *log])
    assert len(turns) == len(log)
    assert turns[0].deeds[0].timed_out and not any(t.deeds[0].timed_out for t in turns[1:])
