"""Golden replays: a seeded random playout saved as submitted actions and state diffs, replayed later."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Literal

import orjson
from pydantic import Field, JsonValue

from tabletop import games as registry
from tabletop._action import GameAction
from tabletop._definition import GameDefinition
from tabletop._engine import GameEngine
from tabletop._errors import IllegalActionError
from tabletop._game import GameConfig
from tabletop._machine import AnyState
from tabletop._model import Model
from tabletop._prng import UNKEYED
from tabletop._seating import seated_game
from tabletop._semver import next_versions
from tabletop.bots import RandomBot
from tabletop.golden._diff import PatchOp, apply_patch, json_diff
from tabletop.schemas import request_model

__all__ = [
    "Divergence",
    "Golden",
    "GoldenStep",
    "check_golden",
    "dump_golden",
    "golden_dir",
    "golden_files",
    "golden_path",
    "load_golden",
    "record_golden",
    "save_golden",
]

AnyDefinition = GameDefinition[AnyState, GameConfig]
JsonObject = dict[str, JsonValue]


class GoldenStep(Model):
    """One submitted action and what it did."""

    action: JsonObject
    """The action as submitted (its request body: id, game, type, player and payload)."""
    recorded: list[JsonObject]
    """Every action the engine recorded for it (the submitted one first), without null fields."""
    diff: list[PatchOp]
    """How the state changed, as JSON-Patch-style operations on the previous state."""


class Golden(Model):
    """A recorded seeded playout: enough to replay it and compare every state on the way."""

    format: Literal[1] = 1
    """Version of this file format."""
    game: str
    """The game's name."""
    logic_version: str
    """The game's logic version when recorded."""
    seed: int = Field(ge=0, le=0xFFFFFFFF)
    """The game's seed (the random bot is seeded with it too); the game runs unkeyed from it."""
    players: int = Field(ge=1)
    """Seats, with the test harness ids ``p1``..``pN`` and game id ``game-1``."""
    config: JsonObject
    """The game's config."""
    initial_state: JsonObject
    """The state after the start, in full."""
    steps: list[GoldenStep]
    """One entry per submitted action, in order."""
    final_state: JsonObject
    """The state after the last step, in full."""


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where a replay first differs from its golden.

    Attributes:
        step: 0 for the start, ``k`` for the state after the ``k``-th submitted action.
        action: The submitted action of that step (None for the start).
        paths: The JSON Pointers that differ (``/state/...`` or ``/recorded/...``), at most 20.
        message: A one-line explanation.
    """

    step: int
    action: JsonObject | None
    paths: list[str]
    message: str


def _state_json(state: AnyState) -> JsonObject:
    return state.model_dump(mode="json")


def _recorded_json(action: GameAction) -> JsonObject:
    return action.model_dump(mode="json", exclude_none=True)


def _request_json(action: GameAction) -> JsonObject:
    return action.model_dump(mode="json", include=set(request_model(type(action)).model_fields))


def record_golden(
    game: str | AnyDefinition,
    *,
    seed: int,
    players: int | None = None,
    max_actions: int = 10_000,
    config: GameConfig | None = None,
) -> Golden:
    """Play a seeded random game to its end and record it (with ``config``, or the default config).

    A golden is a reproducible fixture, so the game runs unkeyed on purpose
    (:data:`tabletop.UNKEYED`): it replays from the seed alone, whatever the game's secrets.

    Raises:
        RuntimeError: Nobody can act although the game is not over, or it did not end within
            ``max_actions`` submitted actions.
    """
    definition = registry.load(game) if isinstance(game, str) else game
    seats = players if players is not None else min(max(2, definition.min_players), definition.max_players)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    table = seated_game(definition, players=seats, seed=seed, config=config)
    bot = RandomBot(engine, seed)
    state = engine.start(table, prng_key=UNKEYED).state  # a golden is a reproducible fixture
    initial = previous = _state_json(state)
    steps: list[GoldenStep] = []
    while state.result is None:
        if len(steps) >= max_actions:
            msg = f"{definition.name} did not end within {max_actions} actions"
            raise RuntimeError(msg)
        action = next(
            (chosen for p in state.active_player_ids if (chosen := bot.choose(state, p, table)) is not None),
            None,
        )
        if action is None:
            msg = f"no active player can act in {state.machine_state} (active: {state.active_player_ids})"
            raise RuntimeError(msg)
        result = engine.run(action, state, table)
        state = result.state
        current = _state_json(state)
        steps.append(
            GoldenStep(
                action=_request_json(action),
                recorded=[_recorded_json(recorded) for recorded in result.actions],
                diff=json_diff(previous, current),
            )
        )
        previous = current
    return Golden(
        format=1,
        game=definition.name,
        logic_version=definition.logic_version,
        seed=seed,
        players=seats,
        config=table.config.model_dump(mode="json"),
        initial_state=initial,
        steps=steps,
        final_state=previous,
    )


def _differences(expected: JsonValue, actual: JsonValue, prefix: str) -> list[str]:
    return [prefix + op.path for op in json_diff(expected, actual)][:20]


def check_golden(golden: Golden, definition: AnyDefinition | None = None) -> Divergence | None:
    """Replay ``golden`` and return where it first diverges, or None if every state matches.

    Raises:
        tabletop.games.UnknownGameError: The golden's game is not installed.
    """
    definition = definition if definition is not None else registry.load(golden.game)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    config = definition.config_type.model_validate(golden.config)
    table = seated_game(definition, players=golden.players, seed=golden.seed, config=config)
    version = _version_note(golden, definition)
    state = engine.start(table, prng_key=UNKEYED).state
    expected: JsonValue = orjson.loads(orjson.dumps(golden.initial_state))
    paths = _differences(expected, _state_json(state), "/state")
    if paths:
        return Divergence(0, None, paths, f"the initial state differs{version}")
    for number, step in enumerate(golden.steps, 1):
        try:
            result = engine.run(step.action, state, table)
        except IllegalActionError as exc:
            message = f"the engine rejected the action: {exc.code}: {exc}{version}"
            return Divergence(number, step.action, [], message)
        state = result.state
        expected = apply_patch(expected, step.diff)
        recorded: JsonValue = [_recorded_json(action) for action in result.actions]
        paths = _differences(list(step.recorded), recorded, "/recorded")
        paths += _differences(expected, _state_json(state), "/state")
        if paths:
            return Divergence(number, step.action, paths[:20], f"the replay differs{version}")
    paths = _differences(golden.final_state, expected, "/final_state")
    if paths:
        return Divergence(len(golden.steps), None, paths, "the golden's final state does not match its diffs")
    return None


def _version_note(golden: Golden, definition: AnyDefinition) -> str:
    """What a divergence means for the game's logic version (appended to the message)."""
    installed = definition.logic_version
    if golden.logic_version != installed:
        return (
            f" (recorded with logic {golden.logic_version}, installed {installed}: if that bump is for "
            "this change, re-record the golden with `tabletop golden record`; else bump as below)"
            + _bump_advice(installed)
        )
    return f": the behaviour changed under the same logic version {installed}" + _bump_advice(installed)


