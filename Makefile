# On a fresh machine `make serve` runs the game (HOST=, PORT=) and `make test` passes the tests; both create .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test test-pure test-deep demo lint bench bench-compare serve clean

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

# The install compiles the engine and the bots with mypyc where a C compiler is present
# (hatch_build.py, 40 s); COMPILED is their sources, so an edit to one compiles them again.
COMPILED := $(shell grep -o 'src/gouji/[a-z_/]*\.py' pyproject.toml)
BUILT := $(VENV)/.compiled

# Everything: the game, the arena's statistics and the test tools.
$(STAMP): pyproject.toml hatch_build.py | $(UV)
	$(INSTALL) -e '.[dev]'
	touch $(STAMP) $(SERVE_STAMP) $(BUILT)

# Only what playing and serving need (no test tools, no SciPy or matplotlib).
$(SERVE_STAMP): pyproject.toml hatch_build.py | $(UV)
	$(INSTALL) -e .
	touch $(SERVE_STAMP) $(BUILT)

# The compiled modules again after an edit to their sources (the packages stay as they are).
$(BUILT): $(COMPILED) pyproject.toml hatch_build.py | $(SERVE_STAMP)
	$(INSTALL) --no-deps -e .
	touch $(BUILT)

# Two xdist workers more than cores: the browser, server and process tests wait on I/O, so the
# others keep every core busy beside them. The 15 slowest tests are listed at the end. ruff,
# mypy (20 s on a fresh clone) and lint-imports (the layers of .importlinter, docs/architecture.md)
# run beside the tests; their output follows the tests', and any of them failing fails `make test`.
# The tests run the build the install made: compiled where hatch_build.py can compile
# (GOUJI_EXPECT_BUILD; tests/engine/test_build.py fails if another build runs).
test: $(STAMP) $(BUILT)
	@( $(BIN)/ruff check src tests benchmarks examples hatch_build.py \
	  && $(BIN)/ruff format --check src tests benchmarks examples hatch_build.py \
	  && $(BIN)/mypy && $(BIN)/lint-imports --no-cache --no-logo .importlinter ) \
	  > $(VENV)/lint.log 2>&1 & lint=$$!; \
	GOUJI_EXPECT_BUILD=$$($(BIN)/python hatch_build.py) $(BIN)/pytest -n $$(( $$(nproc) + 2 )) --dist worksteal --durations=15; tests=$$?; \
	wait $$lint; linted=$$?; echo "--- ruff, mypy and lint-imports:"; cat $(VENV)/lint.log; \
	test $$tests -eq 0 && test $$linted -eq 0

# The engine, bot and match tests again on the pure-Python build (GOUJI_PURE=1): the same
# behaviour both ways. CI runs it after `make test` (.ci/run).
PURE_TESTS := tests/engine tests/agents tests/tools/test_arena.py
test-pure: $(STAMP) $(BUILT)
	GOUJI_PURE=1 $(BIN)/pytest -n $$(nproc) --dist worksteal --durations=10 $(PURE_TESTS)

# Before a release (not in CI): the same suite at full depth (GOUJI_TEST_PROFILE=deep) — ten
# times the Hypothesis examples, the sweeps over presets and seeds at full size, the fuzz at
# four times its examples and the 托管 soak's five minutes at the wall's own speed.
test-deep: $(STAMP) $(BUILT)
	GOUJI_TEST_PROFILE=deep $(BIN)/pytest -n $$(( $$(nproc) + 2 )) --dist worksteal --durations=30

# One random game of the full rules, printed play by play.
demo: $(SERVE_STAMP) $(BUILT)
	$(BIN)/gouji selfplay --preset OUTLINE_FULL --seed 1

# The multiplayer server on http://$(HOST):$(PORT) (docs/protocol.md), rooms kept in gouji.db;
# Ctrl-C stops it (rooms are stored: the next start takes them up again).
serve: $(SERVE_STAMP) $(BUILT)
	$(BIN)/gouji serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples hatch_build.py

bench: $(STAMP) $(BUILT)
	$(BIN)/gouji bench --preset OUTLINE_FULL --games 1000

# Our figures beside RLCard's Dou Dizhu environment, measured in the same run.
bench-compare: $(STAMP)
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/python benchmarks/compare_rlcard.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
