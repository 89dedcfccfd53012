"""The data files shipped inside agon's packages (cards, wonders, rulesets), read as text.

A command reads them from the installed files beside the modules: importing
:mod:`importlib.resources` (and the zip, temporary-file and threading modules it brings) costs a
short command a few hundredths of a second of CPU (issue 30's director reads). Where agon is not
installed as files (a zip on ``sys.path``) the text comes through :mod:`importlib.resources`.
"""

from __future__ import annotations

import sys
from pathlib import Path


def shipped_text(package: str, *parts: str) -> str:
    """The UTF-8 text of the file ``parts`` (a path below the package, one name per part) of the
    agon package ``package``, which the caller has imported (it is one of its own modules' packages).

    Raises:
        OSError: no such file.
    """
    where = getattr(sys.modules[package], "__file__", None)
    if where is not None:
        try:
            return Path(where).parent.joinpath(*parts).read_text(encoding="utf-8")
        except OSError:
            pass
    from importlib import resources

    node = resources.files(package)
    for part in parts:
        node = node.joinpath(part)
    return node.read_text(encoding="utf-8")
