"""Seating a game with fixed ids: what demos, replays, simulations and tests start from."""

from __future__ import annotations

from typing import TypeVar

from tabletop._definition import GameDefinition
from tabletop._errors import IllegalActionError
from tabletop._game import Game, GameConfig, Player
from tabletop._machine import AnyState

__all__ = ["seated_game"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)


def seated_game(
    definition: GameDefinition[StateT, ConfigT],
    *,
    players: int = 2,
    seed: int = 42,
    config: ConfigT | None = None,
    game_id: str = "game-1",
) -> Game[ConfigT]:
    """A game with fixed ids: players ``p1``..``pN`` named ``Player 1``..``Player N``.

    The public form is :func:`tabletop.testing.make_game`; production modules (the CLI, goldens,
    simulations, recorded fixtures) use this one, so they never import the test harness.

    Raises:
        IllegalActionError: ``players`` is outside the game's range (code ``invalid-game``, as
            :meth:`GameEngine.start` raises for such a game).
    """
    if not definition.min_players <= players <= definition.max_players:
        raise IllegalActionError(
            "invalid-game",
            f"{players} players; {definition.name} takes {definition.min_players}..{definition.max_players}",
            path="players",
        )
    seats = [Player(id=f"p{n}", name=f"Player {n}") for n in range(1, players + 1)]
    return definition.game_type(
        id=game_id,
        type_id=definition.name,
        players=seats,
        config=config if config is not None else definition.config_type(),
        seed=seed,
    )
