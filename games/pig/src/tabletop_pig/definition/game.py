"""The assembled Pig definition."""

from collections.abc import Mapping

from tabletop import GameDefinition
from tabletop.clocks import ExpiryRules

from tabletop_pig.definition.state_handlers import state_handlers
from tabletop_pig.definition.states import MachineState
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import HydratedPigGameState
from tabletop_pig.model.invariants import config_invariants, invariants


def pass_on_timeout(state: HydratedPigGameState, player_id: str) -> Mapping[str, object] | None:
    """A seat out of time in a clocked match banks what it rolled (Hold); before rolling it
    cannot pass, and the host's bot rolls for it."""
    return {"type": "Hold"} if state.turn_total > 0 else None


definition = GameDefinition(
    name="pig",
    state_type=HydratedPigGameState,
    initial_state=MachineState.PLAYER_TURN,
    handlers=state_handlers,
    min_players=2,
    max_players=4,
    chance=True,  # the dice must stay unforeseeable: the game only starts with a PRNG key
    title="Pig",
    description="Roll a die as often as you dare; a 1 loses the turn's points. Bank them to win.",
    example_configs=[PigConfig(target=20)],
    invariants=invariants,
    config_invariants=config_invariants,
    expiry=ExpiryRules(pass_action=pass_on_timeout),
)
