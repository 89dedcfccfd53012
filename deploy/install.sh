#!/bin/sh
# Install agon for serving into a virtualenv at PREFIX: the serving extras only (web, postgresql,
# print), each dependency at the version and hash uv.lock pins (deploy/requirements.txt), then
# agon itself. The Dockerfile RUNs this; tests/test_deploy_kit.py runs it into a fresh venv and
# serves from the result. A host without containers can run it as well (docs/hosting.md).
#
# usage: deploy/install.sh PREFIX [WHEEL]
#   PREFIX  the virtualenv to create (e.g. /opt/agon); it must not exist yet, or be empty
#   WHEEL   agon's wheel (make wheel: dist/agon_tournaments-…-manylinux….whl). Without it the
#           wheel is built here from this checkout by pip (needs gcc and the Python headers for
#           the compiled cores, and hatchling and Cython from the package index).
# PYTHON    the interpreter to make the venv with (default python3; 3.11 or newer).
set -eu
if [ "$#" -lt 1 ] || [ "$#" -gt 2 ]; then
  echo "usage: deploy/install.sh PREFIX [WHEEL]" >&2
  exit 2
fi
prefix="$1"
wheel="${2:-}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
python="${PYTHON:-python3}"

if [ -e "$prefix" ] && [ -n "$(ls -A "$prefix" 2>/dev/null)" ]; then
  echo "deploy/install.sh: $prefix exists and is not empty; give a new folder" >&2
  exit 2
fi
if [ -n "$wheel" ] && [ ! -f "$wheel" ]; then
  echo "deploy/install.sh: no wheel $wheel" >&2
  exit 2
fi

"$python" -m venv "$prefix"
pip="$prefix/bin/python -m pip --disable-pip-version-check --no-input"
# 1. the locked dependencies, every file checked against uv.lock's hash
$pip install --quiet --require-hashes --only-binary :all: -r "$here/requirements.txt"
# 2. agon, without resolving anything again (everything it needs is there)
if [ -z "$wheel" ]; then
  built="$(mktemp -d)"
  trap 'rm -rf "$built"' EXIT
  AGON_REQUIRE_CORES=1 $pip wheel --quiet --no-deps --wheel-dir "$built" "$root"
  wheel="$(ls "$built"/agon_tournaments-*.whl)"
fi
$pip install --quiet --no-deps "$wheel"
# 3. checks: the command runs, the compiled cores are there, nothing is missing or conflicting
"$prefix/bin/agon" --version
"$prefix/bin/python" -c "import agon.cores.seven_wonders._core, agon.cores.standings._core, agon.web.app, psycopg, weasyprint"
$pip check
