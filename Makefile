# agon — two commands: `make run` and `make test`. Both set up .venv on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean i18n system-packages-run system-packages-test

# Compiled cores (Cython; gcc and the Python headers build them): 7 Wonders and One Card Wonder.
SEVENW_NATIVE := native/sevenw_core
SEVENW_NATIVE_SRC := $(SEVENW_NATIVE)/pyproject.toml $(SEVENW_NATIVE)/setup.py \
	$(wildcard $(SEVENW_NATIVE)/sevenw_core/*.py*)
OCW_NATIVE := native/ocw_native
OCW_NATIVE_SRC := $(OCW_NATIVE)/pyproject.toml $(OCW_NATIVE)/setup.py \
	$(wildcard $(OCW_NATIVE)/src/agon_ocw_native/*.py*)

# System packages (Debian): installed with apt-get when root or password-less sudo, otherwise the
# exact command to run is printed. `make run` needs the compiler and Pango; `make test` also
# PostgreSQL and Chromium (tools/system-packages checks, and installs only what is missing).
system-packages-run:
	@bash tools/system-packages run

system-packages-test:
	@bash tools/system-packages test

$(STAMP): pyproject.toml $(SEVENW_NATIVE_SRC) $(OCW_NATIVE_SRC) | system-packages-run
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check uv==0.13.8
	$(BIN)/uv pip install -q --python $(BIN)/python -e '.[dev]'
	$(BIN)/uv pip install -q --python $(BIN)/python ./$(SEVENW_NATIVE) ./$(OCW_NATIVE)
	touch $(STAMP)

# The web app on the SQLite default (./var/agon.db) with the demo tournament, at http://127.0.0.1:8000
# (director password: AGON_DIRECTOR_PASSWORD, else a random one printed at start).
run: system-packages-run $(STAMP)
	$(BIN)/agon serve --demo --host 127.0.0.1 --port 8000

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

test: system-packages-test $(STAMP) lint typecheck
	$(BIN)/python -m pytest -n 2

# Re-extract the messages, merge them into the de/it/en catalogues and compile the .mo files
# (both .po and .mo are committed; tests/i18n checks they are complete and in step).
LOCALE := src/agon/web/locale
i18n: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k N_ --no-location --sort-output \
		--project agon --version 0.1.0 -o $(LOCALE)/agon.pot .
	for l in en de it; do $(BIN)/pybabel update -D agon -i $(LOCALE)/agon.pot -d $(LOCALE) -l $$l \
		--ignore-obsolete --no-fuzzy-matching --width 100 || exit 1; done
	$(BIN)/pybabel compile -D agon -d $(LOCALE) --statistics

bench: $(STAMP)
	for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
