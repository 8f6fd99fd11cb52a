"""The undo rule: one function decides whether a seat may undo, for every answer that says so.

The view (``GET .../view``), the event stream, the answer to an action's ``POST`` and the undo
route all call :func:`undo_check`, over the same stored facts: the log's latest actions and each
one's barrier flag (the ``reveals_info`` column), which :func:`undo_barrier` sets when the action
is written. A barrier is an action after which an undo would let a player learn something and
take it back: it drew a chance outcome (a roll, a shuffle), or it showed some perspective a value
hidden from it before, derived from the views themselves (``tabletop.views.find_reveals``), so a
game that forgets to declare ``reveals_info`` is still safe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from tabletop import GameAction
from tabletop.views import SPECTATOR, HiddenValues, Perspective, find_reveals

from tabletop_server._registry import GameEntry
from tabletop_server.storage import MatchRow, NewAction

__all__ = ["UNDO_WINDOW", "LoggedAction", "UndoCheck", "mark_barrier", "undo_barrier", "undo_check"]

UNDO_WINDOW = 64
"""How many of the latest actions an undo looks back over for the seat's last action."""


class LoggedAction(Protocol):
    """What the rule reads of a logged action (a stored ``UndoRow`` or a ``NewAction`` just written)."""

    @property
    def index(self) -> int: ...
    @property
    def player_id(self) -> str | None: ...
    @property
    def source(self) -> str: ...
    @property
    def reveals_info(self) -> bool: ...
    @property
    def simultaneous_group_id(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class UndoCheck:
    """Whether a seat may undo now, and to which index the log would be cut."""

    allowed: bool
    to_index: int
    reason: str
    code: str = "undo-not-allowed"


def undo_barrier(
    entry: GameEntry, before: HiddenValues, after: HiddenValues, actions: Sequence[GameAction]
) -> bool:
    """True if the step from ``before`` to ``after`` (recording ``actions``) may not be undone across.

    It drew a chance outcome (the PRNG's draw count moved), an action declares ``reveals_info``,
    or, for a game with hidden information, some seat or a spectator now sees a value that was
    hidden from it before (derived from the views, whatever the game declares). The states come
    as their ``HiddenValues`` (which count nothing until asked), so that a host that keeps the
    latest state's beside it reuses that work at the next action.
    """
    if after.state.prng.invocations != before.state.prng.invocations:
        return True
    if any(action.reveals_info for action in actions):
        return True
    if not entry.hidden_information:
        return False
    actors = [action.player_id for action in actions if action.player_id is not None]
    seats = [player.player_id for player in after.state.players]
    order: list[Perspective] = [*dict.fromkeys([*actors, *seats]), SPECTATOR]  # the actor first
    return any(find_reveals(before, after, [perspective]) for perspective in order)


def mark_barrier(rows: list[NewAction]) -> list[NewAction]:
    """``rows`` (one submission's batch) with the submitted action flagged as a barrier."""
    if not rows or rows[0].reveals_info:
        return rows
    return [replace(rows[0], reveals_info=True), *rows[1:]]


def undo_check(row: MatchRow, tail: Sequence[LoggedAction], player_id: str | None) -> UndoCheck:
    """The undo rule over the latest actions of a match (``tail``, oldest first).

    A player may undo their own last user action unless it, or a later action (system actions
    it caused included), is a barrier (see :func:`undo_barrier`), or another player acted since,
    except within the same simultaneous group. A finished match is not undone. ``tail`` needs
    to reach back only to the seat's last user action (``Store.undo_tail`` reads no further):
    for the answer to that very action, the batch it recorded is enough.
    """
    if player_id is None:
        return UndoCheck(False, row.head, "a spectator has nothing to undo")
    if row.status != "in_progress":
        return UndoCheck(False, row.head, "the match is over")
    later: list[LoggedAction] = []
    for action in reversed(tail):
        if action.source == "user" and action.player_id == player_id:
            return _judge(action, later)
        later.append(action)
    if row.migrated_from is not None and row.base_index > 0 and len(tail) < UNDO_WINDOW:
        return UndoCheck(
            False,
            row.head,
            f"{player_id}'s last action was played under logic {row.migrated_from}, before the match "
            f"was migrated to {row.logic_version} at action {row.base_index}: undo never crosses a migration",
            "before-migration",
        )
    return UndoCheck(False, row.head, f"{player_id} has no recent action to undo")


def _judge(mine: LoggedAction, later: list[LoggedAction]) -> UndoCheck:
    if mine.reveals_info:
        return UndoCheck(False, mine.index, "that action revealed information or drew a chance outcome")
    group = mine.simultaneous_group_id
    for action in later:
        if action.reveals_info:
            return UndoCheck(
                False, mine.index, "a later action revealed information or drew a chance outcome"
            )
        other = action.source == "user" and action.player_id != mine.player_id
        if other and (group is None or action.simultaneous_group_id != group):
            return UndoCheck(False, mine.index, "another player acted since")
    return UndoCheck(True, mine.index, "")
