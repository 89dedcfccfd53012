"""The de/it/en catalogues: complete, compiled, in step with the sources; names and languages."""

from __future__ import annotations

import doctest
import gettext
import itertools
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import agon.i18n
import agon.printing.render
from agon.errors import InvalidInput
from agon.i18n import (
    CRITERIA,
    GAME_TIE_BREAKS,
    LANGUAGES,
    LOCALE_DIR,
    SCORE_CATEGORIES,
    choose_language,
    format_number,
    game_tie_break_label,
    guild_name,
    translator,
    wonder_name,
)
from agon.i18n.explain import explain_in
from agon.tournament.event import load_event
from agon.tournament.ruleset import GAME_TIE_BREAKERS
from agon.tournament.score_pad import SCORE_PAD_CATEGORIES
from agon.tournament.standings import CRITERION_LABELS, compute_standings, explain

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\((\w+)\)s|\{(\w+)\}")


def source_messages() -> set[str | tuple[str, str]]:
    """Every message the sources mark, extracted as `make i18n` does (babel.cfg, keyword N_)."""
    method_map = [
        ("src/agon/**.py", "python"),
        ("src/agon/**/templates/**.html", "jinja2"),
    ]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
        str(ROOT), method_map, keywords=keywords
    ):
        found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


@pytest.fixture(scope="module")
def extracted() -> set[str | tuple[str, str]]:
    messages = source_messages()
    assert len(messages) > 40  # the extraction itself works
    return messages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_is_complete_and_compiled(
    lang: str, extracted: set[str | tuple[str, str]]
) -> None:
    po_path = LOCALE_DIR / lang / "LC_MESSAGES" / "agon.po"
    with po_path.open("rb") as fh:
        catalog = read_po(fh)
    assert not catalog.fuzzy, f"{po_path}: header marked fuzzy (pybabel compile would skip it)"
    entries = {(m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
    ids = {m if isinstance(m, str) else m[0] for m in extracted}
    missing = sorted(ids - set(entries))
    assert not missing, f"{po_path}: run `make i18n` and translate: {missing}"
    stale = sorted(set(entries) - ids)
    assert not stale, f"{po_path}: messages no longer in the sources: {stale}"
    mo = gettext.GNUTranslations((po_path.with_suffix(".mo")).open("rb"))
    for singular, message in entries.items():
        msgid = message.id
        assert not message.fuzzy, f"{po_path}: fuzzy entry {msgid!r}"
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{po_path}: untranslated {singular!r}"
        for text in strings:  # a translation keeps every placeholder of the original
            want = {a or b for a, b in PLACEHOLDER.findall(singular)}
            got = {a or b for a, b in PLACEHOLDER.findall(text)}
            assert want == got, f"{po_path}: {singular!r} -> {text!r}: placeholders differ"
        # the committed .mo says what the .po says (`make i18n` recompiles it)
        if isinstance(msgid, str):
            assert mo.gettext(msgid) == strings[0], f"{lang}: .mo out of date for {msgid!r}"
        else:
            assert mo.ngettext(msgid[0], msgid[1], 1) == strings[0]
            assert mo.ngettext(msgid[0], msgid[1], 5) == strings[1]
    if lang == "en":
        assert all(m.string in (m.id, "") for m in catalog if m.id and isinstance(m.id, str))


def test_german_and_italian_really_are_translated() -> None:
    assert translator("de").gettext("Table %(number)s") == "Tisch %(number)s"
    assert translator("it").gettext("Signature") == "Firma"
    assert translator("de").ngettext(
        "Standings after %(num)s round", "Standings after %(num)s rounds", 3
    ) == ("Tabelle nach %(num)s Runden")
    with pytest.raises(InvalidInput, match="agon speaks en, de, it"):
        translator("fr")


def test_vocabulary_follows_the_domain() -> None:
    assert CRITERIA == CRITERION_LABELS  # the English labels of agon.tournament.standings
    assert GAME_TIE_BREAKS == GAME_TIE_BREAKERS
    assert game_tie_break_label("coins-desc", "de") == "wer mehr Münzen hat, wird vorn platziert"
    assert tuple(SCORE_CATEGORIES) == SCORE_PAD_CATEGORIES


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", "de"),
        ("it-IT", "it"),
        ("fr-FR, fr;q=0.9", "en"),
        ("fr, it;q=0.5, de;q=0.7", "de"),
        ("en;q=0.1, de;q=0", "en"),
        ("de;q=0, it", "it"),
        ("*", "en"),
        ("DE-ch", "de"),
        ("de;q=abc, it;q=0.2", "it"),
    ],
)
def test_choose_language(header: str | None, expected: str) -> None:
    assert choose_language(header) == expected


