"""What a One Card Wonder table announces (issue 28): a leader's interruption (Leaders expansion),
shown to everybody at the table as a dialog, and the one sentence a screen reader hears, politely,
when a push brings a new board. Public facts only."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agon.i18n import N_, translator


def interruption(
    players: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    to_move: object,
    leader_of: Callable[[str], Mapping[str, Any]],
) -> dict[str, Any] | None:
    """A leader's interruption (Leaders expansion) while it lasts: a leader is ``revealed`` (not
    yet defeated or used) — who revealed which leader, its effect, the cost to defeat it, and
    whom the table waits for (``leader_of``: a leader id to its record); ``None`` otherwise. Public facts only."""
    for i, p in enumerate(players):
        if p.get("leader_state") == "revealed" and p.get("leader") not in (None, "hidden"):
            leader = leader_of(str(p["leader"]))
            waiting = (
                names[to_move] if isinstance(to_move, int) and 0 <= to_move < len(names) else None
            )
            return {
                "key": f"{i}-{leader['id']}",
                "owner": names[i],
                "leader": leader["name"],
                "text": leader["text"],
                "defeat": leader["defeat"],
                "waiting": waiting,
            }
    return None


def news(t: Mapping[str, Any], lang: str) -> str:
    """One sentence for screen readers about the table now (announced politely on a push)."""
    tr = translator(lang).gettext
    parts = []
    if t.get("interruption"):
        i = t["interruption"]
        parts.append(
            tr(N_("%(name)s reveals a leader: %(leader)s"))
            % {"name": i["owner"], "leader": i["leader"]}
        )
    if t.get("over"):
        parts.append(tr(N_("Game over")))
        if t.get("winner"):
            parts.append(tr(N_("Winner")) + ": " + str(t["winner"]))
    else:
        if t.get("turn") is not None:
            parts.append(tr(N_("Turn")) + f" {t['turn']}")
        if t.get("to_act"):
            parts.append(tr(N_("Your move")))
        elif t.get("to_move"):
            parts.append(tr(N_("Waiting for")) + ": " + str(t["to_move"]))
    return ". ".join(parts) + "." if parts else ""
