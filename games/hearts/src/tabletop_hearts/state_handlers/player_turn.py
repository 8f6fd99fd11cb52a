"""PlayerTurn: the next player in turn order is the only one who may act."""

from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.game_state import Ctx, Handler


class PlayerTurn(Handler):
    """The player on turn acts; ending the game moves to GameOver."""

    accepts = (ActionType.END_GAME,)
    transitions_to = (MachineState.GAME_OVER,)

    def enter(self, ctx: Ctx) -> None:
        ctx.start_next_turn()

    def on_action(self, action: object, ctx: Ctx) -> MachineState | None:
        """Where the game goes after ``action``.

        Return None to stay: the same player acts again, without ``enter``. Return
        ``MachineState.PLAYER_TURN`` (declared in ``transitions_to``) to pass the turn: entering
        again starts the next player's turn.
        """
        return MachineState.GAME_OVER
