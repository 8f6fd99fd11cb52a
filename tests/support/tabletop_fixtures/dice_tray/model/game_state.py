"""Dice tray state."""

from tabletop import GameConfig, GameState, Hydrated, MachineContext, PlayerState, StateHandler

from tabletop_fixtures.dice_tray.definition.states import MachineState


class TrayConfig(GameConfig):
    """Dice tray options."""

    target: int = 10
    """Banking this many points ends the game."""


class TrayPlayer(PlayerState):
    """A seat at the tray."""

    banked: int = 0
    """Points banked."""


class TrayState(GameState[TrayPlayer, MachineState]):
    """The tray: the points at risk this turn."""

    at_risk: int = 0
    """Pips rolled this turn, not yet banked."""
    rolls: int = 0
    """Rolls this turn."""


class HydratedTrayState(TrayState, Hydrated[TrayState]):
    """The tray with its behaviour."""


Ctx = MachineContext[HydratedTrayState, TrayConfig]
Handler = StateHandler[HydratedTrayState, TrayConfig]
