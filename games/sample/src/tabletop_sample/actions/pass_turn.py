"""Pass: end your turn without adding anything."""

from typing import Literal, Self

from pydantic import JsonValue
from tabletop import Game, GameAction, HydratedAction

from tabletop_sample.definition.actions import ActionType
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import HydratedSampleGameState, SampleGameState


class Pass(GameAction):
    """Give up the rest of your turn."""

    type: Literal[ActionType.PASS] = ActionType.PASS
    """The action tag."""
    player_id: str
    """The acting player."""


class HydratedPass(Pass, HydratedAction[Pass, HydratedSampleGameState, SampleConfig]):
    """Pass's rules: always allowed for the active player; changes nothing but the turn."""

    @staticmethod
    def can_pass(state: SampleGameState, player_id: str) -> bool:
        """True if ``player_id`` is active."""
        return state.is_active(player_id)

    @classmethod
    def enumerate(cls, state: HydratedSampleGameState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)] if cls.can_pass(state, player_id) else []

    @classmethod
    def action_space(cls, game: Game[SampleConfig]) -> list[dict[str, JsonValue]]:
        return [{}]
