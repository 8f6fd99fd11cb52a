"""The assembled Backgammon definition."""

from tabletop import GameDefinition

from tabletop_backgammon.definition.migrations import migrations
from tabletop_backgammon.definition.state_handlers import state_handlers
from tabletop_backgammon.definition.states import MachineState
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.evaluator import evaluate
from tabletop_backgammon.model.game_state import HydratedBackgammonGameState, setup
from tabletop_backgammon.model.invariants import invariants

definition = GameDefinition(
    name="backgammon",
    state_type=HydratedBackgammonGameState,
    initial_state=MachineState.PLAYER_TURN,
    handlers=state_handlers,
    setup=setup,
    logic_version="2.0.0",
    migrations=migrations,
    min_players=2,
    max_players=2,
    chance=True,  # the dice must stay unforeseeable: the game only starts with a PRNG key
    title="Backgammon",
    description="Race your 15 checkers home and bear them off; hit blots, block points, roll doubles.",
    example_configs=[BackgammonConfig(scoring_type="full_scoring", max_player_turns=200)],
    invariants=invariants,
    evaluator=evaluate,
)