def test_official_names_of_wonders_and_guilds() -> None:
    assert wonder_name("rhodos", "de", full=True) == "Der Koloss von Rhodos"
    assert wonder_name("rhodos", "it", full=True) == "Il Colosso di Rodi"
    assert wonder_name("gizah", "de") == "Gizeh"
    assert wonder_name("halikarnassos", "it") == "Alicarnasso"
    assert guild_name("shipowners", "de") == "Gilde der Reeder"
    assert guild_name("craftsmens", "de") == "Gilde der Künstler"  # as Bonn 2018 calls it
    assert guild_name("shipowners", "it") == "Gilda degli armatori"
    assert guild_name("magistrates", "en") == "Magistrates Guild"
    # any language's name finds the component; unknown names pass through unchanged
    assert wonder_name("Rodi", "en") == "Rhodos"
    assert wonder_name("HALIKARNASSOS", "de") == "Halikarnassos"
    assert guild_name("Gilde der Händler", "it") == "Gilda dei commercianti"
    assert wonder_name("Petra", "de") == "Petra"
    for lang in LANGUAGES:
        wonders = {wonder_name(w, lang, full=True) for w in agon.i18n.wonder_ids()}
        guilds = {guild_name(g, lang) for g in agon.i18n.guild_ids()}
        assert len(wonders) == 7 and len(guilds) == 10


@pytest.mark.parametrize("example", ["bonn-2018-sample.json", "ludolimpico-2015-sample.json"])
def test_english_explanations_match_the_original(example: str) -> None:
    event, ruleset = load_event(ROOT / "examples" / example)
    standings = compute_standings(event, ruleset)
    for a, b in itertools.combinations(event.player_names, 2):
        assert explain_in(standings, a, b, "en") == explain(standings, a, b)


def test_explanations_in_german_and_italian() -> None:
    event, ruleset = load_event(ROOT / "examples" / "bonn-2018-sample.json")
    standings = compute_standings(event, ruleset)
    rows = standings.rows
    seen_tiebreak = False
    for upper, lower in itertools.pairwise(rows):
        de = explain_in(standings, upper.player, lower.player, "de")
        it = explain_in(standings, lower.player, upper.player, "it")
        assert de.startswith(f"{upper.player} (Platz {upper.rank}) steht vor {lower.player}")
        assert it.startswith(f"{upper.player} (posizione {upper.rank}) precede {lower.player}")
        if lower.decided_by == "share":
            seen_tiebreak = True
            assert "gleich waren Turnierpunkte" in de and "erano pari: Punti Torneo" in it
            assert re.search(r"\d,\d{4} gegen \d,\d{4}", de)  # decimal comma
    assert seen_tiebreak
    with pytest.raises(InvalidInput):
        explain_in(standings, rows[0].player, rows[0].player, "de")


def test_number_formats() -> None:
    from fractions import Fraction

    assert format_number(Fraction(33, 2), "points", "de") == "16,5"
    assert format_number(Fraction(33, 2), "points", "en") == "16.5"
    assert format_number(Fraction(1, 3), "share", "it") == "0,3333"
    assert format_number(Fraction(10, 1), "points", "it") == "10"
    assert format_number(231, "vp", "de") == "231"


def test_doctests() -> None:
    for module in (agon.i18n, agon.printing.render):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0


def test_names_agree_with_the_game_engine_data() -> None:
    """The 7 Wonders engine keeps its own card data; German names and board cities must agree."""
    import tomllib

    data_dir = ROOT / "src" / "agon" / "games" / "seven_wonders" / "data"
    if not data_dir.exists():  # pragma: no cover - the engine is merged separately
        pytest.skip("agon.games.seven_wonders not present")
    wonders = tomllib.loads((data_dir / "wonders.toml").read_text(encoding="utf-8"))["wonder"]
    for wonder in wonders:
        for lang in LANGUAGES:
            assert wonder_name(wonder["id"], lang) == wonder[lang]
    cards = tomllib.loads((data_dir / "cards.toml").read_text(encoding="utf-8"))["card"]
    guilds = {c["id"].removesuffix("_guild"): c for c in cards if c["id"].endswith("_guild")}
    assert set(guilds) == set(agon.i18n.guild_ids())
    for gid, card in guilds.items():
        assert guild_name(gid, "de") == card["de"]
        assert guild_name(gid, "en") == card["en"]
