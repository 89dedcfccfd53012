"""The fast path of ``loads_json`` accepts and refuses exactly what the full check does."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.tournament import safeload


def full_check(text: str) -> Any:
    """The checked path alone: decode with the digit cap, then walk every value."""
    try:
        data = json.loads(
            text, parse_int=safeload._parse_int, parse_constant=safeload._parse_constant
        )
    except Exception as exc:  # any refusal; the message is compared separately
        raise InvalidInput(type(exc).__name__) from None
    safeload.check_document(data, origin="doc")
    return data


def outcome(fn: Any, text: str) -> tuple[bool, Any]:
    try:
        return True, fn(text)
    except InvalidInput:
        return False, None


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.sampled_from([10**18 - 1, 10**18, -(10**18) + 1, -(10**18), 2**63 - 1, 2**63]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
    st.sampled_from(["\ud800", "a\udfffb", "é", "\\ud800"]),
)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=30,
)


def nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


@settings(max_examples=300, deadline=None)
@given(doc=documents, ascii_only=st.booleans())
def test_fast_and_full_paths_agree(doc: Any, ascii_only: bool) -> None:
    text = json.dumps(doc, ensure_ascii=ascii_only)
    fast = outcome(lambda t: safeload.loads_json(t, origin="doc"), text)
    assert fast == outcome(full_check, text)


@pytest.mark.parametrize(
    "text",
    [
        nested(safeload.MAX_DEPTH),
        nested(safeload.MAX_DEPTH + 1),
        "1" + "0" * 18,  # 19 digits, below 2**63: refused by the digit cap
        "9" * 18,
        "-" + "9" * 18,
        "1e999",
        '{"a": "\\ud800"}',
        '{"a": "\\\\ud800"}',  # a backslash, then the letters: plain text
        "[" + ",".join(["0"] * (safeload.MAX_NODES)) + "]",  # one value too many
    ],
)
def test_the_edges_agree(text: str) -> None:
    assert outcome(lambda t: safeload.loads_json(t, origin="doc"), text) == outcome(
        full_check, text
    )


def test_a_too_long_number_keeps_its_message() -> None:
    with pytest.raises(InvalidInput, match="at most 18 digits"):
        safeload.loads_json('{"vp": 1000000000000000000}', origin="f.json")


@pytest.mark.parametrize("key", ["a\nb", " padded", "", "tab\there"])
def test_a_strange_key_keeps_the_error_on_one_line(key: str) -> None:
    """A key with a newline (found by the import fuzzer) or other unprintable text is quoted in
    the error, so the message stays one line naming the place."""
    text = json.dumps({"players": [{"name": "A"}, {key: "\ud800"}]})
    with pytest.raises(InvalidInput) as caught:
        safeload.loads_json(text, origin="e.json")
    message = str(caught.value)
    assert "\n" not in message and "lone surrogate" in message
    assert f"players[2].{key!r}" in message
