"""Who may know a game's seed, and when (issue 26; docs/online-play.md, "Seeds").

The seed deals every hand: whoever knows it knows every seat's cards. So a game with two or more
people gets a seed the server draws (128 random bits) and nobody is told it while the game runs;
a creator's seed is refused for such a game. A game of one person against bots may keep a chosen
seed (to study or replay a deal): there is nobody to cheat. A tournament table's seed is a keyed
hash of the tournament's committed seed (:func:`agon.tournament.draws.online_game_seed`).

Every game publishes the SHA-256 of its seed from the start (:func:`seed_sha256`, in every seat's
and the spectator's state) and reveals the seed once it is over, so anyone can replay the finished
game from its log and check it (``agon verify``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable

from agon.errors import N_, InvalidInput

#: The refusal of a creator's seed for a game with two or more people (API and lobby alike).
CHOSEN_SEED_REFUSED = N_(
    "A game with two or more people gets a seed the server draws; leave the seed empty."
)


def seed_sha256(seed: str) -> str:
    """The SHA-256 hex of a seed (UTF-8): published while the game runs.

    >>> seed_sha256("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(seed.encode("utf-8", "surrogatepass")).hexdigest()


def draw_seed() -> str:
    """A seed the server draws: 128 random bits, as 32 hex digits."""
    return secrets.token_hex(16)


def check_chosen_seed(kinds: Iterable[str], seed: str | None) -> None:
    """Refuse a creator's ``seed`` for a game whose seats (``kinds``) hold two or more people.

    Raises:
        InvalidInput: a seed given for a game with two or more human seats.
    """
    if seed is not None and sum(1 for k in kinds if k == "human") >= 2:
        raise InvalidInput(
            "a game with two or more people gets a seed the server draws; send no seed",
            msgid=CHOSEN_SEED_REFUSED,
        )
