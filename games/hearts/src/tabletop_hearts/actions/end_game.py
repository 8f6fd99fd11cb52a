"""EndGame: the player on turn ends the game (the starter action: replace it with your own)."""

from typing import Literal, Self

from tabletop import GameAction, HydratedAction

from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import Ctx, HydratedHeartsGameState


class EndGame(GameAction):
    """End the game; whoever ends it wins."""

    type: Literal[ActionType.END_GAME] = ActionType.END_GAME
    """The action tag."""
    player_id: str
    """The acting player."""


class HydratedEndGame(EndGame, HydratedAction[EndGame, HydratedHeartsGameState, HeartsConfig]):
    """EndGame's rules: the player on turn may always end the game."""

    def apply(self, ctx: Ctx) -> None:
        ctx.state.ended_by = self.player_id

    @classmethod
    def enumerate(cls, state: HydratedHeartsGameState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)]
