"""``agon venue wifi|show|clear`` and ``agon print cards --wifi``: the venue's network for the
phones, set by the director, printed as a QR code that decodes back to the network — and never in
an export of the event."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import zxingcpp
from tests.commands.test_director_cli import Agon
from tests.pdf_tools import render_first_page
from tests.tournament.test_wifi import decode_wifi

from agon.tournament.wifi import parse_network

EXAMPLE = Path(__file__).parents[2] / "examples" / "bonn-2018-sample.json"


@pytest.fixture
def agon(db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Agon:
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)
    monkeypatch.setenv("AGON_ACTOR", "Marco")
    monkeypatch.delenv("AGON_TOURNAMENT", raising=False)
    runner = Agon(capsys)
    runner("tournament", "create", "q", "--name", "Qualifier", "--ruleset", "bonn-2018")
    return runner


def qr_texts(pdf: bytes, png: Path) -> list[str]:
    """The texts of every QR code on the PDF's first page (rendered, then decoded)."""
    from PIL import Image

    render_first_page(pdf, png, dpi=150)
    return [r.text for r in zxingcpp.read_barcodes(Image.open(png))]


def test_set_show_clear_and_never_exported(agon: Agon, tmp_path: Path) -> None:
    assert "no venue Wi-Fi set" in agon("venue", "show", "-t", "q")
    secret = tmp_path / "pw.txt"
    secret.write_text("tische;2018\n", encoding="utf-8")
    out = agon("venue", "wifi", "-t", "q", "--ssid", "Bonn spielt", "--password-file", str(secret))
    assert out == "venue Wi-Fi of q: Bonn spielt (WPA)\n"
    shown = json.loads(agon("venue", "show", "-t", "q", "--json"))
    assert shown == {
        "tournament": "q",
        "wifi": {
            "ssid": "Bonn spielt",
            "password": "tische;2018",
            "security": "WPA",
            "hidden": False,
        },
    }
    export = tmp_path / "q.json"
    agon("export", "-t", "q", "-o", str(export))
    journal = tmp_path / "q-journal.json"
    agon("export", "-t", "q", "--journal", "-o", str(journal))
    for path in (export, journal):
        assert "tische;2018" not in path.read_text(encoding="utf-8"), path.name
    assert "venue" not in agon("tournament", "journal", "-t", "q")
    assert agon("venue", "clear", "-t", "q") == "venue Wi-Fi of q: forgotten\n"
    assert json.loads(agon("venue", "show", "-t", "q", "--json"))["wifi"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--ssid", ""), "Wi-Fi name: must not be empty"),
        (("--ssid", "x" * 40), "at most 32 bytes"),
        (("--ssid", "n", "--security", "WPA"), "needs a password"),
        (("--ssid", "n", "--security", "psk"), "Invalid value for '--security'"),
        (("--ssid", "n", "--password-file", "/nonexistent/pw"), "pw"),
        (("--ssid", "n", "-t", "nope"), "nope"),
    ],
)
def test_bad_input_is_one_line_exit_2(agon: Agon, args: tuple[str, ...], message: str) -> None:
    assert message in agon.fails("venue", "wifi", *args)


def test_short_password_file(agon: Agon, tmp_path: Path) -> None:
    short = tmp_path / "pw"
    short.write_text("kurz\n", encoding="utf-8")
    err = agon.fails("venue", "wifi", "--ssid", "n", "-t", "q", "--password-file", str(short))
    assert "8 to 63 characters, got 4" in err


def test_printed_table_cards_carry_a_qr_code_that_joins_the_network(
    agon: Agon, tmp_path: Path
) -> None:
    secret = tmp_path / "pw.txt"
    secret.write_text('sp:iel"e\\2018\n', encoding="utf-8")
    pdf = tmp_path / "cards.pdf"
    agon(
        "print", "cards", str(EXAMPLE), "--round", "1", "--lang", "de",
        "--wifi", "Bonn; spielt", "--wifi-password-file", str(secret), "-o", str(pdf),
    )  # fmt: skip
    texts = qr_texts(pdf.read_bytes(), tmp_path / "cards.png")
    assert texts, "no QR code found on the table card"
    fields = decode_wifi(texts[0])
    assert (fields["S"], fields["P"], fields["T"]) == ("Bonn; spielt", 'sp:iel"e\\2018', "WPA")
    assert texts[0] == parse_network(ssid="Bonn; spielt", password='sp:iel"e\\2018').qr_data()
    plain = tmp_path / "plain.pdf"
    agon("print", "cards", str(EXAMPLE), "--round", "1", "-o", str(plain))
    assert qr_texts(plain.read_bytes(), tmp_path / "plain.png") == []
    err = agon.fails(
        "print", "cards", str(EXAMPLE), "--round", "1", "--wifi-password-file", str(secret)
    )
    assert "--wifi-password-file needs --wifi SSID" in err
