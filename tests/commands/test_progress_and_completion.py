"""Progress bars on a terminal only (docs/cli.md), and the shell completion script."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env.pop("CI", None)
    return {**env, **extra}


def _stderr_on_a_terminal(args: list[str]) -> tuple[str, str, int]:
    """Run ``python -m agon ARGS`` with stderr on a pseudo-terminal, stdout on a pipe."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "agon", *args],
        stdout=subprocess.PIPE,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        env=_env(COLUMNS="100"),
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode() if proc.stdout else ""
    code = proc.wait(timeout=60)
    os.close(master)
    return out, seen.decode(errors="replace"), code


SIMULATE = ["7w", "simulate", "--games", "60", "--bots", "heuristic", "--engine", "python"]


def test_a_terminal_sees_a_progress_bar() -> None:
    out, err, code = _stderr_on_a_terminal(SIMULATE)
    assert code == 0, err
    assert "games  [" in err and "60/60" in err  # click's bar, run to the end
    assert "[" not in out and out.startswith("games 60  seconds ")  # stdout untouched


def test_json_on_a_terminal_and_a_pipe_stay_silent() -> None:
    out, err, code = _stderr_on_a_terminal([*SIMULATE, "--json"])
    assert code == 0 and err == ""
    assert json.loads(out)["games"] == 60
    piped = subprocess.run(
        [sys.executable, "-m", "agon", *SIMULATE], capture_output=True, text=True, env=_env()
    )
    assert piped.returncode == 0 and piped.stderr == ""
    assert piped.stdout.startswith("games 60  seconds ")


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["ocw", "simulate", "--games", "40", "--engine", "python"],
        ["7w", "balance", "--games", "30", "--engine", "python", "--players", "3"],
        ["ocw", "ladder", "--games", "6", "--bots", "random,heuristic", "--players", "2"],
    ],
)
def test_the_other_long_commands_show_a_bar_on_a_terminal(args: list[str]) -> None:
    total = args[args.index("--games") + 1]
    out, err, code = _stderr_on_a_terminal(args)
    assert code == 0, err
    assert f"{total}/{total}" in err and out


def test_the_bar_follows_the_work_and_the_results_stay_the_same() -> None:
    """With a bar the work is cut into steps (consecutive seeds): the same games as one piece."""
    from click.testing import CliRunner

    from agon.cli import cli
    from agon.commands import progress

    args = ["7w", "simulate", "--games", "250", "--engine", "python", "--bots",
            "random,heuristic,random", "--players", "3"]  # fmt: skip
    plain = json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)
    ticks: list[int] = []

    class Bar:
        def update(self, n: int) -> None:
            ticks.append(n)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(progress, "stderr_is_terminal", lambda: True)
        mp.setattr(progress.click, "progressbar", _fake_bar(Bar()))
        shown = CliRunner().invoke(cli, args)
    assert shown.exit_code == 0, shown.stderr
    assert sum(ticks) == 250 and len(ticks) > 10
    for row in plain["seats"]:
        assert f"mean score {row['mean_score']:>6}  wins {row['wins']:g}" in shown.stdout


def test_a_large_schedule_shows_a_bar_on_a_terminal_and_is_silent_otherwise() -> None:
    """Issue 13: ``agon schedule`` for a large room draws a bar on a terminal; with ``--json``
    and piped it prints no progress, and the schedule is the same."""
    args = ["schedule", "--players", "120", "--rounds", "3", "--seed", "s"]
    out, err, code = _stderr_on_a_terminal(args)
    assert code == 0, err
    assert "planning  [" in err and "1000/1000" in err
    assert out.startswith("BONN-SPIELT") or "Round 1" in out
    warning = "agon: warning: ruleset 'bonn-2018' is for 12–40 players, scheduling 120"
    assert err.endswith(warning + "\r\n")  # the bar ends before the warning
    out_json, err_json, code = _stderr_on_a_terminal([*args, "--json"])
    assert code == 0 and err_json == warning + "\r\n"  # no bar
    piped = subprocess.run(
        [sys.executable, "-m", "agon", *args], capture_output=True, text=True, env=_env()
    )
    assert piped.returncode == 0 and piped.stderr == warning + "\n" and piped.stdout == out
    assert json.loads(out_json)["report"]["repeats"] == 0


def _fake_bar(bar: object):  # type: ignore[no-untyped-def]
    from contextlib import contextmanager

    @contextmanager
    def progressbar(**_: object):  # type: ignore[no-untyped-def]
        yield bar

    return progressbar


def test_the_completion_script_and_a_completion() -> None:
    script = subprocess.run(
        [sys.executable, "-m", "agon"],
        capture_output=True,
        text=True,
        env=_env(_AGON_COMPLETE="bash_source"),
    )
    assert script.returncode == 0, script.stderr
    assert "_agon_completion()" in script.stdout and "complete -o nosort -F" in script.stdout
    done = subprocess.run(
        [sys.executable, "-m", "agon"],
        capture_output=True,
        text=True,
        env=_env(_AGON_COMPLETE="bash_complete", COMP_WORDS="agon tourn", COMP_CWORD="1"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["plain,tournament"]
    sub = subprocess.run(
        [sys.executable, "-m", "agon"],
        capture_output=True,
        text=True,
        env=_env(_AGON_COMPLETE="bash_complete", COMP_WORDS="agon result co", COMP_CWORD="2"),
    )
    assert sub.stdout.splitlines() == ["plain,confirm", "plain,correct"]
