"""Checks of a write's arguments before any transaction starts (a caller's mistake, not a race)."""

from __future__ import annotations

from collections.abc import Sequence

from tabletop_server.storage._errors import DuplicateActionIdError
from tabletop_server.storage._rows import NewAction, NewSeat

__all__ = ["check_indices", "check_unique"]


def check_indices(match_id: str, start: int, log: Sequence[NewAction]) -> None:
    """Raise ``ValueError`` unless the actions' indices are ``start, start + 1, ...``."""
    for offset, action in enumerate(log):
        if action.index != start + offset:
            msg = f"match {match_id!r}: action {action.action_id!r} has index {action.index}"
            msg += f", expected {start + offset}"
            raise ValueError(msg)


def check_unique(match_id: str, new_seats: Sequence[NewSeat], log: Sequence[NewAction]) -> None:
    """Raise unless seat player ids are unique (``ValueError``) and so are action ids per seat
    (``DuplicateActionIdError``)."""
    players = [seat.player_id for seat in new_seats]
    if len(set(players)) != len(players):
        msg = f"match {match_id!r}: seat player ids are not unique: {players}"
        raise ValueError(msg)
    seen: set[tuple[str | None, str]] = set()
    for action in log:
        key = (action.player_id, action.action_id)
        if key in seen:
            raise DuplicateActionIdError(match_id, action.action_id)
        seen.add(key)
