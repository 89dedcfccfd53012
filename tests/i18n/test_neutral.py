"""agon knows no gender (issue 32, point 11): a sentence about a player must fit anyone.

"Daniela … si è ritirato … senza di lui", "Heike … ohne ihn": the German and Italian catalogues
are scanned for the pronouns and the masculine-only forms that gave such sentences away, in every
message about a player — one that names one (``%(player)s``, ``{player}``…), speaks of them
(*them*, *their*) or is a word said of one (a status, a mark beside a name).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from agon.i18n import LOCALE_DIR, marks

LOCALE = Path(LOCALE_DIR)

#: A message about a player: it names one, or speaks of one as "them".
ABOUT_A_PLAYER = re.compile(
    r"%\((player|players|other|turn|leader)\)s|\{(player|upper|lower)\}|\bthem\b|\btheir\b"
    r"|\bthey\b|^Players? registered|player registered|^Winner|^Qualified"
)
#: Words said of a player: the statuses and the marks beside the names.
WORDS_OF_A_PLAYER = {
    "dropped",
    "withdrawn",
    "expelled",
    "left",
    "late entry",
    "withdrew during the game",
} | {
    *marks._SHORT.values(),
    *marks._SHORT_ROUND.values(),
    *marks._LONG.values(),
}
GENDERED = {
    # er/ihn/ihm, the possessive sein…, and nouns with only a masculine form in use
    "de": re.compile(r"\b(er|ihn|ihm|seine[mnrs]?|seines|Nachzügler|Sieger)\b", re.IGNORECASE),
    # lui/egli and participles or nouns that agree with a masculine subject
    "it": re.compile(
        r"\b(lui|egli|ritirato|ritirati|espulso|espulsi|iscritto|iscritti|seduto|assegnato|"
        r"indicato|sorteggiato|qualificato|qualificati|vincitore|ritardatario|entrambi|"
        r"ciascuno|primo)\b",
        re.IGNORECASE,
    ),
}


def about_a_player(msgid: str) -> bool:
    return bool(ABOUT_A_PLAYER.search(msgid)) or msgid in WORDS_OF_A_PLAYER


def gendered_sentences(lang: str) -> list[str]:
    with (LOCALE / lang / "LC_MESSAGES" / "agon.po").open("rb") as f:
        catalog = read_po(f)
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        if not any(about_a_player(i) for i in ids):
            continue
        for text in texts:
            hit = GENDERED[lang].search(text or "")
            if hit:
                found.append(f"{ids[0]!r} -> {text!r} ({hit.group(0)!r})")
    return found


@pytest.mark.parametrize("lang", ["de", "it"])
def test_sentences_about_a_player_fit_anyone(lang: str) -> None:
    assert gendered_sentences(lang) == []


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("it", "{player} si è ritirato durante il turno 2: il tavolo è valutato senza di lui."),
        ("de", "{player} hat die Partie verlassen; der Tisch wurde ohne ihn gewertet."),
        ("de", "Gib jedem seinen Platz-Link."),
    ],
)
def test_the_scan_finds_a_gendered_sentence(lang: str, text: str) -> None:
    """The scan is not blind: the sentences of the issue are found."""
    assert GENDERED[lang].search(text)


def test_the_explanations_are_scanned() -> None:
    """explain.py's sentences (the standings' notes) are among the scanned messages."""
    assert about_a_player(
        "{player} left during round {round} (table {table}): no score for that game, the table "
        "was scored without them (Ludolimpico 2.5)."
    )
    assert about_a_player("withdrew during the game")
