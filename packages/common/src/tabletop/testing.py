"""Test harness: fixed-id games, started states, contexts and actions for unit tests.

Example:
    >>> from tabletop.testing import GameHarness
    >>> harness = GameHarness.for_game("sample", players=2, seed=42)
    >>> harness.state.action_count
    0
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from tabletop import games
from tabletop._action import GameAction
from tabletop._definition import GameDefinition
from tabletop._determinism import describe_divergence, record_playout
from tabletop._engine import GameEngine, RunResult
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, ChanceOutcomes, ChanceResolver, HydratedAction, MachineContext
from tabletop._parser import RawAction
from tabletop._prng import Unkeyed
from tabletop._seating import seated_game

__all__ = ["TEST_PRNG_KEY", "ForcedChance", "GameHarness", "assert_deterministic", "make_game"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)
ActionT = TypeVar("ActionT", bound=GameAction)

TEST_PRNG_KEY = "7e57" * 8
"""The fixed, public PRNG key :class:`GameHarness` starts a keyed game with by default.

Tests then run the keyed stream a host runs, and stay reproducible. Never use it to host a game.
"""


def make_game(
    definition: GameDefinition[StateT, ConfigT],
    *,
    players: int | None = None,
    seed: int = 42,
    config: ConfigT | None = None,
    game_id: str = "game-1",
) -> Game[ConfigT]:
    """A game with fixed ids: players ``p1``..``pN`` named ``Player 1``..``Player N``.

    ``players`` defaults to 2, or the game's minimum if it needs more (:func:`default_seats`).

    The game holds no key: pass one when starting it (``engine.start(game, prng_key=...)``).

    Raises:
        IllegalActionError: ``players`` is outside the game's range (code ``invalid-game``, as
            :meth:`GameEngine.start` raises for such a game).
    """
    seats = _default_seats(definition) if players is None else players
    return seated_game(definition, players=seats, seed=seed, config=config, game_id=game_id)


def _default_seats(definition: GameDefinition[StateT, ConfigT]) -> int:
    """The seat count tests use unless told: 2, within the game's range (e.g. 3 for a 3-5 player game)."""
    return min(max(2, definition.min_players), definition.max_players)


class ForcedChance:
    """A :data:`tabletop.ChanceResolver` that decides chance points with scripted outcomes, in order.

    Pass it as ``chance=`` to :meth:`tabletop.GameEngine.start`, :meth:`~tabletop.GameEngine.run`
    or :class:`GameHarness`. Each chance point met takes the next outcome; one that is not
    possible there is refused with ``impossible-chance-outcome`` (nothing changes).

    Example:
        ``harness = GameHarness(definition, chance=ForcedChance([6, 1]))``: the next two dice
        come up 6, then 1.

    Raises:
        LookupError: (when called) a chance point is met after the script ran out.
    """

    def __init__(self, outcomes: Iterable[object]) -> None:
        self.remaining: list[object] = list(outcomes)
        """The outcomes not used yet, next first."""

    def __call__(
        self, action: HydratedAction[GameAction, AnyState, GameConfig], outcomes: ChanceOutcomes
    ) -> object:
        """The next scripted outcome for ``action`` (checked by the engine against ``outcomes``)."""
        if not self.remaining:
            msg = f"no forced outcome left for {action.type}"
            raise LookupError(msg)
        return self.remaining.pop(0)


