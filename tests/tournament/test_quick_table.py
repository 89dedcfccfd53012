"""``agon standings FILE`` with the fewest imports (agon.tournament.quick_table, issue 30): the
very bytes the usual way prints (the byte reader's columns written by columns_table), for clean
files, files full of ties and damaged ones; every header it is not sure of is left to the usual
way (None), which names the problem; the built-in rulesets' facts are the rulesets'; the name
rule's common case in the core is the name rule."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.tournament import limits, safeload
from agon.tournament import quick_table as qt
from agon.tournament.bulk import pass_rules
from agon.tournament.names import NAME_MAX, check_name
from agon.tournament.ruleset import BUILTIN_RULESETS, load_ruleset
from agon.tournament.ruleset_facts import BUILTIN
from agon.tournament.standings import standings_core
from tests.fuzz.strategies import event_files
from tests.tournament.test_standings_columns import bytes_table, damaged, serialized

pytestmark = pytest.mark.skipif(standings_core() is None, reason="agon built without its cores")


def quick(raw: bytes, suffix: str = ".json") -> str | None:
    """The quick table of a file holding ``raw``, as text (None where it declines)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"event{suffix}")
        with open(path, "wb") as fh:
            fh.write(raw)
        got = qt.table_bytes(path)
    return None if got is None else got.decode("utf-8")


def test_the_facts_are_the_built_in_rulesets() -> None:
    facts = {name: pass_rules(load_ruleset(name)) for name in BUILTIN_RULESETS}
    assert facts == BUILTIN, (
        "a built-in ruleset changed: write the new facts into "
        f"src/agon/tournament/ruleset_facts.py:\nBUILTIN = {facts!r}"
    )


def test_the_digests_are_the_ruleset_files() -> None:
    import hashlib
    from importlib import resources

    from agon.tournament.ruleset_facts import DIGESTS

    files = resources.files("agon.tournament.rulesets")
    digests = {
        name: hashlib.sha256(files.joinpath(f"{name}.toml").read_bytes()).hexdigest()
        for name in BUILTIN_RULESETS
    }
    assert digests == DIGESTS, f"write into ruleset_facts.py: DIGESTS = {digests!r}"


def test_an_edited_built_in_ruleset_is_read_from_its_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A user who edits a built-in ruleset (rules are data) gets the edited rules: the facts
    written from the old file are not used."""
    import agon.tournament.ruleset_facts as facts

    raw = json.dumps(_DOC).encode()
    assert quick(raw) is not None
    monkeypatch.setitem(facts.DIGESTS, "de-championship", "0" * 64)
    assert quick(raw) is None


def test_the_copied_caps_are_the_safe_loaders() -> None:
    assert (qt.MAX_BYTES, qt.MAX_NODES, qt.MAX_DEPTH) == (
        safeload.MAX_BYTES,
        safeload.MAX_NODES,
        safeload.MAX_DEPTH,
    )
    assert qt.NUMBER_MAX == limits.NUMBER_MAX
    core = standings_core()
    assert core is not None and core.NAME_MAX == NAME_MAX


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(serialized())
def test_the_quick_table_is_the_usual_table_byte_for_byte(raw: bytes) -> None:
    """Clean files of every built-in ruleset (escaped or raw Unicode, indents, key orders, odd
    names, ties from tiny VP ranges, finals): the same text as the byte reader's columns."""
    got = quick(raw)
    assert got is not None
    assert got == bytes_table(raw)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(serialized(), st.data())
def test_damaged_bytes_are_declined_or_printed_as_the_usual_way_prints_them(
    raw: bytes, data: st.DataObject
) -> None:
    """A byte changed, inserted or cut anywhere: None, or the usual way's very table (never a
    table where the usual way names an error or declines)."""
    raw = damaged(raw, data)
    got = quick(raw)
    if got is not None:
        assert got == bytes_table(raw)


_DOC: dict[str, Any] = {
    "name": "Ev",
    "ruleset": "de-championship",
    "players": ["A", "B", "C", "D"],
    "rounds": [
        {"tables": [{"results": [{"player": p, "vp": 40 + i} for i, p in enumerate("ABCD")]}]}
    ],
}


@pytest.mark.parametrize(
    "change",
    [
        {"players": ["A", "B", "C", {"name": 4}]},  # a player object without a name
        {"players": ["A", "B", "C", {"nom": "D"}]},
        {"players": ["A", "B", "C", ["D"]]},
        {"players": ["A", "B", "C", {"name": "D "}]},
        {"players": ["A", "B", "C", {"name": "C"}]},
        {"players": ["A", "B", "C", " D"]},  # spaces at an end: the reader names it
        {"players": ["A", "B", "C", "D\u00a0"]},
        {"players": ["A", "B", "C", "D\u202e"]},  # a direction mark
        {"players": ["A", "B", "C", "D" * 81]},
        {"players": ["A", "B", "C", "D", "D"]},  # twice
        {"players": ["A", "B", "C", ""]},
        {"players": []},
        {"name": " Ev"},
        {"name": 3},
        {"ruleset": "no-such-ruleset"},
        {"ruleset": "rules.toml"},  # a ruleset file: the ruleset reader's
        {"seed": 7},
        {"seed": None},
        {"date": 2024},
        {"seed_ratings": {}},
        {"seed_ratings": {"A": 1500}},
        {"notes": "a field the event file does not have"},
    ],
)
def test_a_header_it_is_not_sure_of_is_left_to_the_usual_way(change: dict[str, Any]) -> None:
    raw = json.dumps({**_DOC, **change}).encode()
    assert quick(raw) is None


