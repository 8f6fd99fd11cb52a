"""Bank: keep the points at risk and pass the turn (or win)."""

from typing import Literal, Self

from tabletop import GameAction, HydratedAction, IllegalActionError

from tabletop_fixtures.dice_tray.definition.actions import ActionType
from tabletop_fixtures.dice_tray.model.game_state import Ctx, HydratedTrayState, TrayConfig


class Bank(GameAction):
    """Bank the points at risk."""

    type: Literal[ActionType.BANK] = ActionType.BANK
    """The action tag."""
    player_id: str
    """The acting player."""


class HydratedBank(Bank, HydratedAction[Bank, HydratedTrayState, TrayConfig]):
    """Bank's rules: only after a roll."""

    def check(self, ctx: Ctx) -> None:
        if ctx.state.rolls == 0:
            raise IllegalActionError("nothing-to-bank", "roll first")

    def apply(self, ctx: Ctx) -> None:
        ctx.state.player(self.player_id).banked += ctx.state.at_risk
        ctx.state.at_risk = 0

    @classmethod
    def enumerate(cls, state: HydratedTrayState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)]
