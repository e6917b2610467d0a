# ORCA: `make run` sets up and starts the app; `make test` sets up and runs the whole suite.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
PY_VERSION = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
VENV := .venv
BIN := $(VENV)/bin
READY := $(VENV)/.ready
PORT ?= 8501

.PHONY: run test lint bench browser clean
.DELETE_ON_ERROR:

# The venv counts as ready only once its pip runs: the stamp is written last, so a set-up that failed half-way
# (e.g. no ensurepip) is redone on the next run instead of leaving a venv without pip that looks fine.
$(READY):
	@if ! $(BIN)/python -m pip --version >/dev/null 2>&1; then \
		if ! $(PYTHON) -c 'import ensurepip' >/dev/null 2>&1; then \
			if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
				echo "installing python$(PY_VERSION)-venv (ensurepip is missing)"; \
				apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python$(PY_VERSION)-venv >/dev/null \
					|| exit 1; \
			else \
				echo "$(PYTHON) cannot create a venv (no ensurepip): install python$(PY_VERSION)-venv" >&2; exit 1; \
			fi; \
		fi; \
		echo "creating $(VENV) with $(PYTHON)"; \
		$(PYTHON) -m venv $(VENV) && $(BIN)/python -m pip install --quiet --upgrade pip || exit 1; \
	fi
	@touch $@

$(VENV)/.runtime: requirements.txt | $(READY)
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt requirements-oracles.txt | $(READY)
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-oracles.txt
	touch $(VENV)/.runtime $@

# `python -m core.serve` warms the process up (the pages' imports, the fitted classifiers) and then runs
# `streamlit run app.py` with these flags: the server answers only once the first page no longer pays for them.
run: $(VENV)/.runtime
	@echo "ORCA is starting at http://127.0.0.1:$(PORT)  (Ctrl+C to stop)"
	$(BIN)/python -m core.serve --server.headless true --server.address 127.0.0.1 --server.port $(PORT) \
		--browser.gatherUsageStats false

# Debian's chromium drives the browser tests; install it when missing and we are root, else they skip.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing Debian chromium for the browser tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null; \
		else echo "chromium is missing and this user cannot apt-get it: browser tests will be skipped"; fi; }

lint: $(VENV)/.dev
	$(BIN)/ruff check .

# The suite runs in two parts: everything but the browser tests on TEST_WORKERS pytest-xdist workers (2 = the CI
# machine's cores; TEST_WORKERS=0 runs it in one process; `--dist loadfile` keeps each module in one worker, see
# tests/conftest.py), then the browser tests in one process with the machine to themselves: run beside a busy
# worker, their waits (a frontier's time budget, a settings check) timed out on the 2-core CI machine.
# Bytecode is cached even where the environment sets PYTHONDONTWRITEBYTECODE: the suite starts hundreds of
# Python processes (CLI, Streamlit, sandbox) that would otherwise each recompile the repository.
TEST_WORKERS ?= 2
TEST_ENV = PYTHONDONTWRITEBYTECODE= REQUIRE_E2E=$${REQUIRE_E2E:-$$( [ "$$CI" = "true" ] && echo 1 )}

test: $(VENV)/.dev browser lint
	$(TEST_ENV) $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile --ignore=tests/e2e
	$(TEST_ENV) $(BIN)/python -m pytest -q tests/e2e

bench: $(VENV)/.dev
	@for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache artifacts
