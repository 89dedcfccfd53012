"""The venue's Wi-Fi network (:mod:`agon.tournament.wifi`): what a network may be, and what its QR
code holds (the ``WIFI:`` text, checked by decoding it back field by field)."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.tournament.wifi import network_from_json, parse_network


def decode_wifi(text: str) -> dict[str, str]:
    """The fields of a ``WIFI:`` text (ZXing's format: ``\\`` escapes ``\\ ; , : "``)."""
    assert text.startswith("WIFI:")
    fields: dict[str, str] = {}
    key, value, escaped, in_key = "", "", False, True
    for ch in text[len("WIFI:") :]:
        if escaped:
            value += ch
            escaped = False
        elif in_key:
            if ch == ":":
                in_key = False
            elif ch == ";":
                continue  # the closing ";;"
            else:
                key += ch
        elif ch == "\\":
            escaped = True
        elif ch == ";":
            fields[key], key, value, in_key = value, "", "", True
        else:
            value += ch
    return fields


ssids = st.text(
    st.characters(min_codepoint=32, exclude_categories=("Cs", "Cc")), min_size=1, max_size=32
).filter(lambda s: len(s.encode()) <= 32)
wpa = st.text(
    st.sampled_from(string.ascii_letters + string.digits + ' ;:,"\\!@#'), min_size=8, max_size=63
)


@given(ssid=ssids, password=wpa, hidden=st.booleans())
def test_the_qr_text_holds_exactly_the_network(ssid: str, password: str, hidden: bool) -> None:
    net = parse_network(ssid=ssid, password=password, hidden=hidden)
    fields = decode_wifi(net.qr_data())
    assert fields["S"] == ssid and fields["P"] == password and fields["T"] == "WPA"
    assert (fields.get("H") == "true") is hidden
    assert network_from_json(net.to_json()) == net


def test_an_open_network_has_no_password_field() -> None:
    net = parse_network(ssid="Bonn spielt")
    assert net.security == "nopass" and net.password is None
    assert "P" not in decode_wifi(net.qr_data())


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"ssid": ""}, "Wi-Fi name: must not be empty"),
        ({"ssid": "x" * 33}, "at most 32 bytes, got 33"),
        ({"ssid": "ä" * 17}, "at most 32 bytes, got 34"),
        ({"ssid": "a\nb"}, "control characters"),
        ({"ssid": "n", "password": "short"}, "8 to 63 characters, got 5"),
        ({"ssid": "n", "password": "x" * 64}, "8 to 63 characters, got 64"),
        ({"ssid": "n", "password": "pässwort1"}, "printable ASCII"),
        ({"ssid": "n", "password": "abcdef", "security": "WEP"}, "WEP key"),
        ({"ssid": "n", "security": "WPA"}, "needs a password"),
        ({"ssid": "n", "password": "12345678", "security": "nopass"}, "has no password"),
        ({"ssid": "n", "security": "WPA3-Enterprise"}, "choose one of WPA, WEP, nopass"),
    ],
)
def test_bad_networks_are_one_clear_line(fields: dict[str, str], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_network(**fields)


def test_wep_keys_of_the_allowed_shapes() -> None:
    for key in ("abcde", "abcdefghijklm", "0123456789", "0123456789abcdef0123456789"):
        assert parse_network(ssid="n", password=key, security="wep").security == "WEP"


@given(st.dictionaries(st.text(max_size=10), st.none() | st.booleans() | st.text(max_size=80)))
def test_any_stored_document_is_a_network_or_one_clear_error(data: dict[str, object]) -> None:
    try:
        net = network_from_json(data)
    except InvalidInput as err:
        assert "\n" not in str(err)
    else:
        assert 1 <= len(net.ssid.encode()) <= 32
