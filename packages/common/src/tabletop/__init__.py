"""tabletop: typed, schema-first state machines for board games.

The public surface is exactly ``__all__``; everything else lives in private modules.
"""

from tabletop._action import ActionSource, GameAction
from tabletop._chance import ChanceAction, HydratedChanceAction
from tabletop._definition import GameDefinition
from tabletop._dumper import dump_json
from tabletop._engine import GameEngine, RunResult
from tabletop._errors import (
    GameDefinitionError,
    IllegalActionError,
    InvalidStateError,
    PrngKeyError,
    TabletopError,
)
from tabletop._game import Game, GameConfig, GameStatus, Player
from tabletop._hydration import Hydrated, HydrationInput, hydrate
from tabletop._machine import (
    AnyState,
    ChanceOutcomes,
    ChanceResolver,
    HydratedAction,
    MachineContext,
    StateHandler,
    TerminalHandler,
)
from tabletop._migration import Migration, MigrationError
from tabletop._model import Model
from tabletop._parser import ActionParser, RawAction
from tabletop._prng import UNKEYED, HasPrng, Prng, PrngState, Unkeyed, new_prng_key
from tabletop._state import GameResult, GameState, PlayerState, SimultaneousGroup

__all__ = [
    "UNKEYED",
    "ActionParser",
    "ActionSource",
    "AnyState",
    "ChanceAction",
    "ChanceOutcomes",
    "ChanceResolver",
    "Game",
    "GameAction",
    "GameConfig",
    "GameDefinition",
    "GameDefinitionError",
    "GameEngine",
    "GameResult",
    "GameState",
    "GameStatus",
    "HasPrng",
    "Hydrated",
    "HydratedAction",
    "HydratedChanceAction",
    "HydrationInput",
    "IllegalActionError",
    "InvalidStateError",
    "MachineContext",
    "Migration",
    "MigrationError",
    "Model",
    "Player",
    "PlayerState",
    "Prng",
    "PrngKeyError",
    "PrngState",
    "RawAction",
    "RunResult",
    "SimultaneousGroup",
    "StateHandler",
    "TabletopError",
    "TerminalHandler",
    "Unkeyed",
    "dump_json",
    "hydrate",
    "new_prng_key",
]
