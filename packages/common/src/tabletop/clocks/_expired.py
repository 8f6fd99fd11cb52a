"""``TimeExpired``: the framework's own action for a seat that lost on time, in every game's log.

A host with a clock records it when a seat's time runs out under the ``forfeit`` policy (the
``bot`` and ``pass`` policies record the move played for the seat instead). The engine applies
it with the game's forfeit rule (:class:`~tabletop.clocks.ExpiryRules`, else
:func:`~tabletop.clocks.default_forfeit`), so replaying a log reproduces the ending, and the
action says what the host observed: when the time ran out and when the host saw it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import ClassVar, Literal

from pydantic import Field

from tabletop._action import ActionSource, GameAction
from tabletop._errors import GameDefinitionError
from tabletop._game import GameConfig
from tabletop._machine import AnyState, HydratedAction, MachineContext
from tabletop._model import Model
from tabletop._state import GameResult
from tabletop.clocks._expiry import Forfeit

__all__ = [
    "TIME_EXPIRED",
    "HydratedTimeExpired",
    "TimeExpired",
    "TimeExpiredMetadata",
    "lose_on_time",
]

TIME_EXPIRED = "TimeExpired"
"""The action type the framework reserves in every game."""


class TimeExpiredMetadata(Model):
    """How the forfeit ended the game, filled in by the engine."""

    result: GameResult
    """The game's result: ``win``, or ``abandoned`` when nobody is left to win."""
    winning_player_ids: list[str] = Field(default_factory=list)
    """The winners, as the game's forfeit rule decided."""


class TimeExpired(GameAction):
    """A seat's time ran out and, under the match's ``forfeit`` policy, it loses: the game ends
    with the game's forfeit rule. Only a host records it (a client sending it gets ``system-only``).
    """

    system_only: ClassVar[bool] = True
    host_action: ClassVar[bool] = True

    type: Literal["TimeExpired"] = "TimeExpired"
    """The action tag."""
    source: Literal[ActionSource.SYSTEM] = ActionSource.SYSTEM
    """Always ``system``: the host records it."""
    player_id: str
    """The seat whose time ran out (one of the players who could act)."""
    due_at: datetime
    """When the seat's time ran out, by the match's clock."""
    observed_at: datetime
    """When the host saw it run out (at or after ``due_at``; later after a host was down)."""
    metadata: TimeExpiredMetadata | None = None
    """The result and winners; set by the engine when the action is applied."""


class HydratedTimeExpired(TimeExpired, HydratedAction[TimeExpired, AnyState, GameConfig]):
    """The engine applies it itself (:func:`lose_on_time`), in whatever machine state the game is."""


ForfeitRule = Callable[[AnyState, str], Forfeit]


def lose_on_time(
    action: HydratedTimeExpired, ctx: MachineContext[AnyState, GameConfig], rule: ForfeitRule, game: str
) -> None:
    """End ``ctx.state`` on ``action``'s seat's forfeit: result and winners by ``rule``, nobody active.

    The machine state stays where play stopped (no handler runs), so a game's ``result`` may be
    set in any machine state: a game's invariants must allow it.

    Raises:
        GameDefinitionError: The rule named a winner without a seat, or a win without winners.
    """
    state = ctx.state
    outcome = rule(state, action.player_id)
    seats = {player.player_id for player in state.players}
    problems = [
        f"the forfeit rule names winner {winner!r}, who has no seat"
        for winner in outcome.winners
        if winner not in seats
    ]
    if outcome.result is GameResult.WIN and not outcome.winners:
        problems.append("the forfeit rule gives a win without winners")
    if problems:
        raise GameDefinitionError(game, problems)
    state.result = outcome.result
    state.winning_player_ids = list(outcome.winners)
    state.active_player_ids = []
    action.metadata = TimeExpiredMetadata(result=outcome.result, winning_player_ids=list(outcome.winners))
