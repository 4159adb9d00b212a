# The two commands of the README: `make test` and (once the web app exists) `make run`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Only the folders that exist: git keeps no empty folder, and ruff fails on a missing path.
LINT_PATHS := $(wildcard parlor tests bench)

.PHONY: test lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check $(LINT_PATHS)

typecheck: $(STAMP)
	$(BIN)/mypy --strict parlor

pytest: $(STAMP)
	$(BIN)/pytest parlor tests

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