def test_what_it_declines_besides_the_header() -> None:
    raw = json.dumps(_DOC).encode()
    assert quick(raw) == bytes_table(raw) is not None  # the plain file itself
    assert quick(raw, ".yaml") is None  # YAML: the usual reader
    assert quick(raw, ".YML") is None
    assert qt.table_bytes("/nonexistent/event.json") is None
    assert qt.table_bytes(tempfile.gettempdir()) is None  # a folder
    virtual = json.loads(raw)
    virtual["rounds"][0]["tables"][0]["results"].pop()  # three at a table of four: virtual seat
    assert quick(json.dumps(virtual).encode()) is None
    with_seed = {**_DOC, "seed": "s", "date": "2024-05-01", "director": "Z"}
    assert quick(json.dumps(with_seed).encode()) == bytes_table(json.dumps(with_seed).encode())
    objects = {**_DOC, "players": [{"name": "A", "city": "Bonn"}, "B", {"name": "C"}, "D"]}
    raw = json.dumps(objects).encode()
    assert quick(raw) == bytes_table(raw) is not None  # players given as objects


_NAME_CHARS = st.sampled_from(
    [
        *("a", "Z", "ß", "李", "👍", "'", '"', "\\"),
        *(" ", "\u00a0", "\u3000", "\t", "\n", "\x00", "\x7f", "\x9f", "\u200b", "\u2060"),
        *("\u061c", "\u200e", "\u200f", "\u2028", "\u2029", "\u202a", "\u202e", "\u2066"),
        *("\u2069", "\ud800", "\udfff"),
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(_NAME_CHARS, max_size=6), st.text(max_size=90), st.integers()))
def test_plain_names_is_the_name_rule_for_a_name_taken_as_written(value: Any) -> None:
    core = standings_core()
    assert core is not None
    try:
        as_written = check_name(value) == value
    except InvalidInput:
        as_written = False
    assert core.plain_names([value]) == as_written
    assert core.plain_names(["Anna", value, "Bo"]) == as_written


def test_plain_names_at_the_length_limit() -> None:
    core = standings_core()
    assert core is not None
    assert core.plain_names(["x" * NAME_MAX, "李" * NAME_MAX])
    assert not core.plain_names(["x" * (NAME_MAX + 1)])
    assert core.plain_names([])


def test_the_command_imports_neither_pathlib_nor_typing_nor_the_ruleset_reader(
    tmp_path: Path,
) -> None:
    """``agon standings FILE`` of a plain file: the quick table, printed as the click command
    prints it, in a process that never imported the modules whose start costs most."""
    path = tmp_path / "event.json"
    path.write_text(json.dumps(_DOC), encoding="utf-8")
    code = (
        f"import sys\nsys.argv = ['agon', 'standings', {str(path)!r}]\n"
        "from agon.launch import main\n"
        "try:\n    main()\nfinally:\n    print('\\n'.join(sys.modules), file=sys.stderr)\n"
    )
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, env=env
    )
    assert proc.returncode == 0, proc.stderr
    loaded = set(proc.stderr.split())
    heavy = {"pathlib", "typing", "dataclasses", "tomllib", "re", "json", "agon.tournament.event"}
    assert not loaded & heavy
    assert "agon.tournament.quick_table" in loaded
    assert proc.stdout == f"{bytes_table(path.read_bytes())}\n"


_ORDERS = [
    # the rounds last: taken up to the last "]" without walking them twice
    '{"name": "Ev", "ruleset": "de-championship", "players": P, "rounds": R}',
    '{"name": "Ev", "ruleset": "de-championship", "players": P, "rounds": R }\n',
    '{"name": "Ev", "ruleset": "de-championship", "players": P, "rounds": []}',
    # the players after the rounds: the document ends in "]}" all the same
    '{"name": "Ev", "ruleset": "de-championship", "rounds": R, "players": P}',
    '{"rounds": R, "name": "Ev", "players": P, "ruleset": "de-championship"}',
]
_REFUSED = [  # the usual way names the problem; this declines
    '{"name": "Ev", "ruleset": "de-championship", "players": P, "rounds": R, "rounds": R}',
    '{"name": "Ev", "ruleset": "de-championship", "rounds": [], "players": P, "rounds": R}',
    '{"name": "Ev", "ruleset": "de-championship", "players": P, "rounds": R, "x": []}',
    '{"name": "Ev", "ruleset": "de-championship", "players": P, "rounds": R]}',
    '{"name": "Ev", "ruleset": "de-championship", "players": P, "rounds": R}]}',
]


@pytest.mark.parametrize("text", _ORDERS + _REFUSED)
def test_the_rounds_are_read_wherever_they_stand(text: str) -> None:
    raw = (
        text.replace("P", json.dumps(_DOC["players"]))
        .replace("R", json.dumps(_DOC["rounds"]))
        .encode()
    )
    got = quick(raw)
    assert (got is None) == (text in _REFUSED)
    if got is not None:
        assert got == bytes_table(raw)


@settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(file=event_files)
def test_the_event_file_fuzzers_documents_never_raise_and_print_the_usual_table(
    file: tuple[str, str | bytes],
) -> None:
    """The fuzzers' documents (from the JSON Schema, hostile values, hostile YAML, random
    bytes): None, or the usual way's very table — never an exception."""
    suffix, content = file
    raw = content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass")
    got = quick(raw, suffix)
    if got is not None:
        assert got == bytes_table(raw)
