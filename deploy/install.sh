#!/bin/sh
# Install agon for serving into a virtualenv at PREFIX: the serving extras only (web, postgresql,
# print), each dependency at the version and hash uv.lock pins (deploy/requirements.txt), then
# agon itself. The Dockerfile RUNs this; tests/test_deploy_kit.py runs it into a fresh venv and
# serves from the result. A host without containers can run it as well (docs/hosting.md).
#
# usage: deploy/install.sh PREFIX [WHEEL]
#   PREFIX  the virtualenv to create (e.g. /opt/agon); it must not exist yet, or be empty
#   WHEEL   agon's wheel (make wheel: dist/agon_tournaments-…-manylinux….whl). Without it the
#           wheel is built here from this checkout by `uv build` (needs gcc and the Python headers
#           for the compiled cores, and hatchling and Cython from the package index).
# PYTHON    the interpreter to make the venv with (default python3; 3.11 or newer).
# UV        uv, the installer (default: uv on PATH). The image copies it from uv's own image at
#           the version uv.lock pins; on a host: pip install uv==VERSION (docs/hosting.md).
#
# Everything goes through uv: `uv venv`, `uv pip install --require-hashes` (every file checked
# against the hash in requirements.txt; --only-binary: no source package is built), `uv pip
# check`. The files are copied out of uv's cache (--link-mode copy: the install does not share
# files with the cache, which may be cleaned or on another file system), and each install
# compiles the bytecode of what it installed (--compile-bytecode): the server runs as a user who
# cannot write to PREFIX (the image's USER, the unit's ProtectSystem=strict), so without it each
# start would compile every module it imports again, in memory (seconds of CPU per process).
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
uv="${UV:-$(command -v uv || true)}"

if [ -z "$uv" ] || [ ! -x "$uv" ]; then
  echo "deploy/install.sh: uv is needed: put it on PATH or set UV (docs/hosting.md: pip install uv)" >&2
  exit 2
fi
if [ -e "$prefix" ] && [ -n "$(ls -A "$prefix" 2>/dev/null)" ]; then
  echo "deploy/install.sh: $prefix exists and is not empty; give a new folder" >&2
  exit 2
fi
if [ -n "$wheel" ] && [ ! -f "$wheel" ]; then
  echo "deploy/install.sh: no wheel $wheel" >&2
  exit 2
fi

"$uv" venv --quiet --no-python-downloads --python "$python" "$prefix"
install() { "$uv" pip install --quiet --python "$prefix/bin/python" --link-mode copy "$@"; }
# 1. the locked dependencies, every file checked against uv.lock's hash
install --compile-bytecode --require-hashes --only-binary :all: -r "$here/requirements.txt"
# 2. agon, without resolving anything again (everything it needs is there)
if [ -z "$wheel" ]; then
  built="$(mktemp -d)"
  trap 'rm -rf "$built"' EXIT
  AGON_REQUIRE_CORES=1 "$uv" build --quiet --no-python-downloads --python "$prefix/bin/python" \
    --wheel --out-dir "$built" "$root"
  wheel="$(ls "$built"/agon_tournaments-*.whl)"
fi
install --no-deps --compile-bytecode "$wheel"
# 3. checks: the command runs, the compiled cores are there, nothing is missing or conflicting
"$prefix/bin/agon" --version
"$prefix/bin/python" -c "import agon.cores.seven_wonders._core, agon.cores.standings._core, agon.web.app, psycopg, weasyprint"
"$uv" pip check --quiet --python "$prefix/bin/python"
