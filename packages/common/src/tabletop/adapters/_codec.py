"""A stable integer numbering of every action the players of one game can take."""

from __future__ import annotations

from typing import Generic, TypeVar

import orjson
from pydantic import JsonValue, ValidationError

from tabletop._action import GameAction, payload_fields
from tabletop._definition import GameDefinition
from tabletop._errors import GameDefinitionError
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, HydratedAction

__all__ = ["ActionCodec", "payload_fields"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

Action = HydratedAction[GameAction, StateT, ConfigT]


def _key(payload: dict[str, JsonValue]) -> bytes:
    return orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)


class ActionCodec(Generic[StateT, ConfigT]):
    """Numbers every action the players of one game can take, for discrete action spaces.

    Built from each action class's ``action_space(game)``: indexes run over the action types
    in the order their members are declared in the game's ``ActionType`` enum (which is
    ``definition.actions``' order, however the classes were listed or found) and, within a type,
    over its payloads in the order the class lists them. The numbering depends only on the game
    (seats and config), never on a state, nor on the order actions were written or registered.
    To keep the numbers of existing actions when adding one, declare its ``ActionType`` member
    last; reordering members (or an action's payloads) renumbers, like any breaking change.
    Action types that do not declare a space are left out, unless they are enumerable (players
    take them), which is a definition error.

    Args:
        definition: The game.
        game: The seats and config the space is built for (the seed plays no part).

    Raises:
        GameDefinitionError: An enumerable action type declares no action space, a payload
            does not validate, or a type lists the same payload twice.

    Example:
        >>> from tabletop.adapters import ActionCodec
        >>> from tabletop.games import load
        >>> from tabletop.testing import make_game
        >>> definition = load("sample")
        >>> codec = ActionCodec(definition, make_game(definition))
        >>> codec.size, codec.describe(0), codec.describe(codec.size - 1)
        (6, 'AddAmount {"amount":1}', 'Pass {}')
    """

    def __init__(self, definition: GameDefinition[StateT, ConfigT], game: Game[ConfigT]) -> None:
        self.definition = definition
        self.game = game
        self._entries: list[tuple[type[Action[StateT, ConfigT]], dict[str, JsonValue]]] = []
        self._index: dict[tuple[str, bytes], int] = {}
        self._fields: dict[str, frozenset[str]] = {}
        problems: list[str] = []
        for action_type in definition.actions:
            if not action_type.has_action_space():
                if action_type.is_enumerable():
                    problems.append(f"{action_type.__name__} is enumerable but declares no action_space")
                continue
            tag = _tag(definition, action_type)
            self._fields[tag] = payload_fields(action_type)
            for payload in action_type.action_space(game):
                problems += self._add(tag, action_type, payload)
        if problems:
            raise GameDefinitionError(definition.name, problems)

    def _add(
        self, tag: str, action_type: type[Action[StateT, ConfigT]], payload: dict[str, JsonValue]
    ) -> list[str]:
        seat = self.game.players[0].id
        try:
            action = action_type.model_validate(
                {"id": "", "game_id": self.game.id, "player_id": seat, **payload}
            )
        except ValidationError as error:
            reason = error.errors()[0]["msg"]
            return [f"{action_type.__name__}.action_space payload {payload!r} is invalid: {reason}"]
        canonical = self._payload(action, self._fields[tag])
        key = (tag, _key(canonical))
        if key in self._index:
            return [f"{action_type.__name__}.action_space lists {payload!r} twice"]
        self._index[key] = len(self._entries)
        self._entries.append((action_type, canonical))
        return []

    @staticmethod
    def _payload(action: GameAction, fields: frozenset[str]) -> dict[str, JsonValue]:
        dumped: dict[str, JsonValue] = action.model_dump(mode="json", include=set(fields))
        return dumped

    @property
    def size(self) -> int:
        """How many actions are numbered (indexes run from 0 to ``size - 1``)."""
        return len(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def payload(self, index: int) -> tuple[str, dict[str, JsonValue]]:
        """The action type and payload numbered ``index``.

        Raises:
            IndexError: ``index`` is out of range.
        """
        action_type, payload = self._entry(index)
        return _tag(self.definition, action_type), dict(payload)

    def describe(self, index: int) -> str:
        """A short label such as ``'AddAmount {"amount":3}'``."""
        action_type, payload = self.payload(index)
        return f"{action_type} {orjson.dumps(payload, option=orjson.OPT_SORT_KEYS).decode()}"

    def encode(self, action: GameAction) -> int:
        """The index of ``action`` (a legal action, e.g. from ``GameEngine.legal_actions``).

        Only the type and payload count: ids, the player and other envelope fields are ignored.

        Raises:
            ValueError: The action's type is not numbered by this codec (e.g. a system action).
            GameDefinitionError: The payload is missing from its type's action space (the
                class's ``enumerate`` and ``action_space`` disagree).
        """
        tag = str(action.type)
        fields = self._fields.get(tag)
        if fields is None:
            msg = f"action type {tag!r} has no action space in {self.definition.name!r}"
            raise ValueError(msg)
        key = orjson.dumps(action.model_dump(mode="json", include=set(fields)), option=orjson.OPT_SORT_KEYS)
        index = self._index.get((tag, key))
        if index is None:
            problem = f"{type(action).__name__} payload {key.decode()} is not in its action_space"
            raise GameDefinitionError(self.definition.name, [problem])
        return index

    def decode(self, index: int, player_id: str, *, action_id: str) -> Action[StateT, ConfigT]:
        """Build the concrete action numbered ``index`` for ``player_id``.

        Args:
            index: The action's number.
            player_id: The acting player.
            action_id: The id to give the action (fresh and unique within the game).

        Raises:
            IndexError: ``index`` is out of range.
        """
        action_type, payload = self._entry(index)
        return action_type.model_validate(
            {"id": action_id, "game_id": self.game.id, "player_id": player_id, **payload}
        )

    def _entry(self, index: int) -> tuple[type[Action[StateT, ConfigT]], dict[str, JsonValue]]:
        if not 0 <= index < len(self._entries):
            msg = f"action index {index} is out of range 0..{len(self._entries) - 1}"
            raise IndexError(msg)
        return self._entries[index]


def _tag(definition: GameDefinition[StateT, ConfigT], action_type: type[GameAction]) -> str:
    for tag, known in definition.action_by_type.items():
        if known is action_type:
            return tag
    msg = f"{action_type.__name__} is not an action of {definition.name!r}"
    raise ValueError(msg)
