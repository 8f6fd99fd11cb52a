"""The benchmark cases. Each returns rows; a case that cannot run gives a row saying why."""

from __future__ import annotations

import gc
import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Union

import orjson
from pydantic import Field, TypeAdapter
from tabletop import (
    UNKEYED,
    AnyState,
    Game,
    GameAction,
    GameConfig,
    GameDefinition,
    GameEngine,
    Hydrated,
    HydratedAction,
    dump_json,
)
from tabletop.bots import RandomBot
from tabletop.games import available, load
from tabletop.schemas import SERVER_ASSIGNED_FIELDS
from tabletop.testing import make_game

from tabletop_bench._rollouts import rollout_game
from tabletop_bench._timing import Budget, paired_us, per_call_us, timed

__all__ = ["CASES", "Row"]

AnyDefinition = GameDefinition[AnyState, GameConfig]
AnyEngine = GameEngine[AnyState, GameConfig]


@dataclass(frozen=True, slots=True)
class Row:
    """One measurement, optionally against a baseline measured in the same run.

    Attributes:
        case: What is measured, e.g. ``engine.run µs/action``.
        subject: Which game or input.
        value: Microseconds (None when the case could not run).
        baseline: The baseline's microseconds, if the row compares.
        baseline_label: What the baseline is.
        note: Why the value is missing, or how to read it.
    """

    case: str
    subject: str
    value: float | None
    baseline: float | None = None
    baseline_label: str = ""
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """``value / baseline`` (how many times slower than the baseline), if both exist."""
        if self.value is None or not self.baseline:
            return None
        return self.value / self.baseline


def _seats(definition: AnyDefinition, players: int = 2) -> int:
    return min(max(players, definition.min_players), definition.max_players)


def _choose(
    bot: RandomBot[AnyState, GameConfig], state: AnyState, game: Game[GameConfig]
) -> HydratedAction[GameAction, AnyState, GameConfig]:
    for player_id in state.active_player_ids:
        action = bot.choose(state, player_id, game)
        if action is not None:
            return action
    msg = f"nobody can act in {state.machine_state}"
    raise RuntimeError(msg)


def _playout(
    engine: AnyEngine, definition: AnyDefinition, seed: int, *, in_place: bool = False
) -> tuple[float, float, int, list[AnyState]]:
    """One random game: seconds in engine.run, seconds in the whole loop, submitted actions, states.

    With ``in_place``, every action is applied to the one state the playout owns
    (``engine.run(..., in_place=True)``), and the states list holds just that state.
    """
    game = make_game(definition, players=_seats(definition), seed=seed)
    bot = RandomBot(engine, seed)
    states = [engine.start(game, prng_key=UNKEYED).state]  # the reference stream, as in earlier results
    run_seconds = 0.0
    submitted = 0

    def loop() -> None:
        nonlocal run_seconds, submitted
        while states[-1].result is None:
            if submitted >= 100_000:
                msg = f"{definition.name} did not end within 100,000 actions"
                raise RuntimeError(msg)
            submitted += 1
            if in_place:
                run_seconds += timed(
                    partial(engine.run, _choose(bot, states[0], game), states[0], game, in_place=True)
                )
                continue
            step = partial(engine.run, _choose(bot, states[-1], game), states[-1], game)
            run_seconds += timed(lambda: states.append(step().state))  # noqa: B023 - called at once

    total = timed(loop)
    return run_seconds, total, submitted, states


def _each(function: Callable[[bytes], object], payloads: list[bytes]) -> None:
    for raw in payloads:
        function(raw)


def playouts(budget: Budget) -> list[Row]:
    """Random playouts of every installed game: engine.run alone, and with legal actions and the bot."""
    rows: list[Row] = []
    for name in available():
        try:
            definition = load(name)
            engine: AnyEngine = GameEngine(definition)
            run = loop = 0.0
            actions = 0
            for seed in range(budget.playout_games):
                run_s, loop_s, submitted, _ = _playout(engine, definition, seed)
                run, loop, actions = run + run_s, loop + loop_s, actions + submitted
                gc.collect()
        except Exception as exc:  # a half-written game must not stop the suite
            rows.append(Row("engine.run µs/action", name, None, note=f"error: {type(exc).__name__}: {exc}"))
            continue
        note = "validity checks, checksum and records on"
        rows.append(Row("engine.run µs/action", name, run / actions * 1e6, note=note))
        rows.append(
            Row("playout µs/action", name, loop / actions * 1e6, note="legal actions + random bot + run")
        )
    return rows


