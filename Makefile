# Two entry points a new user needs: `make run` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SCENARIO ?= scenarios/ds8800-15k-plus-2-ssd.yaml

.PHONY: run test lint bench catalog clean

# Set up once (a minute or two, then never again until pyproject.toml changes): each step says
# what it does, and pip lists each package as it collects and installs it.
$(BIN)/diskmodel: pyproject.toml
	@echo "==> creating $(VENV) with $(PYTHON) (once)"
	$(PYTHON) -m venv $(VENV)
	@echo "==> upgrading pip"
	$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "==> installing diskmodel and its test tools into $(VENV) (a minute or two)"
	$(BIN)/python -m pip install --disable-pip-version-check -e '.[dev]'
	@echo "==> ready: $(BIN)/diskmodel"
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

# Every generated file, made again from its sources, the catalog's first and the validation page
# (which runs the model on all of them) last; each is written only when its generator succeeds.
# A test checks each file is current; docs/design.md, "Generated files", lists them.
regenerate = $(BIN)/python -m $(1) > $(2).new && mv $(2).new $(2)
catalog: $(BIN)/diskmodel
	$(call regenerate,diskmodel.catalog parsed,diskmodel/catalog/parsed.json)
	$(call regenerate,diskmodel.components.drive kept,diskmodel/components/sptf_means.json)
	$(call regenerate,diskmodel.catalog,docs/catalog.md)
	$(call regenerate,diskmodel.scenario.json_schema,diskmodel/scenario/scenario.schema.json)
	$(call regenerate,diskmodel.scenario.reference,docs/scenario.md)
	$(call regenerate,diskmodel.report.result_schema,docs/result.schema.json)
	$(BIN)/python -m diskmodel.validation --write

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
