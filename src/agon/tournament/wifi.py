"""The venue's Wi-Fi network, as a director sets it for the phones at the tables (pure rules).

At a venue without internet the director's laptop serves the phones over a local network. The
table cards and the seat-link cards carry a QR code of that network (the ``WIFI:`` format that
Android and iOS cameras join with one scan), so a phone joins it without typing a password.

What a network may be (as IEEE 802.11 and the WPA/WEP key formats allow):

- the name (SSID): 1 to 32 bytes of UTF-8, no control characters;
- ``WPA`` (WPA/WPA2/WPA3 personal): a passphrase of 8 to 63 printable ASCII characters;
- ``WEP``: a key of 5 or 13 ASCII characters, or 10 or 26 hexadecimal digits;
- ``nopass``: an open network, no password;
- ``hidden``: the network does not announce its name.

>>> net = parse_network(ssid="Bonn spielt", password="tische-2018", security="WPA")
>>> net.security, net.hidden
('WPA', False)
>>> parse_network(ssid="Bonn spielt", password="kurz", security="WPA")
Traceback (most recent call last):
agon.errors.InvalidInput: Wi-Fi password: a WPA password has 8 to 63 characters, got 4
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any, Literal

from agon.errors import N_, InvalidInput

Security = Literal["WPA", "WEP", "nopass"]
SECURITIES: tuple[Security, ...] = ("WPA", "WEP", "nopass")
#: The most bytes an SSID has (IEEE 802.11).
SSID_BYTES = 32
_PRINTABLE = set(string.printable) - set("\t\n\r\x0b\x0c")
_HEX = re.compile(r"[0-9A-Fa-f]+")


@dataclass(frozen=True)
class WifiNetwork:
    """A checked venue network (build it with :func:`parse_network`)."""

    ssid: str
    password: str | None
    security: Security
    hidden: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "ssid": self.ssid,
            "password": self.password,
            "security": self.security,
            "hidden": self.hidden,
        }

    def qr_data(self) -> str:
        """What the QR code holds: the ``WIFI:`` text phones join with (segno's encoder).

        >>> parse_network(ssid="Bonn;spielt", password="tische-2018").qr_data()
        'WIFI:T:WPA;S:Bonn\\\\;spielt;P:tische-2018;;'
        """
        from segno.helpers import make_wifi_data

        security = None if self.security == "nopass" else self.security
        return str(make_wifi_data(self.ssid, self.password, security, hidden=self.hidden))


def _check_ssid(ssid: Any) -> str:
    if not isinstance(ssid, str) or not ssid:
        raise InvalidInput(
            "Wi-Fi name: must not be empty", msgid=N_("The Wi-Fi name must not be empty.")
        )
    size = len(ssid.encode("utf-8", "surrogatepass"))
    if size > SSID_BYTES:
        raise InvalidInput(
            f"Wi-Fi name: at most {SSID_BYTES} bytes, got {size}",
            msgid=N_("The Wi-Fi name has at most %(most)d bytes, not %(size)d."),
            params={"most": SSID_BYTES, "size": size},
        )
    if any(ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF for c in ssid):
        raise InvalidInput(
            "Wi-Fi name: must not contain control characters",
            msgid=N_("The Wi-Fi name must not contain control characters."),
        )
    return ssid


def _check_password(password: str | None, security: Security) -> str | None:
    if security == "nopass":
        if password:
            raise InvalidInput(
                "Wi-Fi password: an open network (nopass) has no password",
                msgid=N_("An open network has no password."),
            )
        return None
    if not password:
        raise InvalidInput(
            f"Wi-Fi password: a {security} network needs a password",
            msgid=N_("A %(security)s network needs a password."),
            params={"security": security},
        )
    if not set(password) <= _PRINTABLE:
        raise InvalidInput(
            "Wi-Fi password: only printable ASCII characters",
            msgid=N_("The Wi-Fi password takes only printable ASCII characters."),
        )
    if security == "WPA":
        if not 8 <= len(password) <= 63:
            raise InvalidInput(
                f"Wi-Fi password: a WPA password has 8 to 63 characters, got {len(password)}",
                msgid=N_("A WPA password has 8 to 63 characters, not %(size)d."),
                params={"size": len(password)},
            )
    elif not (len(password) in (5, 13) or (len(password) in (10, 26) and _HEX.fullmatch(password))):
        raise InvalidInput(
            "Wi-Fi password: a WEP key has 5 or 13 characters, or 10 or 26 hexadecimal digits",
            msgid=N_("A WEP key has 5 or 13 characters, or 10 or 26 hexadecimal digits."),
        )
    return password


def parse_network(
    *, ssid: Any, password: Any = None, security: Any = None, hidden: Any = False
) -> WifiNetwork:
    """A checked network. ``security`` defaults to ``WPA`` with a password, ``nopass`` without.

    Raises:
        InvalidInput: one line naming the field and what is wrong.
    """
    if password is not None and not isinstance(password, str):
        raise InvalidInput(
            "Wi-Fi password: must be text", msgid=N_("The Wi-Fi password must be text.")
        )
    if security is None or security == "":
        security = "WPA" if password else "nopass"
    if not isinstance(security, str) or security.upper() not in {s.upper() for s in SECURITIES}:
        raise InvalidInput(
            f"Wi-Fi security: choose one of {', '.join(SECURITIES)}, got {security!r}",
            msgid=N_("Choose the Wi-Fi security: WPA, WEP or none."),
        )
    sec: Security = next(s for s in SECURITIES if s.upper() == security.upper())
    if not isinstance(hidden, bool):
        raise InvalidInput(
            "Wi-Fi hidden: must be true or false",
            msgid=N_("Say whether the Wi-Fi is hidden: yes or no."),
        )
    return WifiNetwork(_check_ssid(ssid), _check_password(password or None, sec), sec, hidden)


def network_from_json(data: Any) -> WifiNetwork:
    """The network :meth:`WifiNetwork.to_json` wrote (checked again: it may come from a file)."""
    if not isinstance(data, dict):
        raise InvalidInput(
            "Wi-Fi network: expected an object", msgid=N_("The Wi-Fi network is not readable.")
        )
    return parse_network(
        ssid=data.get("ssid"),
        password=data.get("password"),
        security=data.get("security"),
        hidden=data.get("hidden", False),
    )
