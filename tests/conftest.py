"""Settings for the whole suite.

Hypothesis: one profile, ``agon``, for ``make test``, ``make test-fast`` and CI alike: no
per-example deadline (a deadline is a timed test, and on a shared machine a slow example says
nothing about agon; speed goals live in bench/), every example still checked. The number of
examples is bounded per test where it is set (``@settings(max_examples=…)``: 12–300 for the
property tests, by what one example costs) and 100 elsewhere. The fuzzers (tests/fuzz and the web
API's, tests/web/test_fuzz_api.py; marked ``slow``: the inner loop ``pytest -m "not slow"`` leaves
them out, ``make test`` runs them) try 300 cases each (the API: 15 per operation, 20 per form
route) in ``make test``, and ``AGON_FUZZ_DEPTH`` times as many in a deeper run (``make fuzz``:
4 times; tests/fuzzing.py). The file, import and command-line fuzzers draw new cases on every
run, so the runs add up; the form and API fuzzers are derandomized.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from tests.cheap_hashes import use_cheap_hashes
from tests.durations import RECORD_VARIABLE, Recorder, is_costly, load
from tests.shared_routes import share_route_state
from tests.shared_sql import share_compiled_statements
from tests.shared_tls import share_default_tls_context

settings.register_profile("agon", deadline=None)
settings.load_profile("agon")
share_default_tls_context()
share_route_state()
share_compiled_statements()
use_cheap_hashes()

#: The suite's temporary files (every test database, pytest's tmp_path, the browser's profile) go
#: to a RAM disk when the machine has one with room to spare: the tests commit thousands of
#: SQLite transactions with ``synchronous=FULL``, each an fsync on a real disk (the services tests
#: waited a fifth of their time for them). A process killed with -9 keeps what it wrote either
#: way (the page cache is the kernel's), so no guarantee the tests check depends on the disk.
#: ``AGON_TEST_TMPDIR`` chooses another folder; a RAM disk with less free room is left alone
#: (Docker's default /dev/shm has 64 MB).
RAM_DISK = Path("/dev/shm")
RAM_DISK_FREE = 4 << 30


def _temporary_folder() -> Path | None:
    chosen = os.environ.get("AGON_TEST_TMPDIR")
    if chosen:
        return Path(chosen)
    try:
        if os.access(RAM_DISK, os.W_OK) and shutil.disk_usage(RAM_DISK).free >= RAM_DISK_FREE:
            return RAM_DISK / f"agon-tests-{os.getuid()}"
    except OSError:
        pass
    return None


def pytest_configure(config: pytest.Config) -> None:
    """Temporary files on :data:`RAM_DISK` (or ``AGON_TEST_TMPDIR``); pytest-xdist's workers
    inherit it, and pytest keeps only its last three runs' folders there."""
    record = os.environ.get(RECORD_VARIABLE)
    if record:
        config.pluginmanager.register(Recorder(Path(record)), "agon-durations")
    folder = _temporary_folder()
    if folder is None:
        return
    if not folder.exists():  # a folder of its own: others may pass (initdb runs as postgres)
        folder.mkdir(parents=True)
        folder.chmod(0o711)
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = str(folder)


#: Left out of the inner loop whatever they cost, by kind: the fuzzers, the browser tests and the
#: replays of the docs (a node id's prefix). Every other test by its measured cost (tests/
#: durations.json, :func:`tests.durations.is_costly`). ``make test`` runs them all.
INNER_LOOP_LEAVES_OUT = (
    "tests/fuzz/",
    "tests/test_docs_commands.py::test_every_command_in_the_doc",
    "tests/web/test_browser.py",
    "tests/web/test_browser_ludo.py",
    "tests/web/test_layout.py",
    "tests/web/test_online_round_browser.py",
    "tests/web/test_play_tables_phone.py",
)
COSTS = load()


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks the costly tests ``slow`` (see :data:`INNER_LOOP_LEAVES_OUT`); the ``slow`` tests
    run first, the longest (wall time, as measured) first, a module's together (its browser or
    server, module-scoped fixtures, is set up once for them on each worker, not again whenever
    another module's test came in between); the others in the order collected.

    ``make test`` runs on pytest-xdist workers (``--dist load``): a test of a minute that starts
    last keeps one worker busy alone at the end while the others are idle. Started first, the long
    tests run side by side and the many short ones fill the gaps (longest first is the classic rule
    for balancing jobs over machines). That needs ``--maxschedchunk 2`` (the Makefile): by default
    pytest-xdist hands each worker a first chunk of a quarter of its share, and the first chunk
    was every slow test, one worker running them alone for minutes after the other had finished.
    The short tests keep their order, so module-scoped fixtures are still set up once per module
    on most workers."""
    for item in items:
        if item.nodeid.startswith(INNER_LOOP_LEAVES_OUT) or is_costly(COSTS.get(item.nodeid)):
            item.add_marker(pytest.mark.slow)

    def wall(item: pytest.Item) -> float:
        return COSTS.get(item.nodeid, (0.0, 0.0))[1]

    longest: dict[str, float] = {}  # a module's longest slow test
    for item in items:
        if item.get_closest_marker("slow") is not None:
            module = item.nodeid.split("::")[0]
            longest[module] = max(longest.get(module, 0.0), wall(item))

    def order(item: pytest.Item) -> tuple[bool, float, str, float]:
        if item.get_closest_marker("slow") is None:
            return (True, 0.0, "", 0.0)
        module = item.nodeid.split("::")[0]
        return (False, -longest[module], module, -wall(item))

    items.sort(key=order)
