"""The assembled Gallery definition."""

from tabletop import GameDefinition

from tabletop_gallery.components.rules import MAX_PLAYERS, MIN_PLAYERS
from tabletop_gallery.definition.migrations import migrations
from tabletop_gallery.definition.state_handlers import state_handlers
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.determinizer import determinize
from tabletop_gallery.model.evaluator import evaluate
from tabletop_gallery.model.game_state import HydratedGalleryGameState, setup
from tabletop_gallery.model.invariants import invariants

definition = GameDefinition(
    name="gallery",
    state_type=HydratedGalleryGameState,
    initial_state=MachineState.DEALING,
    handlers=state_handlers,
    setup=setup,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    logic_version="2.0.0",
    migrations=migrations,
    determinizer=determinize,
    invariants=invariants,
    evaluator=evaluate,
    title="Gallery",
    description="Auction paintings five ways; the artists bought most each round are worth the most.",
)
