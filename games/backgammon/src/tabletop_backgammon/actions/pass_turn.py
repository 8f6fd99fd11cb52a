"""Pass: the player on turn cannot move any checker, and says so."""

from typing import Literal, Self

from tabletop import GameAction, HydratedAction, IllegalActionError

from tabletop_backgammon.definition.actions import ActionType
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.game_state import Ctx, HydratedBackgammonGameState


class Pass(GameAction):
    """Give up the rest of the dice: allowed only when no checker can move with them."""

    type: Literal[ActionType.PASS] = ActionType.PASS
    """The action tag."""
    player_id: str
    """The acting player."""


class HydratedPass(Pass, HydratedAction[Pass, HydratedBackgammonGameState, BackgammonConfig]):
    """Pass's rules: only with dice to play and no legal step."""

    def check(self, ctx: Ctx) -> None:
        if not ctx.state.unused:
            raise IllegalActionError("no-dice", "there are no dice to play")
        if ctx.state.legal_steps(self.player_id):
            raise IllegalActionError("must-move", "a checker can move: passing is only for a blocked roll")

    def apply(self, ctx: Ctx) -> None:
        ctx.state.end_half_if_done(self.player_id)  # nothing can move: the half (and turn) ends

    @classmethod
    def enumerate(cls, state: HydratedBackgammonGameState, player_id: str) -> list[Self]:
        return [] if state.legal_steps(player_id) else [cls.candidate(state, player_id)]
