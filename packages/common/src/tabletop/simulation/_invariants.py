"""Invariants checked after every action of a simulation, and the hook list that extends them."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import orjson
from pydantic import BaseModel

from tabletop._checksum import next_checksum
from tabletop._definition import GameDefinition
from tabletop._engine import GameEngine, RunResult
from tabletop._errors import InvalidStateError, TabletopError
from tabletop._game import Game, GameConfig
from tabletop._hydration import Hydrated
from tabletop._machine import AnyState
from tabletop.views import SPECTATOR, LeakChecker, Perspective, declares_visibility, project, project_log

__all__ = [
    "Invariant",
    "InvariantError",
    "InvariantFactory",
    "Step",
    "checksum_invariant",
    "default_invariants",
    "game_invariant",
    "hydration_invariant",
    "json_schema_invariant",
    "register_invariant",
    "run_invariants",
    "state_model_invariant",
    "unregister_invariant",
    "view_leak_invariant",
]

AnyDefinition = GameDefinition[AnyState, GameConfig]


class InvariantError(TabletopError):
    """A state broke an invariant during a simulation.

    Attributes:
        invariant: The name of the broken invariant.
        detail: What was wrong.
    """

    def __init__(self, invariant: str, detail: str) -> None:
        super().__init__(f"{invariant}: {detail}")
        self.invariant = invariant
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Step:
    """What an invariant sees: one engine result and the state before it.

    Attributes:
        definition: The game being simulated.
        game: The game (seats, config, seed).
        result: The engine's result (the start, or one submitted action and what it caused).
        previous: The state before ``result``; None for the start.
    """

    definition: AnyDefinition
    game: Game[GameConfig]
    result: RunResult[AnyState, GameConfig]
    previous: AnyState | None
    _shared: list[bytes | None] = field(default_factory=list, init=False, repr=False, compare=False)
    """While :func:`run_invariants` runs: one slot for the state's JSON, shared by its checks."""

    @property
    def state(self) -> AnyState:
        """The state after the step."""
        return self.result.state

    def state_json(self) -> bytes:
        """The state's compact JSON.

        Within one :func:`run_invariants` pass it is serialized once and shared by every check
        that reads it (checks must not change the state); called on its own, it is made anew.
        """
        shared = self._shared
        if not shared:
            return _state_json(self.result.state)
        made = shared[0]
        if made is None:
            made = shared[0] = _state_json(self.result.state)
        return made


@dataclass(frozen=True, slots=True)
class Invariant:
    """A named check run after every step; ``check`` raises :class:`InvariantError`.

    A check reads the step and must not change it (the checks of one step share its state's
    JSON, :meth:`Step.state_json`).
    """

    name: str
    """Short name shown in reports."""
    check: Callable[[Step], None]
    """Raises InvariantError when the step breaks the invariant."""


InvariantFactory = Callable[[AnyDefinition], Invariant | None]
"""Builds an invariant for a game, or None when it does not apply to that game."""

_HOOKS: list[InvariantFactory] = []


def register_invariant(factory: InvariantFactory) -> None:
    """Add an invariant to :func:`default_invariants` for every game it applies to.

    For checks that live outside the simulation package, e.g. that a player's projected view
    leaks nothing hidden. Registering the same factory twice has no effect.
    """
    if factory not in _HOOKS:
        _HOOKS.append(factory)


def unregister_invariant(factory: InvariantFactory) -> None:
    """Remove a factory added with :func:`register_invariant` (nothing happens if it was not)."""
    if factory in _HOOKS:
        _HOOKS.remove(factory)


def _state_json(state: BaseModel) -> bytes:
    return state.__pydantic_serializer__.to_json(state)


def _check_state_model(step: Step) -> None:
    raw = step.state_json()
    plain_type = step.definition.state_type.__plain_model__  # type: ignore[attr-defined]
    try:
        again = plain_type.model_validate_json(raw)
    except ValueError as exc:
        raise InvariantError("state-model", f"the state does not re-validate: {exc}") from exc
    if _state_json(again) != raw:
        raise InvariantError("state-model", "the re-validated state dumps to different JSON")


def _check_hydration(step: Step) -> None:
    state = step.state
    if not isinstance(state, Hydrated):
        raise InvariantError("hydration", f"the engine returned a plain {type(state).__name__}")
    plain = state.dehydrate()
    if isinstance(plain, Hydrated):
        raise InvariantError("hydration", "dehydrate() returned a hydrated object")
    again = type(state).hydrate(plain)
    if again != state or _state_json(again) != step.state_json():
        raise InvariantError("hydration", "hydrate(dehydrate(state)) differs from the state")


def _check_checksum(step: Step) -> None:
    previous, state = step.previous, step.state
    count = 0 if previous is None else previous.action_count
    checksum = 0 if previous is None else previous.action_checksum
    for action in step.result.actions:
        if action.index != count:
            raise InvariantError("checksum", f"action {action.id!r} has index {action.index}, not {count}")
        checksum = next_checksum(checksum, action.id, count)
        count += 1
    if (state.action_count, state.action_checksum) != (count, checksum):
        raise InvariantError(
            "checksum",
            f"state says {state.action_count} actions / checksum {state.action_checksum}, "
            f"the recorded actions give {count} / {checksum}",
        )


state_model_invariant = Invariant("state-model", _check_state_model)
"""The state's JSON re-validates against the game's plain state model and dumps the same."""
hydration_invariant = Invariant("hydration", _check_hydration)
"""The state is hydrated, and hydrate(dehydrate(state)) gives it back."""
checksum_invariant = Invariant("checksum", _check_checksum)
"""Action indexes are consecutive and the count and checksum follow the recorded actions."""


