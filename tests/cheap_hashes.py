"""Cheap Argon2 hashes for the people's accounts in the tests.

``agon.services.people`` hashes with argon2-cffi's defaults (Argon2id, 3 passes over 64 MiB, 4
lanes): about 0.27 s of CPU per hash or check on the loaded project machine, and the account,
registration and people-browser tests sign up and log in many times (85 hashes and checks in the
three people test files alone, 23 s of CPU). Argon2 reads its cost from the stored hash, so the
suite hashes with the least cost (as tests/web/conftest.py already does for the director's
password), and a check against such a hash is as cheap. What is tested does not change: the same
function, the same Argon2id hashes, the same check. :data:`PRODUCTION_HASHER` keeps agon's own
hasher, whose parameters tests/test_cheap_hashes.py pins.
"""

from __future__ import annotations

from argon2 import PasswordHasher

from agon.services import people

PRODUCTION_HASHER: PasswordHasher = people._HASHER
CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def use_cheap_hashes() -> None:
    """agon's people hasher, and the stand-in hash an unknown e-mail is checked against, cheap."""
    people._HASHER = CHEAP_HASHER
    people._DUMMY_HASH = CHEAP_HASHER.hash("agon: no such account")
