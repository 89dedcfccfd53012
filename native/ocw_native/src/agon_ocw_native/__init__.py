"""Compiled core of agon's One Card Wonder engine (random legal play); see ``_core``."""

from agon_ocw_native._core import EFFECTS, TRIGGERS, Core, NGame, simulate_random

__all__ = ["EFFECTS", "TRIGGERS", "Core", "NGame", "simulate_random"]
