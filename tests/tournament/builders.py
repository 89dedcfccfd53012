"""Compact builders for event documents used across tournament tests."""

from __future__ import annotations

from typing import Any


def event_doc(
    ruleset: str, rounds: list[list[list[tuple[Any, ...]]]], **extra: Any
) -> dict[str, Any]:
    """An event document from rounds -> tables -> (player, vp[, coins[, bid]]) rows."""
    players: list[str] = []
    for rnd in rounds:
        for tbl in rnd:
            for row in tbl:
                if row[0] not in players:
                    players.append(row[0])
    doc: dict[str, Any] = {
        "name": "Test event",
        "ruleset": ruleset,
        "seed": "test-seed",
        "players": players,
        "rounds": [
            {
                "tables": [
                    {
                        "results": [
                            dict(zip(("player", "vp", "coins", "bid"), row, strict=False))
                            for row in tbl
                        ]
                    }
                    for tbl in rnd
                ]
            }
            for rnd in rounds
        ],
    }
    doc.update(extra)
    return doc
