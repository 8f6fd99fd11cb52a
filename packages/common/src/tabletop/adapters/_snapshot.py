"""One step of an OpenSpiel history, and the per-player observations built from it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Self

import orjson

from tabletop._action import GameAction
from tabletop._game import GameConfig
from tabletop._machine import AnyState, HydratedAction
from tabletop.adapters._observation import log_json, observation_json
from tabletop.adapters._table import Table, Turn

__all__ = ["Snapshot", "information_lines", "recorded_actions", "snapshot_from_json"]

AnyTable = Table[AnyState, GameConfig]


class Snapshot:
    """One step of an OpenSpiel history: a tabletop state and the actions recorded to reach it.

    Immutable, shared by clones, pickled as our JSON. Each player's observation and log line are
    built on first use and kept.
    """

    __slots__ = (
        "_actions",
        "_actions_json",
        "_json",
        "_logs",
        "_observations",
        "_pending",
        "_pending_json",
        "_state",
        "_turn",
    )

    def __init__(
        self,
        *,
        state: AnyState | None = None,
        actions: tuple[GameAction, ...] | None = None,
        json: bytes | None = None,
        actions_json: tuple[bytes, ...] | None = None,
        pending: tuple[GameAction, ...] | None = None,
        pending_json: tuple[bytes, ...] = (),
    ) -> None:
        self._state = state
        self._pending = pending
        self._pending_json = pending_json
        self._json = json
        self._actions = actions
        self._actions_json = actions_json
        self._turn: Turn[AnyState, GameConfig] | None = None
        self._observations: dict[str, str] = {}
        self._logs: dict[str, str] = {}

    def __deepcopy__(self, _memo: dict[int, object]) -> Self:
        return self  # never changed after it is made, so clones may share it

    def __reduce__(
        self,
    ) -> tuple[
        Callable[[bytes, tuple[bytes, ...], tuple[bytes, ...]], Snapshot],
        tuple[bytes, tuple[bytes, ...], tuple[bytes, ...]],
    ]:
        if self._actions_json is None:
            assert self._actions is not None
            self._actions_json = tuple(action.model_dump_json().encode() for action in self._actions)
        if self._pending and not self._pending_json:
            self._pending_json = tuple(action.model_dump_json().encode() for action in self._pending)
        # Pickled (OpenSpiel's serialization) as our JSON: the state, the recorded and pending actions.
        return (snapshot_from_json, (self.json(), self._actions_json, self._pending_json))

    def json(self) -> bytes:
        """The whole state as compact JSON (what serialization and ``str`` use)."""
        if self._json is None:
            assert self._state is not None
            self._json = orjson.dumps(self._state.model_dump(mode="json"))
        return self._json

    def state(self, table: AnyTable) -> AnyState:
        """The hydrated state (never mutate it: clones share it)."""
        if self._state is None:
            assert self._json is not None
            self._state = table.definition.state_type.model_validate_json(self._json)
        return self._state

    def actions(self, table: AnyTable) -> tuple[GameAction, ...]:
        """The actions recorded to reach this state, hidden fields included (never mutate them)."""
        if self._actions is None:
            assert self._actions_json is not None
            self._actions = tuple(
                table.definition.parser.parse_recorded(action) for action in self._actions_json
            )
        return self._actions

    def pending(self, table: AnyTable) -> list[HydratedAction[GameAction, AnyState, GameConfig]]:
        """The system actions left to process, a chance point first; empty but at a chance node.

        Copies: the caller may consume them.
        """
        if self._pending is None:
            self._pending = tuple(
                table.definition.parser.parse_recorded(action) for action in self._pending_json
            )
        return [table.definition.parser.parse_recorded(action) for action in self._pending]

    def is_chance(self) -> bool:
        """True at a chance node: a chance point waits for its outcome."""
        return bool(self._pending) or bool(self._pending_json)

    def turn(self, table: AnyTable) -> Turn[AnyState, GameConfig] | None:
        """Who acts and their legal actions; None once the game is over."""
        if self._turn is None:
            self._turn = table.turn(self.state(table))
        return self._turn

    def observation(self, table: AnyTable, player_id: str) -> str:
        """``player_id``'s view of the state, as JSON."""
        if player_id not in self._observations:
            self._observations[player_id] = observation_json(self.state(table), player_id).decode()
        return self._observations[player_id]

    def log(self, table: AnyTable, player_id: str) -> str:
        """The actions recorded to reach this state as ``player_id`` receives them, as a JSON array."""
        if player_id not in self._logs:
            self._logs[player_id] = log_json(self.actions(table), player_id).decode()
        return self._logs[player_id]


def information_lines(trail: Sequence[Snapshot], table: AnyTable, player_id: str) -> list[str]:
    """Two lines per step of ``trail``: its log as ``player_id`` receives it, then their observation."""
    lines: list[str] = []
    for snapshot in trail:  # one call per history: the cached lines are read directly
        log = snapshot._logs.get(player_id)
        observation = snapshot._observations.get(player_id)
        lines += (
            snapshot.log(table, player_id) if log is None else log,
            snapshot.observation(table, player_id) if observation is None else observation,
        )
    return lines


def recorded_actions(trail: Sequence[Snapshot], table: AnyTable) -> list[GameAction]:
    """Every action recorded along ``trail``, in order."""
    return [
        action
        for snapshot in trail
        for action in (snapshot.actions(table) if snapshot._actions is None else snapshot._actions)
    ]


def snapshot_from_json(
    json: bytes, actions_json: tuple[bytes, ...], pending_json: tuple[bytes, ...] = ()
) -> Snapshot:
    return Snapshot(json=json, actions_json=actions_json, pending_json=pending_json)
