"""Settings for the whole suite.

Hypothesis: one profile, ``agon``, for ``make test``, ``make test-fast`` and CI alike: no
per-example deadline (a deadline is a timed test, and on a shared machine a slow example says
nothing about agon; speed goals live in bench/), every example still checked. The number of
examples is bounded per test where it is set (``@settings(max_examples=…)``: 12–300 for the
property tests, by what one example costs) and 100 elsewhere. The fuzzers (tests/fuzz and the web
API's, tests/web/test_fuzz_api.py; marked ``slow``: the inner loop ``pytest -m "not slow"`` leaves
them out, ``make test`` runs them) try 300 cases each (the API: 23 per operation, 20 per form
route) in ``make test``, and ``AGON_FUZZ_DEPTH`` times as many in a deeper run (``make fuzz``:
4 times; tests/fuzzing.py). They draw new cases on every run, so the runs add up.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("agon", deadline=None)
settings.load_profile("agon")

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
    folder = _temporary_folder()
    if folder is None:
        return
    folder.mkdir(exist_ok=True)
    folder.chmod(0o711)  # others may pass (initdb runs as postgres), not list
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = str(folder)


#: Tests of a minute or more of wall time in a ``make test`` run on the shared 2-core machine
#: (--durations, 2026-11-23; about a third of that is CPU) that their modules do not mark
#: ``slow``: marked here (a node id, or its prefix before the parameters), so that they start
#: first and the inner loop ``pytest -m "not slow"`` leaves them out. ``make test`` runs them all.
MEASURED_SLOW = (
    "tests/services/test_seating.py::test_bonn_rounds_follow_the_pre_planned_schedule",
    "tests/tournament/test_seating.py::test_replan_after_a_drop_keeps_draws_and_minimises_over",
    "tests/tournament/test_seating.py::test_bonn_schedule_invariants",
    "tests/tournament/test_seating.py::test_wonder_rule_impossible_with_start_rule_is_reported",
    "tests/tournament/test_seating.py::test_oracle_agrees_on_a_feasible_case",
    "tests/tournament/test_seating.py::test_zero_repeats_where_a_zero_repeat_schedule_exists[21]",
    "tests/tournament/test_safeload_fast.py::test_the_edges_agree[text8]",
    "tests/web/test_browser.py::test_director_runs_bonn_through_four_rounds",
    "tests/test_docs_commands.py::test_every_command_in_the_doc_runs_and_prints_what_the_doc_shows"
    "[docs/director-guide.md]",
    "tests/test_docs_commands.py::test_the_update_mode_reseats_the_results_of_a_round_seated_anew",
    "tests/games/seven_wonders/test_openspiel.py::test_openspiel_mcts_plays_a_whole_game",
    "tests/services/test_online_play.py::test_absent_players_are_handed_to_bots_on_the_game",
    "tests/services/test_online_play.py::test_a_round_played_by_bots_on_the_game_service_fills",
    "tests/services/test_guarantees.py::test_eight_mixed_writers_on_one_tournament_keep_the",
)


#: Left out of the inner loop as well (marked ``slow``; ``make test`` runs them, first): the
#: browser tests, the fuzzers, the replays of the docs, and the tests of a second of CPU or more
#: (no coverage, 2026-11-27), so that ``make test-fast`` stays about a minute on two cores.
INNER_LOOP_LEAVES_OUT = (
    "tests/fuzz/",
    "tests/test_docs_commands.py::test_every_command_in_the_doc",
    "tests/web/test_browser.py",
    "tests/web/test_browser_ludo.py",
    "tests/web/test_layout.py",
    "tests/web/test_online_round_browser.py",
    "tests/web/test_play_tables_phone.py",
    "tests/web/test_playview.py::test_whole_one_card_wonder_games[trade-4]",
    "tests/games/one_card_wonder/test_ocw_ismcts.py::test_ismcts_beats_random_play",
    "tests/web/test_limits.py::test_a_configured_proxy_names_the_client[server0]",
    "tests/commands/test_fast_start.py::"
    "test_db_current_and_a_write_import_only_what_they_use[sqlite]",
    "tests/web/test_limits.py::test_parallel_wrong_pins_are_checked_at_most_limit_times",
    "tests/commands/test_ludolimpico_walk.py::test_a_17_player_ludolimpico_day[sqlite]",
    "tests/games/one_card_wonder/test_ocw_native.py::"
    "test_whole_games_end_identically[4-variant5-30]",
    "tests/games/seven_wonders/test_fast.py::test_lockstep_parity_fixed_seeds_exercise_every_power",
    "tests/web/test_serve.py::test_serve_makes_a_password_and_the_demo",
    "tests/services/test_bad_input.py::"
    "test_bad_input_is_refused_and_changes_nothing[postgresql-unknown tournament]",
    "tests/web/test_limits.py::test_parallel_wrong_passwords_are_checked_at_most_limit_times",
    "tests/web/test_desk.py::test_printouts_are_pdfs",
    "tests/games/one_card_wonder/test_ocw_native.py::test_lockstep_parity_property",
    "tests/web/test_confirm.py::test_start_and_close_are_shown_before_they_are_done",
    "tests/commands/test_director_tools.py::"
    "test_dry_runs_show_what_would_change_and_change_nothing[sqlite]",
    "tests/tournament/test_safeload_fast.py::test_fast_and_full_paths_agree",
    "tests/games/test_balance.py::test_ocw_balance_json_and_plot",
    "tests/tournament/test_seating.py::test_replan_with_a_late_entry_counts_the_played_rounds",
    "tests/web/test_finished.py::test_a_finished_bonn_event_names_winner_and_podium",
    "tests/games/seven_wonders/test_fast.py::test_payments_match_engine_search",
)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` run first (otherwise in the order collected).

    ``make test`` runs on pytest-xdist workers (``--dist load``): a test of a minute that starts
    last keeps one worker busy alone at the end while the others are idle. Started first, the long
    tests run side by side and the many short ones fill the gaps (longest first is the classic rule
    for balancing jobs over machines). That needs ``--maxschedchunk 2`` (the Makefile): by default
    pytest-xdist hands each worker a first chunk of a quarter of its share, and the first chunk
    was every slow test, one worker running them alone for minutes after the other had finished.
    The order within each group is kept, so module-scoped fixtures are still set up once per
    module and group on most workers."""
    for item in items:
        if item.nodeid.startswith(MEASURED_SLOW + INNER_LOOP_LEAVES_OUT):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
