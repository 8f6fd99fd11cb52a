"""Turn order, turn counting and the current turn: immutable values, a new one per change."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pydantic import Field

from tabletop._frozen import FrozenDict
from tabletop._model import Model, built

__all__ = ["Turn", "TurnManager"]

_STARTED = frozenset({"current_turn", "turn_count", "turns_taken"})
_STARTED_AND_ENDED = _STARTED | {"last_turn"}
_ENDED = frozenset({"last_turn", "current_turn"})
_ORDER = frozenset({"turn_order"})
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
    values = {"player_id": player_id, "start_index": start_index, "end_index": None}
    return built(Turn, values, {"player_id", "start_index"})  # a set, as validation makes


def _ended(turn: Turn, end_index: int) -> Turn:
    """``turn`` ended at ``end_index``: a new Turn (turns are shared between copies of a state)."""
    if type(end_index) is not int or end_index < 0 or type(turn) is not Turn:
        return turn.model_validate({**turn.__dict__, "end_index": end_index})  # raises as the model does
    return built(Turn, {**turn.__dict__, "end_index": end_index}, turn.__pydantic_fields_set__ | _END_INDEX)


class TurnManager(Model, frozen=True, revalidate_instances="subclass-instances"):
    """Turn order, per-player turn counts, the current and the last turn."""

    # The docstring above is the schema's description: what follows stays out of it.
    # Immutable: every change (started, ended, reversed, with_first_player, with_order) returns
    # a new manager and leaves this one alone, so copies of a state and its views share one
    # manager instead of copying it. A game keeps the new value on its state:
    # ``ctx.turns = ctx.turns.reversed()`` (``ctx.start_next_turn()``, ``ctx.start_turn_of()``
    # and ``ctx.end_turn()`` do it themselves). For example:
    #     turns = TurnManager(turn_order=("a", "b", "c")).started("b", 0).started("c", 2)
    #     turns.current_player_id, turns.last_turn.end_index, turns.turns_of("b")  # 'c', 2, 1
    #     turns.reversed().turn_order  # ('c', 'b', 'a')

    turn_order: tuple[str, ...] = Field(default_factory=tuple)
    """Player ids in the order they take turns."""
    turn_count: int = Field(default=0, ge=0)
    """How many turns have started."""
    turns_taken: FrozenDict[str, int] = Field(default_factory=FrozenDict)
    """How many turns each player has started."""
    current_turn: Turn | None = None
    """The turn in progress, if any."""
    last_turn: Turn | None = None
    """The most recently ended turn, if any."""

    def started(self, player_id: str, action_index: int) -> TurnManager:
        """The manager with the current turn (if any) ended and ``player_id``'s turn started,
        both at ``action_index``.

        Raises:
            ValueError: ``player_id`` is not in the turn order.
            pydantic.ValidationError: ``action_index`` is negative.
        """
        values = self.__dict__  # field reads without the model's __getattr__ hook (a hot path)
        if player_id not in values["turn_order"]:
            msg = f"{player_id!r} is not in the turn order {list(values['turn_order'])}"
            raise ValueError(msg)
        turn = _new_turn(player_id, action_index)
        taken: FrozenDict[str, int] = values["turns_taken"]
        changed = {
            **values,
            "turn_count": values["turn_count"] + 1,
            "turns_taken": taken.set(player_id, taken.get(player_id, 0) + 1),
            "current_turn": turn,
        }
        ending = values["current_turn"]
        if ending is None:
            return _changed(self, changed, _STARTED)
        changed["last_turn"] = _ended(ending, action_index)
        return _changed(self, changed, _STARTED_AND_ENDED)

    def ended(self, action_index: int) -> TurnManager:
        """The manager with the current turn ended at ``action_index``; itself if no turn runs.

        Raises:
            pydantic.ValidationError: ``action_index`` is negative.
        """
        values = self.__dict__
        turn = values["current_turn"]
        if turn is None:
            return self
        return _changed(
            self, {**values, "last_turn": _ended(turn, action_index), "current_turn": None}, _ENDED
        )

    def reversed(self) -> TurnManager:
        """The manager with the direction of play reversed."""
        return self.with_order(self.turn_order[::-1])

    def with_first_player(self, player_id: str) -> TurnManager:
        """The manager with the order rotated so that ``player_id`` comes first.

        Raises:
            ValueError: ``player_id`` is not in the turn order.
        """
        order = self.turn_order
        index = order.index(player_id)
        return self.with_order(order[index:] + order[:index])

    def with_order(self, order: Iterable[str]) -> TurnManager:
        """The manager with ``order`` as its turn order (a shuffled one, say)."""
        return _changed(self, {**self.__dict__, "turn_order": _str_tuple(order)}, _ORDER)

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
        order: tuple[str, ...] = values["turn_order"]
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


def _str_tuple(order: Iterable[str]) -> tuple[str, ...]:
    """``order`` as a tuple of strings, checked as validating the field would."""
    result = tuple(order)
    for player_id in result:
        if type(player_id) is not str:
            msg = f"a turn order holds player ids (strings), not {type(player_id).__name__}"
            raise TypeError(msg)
    return result


def _changed(manager: TurnManager, values: dict[str, object], changed: frozenset[str]) -> TurnManager:
    """A new manager of ``manager``'s class holding ``values`` (valid already): what
    ``model_copy(update=...)`` gives, with the changed fields marked set, as assigning them would."""
    cls = type(manager)
    if cls is not TurnManager:  # a subclass may validate more: through pydantic
        return manager.model_validate({**values})
    fields = manager.__pydantic_fields_set__
    # A frozen model's fields-set never changes (model_copy copies it): the new manager may share it.
    return built(TurnManager, values, fields if changed <= fields else fields | changed)