def _check_view_leaks(step: Step) -> None:
    state, actions = step.state, step.result.actions
    perspectives: list[Perspective] = [*(player.player_id for player in state.players), SPECTATOR]
    # One checker per subject: the state and each action are serialized once for every view.
    checker = LeakChecker(state, subject_json=step.state_json())
    action_checkers = [LeakChecker(action) for action in actions]
    for perspective in perspectives:
        # The view model is checked as its own JSON (what a host sends), not a dump re-parsed.
        leaks = checker.find(project(state, perspective), perspective)
        for action, action_checker, seen in zip(
            actions, action_checkers, project_log(actions, perspective), strict=True
        ):
            leaks += [
                f"action {action.index} ({action.type}): {leak}"
                for leak in action_checker.find(seen, perspective)
            ]
        if leaks:
            whose = "the spectator's" if perspective is SPECTATOR else f"{perspective}'s"
            more = f" (and {len(leaks) - 1} more)" if len(leaks) > 1 else ""
            raise InvariantError("view-leaks", f"{whose} view leaks {leaks[0]}{more}")


_view_leaks = Invariant("view-leaks", _check_view_leaks)


def view_leak_invariant(definition: AnyDefinition) -> Invariant | None:
    """For a game that declares hidden information: no view leaks a hidden value.

    After every step the state is projected for every player and a spectator
    (:func:`tabletop.views.project`), and so are the step's recorded actions
    (:func:`tabletop.views.project_log`); :func:`tabletop.views.find_leaks` must find nothing
    in any of them. None for a game whose state declares no visibility.
    """
    return _view_leaks if declares_visibility(definition.state_type) else None


class _GameChecks:
    """The check of :func:`game_invariant`: the definition's engine's ``check_state``.

    Pickled as its definition alone (the engine is rebuilt where it is unpickled, a Ray worker
    say): an engine that has run holds compiled helpers that do not travel.
    """

    __slots__ = ("definition", "engine")

    def __init__(self, definition: AnyDefinition) -> None:
        self.definition = definition
        self.engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)

    def __call__(self, step: Step) -> None:
        try:
            self.engine.check_state(step.state)
        except InvalidStateError as exc:
            raise InvariantError("game-invariants", "; ".join(exc.problems)) from exc

    def __reduce__(self) -> tuple[type[_GameChecks], tuple[AnyDefinition]]:
        return _GameChecks, (self.definition,)


@cache
def game_invariant(definition: AnyDefinition) -> Invariant:
    """The state passes :meth:`tabletop.GameEngine.check_state`: seats and the game's own invariants.

    The framework's checks (unique seats, active players and turn order name seats) and the
    definition's ``invariants`` hook (e.g. Go Fish's 52 cards all somewhere, once). One
    invariant per definition (the same object every call).
    """
    return Invariant("game-invariants", _GameChecks(definition))


def json_schema_invariant(schema: Path) -> Invariant:
    """The state validates against an exported JSON Schema (``schemas/<game>/state.json``).

    Raises:
        ModuleNotFoundError: ``jsonschema`` is not installed.
        OSError: The schema cannot be read.
    """
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    validator = Draft202012Validator(json.loads(schema.read_text(encoding="utf-8")))

    def check(step: Step) -> None:
        errors = sorted(
            validator.iter_errors(orjson.loads(step.state_json())), key=lambda e: list(e.absolute_path)
        )
        if errors:
            first = errors[0]
            path = "/".join(str(part) for part in first.absolute_path) or "(root)"
            raise InvariantError("json-schema", f"{schema}: at {path}: {first.message}")

    return Invariant("json-schema", check)


def default_invariants(
    definition: AnyDefinition, *, schemas: Path | None = Path("schemas")
) -> tuple[list[Invariant], list[str]]:
    """The invariants a simulation checks by default, and a note for each one it had to skip.

    Always the state model, hydration, checksum and game invariants (:func:`game_invariant`,
    with the definition's own ``invariants``); the JSON Schema one when
    ``schemas/<game>/state.json`` exists and ``jsonschema`` is installed; the view leak one
    (:func:`view_leak_invariant`) for a game with hidden information; then every registered
    hook that applies to the game.
    """
    invariants = [state_model_invariant, hydration_invariant, checksum_invariant, game_invariant(definition)]
    skipped: list[str] = []
    if schemas is not None:
        schema = schemas / definition.name / "state.json"
        if not schema.is_file():
            skipped.append(f"json-schema: no {schema}")
        else:
            try:
                invariants.append(json_schema_invariant(schema))
            except ModuleNotFoundError:
                skipped.append("json-schema: jsonschema is not installed (pip install jsonschema)")
    invariants += [
        made for factory in (view_leak_invariant, *_HOOKS) if (made := factory(definition)) is not None
    ]
    return invariants, skipped


def run_invariants(invariants: Sequence[Invariant], step: Step) -> None:
    """Run every invariant on ``step``; the first violation is raised.

    Raises:
        InvariantError: An invariant does not hold (an unexpected exception in a check is
            reported as a violation of that check too).
    """
    step._shared[:] = [None]  # the checks of this pass share the state's JSON
    try:
        for invariant in invariants:
            try:
                invariant.check(step)
            except InvariantError:
                raise
            except Exception as exc:  # a check that crashes is a failed check, reported as such
                raise InvariantError(invariant.name, f"{type(exc).__name__}: {exc}") from exc
    finally:
        step._shared.clear()
