"""Turn order, turn counting and the current turn."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import Field

from tabletop._hydration import Hydrated
from tabletop._model import Model, writes_directly

__all__ = ["HydratedTurnManager", "Turn", "TurnManager"]

_set = object.__setattr__
_STARTED = ("current_turn", "turn_count")
_ENDED = ("last_turn", "current_turn")
_END_INDEX = frozenset({"end_index"})


class Turn(Model, frozen=True, revalidate_instances="subclass-instances"):
    """One player's turn, as a span of action indexes."""

    # Immutable: ending a turn makes a new one, so copies of a state share their turns.

    player_id: str
    """Whose turn it is."""
    start_index: int = Field(ge=0)
    """Action count when the turn started (index of its first action)."""
    end_index: int | None = Field(default=None, ge=0)
    """Action count when the turn ended; None while it runs."""


def _new_turn(player_id: str, start_index: int) -> Turn:
    """``Turn(player_id=..., start_index=...)``, built without validating again what is known valid."""
    if type(player_id) is not str or type(start_index) is not int or start_index < 0:
        return Turn(player_id=player_id, start_index=start_index)  # raises as the model does
    turn = object.__new__(Turn)
    _set(turn, "__dict__", {"player_id": player_id, "start_index": start_index, "end_index": None})
    _set(turn, "__pydantic_fields_set__", {"player_id", "start_index"})
    _set(turn, "__pydantic_extra__", None)
    _set(turn, "__pydantic_private__", None)
    return turn


def _ended(turn: Turn, end_index: int) -> Turn:
    """``turn`` ended at ``end_index``: a new Turn (turns are shared between copies of a state)."""
    if type(end_index) is not int or end_index < 0 or type(turn) is not Turn:
        return turn.model_validate({**turn.__dict__, "end_index": end_index})  # raises as the model does
    ended = object.__new__(Turn)
    _set(ended, "__dict__", {**turn.__dict__, "end_index": end_index})
    _set(ended, "__pydantic_fields_set__", turn.__pydantic_fields_set__ | _END_INDEX)
    _set(ended, "__pydantic_extra__", None)
    _set(ended, "__pydantic_private__", None)
    return ended


class TurnManager(Model):
    """Turn order, per-player turn counts, the current and the last turn."""

    turn_order: list[str] = Field(default_factory=list)
    """Player ids in the order they take turns."""
    turn_count: int = Field(default=0, ge=0)
    """How many turns have started."""
    turns_taken: dict[str, int] = Field(default_factory=dict)
    """How many turns each player has started."""
    current_turn: Turn | None = None
    """The turn in progress, if any."""
    last_turn: Turn | None = None
    """The most recently ended turn, if any."""


class HydratedTurnManager(TurnManager, Hydrated[TurnManager]):
    """Turn manager behaviour: start and end turns, find the next player, change the order."""

    def start_turn(self, player_id: str, action_index: int) -> Turn:
        """End the current turn (if any) and start ``player_id``'s turn at ``action_index``."""
        values = self.__dict__  # field reads without the model's __getattr__ hook (a hot path)
        if player_id not in values["turn_order"]:
            msg = f"{player_id!r} is not in the turn order {self.turn_order}"
            raise ValueError(msg)
        turn = _new_turn(player_id, action_index)
        taken = values["turns_taken"]
        taken[player_id] = taken.get(player_id, 0) + 1
        if writes_directly(type(self)):
            ending = values["current_turn"]
            if ending is not None:  # end_turn, inlined for the usual case
                values["last_turn"] = _ended(ending, action_index)
                self.__pydantic_fields_set__.add("last_turn")
            values["current_turn"] = turn
            values["turn_count"] += 1
            self.__pydantic_fields_set__.update(_STARTED)
        else:
            if values["current_turn"] is not None:
                self.end_turn(action_index)
            self.current_turn = turn
            self.turn_count += 1
        return turn

    def end_turn(self, action_index: int) -> None:
        """End the current turn at ``action_index``; does nothing if no turn runs."""
        values = self.__dict__
        turn = values["current_turn"]
        if turn is None:
            return
        turn = _ended(turn, action_index)
        if writes_directly(type(self)):
            values["last_turn"] = turn
            values["current_turn"] = None
            self.__pydantic_fields_set__.update(_ENDED)
        else:
            self.last_turn = turn
            self.current_turn = None

    @property
    def current_player_id(self) -> str | None:
        """Whose turn it is, if a turn runs."""
        return None if self.current_turn is None else self.current_turn.player_id

    def turns_of(self, player_id: str) -> int:
        """How many turns ``player_id`` has started."""
        return self.turns_taken.get(player_id, 0)

    def next_player(
        self,
        after: str | None = None,
        *,
        skip: Callable[[str], bool] | None = None,
    ) -> str:
        """Return who plays after ``after`` (default: the current or last turn's player).

        With no turn played yet, the first player in the order is next. Players for whom
        ``skip`` returns True are passed over.

        Raises:
            ValueError: The order is empty or every player is skipped.
        """
        values = self.__dict__
        order: list[str] = values["turn_order"]
        if not order:
            msg = "the turn order is empty"
            raise ValueError(msg)
        if after is None:
            turn = values["current_turn"] or values["last_turn"]
            after = None if turn is None else turn.player_id
        start = 0 if after is None else order.index(after) + 1
        count = len(order)
        for offset in range(count):
            candidate = order[(start + offset) % count]
            if skip is None or not skip(candidate):
                return candidate
        msg = "every player in the turn order is skipped"
        raise ValueError(msg)

    def reverse(self) -> None:
        """Reverse the direction of play."""
        self.turn_order.reverse()

    def set_first_player(self, player_id: str) -> None:
        """Rotate the order so that ``player_id`` comes first."""
        index = self.turn_order.index(player_id)
        self.turn_order = self.turn_order[index:] + self.turn_order[:index]
