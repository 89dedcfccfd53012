"""The source distribution ships sources, never generated C (issue 31): the Cython cores' ``.pyx``
files go in, no ``_core.c`` from a build, no leftover C of removed side packages."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_sdist_has_no_generated_c(tmp_path: Path) -> None:
    uv = Path(sys.executable).parent / "uv"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    built = subprocess.run(
        [str(uv), "build", "--sdist", "--out-dir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (sdist,) = tmp_path.glob("agon_tournaments-*.tar.gz")  # the name on PyPI
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
    assert any(n.endswith("src/agon/cores/seven_wonders/_core.pyx") for n in names)
    # the deploy kit travels with the sources (docs/hosting.md says the sdist has it)
    for kit in ("deploy/install.sh", "deploy/requirements.txt", "deploy/Dockerfile"):
        assert any(n.endswith(kit) for n in names), kit
    generated = [n for n in names if n.endswith((".c", ".so")) or "/native/" in n]
    assert generated == []
