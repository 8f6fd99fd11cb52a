"""Dealing: nobody acts while DealCard chance points deal each seat its hand, one card at a time."""

from tabletop import StateHandler
from tabletop.components import standard_deck

from tabletop_go_fish.actions.deal_card import HydratedDealCard
from tabletop_go_fish.components.rules import hand_size
from tabletop_go_fish.definition.actions import ActionType
from tabletop_go_fish.definition.states import MachineState
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import Ctx, HydratedGoFishGameState


class Dealing(StateHandler[HydratedGoFishGameState, GoFishConfig]):
    """Queues one DealCard per card dealt, round the table; then the first turn."""

    accepts = (ActionType.DEAL_CARD,)
    transitions_to = (MachineState.PLAYER_TURN,)

    def enter(self, ctx: Ctx) -> None:
        """Card ``i`` goes to seat ``i`` mod the seat count, the first seat first, until each seat
        has its hand (``hand_size``); the engine decides each card among those in the stock."""
        state = ctx.state
        state.active_player_ids = []
        seats = [player.player_id for player in state.players]
        for index in range(hand_size(len(seats)) * len(seats)):
            ctx.add_system_action(HydratedDealCard, to=seats[index % len(seats)])

    def on_action(self, action: object, ctx: Ctx) -> MachineState | None:
        """Stay until the last card is dealt, then start the first turn."""
        state = ctx.state
        dealt = len(standard_deck()) - len(state.deck)
        return (
            MachineState.PLAYER_TURN if dealt == hand_size(len(state.players)) * len(state.players) else None
        )
