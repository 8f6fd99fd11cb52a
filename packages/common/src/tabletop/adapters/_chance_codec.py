"""A stable integer numbering of every outcome of a game's declared chance points."""

from __future__ import annotations

from typing import Generic, TypeVar

import orjson
from pydantic import BaseModel

from tabletop._action import GameAction
from tabletop._chance import HydratedChanceAction
from tabletop._definition import GameDefinition
from tabletop._errors import GameDefinitionError
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, ChanceOutcomes, MachineContext

__all__ = ["ChanceCodec"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

Chance = HydratedChanceAction[GameAction, StateT, ConfigT]


def _key(outcome: object) -> bytes:
    value = outcome.model_dump(mode="json") if isinstance(outcome, BaseModel) else outcome
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


class ChanceCodec(Generic[StateT, ConfigT]):
    """Numbers the outcomes of a game's chance points: OpenSpiel's chance actions.

    Indexes run over the chance action types in ``ActionType`` order and, within a type, over
    its ``chance_space(game)`` in order; :attr:`size` is ``max_chance_outcomes``.

    Raises:
        GameDefinitionError: A chance space lists an outcome twice.
    """

    def __init__(self, definition: GameDefinition[StateT, ConfigT], game: Game[ConfigT]) -> None:
        self.definition = definition
        self._entries: list[tuple[str, object]] = []
        self._index: dict[tuple[str, bytes], int] = {}
        problems: list[str] = []
        for chance_type in definition.chance_actions:
            tag = str(chance_type.model_fields["type"].default)
            for outcome in chance_type.chance_space(game):
                key = (tag, _key(outcome))
                if key in self._index:
                    problems.append(f"{chance_type.__name__}.chance_space lists {outcome!r} twice")
                    continue
                self._index[key] = len(self._entries)
                self._entries.append((tag, outcome))
        if problems:
            raise GameDefinitionError(definition.name, problems)

    @property
    def size(self) -> int:
        """How many outcomes are numbered (OpenSpiel's ``max_chance_outcomes``)."""
        return len(self._entries)

    def encode(self, chance: Chance[StateT, ConfigT], outcome: object) -> int:
        """The number of ``outcome`` of the chance point ``chance``.

        Raises:
            GameDefinitionError: The outcome is not in its type's ``chance_space``.
        """
        index = self._index.get((str(chance.type), _key(outcome)))
        if index is None:
            problem = f"{type(chance).__name__} outcome {outcome!r} is not in its chance_space"
            raise GameDefinitionError(self.definition.name, [problem])
        return index

    def decode(self, index: int) -> tuple[str, object]:
        """The chance action type and outcome numbered ``index``.

        Raises:
            IndexError: ``index`` is out of range.
        """
        if not 0 <= index < len(self._entries):
            msg = f"chance outcome {index} is out of range 0..{len(self._entries) - 1}"
            raise IndexError(msg)
        return self._entries[index]

    def outcomes(
        self, chance: Chance[StateT, ConfigT], state: StateT, game: Game[ConfigT]
    ) -> list[tuple[int, float]]:
        """The pending chance point's outcomes in ``state`` as (number, probability), by number."""
        weighted: ChanceOutcomes = chance.chances(MachineContext(state, game))
        total = sum(weight for _, weight in weighted)
        return sorted((self.encode(chance, outcome), weight / total) for outcome, weight in weighted)

    def describe(self, index: int) -> str:
        """A short label such as ``'RollDie 6'``."""
        tag, outcome = self.decode(index)
        return f"{tag} {_key(outcome).decode()}"
