"""What a game may tell the adapters about itself: a length bound and a numeric observation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod
from typing import Generic, TypeVar, cast

from tabletop._machine import AnyState

__all__ = [
    "DEFAULT_MAX_GAME_LENGTH",
    "AdapterHints",
    "ObservationTensor",
    "adapter_hints",
    "register_adapter_hints",
]

StateT = TypeVar("StateT", bound=AnyState)

DEFAULT_MAX_GAME_LENGTH = 1000
"""The most player actions a game lasts in the adapters unless it declares its own bound.

A game still running after that many player actions is cut off: a draw (every return 0) in
OpenSpiel, a truncation in PettingZoo.
"""


@dataclass(frozen=True, slots=True)
class ObservationTensor(Generic[StateT]):
    """A game's fixed-shape numeric observation of a state, as one player sees it.

    Attributes:
        shape: The tensor's shape (e.g. ``(3, 3, 3)``: planes, rows, columns).
        encode: ``encode(state, player_id)`` returns the tensor's values, flat and row-major
            (``prod(shape)`` numbers). It must use only what ``player_id`` may see.
        low: The smallest value ``encode`` returns.
        high: The largest value ``encode`` returns.
    """

    shape: tuple[int, ...]
    encode: Callable[[StateT, str], Sequence[float]]
    low: float = 0.0
    high: float = 1.0

    def __post_init__(self) -> None:
        if not self.shape or any(size < 1 for size in self.shape):
            msg = f"a tensor shape needs positive sizes, not {self.shape}"
            raise ValueError(msg)
        if not self.low < self.high:
            msg = f"low ({self.low}) must be below high ({self.high})"
            raise ValueError(msg)

    @property
    def size(self) -> int:
        """How many values the tensor holds."""
        return prod(self.shape)

    def values(self, state: StateT, player_id: str) -> list[float]:
        """The encoded values, checked against the declared size.

        Raises:
            ValueError: ``encode`` returned the wrong number of values.
        """
        values = [float(value) for value in self.encode(state, player_id)]
        if len(values) != self.size:
            msg = f"observation tensor of shape {self.shape} needs {self.size} values, got {len(values)}"
            raise ValueError(msg)
        return values


@dataclass(frozen=True, slots=True)
class AdapterHints:
    """What the adapters know about one game beyond its definition.

    Attributes:
        max_game_length: The most player actions a game lasts (``None``: the default bound of
            1000).
        observation_tensor: A numeric observation (``None``: the adapters' generic encoding).
        perfect_information: True if every player sees the whole state (declared to OpenSpiel).
    """

    max_game_length: int | None = None
    observation_tensor: ObservationTensor[AnyState] | None = None
    perfect_information: bool = False


_HINTS: dict[str, AdapterHints] = {}


def register_adapter_hints(
    game: str,
    *,
    max_game_length: int | None = None,
    observation_tensor: ObservationTensor[StateT] | None = None,
    perfect_information: bool = False,
) -> AdapterHints:
    """Tell the OpenSpiel and PettingZoo adapters about a game (call it next to its definition).

    Args:
        game: The game's registry name, e.g. ``"tic-tac-toe"``.
        max_game_length: The most player actions a game can last.
        observation_tensor: A fixed-shape numeric observation for learning agents.
        perfect_information: True if every player sees the whole state.

    Returns:
        The hints now registered for ``game`` (replacing any earlier ones).

    Raises:
        ValueError: ``max_game_length`` is not positive.
    """
    if max_game_length is not None and max_game_length < 1:
        msg = f"max_game_length must be positive, not {max_game_length}"
        raise ValueError(msg)
    hints = AdapterHints(
        max_game_length=max_game_length,
        # The tensor is only ever called with states of this game.
        observation_tensor=cast(ObservationTensor[AnyState] | None, observation_tensor),
        perfect_information=perfect_information,
    )
    _HINTS[game] = hints
    return hints


def adapter_hints(game: str) -> AdapterHints:
    """The hints registered for ``game`` (empty hints if it registered none)."""
    return _HINTS.get(game, AdapterHints())
