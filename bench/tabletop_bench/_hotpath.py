"""Engine hot-path cases (issue 15): go-fish run + every seat's view, state copy/hydrate/dump against
pydantic, and tic-tac-toe against boardgame.io's reducer (node, installed into ``bench/.node``)."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from functools import partial
from pathlib import Path

import orjson
from tabletop import UNKEYED, AnyState, GameConfig, GameEngine, Hydrated, dump_json
from tabletop.bots import RandomBot
from tabletop.games import available, load
from tabletop.testing import make_game

from tabletop_bench._cases import AnyEngine, Row, _choose, _mid_game_states, _playout
from tabletop_bench._timing import Budget, paired_us, timed

__all__ = ["HOTPATH_CASES"]

BENCH = Path(__file__).resolve().parents[1]
NODE_FOLDER = BENCH / ".node"
"""Where the bench installs boardgame.io (gitignored)."""
BGIO_VERSION = "0.50.2"


def go_fish_seats(budget: Budget) -> list[Row]:
    """Go Fish: ``engine.run`` plus projecting the new state for every seat, per action (4 players).

    The views come from one ``project_seats`` call per state (what a host shows every seat)."""
    case = "go-fish run + view per seat µs/action"
    if "go-fish" not in available():
        return [Row(case, "go-fish", None, note="n/a: go-fish is not installed")]
    try:
        project_seats: Callable[[AnyState, list[str]], object] = importlib.import_module(
            "tabletop.views"
        ).project_seats
        definition = load("go-fish")
        engine: AnyEngine = GameEngine(definition)
        run_s = view_s = 0.0
        actions = 0
        for seed in range(max(1, budget.playout_games // 4)):
            game = make_game(definition, players=4, seed=seed)
            bot = RandomBot(engine, seed)
            seats = [seat.id for seat in game.players]
            states = [engine.start(game, prng_key=UNKEYED).state]
            while states[-1].result is None:
                step = partial(engine.run, _choose(bot, states[-1], game), states[-1], game)
                run_s += timed(lambda: states.append(step().state))  # noqa: B023 - called at once
                view_s += timed(lambda: project_seats(states[-1], seats))  # noqa: B023
                actions += 1
    except Exception as exc:
        return [Row(case, "go-fish", None, note=f"error: {type(exc).__name__}: {exc}")]
    total = (run_s + view_s) / actions * 1e6
    note = f"run {run_s / actions * 1e6:.1f} + 4 views {view_s / actions * 1e6:.1f}; target ≤ 35 (issue 29)"
    return [Row(case, "go-fish (4 players)", total, note=note)]


def _seats_per_action(name: str, budget: Budget) -> tuple[float, float]:
    """``name`` with 4 random-bot players: ``engine.run`` and ``project_seats`` seconds per action."""
    from tabletop.views import project_seats

    definition = load(name)
    engine: AnyEngine = GameEngine(definition)
    run_s = view_s = 0.0
    actions = 0
    for seed in range(max(1, budget.playout_games // 4)):
        game = make_game(definition, players=4, seed=seed)
        bot = RandomBot(engine, seed)
        seats = [seat.id for seat in game.players]
        states = [engine.start(game, prng_key=UNKEYED).state]
        while states[-1].result is None:
            step = partial(engine.run, _choose(bot, states[-1], game), states[-1], game)
            run_s += timed(lambda: states.append(step().state))  # noqa: B023 - called at once
            view_s += timed(lambda: project_seats(states[-1], seats))  # noqa: B023
            actions += 1
    return run_s / actions, view_s / actions


def gallery_seats(budget: Budget) -> list[Row]:
    """Gallery against Go Fish: ``engine.run`` plus every seat's view per action, 4 players, same run."""
    case = "gallery run + view per seat µs/action"
    if not {"gallery", "go-fish"} <= set(available()):
        return [Row(case, "gallery", None, note="n/a: gallery or go-fish is not installed")]
    try:
        run, view = _seats_per_action("gallery", budget)
        fish_run, fish_view = _seats_per_action("go-fish", budget)
    except Exception as exc:
        return [Row(case, "gallery", None, note=f"error: {type(exc).__name__}: {exc}")]
    note = f"run {run * 1e6:.1f} + 4 views {view * 1e6:.1f}; target ratio ≤ 2"
    baseline = (fish_run + fish_view) * 1e6
    return [Row(case, "gallery (4 players)", (run + view) * 1e6, baseline, "go-fish (4 players)", note)]


