"""Snapshots: the state at any index = the nearest stored state at or before it + a short replay.

Undo and fork need a match's state after its first N actions. Replaying from the seed costs the
whole match (a 3,000-action match replays 3,000 actions for every undo). Instead an action's
write keeps the new state as a *snapshot* every :data:`SNAPSHOT_EVERY` actions (in the same
transaction, under the head guard; an undo deletes the snapshots past its cut), and
:func:`state_at` starts from the nearest snapshot at or before N, else from the match's replay
base (a fork's base state, or the seed), and replays only what follows.
"""

from __future__ import annotations

from tabletop._machine import AnyState

from tabletop_server._match import LoadedMatch
from tabletop_server._runtime import load_action, replay
from tabletop_server._service import MatchService
from tabletop_server.storage import ActionRow

__all__ = ["SNAPSHOT_EVERY", "snapshot_due", "state_at"]

SNAPSHOT_EVERY = 100
"""A snapshot is kept each time a match's head passes a multiple of this many actions."""


def snapshot_due(head_before: int, head_after: int) -> bool:
    """True if a write moving the head from ``head_before`` to ``head_after`` keeps a snapshot."""
    return head_after // SNAPSHOT_EVERY > head_before // SNAPSHOT_EVERY


def state_at(
    service: MatchService, match: LoadedMatch, index: int, rows: list[ActionRow] | None = None
) -> AnyState:
    """The match's state after its first ``index`` actions: a fresh object the caller owns.

    Starts from the nearest snapshot at or before ``index`` (never before the match's
    ``base_index``), else from the replay base (``base_state_json``, or the seed and key), and
    replays the user actions from there (the engine records the system actions again).
    ``rows``: the match's log from its base, if the caller read it already.
    """
    row = match.row
    entry = match.entry
    if index == row.head:
        return entry.engine.copy_state(match.state)
    start, base_json = row.base_index, row.base_state_json
    found = service.store.snapshot(row.id, index, lowest=row.base_index)
    if found is not None:
        start, base_json = found
    if rows is None:
        rows = service.store.actions(row.id, after=start - 1)
    actions = [load_action(entry, action.json) for action in rows if start <= action.index < index]
    return replay(entry, match.game, row.prng_key, actions, base_state_json=base_json, stop=index)
