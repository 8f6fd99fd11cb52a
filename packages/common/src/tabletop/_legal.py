"""Legal actions: every candidate a player may play now, from the definition's tables."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Generic, TypeVar

from tabletop._action import GameAction
from tabletop._definition import GameDefinition
from tabletop._errors import IllegalActionError
from tabletop._game import Game, GameConfig
from tabletop._lazy import lazy_candidates
from tabletop._machine import AnyState, HydratedAction, MachineContext, StateHandler

__all__ = ["LegalActions"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

Action = HydratedAction[GameAction, StateT, ConfigT]
_Checked = tuple[type[Action[StateT, ConfigT]], bool]


class LegalActions(Generic[StateT, ConfigT]):
    """What each machine state of a definition offers, worked out once; called per state.

    Args:
        definition: The game whose actions are enumerated.
    """

    __slots__ = ("_enumerable", "_handlers", "_plans")

    def __init__(self, definition: GameDefinition[StateT, ConfigT]) -> None:
        self._handlers = definition.handlers
        self._enumerable: dict[str, _Checked[StateT, ConfigT]] = {
            action_type: (action_class, action_class.check is not HydratedAction.check)
            for action_type, action_class in definition.action_by_type.items()
            if action_class.is_enumerable()
        }
        """Per enumerable action type: its class, and whether it overrides ``check``."""
        self._plans: dict[StrEnum, tuple[_Checked[StateT, ConfigT], ...] | None] = {
            state: tuple(self._enumerable[str(t)] for t in handler.accepts if str(t) in self._enumerable)
            if type(handler).is_valid_action is StateHandler.is_valid_action
            and type(handler).valid_actions_for_player is StateHandler.valid_actions_for_player
            else None
            for state, handler in self._handlers.items()
        }
        """Per machine state whose handler keeps both default tests (types and candidates by
        ``accepts``): the enumerable classes it accepts, in ``accepts`` order, with their checks."""

    def __call__(self, state: StateT, player_id: str, game: Game[ConfigT]) -> list[Action[StateT, ConfigT]]:
        """The legal candidates of ``player_id`` in ``state`` (hydrated), in the engine's order.

        Per action type the handler offers (in its order), each candidate of the type's
        ``enumerate`` that the handler accepts and whose ``check`` passes.
        """
        legal: list[Action[StateT, ConfigT]] = []
        if state.result is not None or not state.is_active(player_id):
            return legal
        ctx = MachineContext(state, game)
        for candidates, checks in self.offered(state, player_id, ctx):
            if checks:
                _keep_legal(candidates, ctx, legal)
            else:
                legal += candidates
        return legal

    def offered(
        self, state: StateT, player_id: str, ctx: MachineContext[StateT, ConfigT], *, lazy: bool = False
    ) -> list[tuple[Iterable[Action[StateT, ConfigT]], bool]]:
        """The candidates the handler accepts from ``player_id``, not yet checked, type by type.

        Per action type the handler offers (in its order): that type's candidates the handler
        accepts, and whether their class overrides ``check`` (else every one of them is legal).
        For an active player of a game that is not over, with ``ctx`` on ``state``.

        ``lazy``: where the handler keeps the default ``is_valid_action`` (nothing reads a
        candidate before it is drawn), ``enumerate``'s candidates come unbuilt
        (``tabletop._lazy``); the caller builds the one it draws with
        :func:`~tabletop._lazy.built` before checking it.
        """
        plan = self._plans[state.machine_state]
        if plan is not None:  # the handler's default tests: every accepted, enumerable type
            if not lazy:
                return [(action_class.enumerate(state, player_id), checks) for action_class, checks in plan]
            token = lazy_candidates.set(True)
            try:
                return [(action_class.enumerate(state, player_id), checks) for action_class, checks in plan]
            finally:
                lazy_candidates.reset(token)
        handler = self._handlers[state.machine_state]
        enumerable = self._enumerable
        accepts_by_type = type(handler).is_valid_action is StateHandler.is_valid_action
        offered: list[tuple[Iterable[Action[StateT, ConfigT]], bool]] = []
        for action_type in handler.valid_actions_for_player(player_id, ctx):
            found = enumerable.get(action_type)
            if found is None:
                continue
            action_class, checks = found
            if accepts_by_type and action_type not in handler.accepts:
                continue  # the default is_valid_action refuses every candidate of this type
            if lazy and accepts_by_type:  # nothing reads a candidate before it is drawn
                token = lazy_candidates.set(True)
                try:
                    candidates = action_class.enumerate(state, player_id)
                finally:
                    lazy_candidates.reset(token)
            else:
                candidates = action_class.enumerate(state, player_id)
            if not accepts_by_type:
                candidates = [
                    candidate for candidate in candidates if handler.is_valid_action(candidate, ctx)
                ]
            offered.append((candidates, checks))
        return offered


def _keep_legal(
    candidates: Iterable[Action[StateT, ConfigT]],
    ctx: MachineContext[StateT, ConfigT],
    legal: list[Action[StateT, ConfigT]],
) -> None:
    """Append to ``legal`` each of ``candidates`` whose ``check`` passes."""
    for candidate in candidates:
        try:
            candidate.check(ctx)
        except IllegalActionError:
            continue
        legal.append(candidate)
