"""Compiled core of agon's standings: reading a round's seats, scoring full tables with exact
sums, and the bytes of the results' digest; see ``_core``."""

from agon.cores.standings._core import BREAKERS, Sums, digest_bytes, round_seats

__all__ = ["BREAKERS", "Sums", "digest_bytes", "round_seats"]