def openspiel(budget: Budget) -> list[Row]:
    """OpenSpiel's python_tic_tac_toe random playouts in this process, against our tic-tac-toe."""
    try:
        importlib.import_module("open_spiel.python.games")
        pyspiel = importlib.import_module("pyspiel")
    except ImportError as exc:
        return [Row("tic-tac-toe vs OpenSpiel", "playout µs/action", None, note=f"n/a: {exc}")]
    try:
        definition = load("tic-tac-toe")
    except LookupError as exc:
        return [Row("tic-tac-toe vs OpenSpiel", "tic-tac-toe", None, note=f"n/a: {exc}")]
    engine: AnyEngine = GameEngine(definition)
    game = pyspiel.load_game("python_tic_tac_toe")
    rng = random.Random(1)
    theirs = [0.0, 0.0, 0]  # apply seconds, loop seconds, actions
    ours = [0.0, 0.0, 0]
    owned = [0.0, 0.0, 0]  # the same, applied in place to a state the playout owns
    rollout = [0.0, 0]  # seconds, actions: the framework's own random playout

    def play() -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            theirs[0] += timed(partial(state.apply_action, rng.choice(state.legal_actions())))
            theirs[2] += 1

    for seed in range(budget.playout_games):  # alternating games: both under the same conditions
        theirs[1] += timed(play)
        run_s, loop_s, submitted, _ = _playout(engine, definition, seed)
        ours[0], ours[1], ours[2] = ours[0] + run_s, ours[1] + loop_s, ours[2] + submitted
        run_s, loop_s, submitted, _ = _playout(engine, definition, seed, in_place=True)
        owned[0], owned[1], owned[2] = owned[0] + run_s, owned[1] + loop_s, owned[2] + submitted
        seconds, played = rollout_game(engine, make_game(definition, players=2, seed=seed), seed)
        rollout[0], rollout[1] = rollout[0] + seconds, rollout[1] + played
    theirs_apply, theirs_loop = theirs[0] / theirs[2] * 1e6, theirs[1] / theirs[2] * 1e6
    label = "OpenSpiel python_tic_tac_toe"
    return [
        Row("openspiel apply_action µs/action", "python_tic_tac_toe", theirs_apply),
        Row("playout µs/action", "openspiel python_tic_tac_toe", theirs_loop),
        Row(
            "tic-tac-toe vs OpenSpiel: run vs apply_action",
            "tic-tac-toe",
            ours[0] / ours[2] * 1e6,
            theirs_apply,
            label,
            "ours copies, parses and validates; theirs mutates in place",
        ),
        Row(
            "tic-tac-toe vs OpenSpiel: playout",
            "tic-tac-toe",
            ours[1] / ours[2] * 1e6,
            theirs_loop,
            label,
            "legal actions + random choice + apply",
        ),
        Row(
            "tic-tac-toe vs OpenSpiel: run(in_place) vs apply_action",
            "tic-tac-toe",
            owned[0] / owned[2] * 1e6,
            theirs_apply,
            label,
            "both mutate a state the caller owns; ours still parses, validates and records",
        ),
        Row(
            "tic-tac-toe vs OpenSpiel: in-place playout",
            "tic-tac-toe",
            owned[1] / owned[2] * 1e6,
            theirs_loop,
            label,
            "legal actions + random choice + run(in_place=True)",
        ),
        Row(
            "tic-tac-toe vs OpenSpiel: rollout playout",
            "tic-tac-toe",
            rollout[0] / rollout[1] * 1e6,
            theirs_loop,
            label,
            "the framework's RandomRollout (what MCTS plays), its start included",
        ),
    ]


def parser(budget: Budget) -> list[Row]:
    """JSON bytes to a typed action: our boundary parser against a bare TypeAdapter on the same union."""
    rows: list[Row] = []
    for name in available():
        try:
            definition = load(name)
            engine: AnyEngine = GameEngine(definition)
            _, _, _, states = _playout(engine, definition, 1)
            game = make_game(definition, players=_seats(definition), seed=1)
            payloads = [
                orjson.dumps(  # a request body: what a client sends (no engine-assigned fields)
                    a.model_copy(update={"id": f"a{n}"}).model_dump(
                        mode="json", exclude_none=True, exclude=set(SERVER_ASSIGNED_FIELDS)
                    )
                )
                for n, state in enumerate(states[:-1])
                for p in state.active_player_ids
                for a in engine.legal_actions(state, p, game)[:3]
            ]
            union: object = Annotated[Union[definition.actions], Field(discriminator="type")]  # noqa: UP007
            adapter: TypeAdapter[object] = TypeAdapter(union)  # type: ignore[arg-type]
            ours, bare = paired_us(
                partial(_each, definition.parser.parse, payloads),
                partial(_each, adapter.validate_json, payloads),
                budget,
            )
            ours, bare = ours / len(payloads), bare / len(payloads)
        except Exception as exc:
            rows.append(Row("parse JSON action µs", name, None, note=f"error: {type(exc).__name__}: {exc}"))
            continue
        rows.append(
            Row("parse JSON action µs", name, ours, bare, "a bare pydantic TypeAdapter on the same union")
        )
    return rows


