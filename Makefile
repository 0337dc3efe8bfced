# On a fresh machine `make serve` runs the game (HOST=, PORT=) and `make test` passes the tests; both create .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo lint bench bench-compare serve clean

SERVE_STAMP := $(VENV)/.installed-serve
HOST ?= 127.0.0.1
PORT ?= 8000

# Packages are installed with uv (from PyPI, into .venv): it downloads in parallel and keeps
# what it fetched in its cache (~/.cache/uv), so a second fresh clone installs in seconds.
UV := $(BIN)/uv
INSTALL := $(UV) pip install --quiet --python $(BIN)/python

$(UV):
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q uv

# Everything: the game, the arena's statistics and the test tools.
$(STAMP): pyproject.toml | $(UV)
	$(INSTALL) -e '.[dev]'
	touch $(STAMP) $(SERVE_STAMP)

# Only what playing and serving need (no test tools, no SciPy or matplotlib).
$(SERVE_STAMP): pyproject.toml | $(UV)
	$(INSTALL) -e .
	touch $(SERVE_STAMP)

# One xdist worker more than cores: the five-minute 托管 soak mostly waits (bots at 250 ms), so
# the others keep every core busy beside it.
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/mypy
	$(BIN)/pytest -n $$(( $$(nproc) + 2 )) --durations=15

# One random game of the full rules, printed play by play.
demo: $(SERVE_STAMP)
	$(BIN)/gouji selfplay --preset OUTLINE_FULL --seed 1

# The multiplayer server on http://$(HOST):$(PORT) (docs/protocol.md), rooms kept in gouji.db;
# Ctrl-C stops it (rooms are stored: the next start takes them up again).
serve: $(SERVE_STAMP)
	$(BIN)/gouji serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples

bench: $(STAMP)
	$(BIN)/gouji bench --preset OUTLINE_FULL --games 1000

# Our figures beside RLCard's Dou Dizhu environment, measured in the same run.
bench-compare: $(STAMP)
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/python benchmarks/compare_rlcard.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
