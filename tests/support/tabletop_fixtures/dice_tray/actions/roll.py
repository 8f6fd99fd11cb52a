"""Roll: add pips to the points at risk (the player names them: a fixture needs no dice)."""

from typing import Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, Model

from tabletop_fixtures.dice_tray.definition.actions import ActionType
from tabletop_fixtures.dice_tray.model.game_state import Ctx, HydratedTrayState, TrayConfig


class RollMetadata(Model):
    """What a roll did."""

    at_risk: int
    """Points at risk after the roll."""


class Roll(GameAction):
    """Roll: the same player rolls again or holds."""

    type: Literal[ActionType.ROLL] = ActionType.ROLL
    """The action tag."""
    player_id: str
    """The acting player."""
    pips: int = Field(ge=1, le=3)
    """What the die shows."""
    metadata: RollMetadata | None = None
    """What the roll did, once applied."""


class HydratedRoll(Roll, HydratedAction[Roll, HydratedTrayState, TrayConfig]):
    """Roll's rules."""

    def apply(self, ctx: Ctx) -> None:
        ctx.state.at_risk += self.pips
        ctx.state.rolls += 1
        self.metadata = RollMetadata(at_risk=ctx.state.at_risk)

    @classmethod
    def enumerate(cls, state: HydratedTrayState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id, pips=pips) for pips in (1, 2, 3)]

    @classmethod
    def action_space(cls, game: Game[TrayConfig]) -> list[dict[str, JsonValue]]:
        return [{"pips": pips} for pips in (1, 2, 3)]
