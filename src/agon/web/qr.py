"""QR codes of seat links (online tournament tables) and of the venue's Wi-Fi, as inline SVG
(segno, pure Python).

A seat link is a path (``/play/<game>?token=…``); the QR code holds the full address under the
server's public URL (``AGON_PUBLIC_URL``, as on the printed score sheets), so a phone that scans
it from another screen or from paper opens the seat. Inline SVG needs no image request and no
``data:`` URL, and scales to any size (phone-first pages, printouts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from markupsafe import Markup

if TYPE_CHECKING:
    from agon.tournament.wifi import WifiNetwork


def absolute(public_url: str, path: str) -> str:
    """``path`` under the public URL (an address that is absolute already stays as it is).

    >>> absolute("https://agon.example/", "/play/g1?token=t")
    'https://agon.example/play/g1?token=t'
    """
    if path.startswith(("http://", "https://")):
        return path
    return f"{public_url.rstrip('/')}/{path.lstrip('/')}"


def qr_svg(url: str, title: str = "") -> Markup:
    """The QR code of ``url`` as an inline ``<svg>`` (error correction M, a quiet zone of 2)."""
    import segno

    svg = segno.make(url, error="m").svg_inline(
        scale=4, border=2, omitsize=True, title=title or None, svgclass="qr-code"
    )
    return Markup(svg)


def wifi_svg(network: WifiNetwork, title: str = "") -> Markup:
    """The QR code that joins the venue's Wi-Fi ``network`` (:mod:`agon.tournament.wifi`)."""
    import segno

    svg = segno.make(network.qr_data(), error="m").svg_inline(
        scale=4, border=2, omitsize=True, title=title or None, svgclass="qr-code wifi-qr"
    )
    return Markup(svg)
