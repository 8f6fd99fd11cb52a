# Two entry points: `make demo` and `make test`. uv is bootstrapped into .tools/ if missing.
SHELL := /bin/bash
.DEFAULT_GOAL := demo
PYTHON ?= python3
UV_VERSION := 0.13.9
UV := $(shell command -v uv 2>/dev/null || echo .tools/bin/uv)
export UV_PYTHON_DOWNLOADS := never
export UV_PYTHON := $(shell $(PYTHON) -c "import sys; print(sys.executable)")
RUN := $(UV) run --frozen --no-sync

.PHONY: demo test sync lint typecheck pytest bench bench-smoke clean schemas-check ui-types ui-check ui-build

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
	$(RUN) mypy packages/server/src
	$(RUN) mypy --explicit-package-bases tests
	@# Each game's tests alone: their conftest and test modules share names across games.
	for tests in $(wildcard games/*/tests); do $(RUN) mypy --explicit-package-bases $$tests || exit 1; done
	$(RUN) mypy bench
	$(RUN) mypy docs/_hooks

# Every package typeguard checks at run time: tabletop and each installed game.
TYPEGUARD_PACKAGES = $$($(RUN) python -c "from tabletop.games import available; print(','.join(['tabletop'] + ['tabletop_' + n.replace('-', '_') for n in available()]))")

# The main run checks types at run time; the long playout tests (marked slow: e.g. the 1,000-playout
# leak test) run the same code again without the instrumentation, which would make them take hours.
# Both runs spread the tests over PYTEST_JOBS processes (pytest-xdist; 2 for CI's 2 cores, 0 to run
# in one process); every test takes free loopback ports and its own temp dirs and databases.
PYTEST_JOBS ?= 2
XDIST = -n $(PYTEST_JOBS)
pytest: sync
	$(RUN) pytest -m "not slow" $(XDIST) -p typeguard --typeguard-packages=$(TYPEGUARD_PACKAGES)
	$(RUN) pytest -m slow $(XDIST)

# The committed schemas/ must be what the installed games export (and changes need a version bump).
schemas-check: sync
	$(RUN) tabletop schemas check
	$(RUN) tabletop server openapi check

# TypeScript types from schemas/: generate, compile the recorded and hand-written fixtures, and
# assert that the deliberately wrong fixture fails with exactly its marked errors.
# games-ui/ is one set of npm workspaces (types, client, app, a UI per game) with one lockfile.
games-ui/node_modules/.installed: games-ui/package.json games-ui/package-lock.json $(wildcard games-ui/*/package.json)
	cd games-ui && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
	@touch $@

# `make ui-deps` installs them (npm ci from the lockfile): the first step of any UI work.
.PHONY: ui-deps
ui-deps: games-ui/node_modules/.installed

ui-types: sync games-ui/node_modules/.installed
	$(RUN) tabletop schemas fixtures --out games-ui/types/fixtures/recorded
	cd games-ui/types && npm test --silent

# svelte-check (TypeScript strict) of the client, the app and every game UI, on types generated
# fresh from schemas/ (a schema change that breaks a UI fails here), then the client's and the
# app's unit tests (vitest).
ui-check: games-ui/node_modules/.installed
	cd games-ui && npm run generate --silent && npm run typecheck --silent && npm test --silent

# The app (lobby, match page, every game UI) built to games-ui/app/dist, which
# `tabletop serve --ui-dir games-ui/app/dist` serves at / (the browser tests in tests/ui use it).
ui-build: games-ui/node_modules/.installed
	cd games-ui && npm run generate --silent && npm run build --silent

# The documentation site (MkDocs + Material + mkdocstrings) from docs/ into site/; make test
# builds it strictly: a broken link or anchor, an unresolved reference or an unreadable docstring fails.
.PHONY: docs docs-check
docs: sync
	NO_MKDOCS_2_WARNING=1 $(RUN) mkdocs build --quiet

docs-check: sync
	NO_MKDOCS_2_WARNING=1 $(RUN) mkdocs build --strict --quiet