class GameHarness(Generic[StateT, ConfigT]):
    """One game under test: its definition, engine, game and current state.

    ``state`` advances as actions are played through :meth:`play`; handlers, actions and
    components can also be exercised directly on :meth:`context`.

    A game that needs a PRNG key (:attr:`GameDefinition.requires_prng_key`) is started with
    ``prng_key`` (default :data:`TEST_PRNG_KEY`, so tests stay reproducible on the keyed
    stream a host runs); pass ``prng_key=tabletop.UNKEYED`` to replay from the seed alone.
    ``harness.prng_key`` is the key used (None: unkeyed). ``chance`` (e.g. a
    :class:`ForcedChance`) decides the chance points of the start and of every action played
    (``harness.chance`` may be replaced between plays; None: the state's PRNG draws them).
    """

    def __init__(
        self,
        definition: GameDefinition[StateT, ConfigT],
        *,
        players: int | None = None,
        seed: int = 42,
        config: ConfigT | None = None,
        prng_key: str | Unkeyed | None = None,
        chance: ChanceResolver | None = None,
    ) -> None:
        self.definition = definition
        self.chance = chance
        """Who decides chance points' outcomes (None: the state's PRNG)."""
        self.engine = GameEngine(definition)
        self.game = make_game(definition, players=players, seed=seed, config=config)
        if prng_key is None and definition.requires_prng_key:
            prng_key = TEST_PRNG_KEY
        started = self.engine.start(self.game, prng_key=prng_key, chance=chance)
        self.state: StateT = started.state
        self.prng_key: str | None = self.state.prng.key
        """The key the game was started with (None: unkeyed)."""
        self.log: list[HydratedAction[GameAction, StateT, ConfigT]] = list(started.actions)
        """Every recorded action, in order, each with its ``index``: the system actions the start
        recorded (a first roll at index 0), then those of :meth:`play` and :meth:`run`, system
        actions included (typed access: :meth:`recorded`, :meth:`last`)."""
        self._next_id = 0

    @classmethod
    def for_game(
        cls,
        name: str,
        *,
        players: int | None = None,
        seed: int = 42,
        config: GameConfig | None = None,
        prng_key: str | Unkeyed | None = None,
        chance: ChanceResolver | None = None,
    ) -> GameHarness[AnyState, GameConfig]:
        """A harness over an installed game, found through its entry point."""
        return GameHarness(
            games.load(name), players=players, seed=seed, config=config, prng_key=prng_key, chance=chance
        )

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

    def recorded(self, action_type: type[ActionT]) -> list[ActionT]:
        """The recorded actions of ``action_type``, in order, typed (with their ``metadata``).

        Example:
            ``harness.recorded(HydratedAsk)[-1].metadata.go_fish``
        """
        return [action for action in self.log if isinstance(action, action_type)]

    def last(self, action_type: type[ActionT]) -> ActionT:
        """The last recorded action of ``action_type``, typed (with its ``metadata``).

        Raises:
            LookupError: No action of that type was recorded.
        """
        found = self.recorded(action_type)
        if not found:
            msg = f"no {action_type.__name__} was recorded"
            raise LookupError(msg)
        return found[-1]

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
        result = self.engine.run(action, self.state, self.game, chance=self.chance)
        self.state = result.state
        self.log.extend(result.actions)
        return result

    def legal_actions(self, player_id: str) -> list[HydratedAction[GameAction, StateT, ConfigT]]:
        """Every concrete legal action for ``player_id``, each with a fresh id."""
        return [
            candidate.model_copy(update={"id": self.next_id()})
            for candidate in self.engine.legal_actions(self.state, player_id, self.game)
        ]


def assert_deterministic(
    definition: GameDefinition[StateT, ConfigT],
    *,
    players: int = 2,
    seed: int = 42,
    config: ConfigT | None = None,
    prng_key: str | Unkeyed | None = None,
    max_actions: int = 10_000,
) -> None:
    """Assert that the same seed, key and actions give byte-identical states, step by step.

    Random bots (seeded with ``seed``) play the game to its end twice, from the same seed and
    the same PRNG key, and every state (and every recorded action) of the two playouts must be
    byte-identical as JSON. It holds for any game: one with chance or hidden information plays
    both times with ``prng_key`` (default :data:`TEST_PRNG_KEY`; a fresh key per playout would
    make the games differ from the first draw, by design).

    Raises:
        AssertionError: The playouts differ: the message names the first step that differs,
            what differs there (the actions chosen or recorded, the state's JSON paths with both
            values) and the likely reason (randomness drawn outside ``ctx.prng``, set or dict
            order, the clock).

    Example:
        >>> from tabletop.games import load
        >>> assert_deterministic(load("pig"), players=2, seed=7)
    """
    if prng_key is None and definition.requires_prng_key:
        prng_key = TEST_PRNG_KEY
    runs = [
        record_playout(
            definition,  # type: ignore[arg-type]
            players=players,
            seed=seed,
            config=config,
            prng_key=prng_key,
            max_actions=max_actions,
        )
        for _ in range(2)
    ]
    problem = describe_divergence(*runs)
    if problem is not None:
        raise AssertionError(problem)
