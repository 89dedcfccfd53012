"""Every service error a person can meet on a web page speaks the page's language (issue 11).

The audit is by the source: every ``agon.errors`` class built in ``src/agon/services/`` and
``src/agon/tournament/`` carries a message id (``msgid=N_(...)``) and its parameters, unless the
function that builds it is listed in :data:`NOT_ON_THE_WEB` with the reason no web page can reach
it. Each message id is translated into German and Italian with the same placeholders, and none
quotes a command-line option (``--version 216``, ``--min-players``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from agon.errors import AgonError, Conflict, IllegalAction, InvalidInput, NotFound
from agon.i18n import LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
AREAS = (ROOT / "src/agon/services", ROOT / "src/agon/tournament")
CLASSES = {c.__name__ for c in (AgonError, Conflict, IllegalAction, InvalidInput, NotFound)}

#: (file, function) → why no web page can meet the error: the command line's own inputs and
#: files, the server's start-up configuration, the journal's internal consistency, the online
#: games' machinery (no person submits those), and data shipped with agon.
NOT_ON_THE_WEB: dict[tuple[str, str], str] = {
    ("services/exchange.py", "import_event"): "agon import (command line)",
    ("services/exchange.py", "_check_required_fields"): "agon import (command line)",
    ("services/exchange.py", "_registration"): "agon import (command line)",
    ("services/exchange.py", "_sanctions"): "agon import (command line)",
    ("services/moving.py", "*"): "agon export --journal / agon import (command line files)",
    ("services/sync.py", "*"): "agon sync token (command line) and the sync API, which a laptop's "
    "agon sync push reads (answered in English by design, like the API's JSON)",
    ("services/sync_client.py", "*"): "agon sync push/watch on the laptop (command line)",
    ("services/online/opening.py", "_apply_open"): "online round machinery (journal payloads)",
    ("services/online/opening.py", "_apply_game"): "online round machinery (journal payloads)",
    ("services/online/results.py", "result_payload"): "a finished online game's own score sheet",
    ("services/online/results.py", "_apply_result"): "a finished online game's own score sheet",
    ("services/online/sweep.py", "_apply_bot"): "the bot sweep (no person submits it)",
    ("services/online/sweep.py", "_apply_time_up"): "the clock sweep (no person submits it)",
    ("services/online_host.py", "idle_seconds"): "the game host's sweep",
    ("services/online_host.py", "stop_after_age"): "the game host's sweep",
    ("services/players.py", "rename_player"): "agon player rename (command line)",
    ("services/players.py", "_apply_rename"): "agon player rename (command line)",
    ("services/players.py", "set_fees"): "agon player fee (command line, many at once)",
    ("services/rounds.py", "_seed_ratings"): "agon round start --seed-by-rating",
    ("services/schemas.py", "parse"): "agon result enter NAME=VP,… (the command line's text)",
    ("services/schemas.py", "_int"): "agon result enter NAME=VP,… (the command line's text)",
    ("services/series.py", "series_slug"): "series files: the server's start-up settings",
    ("services/tournaments.py", "edit_tournament"): "agon tournament edit (command line)",
    ("services/tournaments.py", "_apply_edit"): "agon tournament edit (command line)",
    ("services/tournaments.py", "default_tournament"): "-t SLUG (command line)",
    ("tournament/bulk.py", "_ruleset"): "agon bulk (command line files)",
    ("tournament/draws.py", "_load"): "the game data shipped with agon",
    ("tournament/draws.py", "draw_wonders"): "the rulesets shipped with agon draw at most 7",
    ("tournament/event.py", "fail"): "event files (command line, series settings)",
    ("tournament/event.py", "load_event"): "event files (command line, series settings)",
    ("tournament/event.py", "check_against_ruleset"): "event files (command line, series settings)",
    ("tournament/ruleset.py", "fail"): "ruleset files, checked when loaded",
    ("tournament/ruleset.py", "rank_points"): "ruleset files, checked when loaded",
    ("tournament/ruleset.py", "load_ruleset"): "ruleset files (the desk offers the built-in)",
    ("tournament/ruleset.py", "parse_ruleset"): "ruleset files (the desk offers the built-in)",
    ("tournament/safeload.py", "*"): "files named on the command line or in the settings; the "
    "API's JSON (answered in English by design)",
    ("tournament/seating/schedule.py", "*"): "the seating search's arguments: names from the "
    "database (unique, not empty), round numbers from the services; a count the tables cannot "
    "seat is refused by tables.split_players (message ids)",
    ("tournament/seating/swiss.py", "*"): "the seating search's arguments (as schedule.py)",
    ("tournament/standings.py", "_criterion_value"): "ruleset files, checked when loaded",
    ("tournament/standings.py", "_values"): "ruleset files, checked when loaded",
    ("tournament/standings.py", "explain"): "agon standings --explain (command line)",
}


def _constructions() -> list[tuple[str, str, int, ast.Call]]:
    """(file, function, line, call) of every error class built in the two areas."""
    found = []
    for area in AREAS:
        for path in sorted(area.rglob("*.py")):
            rel = path.relative_to(ROOT / "src/agon").as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for func in ast.walk(tree):
                if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(func):
                    if not isinstance(node, ast.Call):
                        continue
                    f = node.func
                    name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
                    if name in CLASSES:
                        found.append((rel, func.name, node.lineno, node))
    return found


def _msgid_texts(call: ast.Call) -> list[str]:
    """The literal message ids of a construction (``N_("…")``, both arms of a conditional)."""
    for kw in call.keywords:
        if kw.arg == "msgid":
            return [
                n.args[0].value
                for n in ast.walk(kw.value)
                if isinstance(n, ast.Call)
                and getattr(n.func, "id", None) == "N_"
                and isinstance(n.args[0], ast.Constant)
            ]
    return []


def _has_msgid(call: ast.Call) -> bool:
    return any(kw.arg == "msgid" for kw in call.keywords) or any(
        kw.arg is None
        for kw in call.keywords  # **fields passing msgid along
    )


def test_the_audit_sees_the_errors() -> None:
    found = _constructions()
    assert len(found) > 150  # the walk itself works
    assert sum(1 for *_, call in found if _msgid_texts(call)) > 100


def test_every_error_a_web_page_can_meet_has_a_message_id() -> None:
    missing = [
        f"{rel}:{line} ({func})"
        for rel, func, line, call in _constructions()
        if not _has_msgid(call)
        and (rel, func) not in NOT_ON_THE_WEB
        and (rel, "*") not in NOT_ON_THE_WEB
    ]
    assert not missing, "errors without a message id:\n" + "\n".join(missing)


def test_the_exemptions_are_still_needed() -> None:
    """An exemption whose function now carries message ids everywhere is dropped from the list."""
    bare = {(rel, func) for rel, func, _line, call in _constructions() if not _has_msgid(call)} | {
        (rel, "*") for rel, _func, _line, call in _constructions() if not _has_msgid(call)
    }
    assert not set(NOT_ON_THE_WEB) - bare


@pytest.fixture(scope="module")
def catalogues() -> dict[str, dict[str, str]]:
    out = {}
    for lang in ("de", "it"):
        with (LOCALE_DIR / lang / "LC_MESSAGES" / "agon.po").open("rb") as f:
            catalog = read_po(f)
        out[lang] = {
            str(m.id): str(m.string)
            for m in catalog
            if m.id and isinstance(m.id, str) and m.string and not m.fuzzy
        }
    return out


PARAM = re.compile(r"%\((\w+)\)[sd]")


def test_every_message_id_is_translated_with_its_placeholders(
    catalogues: dict[str, dict[str, str]],
) -> None:
    ids = {text for *_, call in _constructions() for text in _msgid_texts(call)}
    assert len(ids) > 100
    problems = []
    for msgid in sorted(ids):
        if re.search(r"(?<![\w-])--[a-z]", msgid):
            problems.append(f"{msgid!r} quotes a command-line option")
        for lang, catalog in catalogues.items():
            text = catalog.get(msgid)
            if text is None:
                problems.append(f"{lang}: {msgid!r} is not translated")
            elif sorted(PARAM.findall(text)) != sorted(PARAM.findall(msgid)):
                problems.append(f"{lang}: {msgid!r} → {text!r}: other placeholders")
            elif re.search(r"(?<![\w-])--[a-z]", text):
                problems.append(f"{lang}: {text!r} quotes a command-line option")
    assert not problems, "\n".join(problems)


#: The checks whose refusal names a field: on a web page the field is named by ``label=`` (a
#: catalogue text); without it the page would show the English ``what``.
FIELD_CHECKS = {"check_range", "check_number"}


def test_every_field_check_a_web_page_can_meet_names_its_field_in_the_catalogue() -> None:
    bare = []
    for area in AREAS:
        for path in sorted(area.rglob("*.py")):
            rel = path.relative_to(ROOT / "src/agon").as_posix()
            for func in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                if (rel, func.name) in NOT_ON_THE_WEB or (rel, "*") in NOT_ON_THE_WEB:
                    continue
                if func.name in FIELD_CHECKS:  # the checks themselves pass label along
                    continue
                for node in ast.walk(func):
                    f = node.func if isinstance(node, ast.Call) else None
                    name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
                    if name in FIELD_CHECKS and not any(
                        kw.arg == "label"
                        for kw in node.keywords  # type: ignore[union-attr]
                    ):
                        bare.append(f"{rel}:{node.lineno} ({func.name})")
    assert not bare, "field checks without a catalogue label:\n" + "\n".join(bare)


def test_a_round_number_out_of_range_is_named_in_the_pages_language() -> None:
    from agon.i18n import translator
    from agon.tournament.limits import check_number

    with pytest.raises(InvalidInput) as caught:
        check_number(0, "round", label="Round")
    assert "Runde" in caught.value.render(translator("de").gettext)
    assert "Turno" in caught.value.render(translator("it").gettext)


@pytest.mark.parametrize("lang", ["de", "it", "en"])
def test_a_quoted_value_with_a_line_break_stays_on_one_line(lang: str) -> None:
    """The form fuzzer's find: a player "A<newline>B" in the fee form gave a message of two lines.
    A quoted text shows its line break, control or bidi character as an escape."""
    from agon.i18n import translator

    error = NotFound(
        "no player 'A\\nB'",
        msgid="%(player)s is not registered in this tournament.",
        params={"player": "A\nB\u202e"},
    )
    text = error.render(translator(lang).gettext)
    assert "\n" not in text and "\u202e" not in text and "A\\nB\\u202e" in text, text
