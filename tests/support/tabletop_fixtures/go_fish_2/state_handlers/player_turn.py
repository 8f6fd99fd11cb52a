"""PlayerTurn: the player on turn asks; the game draws for them when they go fish or run out."""

from tabletop import StateHandler

from tabletop_fixtures.go_fish_2.actions.draw_card import HydratedDrawCard
from tabletop_fixtures.go_fish_2.definition.actions import ActionType
from tabletop_fixtures.go_fish_2.definition.states import MachineState
from tabletop_fixtures.go_fish_2.model.config import GoFishConfig
from tabletop_fixtures.go_fish_2.model.game_state import Ctx, HydratedGoFishGameState, pass_turn


class PlayerTurn(StateHandler[HydratedGoFishGameState, GoFishConfig]):
    """Asks until the thirteenth book; the actions themselves pass the turn when the rules say so."""

    accepts = (ActionType.ASK, ActionType.DRAW_CARD)
    transitions_to = (MachineState.PLAYER_TURN, MachineState.GAME_OVER)

    def valid_actions_for_player(self, player_id: str, ctx: Ctx) -> list[str]:
        """Players only ask; DrawCard is the game's own."""
        return [ActionType.ASK.value]

    def enter(self, ctx: Ctx) -> None:
        """Start the first turn, skip a player on turn who is out, and draw for an empty hand."""
        player_id = ctx.turns.current_player_id
        if player_id is None or ctx.state.is_out(player_id):
            player_id = pass_turn(ctx)
        if not ctx.state.player(player_id).hand:
            ctx.add_system_action(HydratedDrawCard, player_id=player_id)

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        return MachineState.GAME_OVER if ctx.state.all_books_made() else MachineState.PLAYER_TURN
