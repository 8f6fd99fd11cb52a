"""Rehearsals: matches recorded mid-game under an earlier logic version, migrated and played out.

A rehearsal holds what a host stores of a match (the game, the full current state, the recorded
log) at the logic version it ran. :func:`play_rehearsal` migrates it along the game's declared
migrations, as the server would, then lets random bots play it to the end, checking the state's
model, hydration, checksum and the game's invariants, and every seat's and a spectator's view
(and log) for leaks, after every action.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

import orjson
from pydantic import Field, JsonValue

from tabletop._checksum import next_checksum
from tabletop._engine import GameEngine, RunResult
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState
from tabletop._migration import Document
from tabletop._model import Model
from tabletop.bots import RandomBot
from tabletop.games import ENTRY_POINT_GROUP, load
from tabletop.simulation import InvariantError, Step, checksum_invariant, default_invariants, run_invariants
from tabletop.versions._path import AnyDefinition, migrate_action, migrate_state

__all__ = [
    "Rehearsal",
    "RehearsalReport",
    "load_rehearsal",
    "play_rehearsal",
    "record_rehearsal",
    "rehearsal_dir",
    "rehearsal_files",
    "save_rehearsal",
]


class Rehearsal(Model):
    """A match stopped mid-game under one logic version, as a host stored it."""

    name: str = Field(min_length=1, pattern=r"^[a-z0-9][a-z0-9-]*$")
    """The file's name without ``.json``."""
    game: str
    """The game's registry name."""
    logic_version: str
    """The logic version the match ran when it was recorded."""
    description: str = ""
    """Why it was recorded (what it exercises)."""
    match: dict[str, JsonValue]
    """The ``Game`` of the match (its id, seats, config and seed) as JSON."""
    state: dict[str, JsonValue]
    """The full stored state (its PRNG key included: a rehearsal is a test fixture, never a view)."""
    actions: list[dict[str, JsonValue]] = Field(default_factory=list)
    """The recorded log, each action in full (metadata included), as stored."""


@dataclass(frozen=True, slots=True)
class RehearsalReport:
    """What playing one rehearsal did.

    Attributes:
        name: The rehearsal.
        from_version: The logic version it was recorded under.
        to_version: The installed logic version it was migrated to.
        migrated_actions: Recorded actions checked (and migrated) under the installed version.
        actions_played: Actions the bots played after the migration, to the end.
        result: The game's result.
    """

    name: str
    from_version: str
    to_version: str
    migrated_actions: int
    actions_played: int
    result: str


def record_rehearsal(
    name: str,
    definition: AnyDefinition,
    match: Game[GameConfig] | Document,
    state: Document | str | bytes,
    actions: list[Document] | None = None,
    *,
    logic_version: str | None = None,
    description: str = "",
) -> Rehearsal:
    """A rehearsal of a match as it is stored now (``logic_version`` defaults to the installed one).

    Raises:
        pydantic.ValidationError: A name that is not lowercase letters, digits and dashes.
    """
    game_json: Document = match if isinstance(match, dict) else orjson.loads(match.model_dump_json())
    state_json: Document = orjson.loads(state) if isinstance(state, str | bytes) else state
    return Rehearsal(
        name=name,
        game=definition.name,
        logic_version=logic_version or definition.logic_version,
        description=description,
        match=game_json,
        state=state_json,
        actions=list(actions or []),
    )


def rehearsal_dir(game: str) -> Path:
    """Where an installed game keeps its rehearsals: ``<its project>/tests/rehearsals``.

    Raises:
        tabletop.games.UnknownGameError: No installed game has that name.
        LookupError: The game is not installed from a project folder.
    """
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == game]
    if not found:
        load(game)  # raises UnknownGameError naming the installed games
    module = importlib.import_module(found[0].module)
    for folder in Path(module.__file__ or "").resolve().parents:
        if (folder / "pyproject.toml").is_file():
            return folder / "tests" / "rehearsals"
    msg = f"{game} is not installed from a project folder; pass the rehearsal folder explicitly"
    raise LookupError(msg)


