"""The docs are sorted by reader, and the pages for users carry no development history.

``docs/index.md`` is the one place that says which page is for whom: its ``## For READER: …``
sections, in the order directors, players, hosts, developers, each list their pages. A page listed
for directors, players or hosts (and the README) is a *user page*: it tells what agon does and how
to use it, never which issue asked for a change ("issue 12", "issues 11 and 13", "#26") or how
the program behaved on some past main branch. Developer pages (reliability evidence, benchmarks,
the bots' lab notes) may cite issues where they point at evidence.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INDEX = ROOT / "docs" / "index.md"
READERS = ("directors", "players", "hosts", "developers")
USER_READERS = ("directors", "players", "hosts")

#: What development history looks like in a page: an issue number, a GitHub-style ``#26`` (a bot's
#: copy number such as ``mcts@0.5s#1`` or ``heuristic#2`` follows a word, and is not one), or a
#: comparison with a past main branch.
HISTORY = re.compile(
    r"\bissues?\s+#?\d+|(?<![\w@.#/&])#\d+(?![\w-])|\bon the main (?:branch )?of\b", re.IGNORECASE
)
_SECTION = re.compile(r"^## For (\w+)\b.*$", re.MULTILINE)
_LINK = re.compile(r"\]\(([\w.-]+\.md)(?:#[\w-]*)?\)")


def pages_by_reader(index_text: str) -> dict[str, set[str]]:
    """Each ``## For READER`` section of the index, with the pages it links (anchors included)."""
    found: dict[str, set[str]] = {}
    heads = list(_SECTION.finditer(index_text))
    for head, nxt in zip(heads, [*heads[1:], None], strict=True):
        body = index_text[head.end() : nxt.start() if nxt else len(index_text)]
        found.setdefault(head.group(1).lower(), set()).update(_LINK.findall(body))
    return found


def user_pages() -> list[Path]:
    sections = pages_by_reader(INDEX.read_text(encoding="utf-8"))
    names = set().union(*(sections.get(reader, set()) for reader in USER_READERS))
    return [ROOT / "README.md", *sorted(ROOT / "docs" / name for name in names)]


def history_in(text: str) -> list[str]:
    """``line: mention`` for every mention of development history in a page's text."""
    return [
        f"{number}: {match.group(0)}"
        for number, line in enumerate(text.splitlines(), start=1)
        for match in HISTORY.finditer(line)
    ]


def test_the_index_sorts_the_pages_by_reader() -> None:
    sections = pages_by_reader(INDEX.read_text(encoding="utf-8"))
    assert tuple(sections) == READERS, f"docs/index.md's reader sections: {tuple(sections)}"
    assert all(sections.values()), f"a reader without pages: {sections}"
    listed = set().union(*sections.values())
    guides = {page.name for page in (ROOT / "docs").glob("*.md")} - {"index.md"}
    assert guides <= listed, f"no reader in docs/index.md for {sorted(guides - listed)}"
    assert listed <= guides, f"docs/index.md links missing pages {sorted(listed - guides)}"


@pytest.mark.parametrize("page", user_pages(), ids=lambda page: page.name)
def test_a_user_page_carries_no_development_history(page: Path) -> None:
    found = history_in(page.read_text(encoding="utf-8"))
    assert not found, f"{page.relative_to(ROOT)} (a page for users) mentions " + "; ".join(found)


def test_user_pages_are_found_for_every_user_reader() -> None:
    pages = {page.name for page in user_pages()}
    assert {"director-guide.md", "online-play.md", "packaging.md", "README.md"} <= pages
    assert "dev-measurements.md" not in pages


@pytest.mark.parametrize(
    "text",
    [
        "Goals (issues 11 and 13): every command",
        "Until issue 13 the bots kept their seats",
        "**Issue 13's goals**",
        "limits shared by all workers (issue 26)",
        "fixed in #26",
        "see issue #7",
        "on the main of 27 November 2026 it stored a move twice",
    ],
)
def test_history_is_recognised(text: str) -> None:
    assert history_in(text)


@pytest.mark.parametrize(
    "text",
    [
        "`agon 7w ladder --bots 'ismcts@400,mcts@80#1,mcts@80#2'`",
        "`heuristic#1,heuristic#2`",
        "# 3 rounds, table of 5",
        "the tissue 12 times",
        "BONN-SPIELT 2018, 13 players",
        "<a href='#4-when-something-goes-wrong'>",
    ],
)
def test_everyday_text_is_not_history(text: str) -> None:
    assert not history_in(text)


def test_the_sections_are_read_with_their_links(tmp_path: Path) -> None:
    text = (
        "# guides\n\n[top](a.md)\n\n## For directors: the day\n\n| [b.md](b.md) | x |\n\n"
        "See [c, part](c.md#part).\n\n## For developers\n\n[d.md](d.md)\n"
    )
    assert pages_by_reader(text) == {"directors": {"b.md", "c.md"}, "developers": {"d.md"}}
