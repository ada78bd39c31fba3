# Two entry points a new user needs: `make run` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SCENARIO ?= scenarios/ds8800-15k-plus-2-ssd.yaml

.PHONY: run test lint bench clean

$(BIN)/diskmodel: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

run: $(BIN)/diskmodel
	$(BIN)/diskmodel run $(SCENARIO)

test: $(BIN)/diskmodel
	$(BIN)/python -m pytest -q -n auto

lint: $(BIN)/diskmodel
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(BIN)/diskmodel
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
