"""The assembled Pig definition."""

from collections.abc import Mapping

from tabletop import GameDefinition
from tabletop.clocks import ExpiryRules

from tabletop_pig.definition.migrations import migrations
from tabletop_pig.definition.state_handlers import state_handlers
from tabletop_pig.definition.states import MachineState
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import Ctx, HydratedPigGameState
from tabletop_pig.model.invariants import config_invariants, invariants


def setup(ctx: Ctx) -> None:
    """The die gets the config's faces (draws nothing)."""
    ctx.state.die.sides = ctx.config.dice_outcomes


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
    setup=setup,
    logic_version="3.0.0",
    migrations=migrations,
    chance=True,  # the die (RollDie, a chance point) must stay unforeseeable: the game needs a PRNG key
    title="Pig",
    description="Roll a die as often as you dare; a 1 loses the turn's points. Bank them to win.",
    example_configs=[
        PigConfig(target=20),
        PigConfig(target=30, dice_outcomes=4, horizon=60, hold_without_points=True, must_hold_at_target=True),
    ],
    invariants=invariants,
    config_invariants=config_invariants,
    expiry=ExpiryRules(pass_action=pass_on_timeout),
)
