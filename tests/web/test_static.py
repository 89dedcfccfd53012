"""The vendored htmx: present in the package, the pinned 2.0.x build, with its licence."""

from __future__ import annotations

import hashlib
from pathlib import Path

import agon

STATIC = Path(agon.__file__).parent / "web" / "static"


def test_htmx_is_vendored_unchanged() -> None:
    data = (STATIC / "htmx.min.js").read_bytes()
    assert len(data) == 52182
    assert hashlib.sha256(data).hexdigest() == (
        "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717"
    )
    assert b'version:"2.0.11"' in data


def test_htmx_licence_notice_is_kept() -> None:
    licence = (STATIC / "htmx.LICENSE").read_text(encoding="utf-8")
    assert "Zero-Clause BSD" in licence
    assert "htmx.min.js" in (STATIC / "README.md").read_text(encoding="utf-8")