def _bump_advice(installed: str) -> str:
    try:
        minor, major = next_versions(installed)
    except ValueError:
        return ""
    return (
        f"; bump logic_version to {minor} (minor: a rules change old clients can still follow) or "
        f"{major} (major: otherwise), declare a migration (tabletop.Migration) or keep a frozen copy "
        "for the matches in progress, then re-record the goldens"
    )


def golden_dir(game: str) -> Path:
    """Where an installed game keeps its goldens: ``<its project>/tests/golden``.

    The project is the nearest folder above the game's package holding a ``pyproject.toml``
    (``games/<game>/`` in the workspace).

    Raises:
        tabletop.games.UnknownGameError: No installed game has that name.
        LookupError: The game is not installed from a project folder (e.g. from a wheel).
    """
    matches = [ep for ep in entry_points(group=registry.ENTRY_POINT_GROUP) if ep.name == game]
    if not matches:
        registry.load(game)  # raises UnknownGameError with the installed names
    module = importlib.import_module(matches[0].module)
    origin = Path(module.__file__ or "").resolve()
    for folder in origin.parents:
        if (folder / "pyproject.toml").is_file():
            return folder / "tests" / "golden"
    msg = f"{game} is not installed from a project folder; pass the golden folder explicitly"
    raise LookupError(msg)


def golden_path(folder: Path, game: str, *, seed: int, players: int) -> Path:
    """The file a golden is saved to: ``<folder>/<game>-seed<S>-p<P>.json``."""
    return folder / f"{game}-seed{seed}-p{players}.json"


def golden_files(game: str, folder: Path | None = None) -> list[Path]:
    """Every golden of ``game`` in ``folder`` (default :func:`golden_dir`), sorted by name."""
    folder = golden_dir(game) if folder is None else folder
    return sorted(folder.glob(f"{game}-seed*-p*.json"))


def _line(value: object) -> str:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def dump_golden(golden: Golden) -> bytes:
    """The file form of ``golden``: JSON with one line per state, action and diff operation.

    States and actions stay one line each, so a behaviour change shows up in a file diff as
    the few lines that changed.
    """
    head = golden.model_dump(mode="json", exclude={"steps", "initial_state", "final_state"})
    lines = ["{"]
    lines += [f"  {_line(key)}: {_line(value)}," for key, value in head.items()]
    lines += [f'  "initial_state": {_line(golden.initial_state)},', '  "steps": [']
    for number, step in enumerate(golden.steps, 1):
        ops = [_line(op.model_dump(mode="json", exclude_unset=True)) for op in step.diff]
        lines += [
            "    {",
            f'      "action": {_line(step.action)},',
            '      "recorded": [',
            ",\n".join(f"        {_line(action)}" for action in step.recorded),
            "      ],",
            '      "diff": [',
            ",\n".join(f"        {op}" for op in ops),
            "      ]",
            "    }" + ("," if number < len(golden.steps) else ""),
        ]
    lines += ["  ],", f'  "final_state": {_line(golden.final_state)}', "}", ""]
    return "\n".join(line for line in lines if line).encode()


def save_golden(golden: Golden, folder: Path) -> Path:
    """Write ``golden`` under ``folder`` (created if needed) and return the file's path."""
    path = golden_path(folder, golden.game, seed=golden.seed, players=golden.players)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(dump_golden(golden))
    return path


def load_golden(path: Path) -> Golden:
    """Read a golden file.

    Raises:
        pydantic.ValidationError: The file is not a golden.
    """
    return Golden.model_validate_json(path.read_bytes())
