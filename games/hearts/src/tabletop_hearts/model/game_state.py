"""Hearts's state, its behaviour, and its initializer."""

from tabletop import GameState, Hydrated, MachineContext, StateHandler

from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.player_state import HeartsPlayerState


class HeartsGameState(GameState[HeartsPlayerState, MachineState]):
    """Hearts's state."""

    ended_by: str | None = None
    """The player who ended the game, once someone has."""


class HydratedHeartsGameState(HeartsGameState, Hydrated[HeartsGameState]):
    """Hearts's state with its queries (add methods here)."""


Ctx = MachineContext[HydratedHeartsGameState, HeartsConfig]
"""What handlers and actions see: the working state, the game, the PRNG."""
Handler = StateHandler[HydratedHeartsGameState, HeartsConfig]
"""The base class of every state handler of Hearts."""


def setup(ctx: Ctx) -> None:
    """Fill in the game-specific state of a new game, drawing randomness only from ``ctx.prng``."""
