# The two commands of the README: `make test` and `make run` (the web app).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Only the folders that exist: git keeps no empty folder, and ruff fails on a missing path.
LINT_PATHS := $(wildcard parlor tests bench)

.PHONY: test lint typecheck pytest bench bench-web clean tmux chromium postgresql run worker

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,research]'
	touch $(STAMP)

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check $(LINT_PATHS)

typecheck: $(STAMP)
	$(BIN)/mypy --strict parlor

pytest: $(STAMP) tmux chromium postgresql
	$(BIN)/pytest parlor tests

# tests/terminal/test_play.py drives `parlor play` in a real terminal: tmux, a Debian package.
tmux:
	@command -v tmux >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; }

# tests/web/test_e2e.py drives the web app in Debian's chromium (never `playwright install`).
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# tests/conftest.py starts a real PostgreSQL (as the unprivileged user `postgres`) from
# Debian's server binaries.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=900 postgresql; }

# The web app on http://127.0.0.1:8000, games in ./parlor.db (or PARLOR_DATABASE_URL).
run: $(STAMP)
	$(BIN)/parlor serve --host 127.0.0.1 --port 8000

# A worker of a PostgreSQL deployment (docs/deploy.md): the computer's moves and hints.
worker: $(STAMP)
	$(BIN)/parlor worker

bench-web: $(STAMP)
	$(BIN)/python bench/web.py

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