def history(budget: Budget) -> list[Row]:
    """One action's cost early in a long sample game against late in it (Pass keeps the game going)."""
    try:
        definition = load("sample")
    except LookupError as exc:
        return [Row("run µs at long history", "sample", None, note=f"n/a: {exc}")]
    engine: AnyEngine = GameEngine(definition)
    game = make_game(definition, players=2, seed=1)
    state = engine.start(game).state

    def pass_action(at: AnyState) -> HydratedAction[GameAction, AnyState, GameConfig]:
        player = at.active_player_ids[0]
        candidate = next(a for a in engine.legal_actions(at, player, game) if a.type == "Pass")
        return candidate.model_copy(update={"id": f"pass-{at.action_count}"})

    runs: dict[int, Callable[[], object]] = {}
    for length in (10, budget.long_history):
        while state.action_count < length:
            state = engine.run(pass_action(state), state, game).state
        runs[length] = partial(engine.run, pass_action(state), state, game)
    late, early = paired_us(runs[budget.long_history], runs[10], budget)
    return [
        Row(
            f"run µs at history {budget.long_history:,} vs 10",
            "sample (Pass)",
            late,
            early,
            "the same action at history 10",
            "per-action cost must not grow with the history",
        )
    ]


def _mid_game_states() -> list[tuple[str, AnyState]]:
    found: list[tuple[str, AnyState]] = []
    for name in available():
        try:
            definition = load(name)
            _, _, _, states = _playout(GameEngine(definition), definition, 2)
        except Exception:
            continue
        found.append((name, states[len(states) // 2]))
    return found


def hydration(budget: Budget) -> list[Row]:
    """Hydrating a mid-game state from its plain model and from JSON, and dehydrating it."""
    rows: list[Row] = []
    for name, state in _mid_game_states():
        assert isinstance(state, Hydrated)
        hydrated_type = type(state)
        plain, raw = state.dehydrate(), orjson.dumps(state.model_dump(mode="json"))
        rows += [
            Row("hydrate µs (plain model)", name, per_call_us(partial(hydrated_type.hydrate, plain), budget)),
            Row("hydrate µs (JSON bytes)", name, per_call_us(partial(hydrated_type.hydrate, raw), budget)),
            Row("dehydrate µs", name, per_call_us(state.dehydrate, budget)),
        ]
    return rows


def dumps(budget: Budget) -> list[Row]:
    """A mid-game state to JSON bytes: ``tabletop.dump_json`` (a compiled dump plan + orjson, the
    bytes of ``orjson.dumps(state.model_dump(mode="json"))``), against pydantic's model_dump_json."""
    rows: list[Row] = []
    for name, state in _mid_game_states():
        ours, pydantic_json = paired_us(partial(dump_json, state), state.model_dump_json, budget)
        rows.append(Row("orjson state dump µs", name, ours, pydantic_json, "pydantic model_dump_json"))
    return rows


def projection(budget: Budget) -> list[Row]:
    """A 4-player Go Fish state projected for one player, once ``tabletop.views`` and go-fish exist."""
    case = "projection µs (4-player Go Fish)"
    try:
        views = importlib.import_module("tabletop.views")
    except ImportError:
        return [Row(case, "go-fish", None, note="n/a: tabletop.views is not importable yet")]
    if "go-fish" not in available():
        return [Row(case, "go-fish", None, note="n/a: go-fish is not installed")]
    try:
        definition = load("go-fish")
        engine: AnyEngine = GameEngine(definition)
        game = make_game(definition, players=4, seed=1)
        bot = RandomBot(engine, 1)
        state = engine.start(game, prng_key=UNKEYED).state
        for _ in range(12):
            if state.result is not None:
                break
            state = engine.run(_choose(bot, state, game), state, game).state
        project: Callable[[AnyState, str], object] = views.project
        value = per_call_us(lambda: project(state, game.players[0].id), budget)
    except Exception as exc:
        return [Row(case, "go-fish", None, note=f"error: {type(exc).__name__}: {exc}")]
    return [Row(case, "go-fish", value, note=f"state after {state.action_count} actions, for p1")]


CASES: dict[str, Callable[[Budget], list[Row]]] = {
    "playouts": playouts,
    "openspiel": openspiel,
    "parser": parser,
    "history": history,
    "hydration": hydration,
    "dumps": dumps,
    "projection": projection,
}
"""Every case, in the order the table shows them."""
