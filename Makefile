# Two entry points: `make demo` and `make test`. uv is bootstrapped into .tools/ if missing.
SHELL := /bin/bash
.DEFAULT_GOAL := demo
PYTHON ?= python3
UV_VERSION := 0.13.9
UV := $(shell command -v uv 2>/dev/null || echo .tools/bin/uv)
export UV_PYTHON_DOWNLOADS := never
export UV_PYTHON := $(shell $(PYTHON) -c "import sys; print(sys.executable)")
RUN := $(UV) run --frozen --no-sync

.PHONY: demo test sync lint typecheck pytest bench bench-smoke clean schemas-check ui-types

.tools/bin/uv:
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet "uv==$(UV_VERSION)"

.venv/.synced: $(UV) uv.lock pyproject.toml $(wildcard packages/*/pyproject.toml games/*/pyproject.toml)
	$(UV) sync --frozen --all-packages
	@touch $@

sync: .venv/.synced

demo: sync
	$(RUN) tabletop demo sample --seed 42

lint: sync
	$(RUN) ruff check .
	$(RUN) ruff format --check .

typecheck: sync
	$(RUN) mypy packages/common/src $(wildcard games/*/src)
	$(RUN) mypy --explicit-package-bases tests
	@# Each game's tests alone: their conftest and test modules share names across games.
	for tests in $(wildcard games/*/tests); do $(RUN) mypy --explicit-package-bases $$tests || exit 1; done
	$(RUN) mypy bench

# Every package typeguard checks at run time: tabletop and each installed game.
TYPEGUARD_PACKAGES = $$($(RUN) python -c "from tabletop.games import available; print(','.join(['tabletop'] + ['tabletop_' + n.replace('-', '_') for n in available()]))")

# The main run checks types at run time; the long playout tests (marked slow: e.g. the 1,000-playout
# leak test) run the same code again without the instrumentation, which would make them take hours.
pytest: sync
	$(RUN) pytest -m "not slow" -p typeguard --typeguard-packages=$(TYPEGUARD_PACKAGES)
	$(RUN) pytest -m slow

# The committed schemas/ must be what the installed games export (and changes need a version bump).
schemas-check: sync
	$(RUN) tabletop schemas check

# TypeScript types from schemas/: generate, compile the recorded and hand-written fixtures, and
# assert that the deliberately wrong fixture fails with exactly its marked errors.
games-ui/types/node_modules/.installed: games-ui/types/package.json games-ui/types/package-lock.json
	cd games-ui/types && npm ci --no-audit --no-fund
	@touch $@

ui-types: sync games-ui/types/node_modules/.installed
	$(RUN) tabletop schemas fixtures --out games-ui/types/fixtures/recorded
	cd games-ui/types && npm test --silent

test: lint typecheck schemas-check ui-types pytest

# Benchmarks with ratios against baselines measured in the same run; saves bench/results/*.json.
bench: sync
	$(RUN) python bench/run.py

bench-smoke: sync
	$(RUN) python bench/run.py --smoke

clean:
	rm -rf .venv .tools .mypy_cache .ruff_cache .pytest_cache
