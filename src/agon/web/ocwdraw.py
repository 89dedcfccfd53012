"""One Card Wonder drawn as SVG (issue 28): a wonder card's stages as boxes joined by their
arrows, and a board's eight storage places with the stored items as icons.

Pure geometry for the templates (``templates/play/_ocw_svg.html`` draws it; ``static/ocw.css``
colours it); agon's own simple shapes, no copied artwork. Every drawing carries a sentence for
screen readers (``label``): what is built, what each stage costs and which arrows lead into it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agon.i18n import N_, translator

#: The drawing's width (SVG user units); heights follow from the content.
WIDTH = 300
BOX_W, BOX_H, ROW_GAP = 86, 30, 20
#: Storage places of a board (SPIELMATERIAL: 8).
PLACES = 8
#: The icon shapes, in the order a storage is filled.
ITEM_ORDER = ("knowledge", "wood", "clay", "stone", "iron", "coin")


def _depths(stages: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Each stage's row: 0 without arrows into it, else one below its deepest source."""
    after = {str(s["id"]): [str(a) for a in s.get("after", ())] for s in stages}
    depth: dict[str, int] = {}

    def of(sid: str, seen: frozenset[str] = frozenset()) -> int:
        if sid not in depth:
            sources = [a for a in after.get(sid, ()) if a in after and a not in seen]
            depth[sid] = 1 + max((of(a, seen | {sid}) for a in sources), default=-1)
        return depth[sid]

    for sid in after:
        of(sid)
    return depth


def _cost_words(cost: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(str(c["text"]) for c in cost)


def wonder_drawing(stages: Sequence[Mapping[str, Any]], name: str, lang: str) -> dict[str, Any]:
    """The stage graph of a wonder card (``stages``: :func:`agon.web.playview.ocw_wonder`'s, each
    with ``id``, ``cost`` chips, ``after`` and ``built``): boxes, arrows and the spoken label.

    >>> d = wonder_drawing([{"id": "s1", "cost": [], "after": [], "built": True},
    ...     {"id": "s2", "cost": [], "after": ["s1"], "built": False}], "Pharos", "en")
    >>> [(b["id"], b["row"]) for b in d["boxes"]], len(d["arrows"])
    ([('s1', 0), ('s2', 1)], 1)
    """
    t = translator(lang).gettext
    depth = _depths(stages)
    rows: dict[int, list[Mapping[str, Any]]] = {}
    for st in stages:
        rows.setdefault(depth[str(st["id"])], []).append(st)
    boxes: list[dict[str, Any]] = []
    where: dict[str, tuple[float, float]] = {}
    for row in sorted(rows):
        members = sorted(rows[row], key=lambda s: str(s["id"]))
        step = WIDTH / len(members)
        y = 4 + row * (BOX_H + ROW_GAP)
        for i, st in enumerate(members):
            x = step * (i + 0.5) - BOX_W / 2
            sid = str(st["id"])
            where[sid] = (x + BOX_W / 2, y)
            icons = []
            for c in st.get("cost", ()):
                icons += [str(c["res"])] * int(c["n"])
            boxes.append(
                {
                    "id": sid,
                    "row": row,
                    "x": round(x, 1),
                    "y": y,
                    "built": bool(st.get("built")),
                    "icons": [
                        {"res": r, "x": round(x + 30 + k * 13, 1), "y": y + BOX_H / 2}
                        for k, r in enumerate(icons[:4])
                    ],
                    "more": len(icons) - 4 if len(icons) > 4 else 0,
                }
            )
    arrows = []
    for st in stages:
        sid = str(st["id"])
        for src in st.get("after", ()):
            if str(src) in where:
                x1, y1 = where[str(src)]
                x2, y2 = where[sid]
                arrows.append(
                    {"x1": round(x1, 1), "y1": y1 + BOX_H, "x2": round(x2, 1), "y2": y2 - 2}
                )
    parts = []
    for st in stages:
        sid = str(st["id"])
        words = f"{sid}: {_cost_words(st.get('cost', ()))}"
        if st.get("after"):
            words += " " + t(N_("after %(stages)s")) % {"stages": " + ".join(st["after"])}
        if st.get("built"):
            words += " (" + t(N_("built")) + ")"
        parts.append(words)
    built = sum(1 for st in stages if st.get("built"))
    label = t(N_("%(name)s: %(built)d of %(all)d stages built.")) % {
        "name": name,
        "built": built,
        "all": len(stages),
    }
    return {
        "width": WIDTH,
        "height": 8 + (max(rows, default=0) + 1) * (BOX_H + ROW_GAP) - ROW_GAP,
        "boxes": boxes,
        "arrows": arrows,
        "box_w": BOX_W,
        "box_h": BOX_H,
        "label": label + " " + "; ".join(parts) + ".",
    }


def storage_drawing(chips: Sequence[Mapping[str, Any]], lang: str) -> dict[str, Any]:
    """A board's storage (``chips``: :func:`agon.web.playview.ocw_item_counts` of it): eight
    places, the stored items (coins lie beside the board) as icons in :data:`ITEM_ORDER`, and
    the spoken label (``Storage: 2×wood, stone (3 of 8 places)``)."""
    t = translator(lang).gettext
    count = {str(c["res"]): int(c["n"]) for c in chips}
    items = [r for r in ITEM_ORDER if r != "coin" for _ in range(count.get(r, 0))]
    places = [{"x": 4 + i * 36, "res": items[i] if i < len(items) else None} for i in range(PLACES)]
    said = ", ".join(str(c["text"]) for c in chips if c["res"] != "coin")
    label = t(N_("Storage: %(items)s (%(used)d of %(all)d places)")) % {
        "items": said or t(N_("empty")),
        "used": len(items),
        "all": PLACES,
    }
    return {"width": 4 + PLACES * 36, "places": places, "label": label}
