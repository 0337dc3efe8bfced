# On a fresh machine `make demo` plays a game and `make test` passes the tests; both create .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo lint bench bench-compare serve clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -n auto

# One random game of the full rules, printed play by play.
demo: $(STAMP)
	$(BIN)/gouji selfplay --preset OUTLINE_FULL --seed 1

# The multiplayer server on http://127.0.0.1:8000 (docs/protocol.md), rooms kept in gouji.db.
serve: $(STAMP)
	$(BIN)/gouji serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

bench: $(STAMP)
	$(BIN)/gouji bench --preset OUTLINE_FULL --games 1000

# Our figures beside RLCard's Dou Dizhu environment, measured in the same run.
bench-compare: $(STAMP)
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/python benchmarks/compare_rlcard.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
