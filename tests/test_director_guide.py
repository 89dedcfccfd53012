"""The director's guide walks the two events of issue 11 as a new director runs them: a complete
BONN-SPIELT 2018 event with 13 players and a Ludolimpico 2015 event with 17 players (auction, a
withdrawal, a player who leaves during a game, the final). The replay itself (every command run,
its output compared) is :mod:`tests.test_docs_commands`; this test keeps the guide from shrinking
back to a smaller walk, and keeps its start times relative to the day it is read (an absolute
date would lie in the past one day, and check-in would then be refused)."""

from __future__ import annotations

import re

from tests.test_docs_commands import ROOT, Command, parse_doc

GUIDE = ROOT / "docs" / "director-guide.md"


def _sections() -> dict[str, list[Command]]:
    """The guide's commands, by tournament slug in the order they are created."""
    by_slug: dict[str, list[Command]] = {}
    slug = ""
    for command in parse_doc(GUIDE):
        created = re.match(r"agon tournament create (\S+)", command.text)
        if created:
            slug = created.group(1)
        by_slug.setdefault(slug, []).append(command)
    return by_slug


def _checked_in(commands: list[Command]) -> set[str]:
    """The players the guide shows as checked in (the output of its check-in commands)."""
    return {
        line.split("  [", 1)[0]
        for c in commands
        if c.text.startswith("agon player checkin")
        for line in c.expected or ()
        if "; checked in]" in line
    }


def test_the_guide_walks_a_13_player_bonn_event_to_its_end() -> None:
    commands = _sections()["bonn-2018"]
    bonn = [c.text for c in commands]
    assert "--ruleset bonn-2018" in bonn[0]
    assert len(_checked_in(commands)) == 13
    assert sum(1 for t in bonn if t == "agon round start") == 4
    assert sum(1 for t in bonn if t == "agon round close") == 4
    assert any(t.startswith("agon player drop") for t in bonn)
    assert any(t.startswith("agon verify bonn-2018.json") for t in bonn)


def test_the_guide_walks_a_17_player_ludolimpico_event_with_auction_withdrawal_leaver_final() -> (
    None
):
    commands = _sections()["ludo-2015"]
    ludo = [c.text for c in commands]
    assert "--ruleset ludolimpico-2015" in ludo[0]
    assert len(_checked_in(commands)) == 17
    assert sum(1 for t in ludo if t == "agon round start") == 3
    auctions = [t for t in ludo if t.startswith("agon round auction")]
    opened = {
        r for t in auctions if "opens" in t for r in re.findall(r"^agon round auction -r (\d+)", t)
    }
    assert opened == {"1", "2", "3", "4"}  # three rounds and the final
    assert any("--kind withdraw" in t for t in ludo)
    assert any(re.search(r'"\w[\w ]*=left"', t) for t in ludo)  # left during a game (2.5)
    assert any("--kind expel" in t for t in ludo)
    assert any(t.startswith("agon round final --absent") for t in ludo)
    assert any(t == "agon tournament podium" for t in ludo)
    assert any(t.startswith("agon verify ludo-2015.json") for t in ludo)


def test_the_guides_start_times_are_relative_to_the_day_it_is_replayed() -> None:
    times = [
        m.group(1)
        for text in (c.text for c in parse_doc(GUIDE))
        for m in re.finditer(r"--(?:starts-at|checkin-deadline)[ =](\S+)", text)
    ]
    assert times, "the guide gives no start time"
    assert all(t.startswith("+") for t in times), times
