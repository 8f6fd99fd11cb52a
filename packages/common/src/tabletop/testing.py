"""Test harness: fixed-id games, started states, contexts and actions for unit tests.

Example:
    >>> from tabletop.testing import GameHarness
    >>> harness = GameHarness.for_game("sample", players=2, seed=42)
    >>> harness.state.action_count
    0
"""

from __future__ import annotations

from typing import Generic, TypeVar

from tabletop import games
from tabletop._action import GameAction
from tabletop._definition import GameDefinition
from tabletop._engine import GameEngine, RunResult
from tabletop._game import Game, GameConfig, Player
from tabletop._machine import AnyState, HydratedAction, MachineContext
from tabletop._parser import RawAction

__all__ = ["GameHarness", "make_game"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)
ActionT = TypeVar("ActionT", bound=GameAction)


def make_game(
    definition: GameDefinition[StateT, ConfigT],
    *,
    players: int = 2,
    seed: int = 42,
    config: ConfigT | None = None,
    game_id: str = "game-1",
    prng_key: str | None = None,
) -> Game[ConfigT]:
    """A game with fixed ids: players ``p1``..``pN`` named ``Player 1``..``Player N``.

    ``prng_key`` (None by default, so tests replay from the seed alone) keys the game's PRNG,
    as a host does with ``tabletop.new_prng_key()``.
    """
    seats = [Player(id=f"p{n}", name=f"Player {n}") for n in range(1, players + 1)]
    return Game[definition.config_type](  # type: ignore[name-defined]
        id=game_id,
        type_id=definition.name,
        players=seats,
        config=config if config is not None else definition.config_type(),
        seed=seed,
        prng_key=prng_key,
    )


class GameHarness(Generic[StateT, ConfigT]):
    """One game under test: its definition, engine, game and current state.

    ``state`` advances as actions are played through :meth:`play`; handlers, actions and
    components can also be exercised directly on :meth:`context`.
    """

    def __init__(
        self,
        definition: GameDefinition[StateT, ConfigT],
        *,
        players: int = 2,
        seed: int = 42,
        config: ConfigT | None = None,
        prng_key: str | None = None,
    ) -> None:
        self.definition = definition
        self.engine = GameEngine(definition)
        self.game = make_game(definition, players=players, seed=seed, config=config, prng_key=prng_key)
        self.state: StateT = self.engine.start(self.game).state
        self.log: list[HydratedAction[GameAction, StateT, ConfigT]] = []
        self._next_id = 0

    @classmethod
    def for_game(
        cls,
        name: str,
        *,
        players: int = 2,
        seed: int = 42,
        config: GameConfig | None = None,
        prng_key: str | None = None,
    ) -> GameHarness[AnyState, GameConfig]:
        """A harness over an installed game, found through its entry point."""
        return GameHarness(games.load(name), players=players, seed=seed, config=config, prng_key=prng_key)

    def next_id(self) -> str:
        """A fresh, deterministic action id: ``a1``, ``a2``, ..."""
        self._next_id += 1
        return f"a{self._next_id}"

    def action(
        self, action_type: type[ActionT], player_id: str | None = None, /, **fields: object
    ) -> ActionT:
        """Build a user action of ``action_type`` with a fresh id for this game."""
        return action_type.model_validate(
            {"id": self.next_id(), "game_id": self.game.id, "player_id": player_id, **fields}
        )

    def context(self) -> MachineContext[StateT, ConfigT]:
        """A machine context over a fresh copy of the current state (the harness is untouched)."""
        return MachineContext(self.engine.copy_state(self.state), self.game)

    def play(self, *actions: RawAction) -> StateT:
        """Play actions through the engine in order; return (and keep) the resulting state."""
        for action in actions:
            self.run(action)
        return self.state

    def run(self, action: RawAction) -> RunResult[StateT, ConfigT]:
        """Play one action and return the engine's full result (state and recorded actions)."""
        result = self.engine.run(action, self.state, self.game)
        self.state = result.state
        self.log.extend(result.actions)
        return result

    def legal_actions(self, player_id: str) -> list[HydratedAction[GameAction, StateT, ConfigT]]:
        """Every concrete legal action for ``player_id``, each with a fresh id."""
        return [
            candidate.model_copy(update={"id": self.next_id()})
            for candidate in self.engine.legal_actions(self.state, player_id, self.game)
        ]
