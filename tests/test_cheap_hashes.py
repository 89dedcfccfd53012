"""tests/cheap_hashes.py: the suite's people accounts are hashed cheaply, and agon itself still
hashes with argon2-cffi's full defaults."""

from __future__ import annotations

import time

from argon2 import PasswordHasher, Type, extract_parameters

from agon.services import people
from tests.cheap_hashes import CHEAP_HASHER, PRODUCTION_HASHER


def test_agon_hashes_people_with_argon2id_at_the_library_defaults() -> None:
    defaults = PasswordHasher()
    assert PRODUCTION_HASHER.type is Type.ID
    for name in ("time_cost", "memory_cost", "parallelism", "hash_len", "salt_len"):
        assert getattr(PRODUCTION_HASHER, name) == getattr(defaults, name), name


def test_the_suite_hashes_people_cheaply_and_checks_as_before() -> None:
    assert people._HASHER is CHEAP_HASHER
    params = extract_parameters(people._DUMMY_HASH)  # the unknown e-mail's check is cheap too
    assert (params.type, params.time_cost, params.memory_cost) == (Type.ID, 1, 1024)
    start = time.process_time()
    stored = people._HASHER.hash("correct horse battery")
    assert people._HASHER.verify(stored, "correct horse battery")
    assert time.process_time() - start < 0.05  # the defaults cost 0.1-0.3 s for each


def test_the_real_servers_get_the_directors_password_cheaply_hashed() -> None:
    """tests/play/server.py hands ``agon serve`` a cheap hash of the director's password: the
    server keeps it as it is (no full-cost hash as it starts) and the password still logs in."""
    from agon.web.security import verify_password
    from agon.web.settings import web_settings
    from tests.play.server import DIRECTOR_PASSWORD, Server

    env = Server("sqlite:///unused.db").environment()
    assert env["AGON_DIRECTOR_PASSWORD"] == DIRECTOR_PASSWORD
    given = env["AGON_DIRECTOR_PASSWORD_HASH"]
    params = extract_parameters(given)
    assert (params.type, params.time_cost, params.memory_cost) == (Type.ID, 1, 1024)
    start = time.process_time()
    settings = web_settings(env)
    assert time.process_time() - start < 0.1  # hashing at the defaults costs 0.27-0.4 s
    assert settings.director_password_hash == given
    assert verify_password(settings.director_password_hash, DIRECTOR_PASSWORD)
    assert not verify_password(settings.director_password_hash, "wrong")
    # a test that gives its own password gets a hash of that one
    other = Server("sqlite:///unused.db", env={"AGON_DIRECTOR_PASSWORD": "other"}).environment()
    assert verify_password(other["AGON_DIRECTOR_PASSWORD_HASH"], "other")
