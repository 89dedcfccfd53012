"""Compiled core of agon's One Card Wonder engine (random legal play); see ``_core``."""

from agon.cores.one_card_wonder._core import (
    BOT_NAMES,
    EFFECTS,
    TRIGGERS,
    Core,
    NGame,
    simulate,
    simulate_random,
)

__all__ = ["BOT_NAMES", "EFFECTS", "TRIGGERS", "Core", "NGame", "simulate", "simulate_random"]
