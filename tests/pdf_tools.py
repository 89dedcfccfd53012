"""Reading PDFs back in tests with Python-only tools (pypdf for text, PDFium for pictures), so the
tests need no system package such as poppler-utils."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2
from pypdf import PdfReader


def read_pdf_text(pdf: bytes) -> str:
    """The text of every page, pages separated by a form feed."""
    reader = PdfReader(io.BytesIO(pdf))
    return "\f".join(page.extract_text() or "" for page in reader.pages)


def render_first_page(pdf: bytes, png: Path, *, dpi: int) -> Path:
    """Render page 1 of ``pdf`` to the PNG file ``png`` at ``dpi`` dots per inch."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        page = document[0]
        page.render(scale=dpi / 72).to_pil().save(png)
        page.close()
    finally:
        document.close()
    return png
