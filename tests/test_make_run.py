"""Issue 27: ``make run`` installs only what serving needs (a venv of its own, .venv-run: the web,
postgresql and print extras, no dev extra) and takes ``PORT`` and ``HOST``; ``make test`` keeps
.venv with the dev extra. Checked on the recipes make would run (``make -n -B``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from agon.extras import missing_extra

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def recipes(*args: str) -> list[str]:
    done = subprocess.run(
        ["make", "-n", "-B", "--no-print-directory", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.splitlines()


def test_make_run_takes_port_and_host() -> None:
    lines = recipes("run", "PORT=8080", "HOST=0.0.0.0")
    assert lines[-1] == ".venv-run/bin/agon serve --demo --host 0.0.0.0 --port 8080"
    assert recipes("run")[-1].endswith("serve --demo --host 127.0.0.1 --port 8000")


def test_make_run_installs_only_the_serving_extras() -> None:
    (sync,) = [line for line in recipes("run") if " sync " in line]
    assert "UV_PROJECT_ENVIRONMENT=.venv-run" in sync and "--locked" in sync
    for extra in ("web", "postgresql", "print"):
        assert f"--extra {extra}" in sync
    assert "--extra dev" not in sync and "--all-extras" not in sync
    assert "AGON_REQUIRE_CORES=1" in sync  # the compiled cores are built, or it fails
    assert not [line for line in recipes("run") if line.startswith(".venv/")]


def test_make_test_keeps_the_dev_extra_in_its_own_venv() -> None:
    (sync,) = [line for line in recipes(".venv/.installed") if " sync " in line]
    assert "--extra dev" in sync and ".venv-run" not in sync


def test_prometheus_client_belongs_to_the_web_extra() -> None:
    assert missing_extra("prometheus_client", "serve") == "web"
