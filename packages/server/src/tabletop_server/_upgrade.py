"""Which code runs a stored match: the installed game, a frozen copy, or a migration to it.

A match is pinned to the logic version it was created with (``MatchRow.logic_version``). When a
worker loads a match whose version is not the installed game's:

- a frozen copy of that version kept by the game runs it as it is;
- else, with a declared migration path, the match is migrated: the state (and, where a step
  declares it, every recorded action) is rewritten, checked against the installed schema and
  the game's invariants, and stored under the same compare-and-set as any write. The migrated
  state becomes the match's replay base; the worker that wins announces it (open event streams
  send a ``reset`` with the new version), the others see the new revision;
- else (no path, or a migration that raised or produced an invalid state) nothing is changed:
  the match loads *unavailable*, every write is refused with a typed error naming both versions,
  and reads use the installed game's models as far as they can read it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import orjson
from tabletop import MigrationError
from tabletop.versions import migrate_action, migrate_state, migration_path

from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch, stored_update
from tabletop_server._registry import GameEntry, GameRegistry
from tabletop_server.storage import HeadMovedError, MatchRow, SeatRow, Store

__all__ = ["MAX_ATTEMPTS", "outdated_counts", "outdated_report", "resolve_version", "version_status"]

logger = logging.getLogger("tabletop_server")

MAX_ATTEMPTS = 20
"""Re-reads before a migration racing other writers gives up (someone else's write wins)."""


def version_status(registry: GameRegistry, game: str, logic_version: str) -> str:
    """How the installed code treats a match of ``game`` stored under ``logic_version``:
    ``current``, ``frozen`` (a frozen copy runs it), ``migrates`` (a declared path leads to the
    installed version), ``unavailable`` (no path) or ``unknown-game``."""
    entry = registry.find(game)
    if entry is None:
        return "unknown-game"
    if logic_version == entry.definition.logic_version:
        return "current"
    if registry.frozen(game, logic_version) is not None:
        return "frozen"
    return "migrates" if migration_path(entry.definition, logic_version) is not None else "unavailable"


def _unavailable(entry: GameEntry, row: MatchRow, error: MigrationError) -> ApiError:
    installed = entry.definition.logic_version
    if error.code == "logic-version-unavailable":
        message = (
            f"this match runs {row.game} logic {row.logic_version}; the server has {installed} "
            "and no migration from it: it can be read but not played"
        )
    else:
        message = f"{row.game} {row.logic_version} -> {installed}: {error.message}"
    return ApiError(error.code, message)


def resolve_version(
    registry: GameRegistry,
    store: Store,
    row: MatchRow,
    seats: list[SeatRow],
    announce: Callable[[MatchRow], None],
) -> LoadedMatch:
    """The match loaded with the code that runs it, migrating it first where that is declared.

    Raises:
        ApiError: The game is not installed (``unknown-game``).
    """
    entry = registry.get(row.game)
    for _ in range(MAX_ATTEMPTS):
        if row.logic_version == entry.definition.logic_version:
            return LoadedMatch.of(row, seats, entry)
        frozen = registry.frozen(row.game, row.logic_version)
        if frozen is not None:
            return LoadedMatch.of(row, seats, frozen)
        try:
            migrated = _migrate(entry, store, row)
        except MigrationError as error:
            if error.code != "logic-version-unavailable":
                logger.error("migrating match %s failed: %s %s", row.id, error, list(error.problems))
            return LoadedMatch.of(row, seats, entry, unavailable=_unavailable(entry, row, error))
        if migrated is None:  # someone else wrote first: read again (they may have migrated it)
            row, seats = store.get_match_and_seats(row.id)
            continue
        announce(migrated)
        return LoadedMatch.of(migrated, seats, entry)
    raise ApiError("conflict", "the match kept changing while it was migrated; try again")


def _migrate(entry: GameEntry, store: Store, row: MatchRow) -> MatchRow | None:
    """Migrate and store ``row`` (None if the compare-and-set lost).

    Raises:
        MigrationError: No path, or a step raised or produced an invalid state or action.
    """
    definition = entry.definition
    state, path = migrate_state(definition, row.state_json, row.logic_version, entry.engine)
    rewritten: list[tuple[int, str]] = []
    if any(step.action is not None for step in path):
        for action in store.actions(row.id):
            document = migrate_action(definition, action.json, path)
            rewritten.append((action.index, orjson.dumps(document).decode()))
    change = stored_update(state)
    try:
        return store.migrate(row, definition.logic_version, change, rewritten)
    except HeadMovedError:
        return None


def outdated_counts(registry: GameRegistry, store: Store) -> list[tuple[str, str, str, int, int]]:
    """``(game, logic_version, status, in progress, finished)`` per game and stored version that
    is not the installed one (``status`` as :func:`version_status`)."""
    counts: dict[tuple[str, str], list[int]] = {}
    for game, version, state, count in store.version_counts():
        slot = counts.setdefault((game, version), [0, 0])
        slot[0 if state == "in_progress" else 1] += count
    found = []
    for (game, version), (playing, finished) in sorted(counts.items()):
        status = version_status(registry, game, version)
        if status != "current":
            found.append((game, version, status, playing, finished))
    return found


def outdated_report(registry: GameRegistry, store: Store) -> list[str]:
    """One line per game and outdated stored version: what the installed code does with them."""
    lines = []
    for game, version, status, playing, finished in outdated_counts(registry, store):
        entry = registry.find(game)
        installed = "not installed" if entry is None else entry.definition.logic_version
        what = {
            "migrates": f"migrate to {installed} when first loaded",
            "frozen": f"run on the frozen copy of {version} (installed: {installed})",
            "unavailable": f"have no migration to {installed}: readable, every write refused",
            "unknown-game": "belong to a game that is not installed",
        }[status]
        lines.append(f"{game} {version}: {playing} in progress, {finished} finished; they {what}")
    return lines