def state_ops(budget: Budget) -> list[Row]:
    """State copy, hydrate, dehydrate and JSON dump of a mid-game state against pydantic's own calls."""
    rows: list[Row] = []
    for name, state in _mid_game_states():
        try:
            assert isinstance(state, Hydrated)
            engine: AnyEngine = GameEngine(load(name))
            state_type = type(state)
            plain = state.dehydrate()
            plain_type = type(plain)
            data = state.model_dump()
            raw = orjson.dumps(state.model_dump(mode="json"))
            pairs: list[tuple[str, Callable[[], object], Callable[[], object], str]] = [
                ("state copy µs", partial(engine.copy_state, state),
                 partial(state_type.model_validate, data), "pydantic model_validate(dict)"),
                ("hydrate µs (plain model) vs pydantic", partial(state_type.hydrate, plain),
                 partial(state_type.model_validate, data), "pydantic model_validate(dict)"),
                ("hydrate µs (JSON bytes) vs pydantic", partial(state_type.hydrate, raw),
                 partial(state_type.model_validate_json, raw), "pydantic model_validate_json"),
                ("dehydrate µs vs pydantic", state.dehydrate,
                 partial(plain_type.model_validate, data), "pydantic model_validate(dict), plain type"),
                ("JSON dump µs (orjson) vs pydantic", partial(dump_json, state),
                 state.model_dump_json, "pydantic model_dump_json"),
            ]  # fmt: skip
            for case, ours, theirs, label in pairs:
                value, baseline = paired_us(ours, theirs, budget)
                rows.append(Row(case, name, value, baseline, label, "target ≤ 1.5x"))
        except Exception as exc:
            rows.append(Row("state copy µs", name, None, note=f"error: {type(exc).__name__}: {exc}"))
    return rows


def _install_bgio(budget: Budget) -> tuple[Path | None, str]:
    """``bench/.node/node_modules`` with boardgame.io, installing it if needed; else None and why."""
    modules = NODE_FOLDER / "node_modules"
    if (modules / "boardgame.io" / "package.json").exists():
        return modules, ""
    npm = shutil.which("npm")
    if shutil.which("node") is None or npm is None:
        return None, "skipped: node/npm not found"
    if budget.name == "smoke":
        return None, "skipped in a smoke run: boardgame.io is not installed (make bench installs it)"
    NODE_FOLDER.mkdir(exist_ok=True)
    command = [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(NODE_FOLDER)]
    try:
        done = subprocess.run(
            [*command, f"boardgame.io@{BGIO_VERSION}"],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None, "skipped: npm install timed out (no network?)"
    if done.returncode != 0 or not (modules / "boardgame.io").exists():
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"skipped: npm install failed (no network?): {last[:120]}"
    return modules, ""


def boardgame_io(budget: Budget) -> list[Row]:
    """The same random tic-tac-toe playout in boardgame.io's reducer (node subprocess) and in ours."""
    case = "tic-tac-toe vs boardgame.io: playout"
    if "tic-tac-toe" not in available():
        return [Row(case, "tic-tac-toe", None, note="n/a: tic-tac-toe is not installed")]
    modules, why = _install_bgio(budget)
    if modules is None:
        return [Row(case, "tic-tac-toe", None, note=why)]
    games = max(2, budget.playout_games)
    try:
        done = subprocess.run(
            ["node", str(BENCH / "bgio" / "playout.cjs"), str(games), "1"],
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
            env={"NODE_PATH": str(modules), "NODE_ENV": "production", "PATH": os.environ.get("PATH", "")},
        )
        theirs = json.loads(done.stdout.strip().splitlines()[-1])
    except (subprocess.SubprocessError, ValueError, IndexError) as exc:
        return [Row(case, "tic-tac-toe", None, note=f"error: boardgame.io run failed: {exc}")]
    definition = load("tic-tac-toe")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    run = loop = 0.0
    moves = 0
    for seed in range(games):
        run_s, loop_s, submitted, _ = _playout(engine, definition, seed)
        run, loop, moves = run + run_s, loop + loop_s, moves + submitted
    ours_loop, ours_run = loop / moves * 1e6, run / moves * 1e6
    label = f"boardgame.io {BGIO_VERSION} reducer (node)"
    reducer = "tic-tac-toe vs boardgame.io: run vs reducer"
    rate = f"{1e6 / ours_loop:,.0f} vs {1e6 / theirs['playout_us']:,.0f} moves/s"
    return [
        Row("boardgame.io reducer µs/move", "tic-tac-toe", theirs["apply_us"], note=label),
        Row(case, "tic-tac-toe", ours_loop, theirs["playout_us"], label, f"{rate}; target ratio ≤ 0.33"),
        Row(reducer, "tic-tac-toe", ours_run, theirs["apply_us"], label),
    ]


HOTPATH_CASES: dict[str, Callable[[Budget], list[Row]]] = {
    "go-fish-seats": go_fish_seats,
    "gallery-seats": gallery_seats,
    "state-ops": state_ops,
    "boardgame.io": boardgame_io,
}
"""The hot-path cases, shown after the general ones."""
