"""Moving a stored match to the installed logic version along the game's declared migrations."""

from __future__ import annotations

from collections.abc import Sequence

import orjson
from pydantic import ValidationError

from tabletop._definition import GameDefinition
from tabletop._engine import GameEngine
from tabletop._errors import InvalidStateError
from tabletop._game import GameConfig
from tabletop._machine import AnyState
from tabletop._migration import Document, Migration, MigrationError
from tabletop._semver import parse_version

__all__ = ["migrate_action", "migrate_state", "migration_path"]

AnyDefinition = GameDefinition[AnyState, GameConfig]


def migration_path(definition: AnyDefinition, from_version: str) -> list[Migration] | None:
    """The declared steps from ``from_version`` to ``definition.logic_version``, in order.

    Empty when the versions are equal; None when there is no path (no step starts at a version
    on the way, or the stored version is newer than the installed one). A patch release needs
    no declared step: from an older patch of the installed ``MAJOR.MINOR`` the path ends with an
    implicit identity step (the stored state is still checked against the installed schema and
    invariants).
    """
    steps = {step.from_version: step for step in definition.migrations}
    target = definition.logic_version
    path: list[Migration] = []
    version = from_version
    while version != target:
        step = steps.get(version) or _patch_step(version, target)
        if step is None or len(path) > len(steps):
            return None
        path.append(step)
        version = step.to_version
    return path


def _unchanged(document: Document) -> Document:
    return document


def _patch_step(version: str, target: str) -> Migration | None:
    """The identity step from an older patch of ``target``'s ``MAJOR.MINOR``, or None."""
    try:
        old, new = parse_version(version), parse_version(target)
    except ValueError:
        return None
    if old[:2] != new[:2] or old >= new:
        return None
    return Migration(version, target, state=_unchanged, description="a patch release: nothing to migrate")


def _unavailable(definition: AnyDefinition, from_version: str) -> MigrationError:
    return MigrationError(
        "logic-version-unavailable",
        f"{definition.name} {from_version} has no migration to the installed {definition.logic_version}",
    )


def migrate_state(
    definition: AnyDefinition,
    document: Document | str | bytes,
    from_version: str,
    engine: GameEngine[AnyState, GameConfig] | None = None,
) -> tuple[AnyState, list[Migration]]:
    """The stored state of a ``from_version`` match, migrated and checked, and the steps taken.

    Each step's ``state`` function runs on the document in turn; the result must validate
    against the installed state schema and pass the framework's and the game's invariants
    (:meth:`tabletop.GameEngine.load_state`).

    Raises:
        MigrationError: ``logic-version-unavailable`` (no path), ``migration-failed`` (a step
            raised) or ``migration-invalid`` (the result fails the schema or the invariants).
    """
    path = migration_path(definition, from_version)
    if path is None:
        raise _unavailable(definition, from_version)
    data = _fresh(document)  # steps may change it in place: never the caller's document
    data = _run(definition, path, data, "state")
    engine = engine if engine is not None else GameEngine(definition)
    try:
        state = engine.load_state(data)
    except InvalidStateError as error:
        raise MigrationError(
            "migration-invalid",
            f"{definition.name} {from_version} -> {definition.logic_version}: the migrated state is invalid",
            error.problems,
        ) from None
    return state, path


def migrate_action(
    definition: AnyDefinition, document: Document | str | bytes, path: Sequence[Migration]
) -> Document:
    """A recorded action document taken along ``path``, checked against the installed action
    model of its type (steps without an ``action`` leave it as it is).

    Raises:
        MigrationError: ``migration-failed`` (a step raised) or ``migration-invalid`` (the result
            is not a valid recorded action of the installed game).
    """
    data = _fresh(document)
    data = _run(definition, path, data, "action")
    kind = data.get("type")
    model = definition.action_by_type.get(kind) if isinstance(kind, str) else None
    if model is None:
        message = f"a migrated action has no type of {definition.name}: {kind!r}"
        raise MigrationError("migration-invalid", message)
    try:
        model.model_validate(data)
    except ValidationError as error:
        problems = [
            f"{'.'.join(str(part) for part in e['loc']) or '(root)'}: {e['msg']}"
            for e in error.errors(include_url=False, include_input=False)
        ]
        message = f"a migrated {kind} action is not valid under {definition.logic_version}"
        raise MigrationError("migration-invalid", message, problems) from None
    return data


def _fresh(document: Document | str | bytes) -> Document:
    """A document of our own: parsed from text, or a deep copy of a mapping."""
    loaded = orjson.loads(document if isinstance(document, str | bytes) else orjson.dumps(document))
    if not isinstance(loaded, dict):
        raise MigrationError(
            "migration-invalid", f"a stored document is a {type(loaded).__name__}, not an object"
        )
    return loaded


def _run(definition: AnyDefinition, path: Sequence[Migration], data: Document, what: str) -> Document:
    for step in path:
        function = step.state if what == "state" else step.action
        if function is None:  # this step leaves such documents as they are
            continue
        try:
            data = function(data)
        except Exception as error:  # a step that crashes: nothing is stored, the host is told
            raise MigrationError(
                "migration-failed",
                f"{definition.name} {step.from_version} -> {step.to_version}: the {what} migration raised "
                f"{type(error).__name__}",
                [str(error)[:200]],
            ) from error
        if not isinstance(data, dict):
            raise MigrationError(
                "migration-invalid",
                f"{definition.name} {step.from_version} -> {step.to_version}: the {what} migration "
                f"returned a {type(data).__name__}, not an object",
            )
    return data
