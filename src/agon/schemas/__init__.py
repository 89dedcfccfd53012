"""JSON Schemas of agon's file formats, shipped with the package."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load_schema(name: str) -> dict[str, Any]:
    """Load a shipped schema by file stem, e.g. ``load_schema("event")``."""
    text = resources.files("agon.schemas").joinpath(f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