# Serve every installed game (and the UI when games-ui has its app and npm is present) on
# http://127.0.0.1:8000 with the embedded SQLite database; pass options with ARGS="--port 9000".
.PHONY: serve
serve: sync
	@if [ -f games-ui/app/package.json ] && command -v npm >/dev/null 2>&1; then $(MAKE) ui-build; \
	else echo "serve: npm or games-ui/app missing: serving the API only"; fi
	$(RUN) tabletop serve $(ARGS)

test: lint typecheck schemas-check ui-types ui-check ui-build docs-check pytest

# Benchmarks with ratios against baselines measured in the same run; saves bench/results/*.json.
bench: sync
	$(RUN) python bench/run.py

bench-smoke: sync
	$(RUN) python bench/run.py --smoke

clean:
	rm -rf .venv .tools .mypy_cache .ruff_cache .pytest_cache

# Creating a game (README "Creating a game"): generate it or a part of it, then install it and
# write its schemas and goldens, so `make test` passes. NAME is a game's or a part's name, GAME a
# game's folder name (e.g. dice-duel); STATE (new-action) and FROM (new-state) wire the new part.
.PHONY: new-game new-action new-state game-files check-game
new-game: sync
	@test -n "$(NAME)" || { echo 'usage: make new-game NAME="Dice Duel"' >&2; exit 2; }
	$(RUN) tabletop new game "$(NAME)"
	$(MAKE) --no-print-directory game-files GAME="$$($(RUN) python -m tabletop._scaffold "$(NAME)")"
	@# The game's UI project (games-ui/<name>-ui) is a new npm workspace: add it to the lockfile.
	@if [ -f games-ui/package.json ] && command -v npm >/dev/null 2>&1; then \
		cd games-ui && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund && touch node_modules/.installed; \
	else echo "new-game: npm is missing: run npm install in games-ui/ to add the game's UI to package-lock.json"; fi

new-action: sync
	@test -n "$(GAME)" -a -n "$(NAME)" || { echo 'usage: make new-action GAME=dice-duel NAME=Roll [STATE=PlayerTurn]' >&2; exit 2; }
	$(RUN) tabletop new action "$(GAME)" "$(NAME)" $(if $(STATE),--state "$(STATE)")
	$(MAKE) --no-print-directory game-files GAME="$(GAME)"

new-state: sync
	@test -n "$(GAME)" -a -n "$(NAME)" || { echo 'usage: make new-state GAME=dice-duel NAME=Scoring [FROM=PlayerTurn]' >&2; exit 2; }
	$(RUN) tabletop new state "$(GAME)" "$(NAME)" $(if $(FROM),--from "$(FROM)")
	$(MAKE) --no-print-directory game-files GAME="$(GAME)"

# A game's generated files: lock and install it if it is new, write schemas/ and the server's
# OpenAPI document (both list every game's models), and (re-)record its three goldens. Run it
# again after a deliberate rules change (see docs/how-to/goldens.md).
game-files:
	@test -n "$(GAME)" || { echo 'usage: make game-files GAME=dice-duel' >&2; exit 2; }
	grep -q '^name = "tabletop-$(GAME)"' uv.lock || $(UV) lock
	$(MAKE) --no-print-directory sync
	$(RUN) tabletop schemas export
	$(RUN) tabletop server openapi export
	$(RUN) tabletop golden record "$(GAME)" --seed 1 2 3

# An author's loop on one game: its own tests and the conformance suite's fast tier for it (every
# check of the framework's contract, a few playouts each), under typeguard, in about 30 s; the long
# playouts stay in `make test`'s slow tier. GAME is the game's folder name (e.g. dice-duel).
check-game: sync
	@test -n "$(GAME)" || { echo 'usage: make check-game GAME=dice-duel' >&2; exit 2; }
	$(RUN) pytest -m "not slow" -n 0 -q -p typeguard --typeguard-packages=tabletop,tabletop_$(subst -,_,$(GAME)) \
		games/$(GAME)/tests tests/conformance -k "$(subst -,_,$(GAME)) or $(GAME)"
