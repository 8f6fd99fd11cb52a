"""The assembled Hex definition."""

from tabletop import GameDefinition
from tabletop.adapters import register_adapter_hints

from tabletop_hex.components.sides import MAX_SIDE
from tabletop_hex.definition.migrations import migrations
from tabletop_hex.definition.state_handlers import state_handlers
from tabletop_hex.definition.states import MachineState
from tabletop_hex.model.config import HexConfig
from tabletop_hex.model.game_state import HydratedHexGameState, setup
from tabletop_hex.model.invariants import config_invariants, invariants

definition = GameDefinition(
    name="hex",
    state_type=HydratedHexGameState,
    config_type=HexConfig,
    initial_state=MachineState.PLAYER_TURN,
    handlers=state_handlers,
    setup=setup,
    logic_version="2.0.0",
    migrations=migrations,
    min_players=2,
    max_players=2,
    invariants=invariants,
    config_invariants=config_invariants,
    example_configs=[
        HexConfig(board_size=5),
        HexConfig(num_cols=3, num_rows=6),
        HexConfig(num_cols=9, num_rows=2),
    ],
    title="Hex",
    description="Take turns placing stones on a rhombus of hexes; the first to join their two edges wins.",
)

register_adapter_hints(definition.name, max_game_length=MAX_SIDE * MAX_SIDE, perfect_information=True)
