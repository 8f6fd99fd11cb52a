"""The assembled Pig definition."""

from tabletop import GameDefinition

from tabletop_pig.definition.migrations import migrations
from tabletop_pig.definition.state_handlers import state_handlers
from tabletop_pig.definition.states import MachineState
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import Ctx, HydratedPigGameState
from tabletop_pig.model.invariants import config_invariants, invariants


def setup(ctx: Ctx) -> None:
    """The die gets the config's faces (draws nothing)."""
    ctx.state.die.sides = ctx.config.dice_outcomes


definition = GameDefinition(
    name="pig",
    state_type=HydratedPigGameState,
    initial_state=MachineState.PLAYER_TURN,
    handlers=state_handlers,
    min_players=2,
    max_players=4,
    setup=setup,
    logic_version="2.0.0",
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
)