def save_rehearsal(rehearsal: Rehearsal, folder: Path) -> Path:
    """Write ``rehearsal`` to ``<folder>/<logic_version>/<name>.json`` and return the path."""
    path = folder / rehearsal.logic_version / f"{rehearsal.name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(rehearsal.model_dump_json(indent=1) + "\n", encoding="utf-8")
    return path


def load_rehearsal(path: Path) -> Rehearsal:
    """Read a rehearsal file.

    Raises:
        pydantic.ValidationError: The file is not a rehearsal.
    """
    return Rehearsal.model_validate_json(path.read_bytes())


def rehearsal_files(folder: Path) -> list[Path]:
    """Every ``<folder>/<version>/*.json``, sorted (empty if there is no such folder)."""
    return sorted(folder.glob("*/*.json")) if folder.is_dir() else []


def play_rehearsal(
    rehearsal: Rehearsal,
    definition: AnyDefinition,
    *,
    bot_seed: int = 0,
    max_actions: int = 5_000,
    schemas: Path | None = None,
) -> RehearsalReport:
    """Migrate ``rehearsal`` to the installed version and let random bots play it to the end.

    The recorded actions are migrated too (each must read under the installed action models);
    after every bot action the state model, hydration, checksum, the game's invariants, the JSON
    Schema (with ``schemas``) and every view for leaks are checked.

    Raises:
        tabletop.MigrationError: The rehearsal cannot be migrated (no path, a step raised, or
            its result is invalid).
        tabletop.simulation.InvariantError: A check failed after an action.
        RuntimeError: Nobody can act although the game is not over, or ``max_actions`` passed.
    """
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    state, path = migrate_state(definition, rehearsal.state, rehearsal.logic_version, engine)
    migrated = [migrate_action(definition, action, path) for action in rehearsal.actions]
    game = definition.game_type.model_validate(rehearsal.match)
    invariants, _ = default_invariants(definition, schemas=schemas)
    _check_log(rehearsal.name, state, migrated)
    start = [invariant for invariant in invariants if invariant is not checksum_invariant]
    run_invariants(start, Step(definition, game, RunResult(state=state, actions=()), None))
    bot = RandomBot(engine, seed=bot_seed)
    played = 0
    while state.result is None:
        if played >= max_actions:
            msg = f"rehearsal {rehearsal.name} did not end within {max_actions} actions"
            raise RuntimeError(msg)
        for player_id in state.active_player_ids:
            action = bot.choose(state, player_id, game)
            if action is not None:
                break
        else:
            msg = f"rehearsal {rehearsal.name}: nobody can act in {state.machine_state}"
            raise RuntimeError(msg)
        result = engine.run(action, state, game)
        run_invariants(invariants, Step(definition, game, result, state))
        state = result.state
        played += 1
    return RehearsalReport(
        name=rehearsal.name,
        from_version=rehearsal.logic_version,
        to_version=definition.logic_version,
        migrated_actions=len(migrated),
        actions_played=played,
        result=state.result.value,
    )


def _check_log(name: str, state: AnyState, actions: list[Document]) -> None:
    """The recorded log leads to the state: consecutive indices, and the state's count and checksum."""
    checksum = 0
    for count, action in enumerate(actions):
        if action.get("index") != count or not isinstance(action.get("id"), str):
            raise InvariantError(
                "checksum", f"rehearsal {name}: action {count} has index {action.get('index')}"
            )
        checksum = next_checksum(checksum, str(action["id"]), count)
    if (state.action_count, state.action_checksum) != (len(actions), checksum):
        raise InvariantError(
            "checksum",
            f"rehearsal {name}: the state says {state.action_count} actions / checksum "
            f"{state.action_checksum}, its log gives {len(actions)} / {checksum}",
        )
