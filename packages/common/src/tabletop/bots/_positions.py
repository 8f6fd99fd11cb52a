"""A transposition table for search: every distinct state met once, with its moves and successors.

The engine is a pure function of ``(action, state, game)``, so a state's legal actions and the
state an action leads to can be remembered by the state's exact JSON bytes: a position reached
again, by another path or in another iteration, costs a dictionary look-up instead of a run.

Chance: positions are told apart by everything but the PRNG, and each search iteration plays
with a PRNG of its own (see :class:`~tabletop.bots.MctsBot`). An action that draws nothing leads
to the same position in every world and is remembered; one that draws (a roll, a card off the
deck) is run again in every world, with that world's PRNG, so its outcome is sampled afresh.
"""

from __future__ import annotations

from enum import Enum
from typing import Generic, TypeVar

import orjson

from tabletop._action import GameAction
from tabletop._checksum import remember_id
from tabletop._engine import GameEngine, run_owned
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, HydratedAction
from tabletop._prng import PrngState
from tabletop.bots._bot import give_id

__all__ = ["ActionKeys", "Position", "PositionTable", "action_key"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

_ENVELOPE = frozenset(
    {"id", "game_id", "source", "index", "simultaneous_group_id", "reveals_info", "created_at", "metadata"}
)
_PRNG = {"prng"}

SIMULATED_ID = "mcts-simulated"
"""The id of every action submitted inside a search (never a real action)."""
remember_id(SIMULATED_ID)  # the checksum hashes "mcts-simulated:" once, then only each index


def action_key(action: GameAction) -> bytes:
    """What identifies an action across states: its type, player and payload as sorted JSON.

    Two candidates with the same key are the same move, whatever their id or index.
    """
    return orjson.dumps(action.model_dump(mode="json", exclude=set(_ENVELOPE)), option=orjson.OPT_SORT_KEYS)


_SCALARS = frozenset({str, int, bool, type(None)})
"""Field value types whose JSON is fixed by the type and the value (floats are not: -0.0 == 0.0)."""


class ActionKeys:
    """:func:`action_key`, remembered for the actions of one search whose fields are plain values.

    An action whose non-envelope fields are all strings, integers, booleans, None or enum
    members has the same key as any other action of its class with the same values (of the
    same types): that key is serialized once. Any other action is serialized every time.
    """

    __slots__ = ("_fields", "_known")

    def __init__(self) -> None:
        self._fields: dict[type, tuple[str, ...]] = {}
        self._known: dict[tuple[object, ...], bytes] = {}

    def __call__(self, action: GameAction) -> bytes:
        """The :func:`action_key` of ``action``."""
        kind = type(action)
        names = self._fields.get(kind)
        if names is None:
            names = self._fields[kind] = tuple(name for name in kind.model_fields if name not in _ENVELOPE)
        values = action.__dict__
        parts: list[object] = [kind]
        for name in names:
            value = values[name]
            of = type(value)
            if of not in _SCALARS and not isinstance(value, Enum):
                return action_key(action)
            parts += (of, value)
        memo = tuple(parts)
        key = self._known.get(memo)
        if key is None:
            key = self._known[memo] = action_key(action)
        return key


class Position(Generic[StateT, ConfigT]):
    """One distinct state, what its acting player may do, and where each action leads.

    Attributes:
        state: The state (never mutated).
        acting: The acting player, once known ("" if nobody can act).
        legal: The acting player's legal actions (with the search's id), once known.
        keys: Each legal action's :func:`action_key` to its index in ``legal``, once needed.
        successors: The position each legal action leads to, by index, once visited (only
            for actions that draw nothing from the PRNG: those lead there in every world).
    """

    __slots__ = ("acting", "keys", "legal", "state", "successors")

    def __init__(self, state: StateT) -> None:
        self.state = state
        self.acting: str | None = None
        self.legal: list[HydratedAction[GameAction, StateT, ConfigT]] = []
        self.keys: dict[bytes, int] | None = None
        self.successors: list[Position[StateT, ConfigT] | None] = []


class PositionTable(Generic[StateT, ConfigT]):
    """The positions of one search, by exact state bytes, holding at most ``capacity`` of them.

    Past the capacity, new positions are still built and linked from their predecessors, just
    not indexed for transpositions.
    """

    def __init__(self, engine: GameEngine[StateT, ConfigT], game: Game[ConfigT], capacity: int) -> None:
        self.engine = engine
        self.game = game
        self.capacity = capacity
        self._by_bytes: dict[bytes, Position[StateT, ConfigT]] = {}
        self._action_keys = ActionKeys()
        self.runs = 0
        """How many engine runs the table made (the misses)."""

    def __len__(self) -> int:
        return len(self._by_bytes)

    def position(self, state: StateT) -> Position[StateT, ConfigT]:
        """The position of ``state``: the known one with the same bytes, or a new one."""
        if self.capacity <= 0:
            return Position(state)
        raw = state.__pydantic_serializer__.to_json(state, exclude=_PRNG)
        known = self._by_bytes.get(raw)
        if known is not None:
            return known
        created: Position[StateT, ConfigT] = Position(state)
        if len(self._by_bytes) < self.capacity:
            self._by_bytes[raw] = created
        return created

    def moves(self, position: Position[StateT, ConfigT], forced: str = "") -> Position[StateT, ConfigT]:
        """Fill in the acting player and their legal actions (``forced``: that player acts).

        The acting player is ``forced`` if given, else the first active player with a legal
        action. Returns ``position`` for chaining.
        """
        if position.acting is not None:
            return position
        state, engine, game = position.state, self.engine, self.game
        position.acting = ""
        for player_id in (forced,) if forced else state.active_player_ids:
            legal = engine.legal_actions(state, player_id, game)
            if legal:
                for action in legal:  # fresh candidates: owned here, so the id is set in place
                    give_id(action, SIMULATED_ID)
                position.acting, position.legal = player_id, legal
                position.successors = [None] * len(legal)
                break
        return position

    def keys(self, position: Position[StateT, ConfigT]) -> dict[bytes, int]:
        """Each legal action's key to its index (call :meth:`moves` first)."""
        keys = position.keys
        if keys is None:
            key = self._action_keys
            keys = position.keys = {key(action): index for index, action in enumerate(position.legal)}
        return keys

    def successor(
        self, position: Position[StateT, ConfigT], index: int, prng: PrngState
    ) -> tuple[Position[StateT, ConfigT], PrngState]:
        """Where legal action ``index`` leads when played with ``prng``, and the PRNG after it.

        The action (a copy of the remembered candidate, handed over with ``run_owned``) runs
        through the engine on a copy of ``position``'s state with ``prng`` in place of the
        state's own. If it drew nothing, the successor is remembered (it is the same in
        every world); if it drew, it is run again next time, with that time's PRNG.
        """
        known = position.successors[index]
        if known is not None:
            return known, prng
        self.runs += 1
        state = position.state
        if state.prng != prng:
            state = state.model_copy(update={"prng": prng})  # shallow: copied next
        after = self.engine.copy_state(state)
        # The remembered candidate was enumerated and checked by the engine: a copy of it is
        # handed over (every rule applies; it is not re-validated into yet another copy).
        run_owned(self.engine, position.legal[index].with_id(SIMULATED_ID), after, self.game)
        following = self.position(after)
        if after.prng.invocations == prng.invocations:
            position.successors[index] = following
        return following, after.prng
