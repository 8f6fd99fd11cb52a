"""Hold: give the points at risk up and pass the turn."""

from typing import Literal, Self

from tabletop import GameAction, HydratedAction

from tabletop_fixtures.dice_tray.definition.actions import ActionType
from tabletop_fixtures.dice_tray.model.game_state import Ctx, HydratedTrayState, TrayConfig


class Hold(GameAction):
    """Pass the turn, losing the points at risk."""

    type: Literal[ActionType.HOLD] = ActionType.HOLD
    """The action tag."""
    player_id: str
    """The acting player."""


class HydratedHold(Hold, HydratedAction[Hold, HydratedTrayState, TrayConfig]):
    """Hold's rules."""

    def apply(self, ctx: Ctx) -> None:
        ctx.state.at_risk = 0

    @classmethod
    def enumerate(cls, state: HydratedTrayState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)]
